//! A break's plan: the stored energy released as a crack (a burst of events whose rate rises to the moment the object comes apart), then its fragments, each launched with a share of the rest and bouncing on the floor with its own restitution — streamed in time order, allocation-free, with a ledger that balances.
//!
//! The crack is a Poisson stream whose rate rises as λ(t) = λ₀·e^((t − T)/τ) up to the break at
//! T, drawn by time rescaling in closed form: from t₀ with a unit exponential draw b, the next
//! event falls where Λ(t) − Λ(t₀) = b, t = T + τ·ln(e^((t₀ − T)/τ) + b/(λ₀·τ)). Its energies
//! follow a power law ([`CRACK_ENERGY_EXPONENT`]), and it ends when its share of
//! the stored energy is spent (the last event takes what is left) or at T, the rest staying
//! stored. The object then comes apart into fragments whose masses follow a power law
//! n(m) ∝ m^(−β) (Oddershede, Dimon & Bohr, PRL 71, 3107 (1993): β depends on the object's
//! shape, not its material; shells β ≈ 1.35, Wittel et al., PRL 93, 035504 (2004)), scaled to
//! the object's mass. Each takes a share of the fragments' energy about its mass's, is launched
//! from the floor at a random angle within a few ms of the break, and bounces with its own
//! restitution: it lands at speed v after 2v/g in the air and leaves at e·v, so the fragments'
//! bounce sequences run unsynchronised (Warren & Verbrugge, JEP:HPP 10(5), 1984).

use super::{power_law_quantile, EnergyLaw, Event, StreamSettings};

/// Fragments a break makes at most (a pool's strikers).
pub const MAX_FRAGMENTS: usize = 16;
/// Impacts a fragment makes at most.
pub const MAX_IMPACTS: u32 = 24;
/// The crack's energy exponent: the middle of the range α ≈ 1.3–1.6 the acoustic emission of
/// crumpling sheets follows (Houle & Sethna, Phys. Rev. E 54, 1996), taken for a crack's too
/// (an assumption: no measurement of a breaking glass's emission was at hand).
pub const CRACK_ENERGY_EXPONENT: f64 = 1.5;
/// The crack's events span these shares of its budget (smallest, largest).
const CRACK_SHARES: (f64, f64) = (1e-3, 0.2);
/// The rate's rise: τ = T / CRACK_RISE, so it starts at e^(−3) ≈ 5 % of its peak.
const CRACK_RISE: f64 = 3.0;
/// The crack's events expected over the break are this many times what spends its budget, so
/// that it is spent before T most often, and at T the rate is at its peak.
const CRACK_OVERSUPPLY: f64 = 1.25;
/// The shortest crack, s.
const MIN_CRACK_S: f64 = 1e-4;
/// The smallest fragment, a share of the object's mass, before the masses are scaled to it.
const MIN_MASS_SHARE: f64 = 1e-4;
/// Fragments are launched within this after the break, s.
const LAUNCH_SPREAD_S: f64 = 3e-3;
/// A fragment's share of the energy goes as its mass times a weight uniform in 1 ± this.
const SHARE_SPREAD: f64 = 0.5;
/// The cosine of a fragment's launch from the vertical is uniform in [MIN_COS, 1] (a direction
/// uniform over the upper hemisphere has it uniform in [0, 1]; the flattest would slide away).
const MIN_COS: f64 = 0.2;
/// A fragment's restitution is the pair's times 1 − this times a uniform draw: a shard lands on an
/// edge or a face, and its spin takes part of what it keeps.
const RESTITUTION_SPREAD: f64 = 0.6;
/// A fragment landing slower than this no longer bounces, m/s.
const MIN_IMPACT_SPEED_M_PER_S: f64 = 0.05;

/// What breaks and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakSettings {
    /// The energy the object holds when it breaks, J.
    pub stored_j: f64,
    /// The share of it the crack releases (the rest launches the fragments).
    pub crack_share: f64,
    /// How long the crack takes to break the object, s.
    pub crack_s: f64,
    /// Fragments it breaks into, 1…[`MAX_FRAGMENTS`].
    pub fragments: usize,
    /// β of the fragments' masses, n(m) ∝ m^(−β).
    pub mass_exponent: f64,
    /// The object's mass, kg.
    pub mass_kg: f64,
    /// The fragments' restitution on the floor (the pair's), before each its own spread.
    pub restitution: f64,
    pub gravity_m_per_s2: f64,
}

