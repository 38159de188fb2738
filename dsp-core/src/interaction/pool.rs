//! A pool of strikers on one object: impacts that overlap (a crumple's, a break's), each through the energy-consistent contact, all solved with the object's modes in one step.
//!
//! Each striker is a rigid mass with a few modes of its own (a fragment, a grain) flying at the
//! object's strike point. While one may touch within a sample, the sample is taken in
//! [`POOL_SUB_STEPS`] steps of length h. In each, a touching striker's force is AM1's discrete
//! gradient ([`solve_discrete_gradient`]) and the object moves under the sum S of the forces held
//! over the step: the object's strike point ends at w_free + c_o·S, so striker i's compression is
//! x₁ᵢ = x_base,i − c_o·S − cᵢ·Fᵢ, each Fᵢ(S) falls as S grows, and the step's S is the one root
//! of ΣFᵢ(S) = S (regula falsi on [0, ΣFᵢ(0)]). Each contact's energy identity holds as in the
//! hammer's AM1 step, ΔTᵢ + ΔE_striker,i + ΔVᵢ = −Fᵢ·Δ(yᵢ + w_s,i) + Fᵢ·Δxᵢ − Dᵢ, and the object
//! gains S·Δw_o − D_o; with S = ΣFᵢ they sum to −ΣDᵢ − D_o ≤ 0: the pool is as passive as one
//! contact, however many overlap. A striker that has flown off rings on by itself until it is
//! quiet; a new event takes an idle striker, or the one ringing quietest (its tail is cut, never
//! a flight or a contact), or is refused when all are in flight.

use super::discrete_gradient::{potential_j, solve_discrete_gradient, DiscreteGradient};
use super::{ContactSetup, MIN_STEPS_PER_CONTACT};
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::resonator::{FragmentModes, ModalBank, Mode, Pickup, Slot, Surface};
use crate::restitution::mu_for_restitution;

/// Strikers a pool holds: events in flight at once.
pub const POOL_STRIKERS: usize = 16;
/// Steps a sample is taken in while a striker may touch the object, unless every contact in
/// flight lasts [`MIN_STEPS_PER_CONTACT`] samples or more (then one step a sample, as a hammer's
/// long contact).
pub const POOL_SUB_STEPS: usize = 8;
/// The longest a striker flies without touching before it is taken away, s (one thrown at a
/// receding object, or too slowly to arrive).
const MAX_FLIGHT_S: f64 = 0.01;
/// A striker ringing by itself is quiet once its vibration holds less than this share of the
/// energy it was launched with.
const QUIET_SHARE: f64 = 1e-10;
/// Relative tolerance of the step's total force, and the most regula falsi iterations.
const SUM_TOLERANCE: f64 = 1e-13;
const MAX_SUM_ITERATIONS: usize = 100;
/// The most joint Newton iterations on the touching strikers' forces before the step falls back
/// to regula falsi, and the largest step (over each force) that ends them: Newton's error after
/// a step s is about κ·s², so 1e-8 leaves an error near 1e-16.
const MAX_JOINT_ITERATIONS: usize = 12;
const JOINT_STEP_TOLERANCE: f64 = 1e-8;

/// One event as the pool strikes it.
#[derive(Clone, Copy, Debug)]
pub struct PoolStrike<'a> {
    /// Closing speed towards the object's surface, m/s (> 0).
    pub v_in_m_per_s: f64,
    /// Its rigid mass at the contact point, and the modal mass of its modes (a rod struck at its
    /// end has a quarter of its mass there), kg.
    pub mass_kg: f64,
    pub modal_mass_kg: f64,
    /// Distance from the object's surface it starts at, m: its arrival falls that far into the
    /// sample about to be taken.
    pub gap_m: f64,
    /// The contact's stiffness k (N/m^α) and shape α; its damping restitutes `restitution` at
    /// this striker's speed (eq. 6 inverted).
    pub stiffness: f64,
    pub alpha: f64,
    pub restitution: f64,
    /// The striker's own modes (its lowest [`crate::resonator::FRAGMENT_MODES`] below Nyquist are kept), their
    /// modal mass its mass.
    pub modes: &'a [Mode],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Flying,
    Ringing,
}