impl BreakSettings {
    /// The settings, or the reason the first bad one is refused.
    pub fn checked(self) -> Result<Self, String> {
        let finite_positive = |value: f64, name: &str| {
            if value > 0.0 && value.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} must be positive and finite, not {value}"))
            }
        };
        finite_positive(self.stored_j, "the stored energy (J)")?;
        finite_positive(self.crack_s, "the crack's length (s)")?;
        finite_positive(self.mass_kg, "the object's mass (kg)")?;
        finite_positive(self.gravity_m_per_s2, "gravity (m/s²)")?;
        if !(0.0..=1.0).contains(&self.crack_share) {
            return Err(format!(
                "the crack's share must lie in [0, 1], not {}",
                self.crack_share
            ));
        }
        if !(1..=MAX_FRAGMENTS).contains(&self.fragments) {
            return Err(format!(
                "the fragments must number 1 to {MAX_FRAGMENTS}, not {}",
                self.fragments
            ));
        }
        if !(self.mass_exponent.is_finite() && (0.0..=4.0).contains(&self.mass_exponent)) {
            return Err(format!(
                "the fragments' mass exponent must lie in [0, 4], not {}",
                self.mass_exponent
            ));
        }
        if !(0.0..1.0).contains(&self.restitution) {
            return Err(format!(
                "the restitution must lie in [0, 1), not {}",
                self.restitution
            ));
        }
        Ok(self)
    }

    /// The settings with every value brought into its range (what a voice plays).
    pub fn clamped(self) -> Self {
        let positive = |value: f64, low: f64, high: f64| {
            if value.is_nan() {
                low
            } else {
                value.clamp(low, high)
            }
        };
        Self {
            stored_j: positive(self.stored_j, 1e-15, 1e6),
            crack_share: positive(self.crack_share, 0.0, 1.0),
            crack_s: positive(self.crack_s, MIN_CRACK_S, 60.0),
            fragments: self.fragments.clamp(1, MAX_FRAGMENTS),
            mass_exponent: positive(self.mass_exponent, 0.0, 4.0),
            mass_kg: positive(self.mass_kg, 1e-9, 1e6),
            restitution: positive(self.restitution, 0.0, 0.99),
            gravity_m_per_s2: positive(self.gravity_m_per_s2, 0.1, 1e3),
        }
    }
}

/// What gave in an event of a break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The crack, in the whole object.
    Crack,
    /// Fragment number `n` (from 0) landing on the floor.
    Fragment(usize),
}

/// One event of a break: its time, the energy it releases (a fragment's: its kinetic energy as
/// it lands) and the size of what gives (a fragment's: its linear size over the object's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakEvent {
    pub event: Event,
    pub piece: Piece,
}

/// One fragment: what it is, and where its bouncing is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fragment {
    pub mass_kg: f64,
    /// Its linear size over the object's, (m/M)^(1/3).
    pub size: f64,
    /// The kinetic energy it is launched with, J.
    pub launch_energy_j: f64,
    pub restitution: f64,
    /// Its impacts on the floor so far.
    pub impacts: u32,
    /// Its launch after the break, s, the cosine of its direction from the vertical, and its
    /// upward speed then, m/s.
    delay_s: f64,
    launch_cos: f64,
    launch_up_m_per_s: f64,
    /// When it next lands, s (infinite once it has stopped bouncing), and how fast, m/s.
    next_impact_s: f64,
    landing_m_per_s: f64,
}

impl Fragment {
    const NONE: Self = Self {
        mass_kg: 0.0,
        size: 0.0,
        launch_energy_j: 0.0,
        restitution: 0.0,
        impacts: 0,
        delay_s: 0.0,
        launch_cos: 0.0,
        launch_up_m_per_s: 0.0,
        next_impact_s: f64::INFINITY,
        landing_m_per_s: 0.0,
    };
}

/// Where the stored energy went: released (by the crack's events and the fragments' launches)
/// and still stored (the crack's budget unspent at the break), J.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ledger {
    pub stored_j: f64,
    pub released_j: f64,
    pub remaining_j: f64,
}