/// One striker of the pool and its step's working values.
struct PoolStriker {
    phase: Phase,
    mass_kg: f64,
    position_m: f64,
    velocity_m_per_s: f64,
    force_n: f64,
    setup: ContactSetup,
    bank: FragmentModes,
    surface: Surface,
    launch_energy_j: f64,
    /// Its contact lasts [`MIN_STEPS_PER_CONTACT`] samples or more ([`elastic_contact_floor_s`]).
    long_contact: bool,
    /// Samples since its launch, and whether it has touched the object.
    flight_samples: u32,
    touched: bool,
    /// This step: the compression at its start, the compression with no force, the striker's
    /// own compliance (rigid mass and modes), whether it may touch.
    x0_m: f64,
    x_base_m: f64,
    compliance_m_per_n: f64,
    touching: bool,
    /// This step's discrete gradient Φ(x₁) (while it touches), its force as solved, and the
    /// joint Newton's rᵢ/dᵢ and uᵢ/dᵢ (see [`StrikerPool::joint_newton`]).
    gradient: DiscreteGradient,
    step_force_n: f64,
    r_over_d: f64,
    u_over_d: f64,
}

impl PoolStriker {
    fn new() -> Self {
        let setup = ContactSetup::hunt_crossley(
            HuntCrossley {
                stiffness: 1e6,
                mu_s_per_m: 0.0,
                alpha: 1.5,
            },
            Method::Am1,
        );
        Self {
            phase: Phase::Idle,
            mass_kg: 1.0,
            position_m: 0.0,
            velocity_m_per_s: 0.0,
            force_n: 0.0,
            setup,
            bank: FragmentModes::default(),
            surface: Surface::default(),
            launch_energy_j: 0.0,
            long_contact: false,
            flight_samples: 0,
            touched: false,
            x0_m: 0.0,
            x_base_m: 0.0,
            compliance_m_per_n: 0.0,
            touching: false,
            gradient: DiscreteGradient::new(&setup, 0.0, 0.0, 0.0, 1.0),
            step_force_n: 0.0,
            r_over_d: 0.0,
            u_over_d: 0.0,
        }
    }

    /// Kinetic energy of its rigid motion, J.
    fn kinetic_j(&self) -> f64 {
        0.5 * self.mass_kg * self.velocity_m_per_s * self.velocity_m_per_s
    }

    /// Compression against the object's strike point at `object_m`, m.
    fn compression_m(&self, object_m: f64) -> f64 {
        self.position_m + self.surface.displacement_m - object_m
    }

    /// The force of this step were the object to take `sum_n` in all.
    fn force_at(&self, sum_n: f64, object_compliance: f64, h: f64) -> f64 {
        if !self.touching {
            return 0.0;
        }
        let x_base = self.x_base_m - object_compliance * sum_n;
        let c = self.compliance_m_per_n;
        solve_discrete_gradient(&self.setup, self.x0_m, x_base, c, h, self.force_n).0
    }

    /// Take the step of length `h` (a sub-step or a whole sample) under `force_n` (trapezoid rule
    /// for the rigid mass, the modes exact under the reaction held).
    fn advance(&mut self, force_n: f64, h: f64, sub_step: bool) {
        let m = self.mass_kg;
        self.position_m += h * self.velocity_m_per_s - h * h / (2.0 * m) * force_n;
        self.velocity_m_per_s -= h * force_n / m;
        self.surface = self.bank.advance(sub_step, -force_n);
        self.force_n = force_n;
        self.touched |= force_n > 0.0;
    }
}

/// A floor under the length of an elastic contact k·x^α of a mass `mass_kg` arriving at
/// `v_in_m_per_s`, s: it lasts 2·I·x_max/v_in with x_max = ((α + 1)·m·v_in²/(2k))^(1/(α+1)) and
/// I = ∫₀¹ dz/√(1 − z^(α+1)) ≥ 1 (π/2 at α = 1), so 2·x_max/v_in. Damping and compliance in
/// series only lengthen it.
fn elastic_contact_floor_s(stiffness: f64, alpha: f64, mass_kg: f64, v_in_m_per_s: f64) -> f64 {
    let q = alpha + 1.0;
    let x_max_m = (q * mass_kg * v_in_m_per_s * v_in_m_per_s / (2.0 * stiffness)).powf(1.0 / q);
    2.0 * x_max_m / v_in_m_per_s
}

/// The strikers in flight that may touch the object this step.
fn touching(strikers: &mut [PoolStriker]) -> impl Iterator<Item = &mut PoolStriker> {
    strikers
        .iter_mut()
        .filter(|s| s.phase == Phase::Flying && s.touching)
}

/// Strikers flying at one object, their contacts solved together (allocated once; nothing on
/// the audio path allocates).
pub struct StrikerPool {
    strikers: Vec<PoolStriker>,
    /// The length of a sub-step the object's and the strikers' sub-step transitions are for, s.
    sub_dt_s: f64,
    /// What the strikers' own ringing adds to the object's at the pickups.
    striker_level: f64,
    /// The striker's μ·v_in for the last restitution met (eq. 6 inverted depends on e alone).
    restituted: (f64, f64),
    /// Energy the launches put in, and energy the strikers took away as they flew off, J.
    energy_in_j: f64,
    energy_out_j: f64,
    /// The largest pickup gain per √(2E) of any striker launched since the start: its pickups'
    /// Σ|gain| over √(modal mass), at its level (each mode's velocity is at most √(2E/M)).
    most_heard: f64,
    /// Events struck, and refused because every striker was in flight.
    pub launched: u64,
    pub refused: u64,
}

impl Default for StrikerPool {
    fn default() -> Self {
        Self::new()
    }
}

impl StrikerPool {
    pub fn new() -> Self {
        Self {
            strikers: (0..POOL_STRIKERS).map(|_| PoolStriker::new()).collect(),
            sub_dt_s: f64::NAN,
            striker_level: 1.0,
            restituted: (f64::NAN, f64::NAN),
            energy_in_j: 0.0,
            energy_out_j: 0.0,
            most_heard: 0.0,
            launched: 0,
            refused: 0,
        }
    }

    /// Start afresh on `bank` at samples of `dt_s`: every striker idle, the object's sub-step
    /// transition prepared (the pool owns [`Slot::Sub`] of the bank while it plays), the
    /// strikers heard at `striker_level`.
    pub fn start(&mut self, bank: &mut ModalBank, dt_s: f64, striker_level: f64) {
        self.sub_dt_s = dt_s / POOL_SUB_STEPS as f64;
        bank.prepare(Slot::Sub, self.sub_dt_s);
        for striker in &mut self.strikers {
            striker.phase = Phase::Idle;
        }
        self.striker_level = striker_level.max(0.0);
        self.energy_in_j = 0.0;
        self.energy_out_j = 0.0;
        self.most_heard = 0.0;
        self.launched = 0;
        self.refused = 0;
    }