/// A break, streamed in time order (allocation-free).
pub struct BreakPlan {
    settings: BreakSettings,
    crack_rng: fastrand::Rng,
    /// The crack's stream: its law and sizes, its budget and what it has spent, J; its peak rate
    /// (per s) and rise (s); when its next event falls (s), and the break's time once known.
    crack: StreamSettings,
    crack_budget_j: f64,
    crack_spent_j: f64,
    peak_rate_per_s: f64,
    rise_s: f64,
    next_crack_s: f64,
    break_s: Option<f64>,
    fragments: [Fragment; MAX_FRAGMENTS],
    launched_j: f64,
}

impl BreakPlan {
    /// The break of `settings` (clamped) drawn from `seed`: the fragments are drawn now, the
    /// crack's events as they are taken.
    pub fn new(settings: BreakSettings, seed: u64) -> Self {
        let settings = settings.clamped();
        let crack_budget_j = settings.stored_j * settings.crack_share;
        let crack_law = EnergyLaw::PowerLaw {
            exponent: CRACK_ENERGY_EXPONENT,
            min_j: (crack_budget_j * CRACK_SHARES.0).max(1e-300),
            max_j: (crack_budget_j * CRACK_SHARES.1).max(2e-300),
        };
        let rise_s = settings.crack_s / CRACK_RISE;
        let expected = CRACK_OVERSUPPLY * crack_budget_j / crack_law.mean_j();
        let mut plan = Self {
            settings,
            crack_rng: fastrand::Rng::with_seed(seed),
            crack: StreamSettings {
                law: crack_law,
                whole_object_j: settings.stored_j,
            },
            crack_budget_j,
            crack_spent_j: 0.0,
            peak_rate_per_s: expected / (rise_s * (1.0 - (-CRACK_RISE).exp())),
            rise_s,
            next_crack_s: 0.0,
            break_s: None,
            fragments: [Fragment::NONE; MAX_FRAGMENTS],
            launched_j: 0.0,
        };
        plan.draw_fragments(seed);
        if crack_budget_j > 0.0 {
            plan.next_crack_s = plan.next_crack_after(0.0);
        } else {
            plan.launch(0.0);
        }
        plan
    }

    /// The fragments' masses, energies, launches and restitutions, from their own draws.
    fn draw_fragments(&mut self, seed: u64) {
        let s = self.settings;
        let mut rng = fastrand::Rng::with_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
        let fragments = &mut self.fragments[..s.fragments];
        for f in fragments.iter_mut() {
            f.mass_kg = power_law_quantile(s.mass_exponent, MIN_MASS_SHARE, 1.0, rng.f64());
            f.launch_energy_j = f.mass_kg * (1.0 + SHARE_SPREAD * (2.0 * rng.f64() - 1.0));
            f.delay_s = LAUNCH_SPREAD_S * rng.f64();
            f.restitution = s.restitution * (1.0 - RESTITUTION_SPREAD * rng.f64());
            f.launch_cos = MIN_COS + (1.0 - MIN_COS) * rng.f64();
        }
        let total_mass: f64 = fragments.iter().map(|f| f.mass_kg).sum();
        let total_weight: f64 = fragments.iter().map(|f| f.launch_energy_j).sum();
        let energy_j = s.stored_j - self.crack_budget_j;
        for f in fragments.iter_mut() {
            f.mass_kg *= s.mass_kg / total_mass;
            f.size = (f.mass_kg / s.mass_kg).cbrt();
            f.launch_energy_j *= energy_j / total_weight;
            f.launch_up_m_per_s = f.launch_cos * (2.0 * f.launch_energy_j / f.mass_kg).sqrt();
        }
    }

    /// The crack's next event after one at `t0_s`, s (infinite past the break).
    fn next_crack_after(&mut self, t0_s: f64) -> f64 {
        let draw = -(1.0 - self.crack_rng.f64()).ln();
        let (big_t, tau) = (self.settings.crack_s, self.rise_s);
        let at = ((t0_s - big_t) / tau).exp() + draw / (self.peak_rate_per_s * tau);
        if at < 1.0 {
            big_t + tau * at.ln()
        } else {
            f64::INFINITY
        }
    }