    /// Strike `strike` at the object in `bank`, sampled at `sample_rate_hz`; false when every
    /// striker is in flight (the event is refused and counted).
    pub fn strike(
        &mut self,
        bank: &ModalBank,
        strike: &PoolStrike<'_>,
        sample_rate_hz: f64,
    ) -> bool {
        let Some(slot) = self.free_slot() else {
            self.refused += 1;
            return false;
        };
        let (mu_v_in, sub_dt_s) = (self.mu_v_in(strike.restitution), self.sub_dt_s);
        let striker = &mut self.strikers[slot];
        if striker.phase == Phase::Ringing {
            self.energy_out_j += striker.bank.energy_j();
        }
        let v_in = strike.v_in_m_per_s.max(1e-9);
        striker.mass_kg = strike.mass_kg;
        let (modes, modal_mass_kg) = (strike.modes, strike.modal_mass_kg);
        striker
            .bank
            .set(modes, modal_mass_kg, sample_rate_hz, sub_dt_s);
        striker.surface = Surface::default();
        let heard =
            self.striker_level * striker.bank.pickup_abs_sum() / striker.bank.mass_kg().sqrt();
        self.most_heard = self.most_heard.max(heard);
        striker.setup.law = HuntCrossley {
            stiffness: strike.stiffness,
            mu_s_per_m: mu_v_in / v_in,
            alpha: strike.alpha,
        };
        striker.position_m = bank.strike_displacement_m() - strike.gap_m.max(0.0);
        striker.velocity_m_per_s = v_in + bank.strike_velocity_m_per_s();
        striker.force_n = 0.0;
        striker.flight_samples = 0;
        striker.touched = false;
        striker.phase = Phase::Flying;
        striker.launch_energy_j = striker.kinetic_j();
        let reduced_kg = strike.mass_kg * bank.mass_kg() / (strike.mass_kg + bank.mass_kg());
        let floor_s = elastic_contact_floor_s(strike.stiffness, strike.alpha, reduced_kg, v_in);
        let dt_s = sub_dt_s * POOL_SUB_STEPS as f64;
        striker.long_contact = floor_s >= MIN_STEPS_PER_CONTACT * dt_s;
        self.energy_in_j += striker.launch_energy_j;
        self.launched += 1;
        true
    }

    /// An idle striker, or else the one ringing quietest; none when all are in flight.
    fn free_slot(&self) -> Option<usize> {
        if let Some(idle) = self.strikers.iter().position(|s| s.phase == Phase::Idle) {
            return Some(idle);
        }
        self.strikers
            .iter()
            .enumerate()
            .filter(|(_, s)| s.phase == Phase::Ringing)
            .min_by(|(_, a), (_, b)| a.bank.energy_j().total_cmp(&b.bank.energy_j()))
            .map(|(i, _)| i)
    }

    /// μ·v_in restituting `e` (eq. 6 inverted), kept for the last e met.
    fn mu_v_in(&mut self, e: f64) -> f64 {
        if e != self.restituted.0 {
            self.restituted = (e, mu_for_restitution(e, 1.0));
        }
        self.restituted.1
    }

    /// Every striker idle at once (a choke): what they held is gone.
    pub fn silence(&mut self) {
        for striker in &mut self.strikers {
            striker.phase = Phase::Idle;
        }
    }

    /// The most the strikers' own ringing can add to either pickup per √(2E) of the energy E
    /// they hold, Pa/√J: with Eᵢ in striker i and aᵢ its pressure per √(2Eᵢ),
    /// Σaᵢ·√(2Eᵢ) ≤ √(Σaᵢ²)·√(2·ΣEᵢ) (Cauchy–Schwarz), and √(Σaᵢ²) ≤ √16·max aᵢ over the
    /// strikers launched (as [`ModalBank::pickup_abs_sum`] over √M bounds a bank's).
    pub fn pickup_per_sqrt_j(&self) -> f64 {
        (POOL_STRIKERS as f64).sqrt() * self.most_heard
    }

    /// Energy the launches put in since the start, J.
    pub fn energy_in_j(&self) -> f64 {
        self.energy_in_j
    }

    /// Whether a striker is in flight.
    pub fn is_flying(&self) -> bool {
        self.strikers.iter().any(|s| s.phase == Phase::Flying)
    }

    /// Whether any striker flies or rings.
    pub fn is_active(&self) -> bool {
        self.strikers.iter().any(|s| s.phase != Phase::Idle)
    }

    /// Energy the launches put in minus what the strikers took away as they flew off or were
    /// cut, J: what the object, the strikers and their contacts may hold at most.
    pub fn net_energy_in_j(&self) -> f64 {
        self.energy_in_j - self.energy_out_j
    }

    /// The energy the strikers hold (rigid motion of those in flight, their vibration, their
    /// contacts' potential) against the object in `bank`, J.
    pub fn energy_j(&self, bank: &ModalBank) -> f64 {
        let object_m = bank.strike_displacement_m();
        self.strikers
            .iter()
            .map(|s| match s.phase {
                Phase::Idle => 0.0,
                Phase::Ringing => s.bank.energy_j(),
                Phase::Flying => {
                    s.kinetic_j()
                        + s.bank.energy_j()
                        + potential_j(&s.setup.law, s.compression_m(object_m))
                }
            })
            .sum()
    }

    /// Advance the object in `bank` and every striker by one sample of `dt_s` (the length
    /// [`StrikerPool::start`] was given): what the pickups hear.
    pub fn process_sample(&mut self, bank: &mut ModalBank, dt_s: f64) -> Pickup {
        let mut pickup = if self.may_touch(bank, dt_s) {
            self.contact_sample(bank, dt_s)
        } else {
            self.free_sample(bank, dt_s)
        };
        for striker in &mut self.strikers {
            if striker.phase == Phase::Ringing {
                let own = striker.bank.ring();
                pickup.mid_pa += self.striker_level * own.mid_pa;
                pickup.side_pa += self.striker_level * own.side_pa;
            }
        }
        self.retire(bank);
        pickup
    }

    /// Whether a striker in flight may touch the object within the next sample: compressed at
    /// its start or, with nothing touching, at its end.
    fn may_touch(&self, bank: &ModalBank, dt_s: f64) -> bool {
        if !self.is_flying() {
            return false;
        }
        let object_now = bank.strike_displacement_m();
        let object_end = bank.predict_free(Slot::Full);
        self.strikers
            .iter()
            .filter(|s| s.phase == Phase::Flying)
            .any(|s| {
                let end = s.position_m + dt_s * s.velocity_m_per_s + s.bank.predict_free(false);
                s.compression_m(object_now) > 0.0 || end - object_end > 0.0
            })
    }

    /// A sample with nothing touching: the object and the strikers in flight ring freely, and
    /// those fly on.
    fn free_sample(&mut self, bank: &mut ModalBank, dt_s: f64) -> Pickup {
        let mut pickup = bank.ring();
        for striker in self
            .strikers
            .iter_mut()
            .filter(|s| s.phase == Phase::Flying)
        {
            striker.position_m += dt_s * striker.velocity_m_per_s;
            striker.force_n = 0.0;
            let own = striker.bank.ring();
            striker.surface.displacement_m = striker.bank.strike_displacement_m();
            pickup.mid_pa += self.striker_level * own.mid_pa;
            pickup.side_pa += self.striker_level * own.side_pa;
        }
        pickup
    }

    /// A sample in [`POOL_SUB_STEPS`] contact steps, or in one when every contact in flight is
    /// long.
    fn contact_sample(&mut self, bank: &mut ModalBank, dt_s: f64) -> Pickup {
        let long = self
            .strikers
            .iter()
            .all(|s| s.phase != Phase::Flying || s.long_contact);
        let (slot, steps) = if long {
            (Slot::Full, 1)
        } else {
            // A retune or a change of decay since the last contact sample dropped the object's
            // sub-step transition (as a hammer's contact prepares its own at each onset);
            // nothing if it is still the one prepared.
            bank.prepare(Slot::Sub, self.sub_dt_s);
            (Slot::Sub, POOL_SUB_STEPS)
        };
        let h = dt_s / steps as f64;
        let mut object = bank.surface();
        for _ in 0..steps {
            object = self.contact_step(bank, object.displacement_m, h, slot);
        }
        let mut pickup = object.pickup;
        for striker in self.strikers.iter().filter(|s| s.phase == Phase::Flying) {
            pickup.mid_pa += self.striker_level * striker.surface.pickup.mid_pa;
            pickup.side_pa += self.striker_level * striker.surface.pickup.side_pa;
        }
        pickup
    }