    /// The object comes apart at `break_s`: every fragment is launched.
    fn launch(&mut self, break_s: f64) {
        self.break_s = Some(break_s);
        let g = self.settings.gravity_m_per_s2;
        for f in &mut self.fragments[..self.settings.fragments] {
            self.launched_j += f.launch_energy_j;
            let v = f.launch_up_m_per_s;
            if v >= MIN_IMPACT_SPEED_M_PER_S {
                f.next_impact_s = break_s + f.delay_s + 2.0 * v / g;
                f.landing_m_per_s = v;
            }
        }
    }

    /// The break's next event if it falls before `end_s`.
    pub fn next_before(&mut self, end_s: f64) -> Option<BreakEvent> {
        if self.break_s.is_none() {
            if let Some(event) = self.next_crack_before(end_s) {
                return Some(event);
            }
            // Not broken yet: nothing more before `end_s`.
            self.break_s?;
        }
        self.next_impact_before(end_s)
    }

    /// The crack's next event before `end_s`; the break is made once the crack is over.
    fn next_crack_before(&mut self, end_s: f64) -> Option<BreakEvent> {
        let time_s = self.next_crack_s;
        if time_s.is_infinite() {
            self.launch(self.settings.crack_s);
            return None;
        }
        if !(time_s < end_s) {
            return None;
        }
        let left_j = self.crack_budget_j - self.crack_spent_j;
        let drawn_j = self.crack.law.energy_j(self.crack_rng.f64());
        let energy_j = drawn_j.min(left_j);
        self.crack_spent_j += energy_j;
        if energy_j == left_j {
            self.launch(time_s);
        } else {
            self.next_crack_s = self.next_crack_after(time_s);
        }
        Some(BreakEvent {
            event: Event {
                time_s,
                energy_j,
                size: self.crack.size(energy_j),
            },
            piece: Piece::Crack,
        })
    }

    /// The first fragment to land before `end_s`, and its next bounce.
    fn next_impact_before(&mut self, end_s: f64) -> Option<BreakEvent> {
        let g = self.settings.gravity_m_per_s2;
        let (index, f) = self.fragments[..self.settings.fragments]
            .iter_mut()
            .enumerate()
            .min_by(|a, b| a.1.next_impact_s.total_cmp(&b.1.next_impact_s))?;
        let time_s = f.next_impact_s;
        if !(time_s < end_s) {
            return None;
        }
        let v = f.landing_m_per_s;
        f.impacts += 1;
        let up = f.restitution * v;
        if up >= MIN_IMPACT_SPEED_M_PER_S && f.impacts < MAX_IMPACTS {
            f.next_impact_s = time_s + 2.0 * up / g;
            f.landing_m_per_s = up;
        } else {
            f.next_impact_s = f64::INFINITY;
        }
        Some(BreakEvent {
            event: Event {
                time_s,
                energy_j: 0.5 * f.mass_kg * v * v,
                size: f.size,
            },
            piece: Piece::Fragment(index),
        })
    }

    /// Whether every event has been taken.
    pub fn is_over(&self) -> bool {
        self.break_s.is_some()
            && self.fragments[..self.settings.fragments]
                .iter()
                .all(|f| f.next_impact_s.is_infinite())
    }

    /// The energy still to be heard, J: before the break, what is stored; then each fragment's
    /// kinetic energy as it next lands.
    pub fn energy_to_come_j(&self) -> f64 {
        if self.break_s.is_none() {
            return self.settings.stored_j - self.crack_spent_j;
        }
        self.fragments()
            .iter()
            .filter(|f| f.next_impact_s.is_finite())
            .map(|f| 0.5 * f.mass_kg * f.landing_m_per_s * f.landing_m_per_s)
            .sum()
    }

    /// The fragments (drawn at the start; their impacts counted as they are taken).
    pub fn fragments(&self) -> &[Fragment] {
        &self.fragments[..self.settings.fragments]
    }

    /// The settings as the plan plays them (clamped).
    pub fn settings(&self) -> &BreakSettings {
        &self.settings
    }

    /// Where the stored energy has gone so far.
    pub fn ledger(&self) -> Ledger {
        Ledger {
            stored_j: self.settings.stored_j,
            released_j: self.crack_spent_j + self.launched_j,
            remaining_j: if self.break_s.is_some() {
                self.crack_budget_j - self.crack_spent_j
            } else {
                self.settings.stored_j - self.crack_spent_j
            },
        }
    }
}