    /// One contact step of length `h` (`slot`'s) from the object's strike point at `object_m`.
    fn contact_step(&mut self, bank: &mut ModalBank, object_m: f64, h: f64, slot: Slot) -> Surface {
        let sub_step = slot == Slot::Sub;
        let object_free = bank.predict_free(slot);
        let object_compliance = bank.compliance(slot).0;
        for s in self
            .strikers
            .iter_mut()
            .filter(|s| s.phase == Phase::Flying)
        {
            s.x0_m = s.compression_m(object_m);
            s.x_base_m =
                s.position_m + h * s.velocity_m_per_s + s.bank.predict_free(sub_step) - object_free;
            s.compliance_m_per_n = h * h / (2.0 * s.mass_kg) + s.bank.compliance_m_per_n(sub_step);
            s.touching = s.x0_m > 0.0 || s.x_base_m > 0.0;
            if s.touching {
                let c = s.compliance_m_per_n;
                s.gradient = DiscreteGradient::new(&s.setup, s.x0_m, s.x_base_m, c, h);
            }
            s.step_force_n = 0.0;
        }
        self.solve_forces(object_compliance, h);
        let mut total_n = 0.0;
        for s in self
            .strikers
            .iter_mut()
            .filter(|s| s.phase == Phase::Flying)
        {
            s.advance(s.step_force_n, h, sub_step);
            total_n += s.step_force_n;
        }
        bank.advance(slot, total_n)
    }

    /// Each touching striker's force this step, with S = ΣFᵢ: one alone solves its own contact
    /// against the object's compliance in series with its own; several by joint Newton, or else
    /// by regula falsi on the total force.
    fn solve_forces(&mut self, object_compliance: f64, h: f64) {
        match touching(&mut self.strikers).count() {
            0 => return,
            1 => {
                let Some(one) = touching(&mut self.strikers).next() else {
                    return;
                };
                let c = one.compliance_m_per_n + object_compliance;
                let (x0, x_base, guess) = (one.x0_m, one.x_base_m, one.force_n);
                one.step_force_n = solve_discrete_gradient(&one.setup, x0, x_base, c, h, guess).0;
                return;
            }
            _ => {}
        }
        if self.joint_newton(object_compliance) {
            return;
        }
        let sum_n = self.total_force_n(object_compliance, h);
        for s in touching(&mut self.strikers) {
            s.step_force_n = s.force_at(sum_n, object_compliance, h);
        }
    }

    /// Newton on the touching strikers' forces at once: rᵢ = Fᵢ − Φᵢ(x_base,i − c_o·ΣFⱼ − cᵢ·Fᵢ)
    /// has the Jacobian J = D + u·1ᵀ, dᵢ = 1 + cᵢ·Φᵢ′, uᵢ = c_o·Φᵢ′, which Sherman–Morrison solves
    /// in O(n): ΔF = −D⁻¹r + D⁻¹u·(1ᵀD⁻¹r)/(1 + 1ᵀD⁻¹u). From the last step's forces it settles
    /// in a few closed-form evaluations where regula falsi over nested solves took hundreds.
    /// False (the forces left unset) when a pivot is not positive or it does not settle.
    fn joint_newton(&mut self, object_compliance: f64) -> bool {
        let c_o = object_compliance;
        let mut sum_n = 0.0;
        for s in touching(&mut self.strikers) {
            s.step_force_n = s.force_n.max(0.0);
            sum_n += s.step_force_n;
        }
        for _ in 0..MAX_JOINT_ITERATIONS {
            let (mut r_sum, mut u_sum) = (0.0, 0.0);
            for s in touching(&mut self.strikers) {
                let x1 = s.x_base_m - c_o * sum_n - s.compliance_m_per_n * s.step_force_n;
                let (phi, slope) = s.gradient.phi(x1);
                let d = 1.0 + s.compliance_m_per_n * slope;
                if !(d > 0.0) {
                    return false;
                }
                (s.r_over_d, s.u_over_d) = ((s.step_force_n - phi) / d, c_o * slope / d);
                r_sum += s.r_over_d;
                u_sum += s.u_over_d;
            }
            if !(1.0 + u_sum > 0.0) {
                return false;
            }
            let shift = r_sum / (1.0 + u_sum);
            let (mut settled, mut next_sum) = (true, 0.0);
            for s in touching(&mut self.strikers) {
                let next = (s.step_force_n - s.r_over_d + s.u_over_d * shift).max(0.0);
                settled &= (next - s.step_force_n).abs() <= JOINT_STEP_TOLERANCE * next;
                s.step_force_n = next;
                next_sum += next;
            }
            sum_n = next_sum;
            if settled {
                return sum_n.is_finite();
            }
        }
        false
    }

    /// The step's total force S with several strikers touching, the root of ΣFᵢ(S) = S: Fᵢ(S)
    /// does not grow with S, so the root is one, in [0, ΣFᵢ(0)].
    fn total_force_n(&self, object_compliance: f64, h: f64) -> f64 {
        let sum_at = |sum_n: f64| -> f64 {
            self.strikers
                .iter()
                .filter(|s| s.phase == Phase::Flying)
                .map(|s| s.force_at(sum_n, object_compliance, h))
                .sum()
        };
        // Regula falsi (Illinois) on g(S) = ΣFᵢ(S) − S, g(0) ≥ 0 ≥ g(ΣFᵢ(0)).
        let (mut lo, mut hi) = (0.0, sum_at(0.0));
        let (mut g_lo, mut g_hi) = (hi, sum_at(hi) - hi);
        if !(hi > 0.0) || g_hi >= 0.0 {
            return hi.max(0.0);
        }
        let tolerance = SUM_TOLERANCE * hi;
        let mut side = 0i8;
        for _ in 0..MAX_SUM_ITERATIONS {
            let s = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
            let g = sum_at(s) - s;
            if g.abs() <= tolerance || hi - lo <= tolerance {
                return s;
            }
            if g > 0.0 {
                lo = s;
                g_lo = g;
                if side == 1 {
                    g_hi *= 0.5;
                }
                side = 1;
            } else {
                hi = s;
                g_hi = g;
                if side == -1 {
                    g_lo *= 0.5;
                }
                side = -1;
            }
        }
        0.5 * (lo + hi)
    }

    /// Strikers whose impact is over (out of contact after touching: an event is one impact,
    /// not the chatter of a heavy fragment on a light object that swings back into it), or that
    /// have flown off beyond the reach of both surfaces or too long without touching, ring on by
    /// themselves, their rigid motion's energy gone with them; strikers ringing quietly fall
    /// idle.
    fn retire(&mut self, bank: &ModalBank) {
        let max_flight = (MAX_FLIGHT_S / (self.sub_dt_s * POOL_SUB_STEPS as f64)) as u32;
        let mut object_reach_m = f64::NAN;
        for s in &mut self.strikers {
            match s.phase {
                Phase::Idle => {}
                Phase::Ringing => {
                    if s.bank.energy_j() < QUIET_SHARE * s.launch_energy_j {
                        self.energy_out_j += s.bank.energy_j();
                        s.phase = Phase::Idle;
                    }
                }
                Phase::Flying => {
                    s.flight_samples += 1;
                    if s.force_n > 0.0 {
                        continue;
                    }
                    // Flying away (no pull on it) beyond the farthest both surfaces can swing
                    // with the energy they hold: it never touches.
                    let gone = s.touched
                        || s.velocity_m_per_s <= 0.0 && {
                            if object_reach_m.is_nan() {
                                object_reach_m = bank.max_excursion_m();
                            }
                            s.position_m + object_reach_m + s.bank.max_excursion_m() < 0.0
                        };
                    if !gone && s.flight_samples < max_flight {
                        continue;
                    }
                    self.energy_out_j += s.kinetic_j();
                    s.phase = Phase::Ringing;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
