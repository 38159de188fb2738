//! The impulse walk shared by all methods: energy and phase (eq. 11), events, and the closed forms of §6.2–6.3 along a straight impulse path.

use glam::{DVec2, DVec3};

use super::hodograph::{Hodograph, InvariantDirection};
use super::{Error, Events, Problem, Solution, Step};

/// Step budget of every method, unless a caller sets a smaller one ([`super::solve_within`]).
pub(super) const MAX_ITERATIONS: usize = 10_000_000;

/// The state of the impulse accumulation: normal impulse, impulse, contact energy, phase, events.
pub(super) struct Walk<'a> {
    pub hodo: Hodograph,
    pub v_z_minus_m_per_s: f64,
    pub e: f64,
    pub iz_n_s: f64,
    pub impulse_n_s: DVec3,
    /// Potential energy stored at the contact, E of eq. 11, J.
    pub energy_j: f64,
    pub compressing: bool,
    pub events: Events,
    pub iterations: usize,
    /// Integration steps allowed.
    pub budget: usize,
    observe: &'a mut dyn FnMut(&Step),
}

impl<'a> Walk<'a> {
    /// At I = 0 in compression with E = 0; B, d of eqs. 21–22 from the problem.
    pub fn new(problem: &Problem, observe: &'a mut dyn FnMut(&Step)) -> Self {
        Self {
            hodo: Hodograph::new(&problem.w, problem.v_minus, problem.mu),
            v_z_minus_m_per_s: problem.v_minus.z,
            e: problem.e,
            iz_n_s: 0.0,
            impulse_n_s: DVec3::ZERO,
            energy_j: 0.0,
            compressing: true,
            events: Events::EMPTY,
            iterations: 0,
            budget: MAX_ITERATIONS,
            observe,
        }
    }

    /// Normal contact velocity at an impulse: v_z = v_z⁻ + ẑᵀW I (eq. 10).
    pub fn v_z_at(&self, impulse_n_s: DVec3) -> f64 {
        self.v_z_minus_m_per_s + self.hodo.w_z.dot(impulse_n_s)
    }

    /// Count one integration step; `TooManySteps` past the budget.
    pub fn tick(&mut self) -> Result<(), Error> {
        self.iterations += 1;
        if self.iterations > self.budget {
            Err(Error::TooManySteps)
        } else {
            Ok(())
        }
    }

    /// Move the walk to a new point of the impulse path and report the step.
    pub fn move_to(&mut self, iz_n_s: f64, impulse_n_s: DVec3, energy_j: f64) {
        let step = Step {
            iz_from_n_s: self.iz_n_s,
            iz_to_n_s: iz_n_s,
            impulse_from_n_s: self.impulse_n_s,
            impulse_to_n_s: impulse_n_s,
        };
        (self.observe)(&step);
        self.iz_n_s = iz_n_s;
        self.impulse_n_s = impulse_n_s;
        self.energy_j = energy_j;
    }

    /// Record an event at the current point.
    pub fn mark(&mut self, name: u8) {
        self.events.push(name, self.iz_n_s, self.impulse_n_s);
    }

    /// End of compression at the current point: E_c is the current energy; restitution starts
    /// with e²E_c (§2.2 step 3, Algorithm 1 lines 10–13). Returns true if the impact also ends
    /// here (e = 0 or E_c = 0).
    pub fn end_compression(&mut self) -> bool {
        self.mark(b'c');
        self.compressing = false;
        self.energy_j *= self.e * self.e;
        if self.energy_j <= 0.0 {
            self.energy_j = 0.0;
            self.mark(b'r');
            true
        } else {
            false
        }
    }

    /// Follow a straight impulse path I' = σ for at most `span` of normal impulse (∞ allowed),
    /// tracking the phase; true once restitution has ended (the walk then sits at I_r).
    ///
    /// Along the path v_z = v₀ + kτ with k = ẑᵀWσ = 1/m_σ, so E = E₀ − v₀τ − kτ²/2: this is
    /// Φ₁ of eq. 41 (σ of eq. 38) and Φ₂ of eq. 46 (δ of eq. 44) written from the segment's start.
    /// Compression ends at τ = −v₀/k (§6.2 Case 1, ζ_c of §6.3). Restitution ends at the root of
    /// E = 0 where E is falling — the larger root of the concave quadratic, the only one beyond the
    /// segment's start (E > 0 there): τ = 2E₀/(v₀ + √(v₀² + 2kE₀)), the cancellation-free form.
    /// (§6.3 asks for "the smallest root greater than I_zc" when c ≺ l; the equation holds only
    /// for I_z ≥ I_zl, and its smaller root can lie in (I_zc, I_zl), so the root beyond I_zl is
    /// the right one.)
    pub fn linear(&mut self, sigma: DVec3, span: f64) -> Result<bool, Error> {
        let k = self.hodo.w_z.dot(sigma);
        let mut left = span;
        if self.compressing {
            let v0 = self.v_z_at(self.impulse_n_s);
            let tau_c = if v0 >= 0.0 {
                0.0
            } else if k > 0.0 {
                -v0 / k
            } else {
                f64::INFINITY
            };
            if !tau_c.is_finite() && !left.is_finite() {
                // A straight segment along which the approach never stops (condition 18 fails).
                return Err(Error::NoTermination);
            }
            if tau_c > left {
                self.advance(sigma, left, v0, k);
                return Ok(false);
            }
            self.advance(sigma, tau_c, v0, k);
            left -= tau_c;
            if self.end_compression() {
                return Ok(true);
            }
        }
        let v0 = self.v_z_at(self.impulse_n_s);
        let e0 = self.energy_j.max(0.0);
        let disc = v0 * v0 + 2.0 * k * e0;
        let denom = v0 + disc.max(0.0).sqrt();
        let tau_r = if e0 == 0.0 {
            0.0
        } else if disc >= 0.0 && denom > 0.0 {
            2.0 * e0 / denom
        } else {
            f64::INFINITY
        };
        if tau_r <= left {
            self.advance(sigma, tau_r, v0, k);
            self.energy_j = 0.0;
            self.mark(b'r');
            return Ok(true);
        }
        if !left.is_finite() {
            return Err(Error::NoTermination);
        }
        self.advance(sigma, left, v0, k);
        Ok(false)
    }

    /// Move by τ along I' = σ with v_z = v₀ + kτ, integrating E' = −v_z exactly (eq. 11).
    fn advance(&mut self, sigma: DVec3, tau: f64, v0: f64, k: f64) {
        let energy = self.energy_j - v0 * tau - 0.5 * k * tau * tau;
        self.move_to(self.iz_n_s + tau, self.impulse_n_s + tau * sigma, energy);
    }

    /// Event s at the current point (§6.2): stick along the line of sticking (σ of eq. 38, first
    /// line) if ‖B⁻¹d‖ ≤ μ, else slide in the unique centrifugal direction ŝ (eq. 38, second line,
    /// Corollary 6), to the end of the impact (eq. 39).
    pub fn after_s(&mut self) -> Result<(), Error> {
        self.mark(b's');
        let sigma = match self.hodo.centrifugal() {
            None => self.hodo.stick_rate(),
            Some(s) => self.hodo.slip_rate(s.direction),
        };
        self.linear(sigma, f64::INFINITY).map(|_| ())
    }

    /// Event l at the current point with sliding velocity γ_l on the invariant ray `ray` (§6.3):
    /// straight sliding with δ = ẑ − μ(x̂, ŷ)ĝ_l (eq. 44, printed "(x̂, γ̂)" read as (x̂, ŷ) as in
    /// eq. 29) until γ = 0 after ΔI_z = ‖g_l‖/(−λ) if λ < 0 (eq. 42); for λ ≥ 0 the sliding speed
    /// never falls, so event s never comes: ΔI_z = ∞ (the printed "0, otherwise" would put s at
    /// I_zl and send a centrifugal slide into lscr/clsr). Then §6.2 from s (eq. 47).
    pub fn after_l(&mut self, gamma_l: DVec2, ray: InvariantDirection) -> Result<(), Error> {
        self.mark(b'l');
        let delta = self.hodo.slip_rate(ray.direction);
        let to_s = if ray.lambda < 0.0 {
            gamma_l.dot(ray.direction).max(0.0) / -ray.lambda
        } else {
            f64::INFINITY
        };
        if self.linear(delta, to_s)? {
            return Ok(());
        }
        self.after_s()
    }

    /// The solution at the end of restitution: I_r, v⁺ = v⁻ + W I_r (eq. 4).
    pub fn finish(self, problem: &Problem) -> Solution {
        Solution {
            impulse_n_s: self.impulse_n_s,
            v_plus_m_per_s: problem.v_minus + problem.w * self.impulse_n_s,
            events: self.events,
            iterations: self.iterations,
        }
    }
}

/// The start of §6 for the closed-form methods: γ⁻ = 0 is event s at I_z = 0 (footnote 8); γ⁻ on
/// an invariant direction is event l at I_z = 0 (footnote 7). `None` if neither: integrate.
pub(super) fn start(walk: &mut Walk) -> Option<Result<(), Error>> {
    let gamma = walk.hodo.gamma_minus_m_per_s;
    let h = walk.hodo;
    let scale = h.mu * (h.b.x_axis.x + h.b.y_axis.y) + h.d.length();
    // A sliding speed at round-off level is no slip: its direction would be noise (and
    // normalising a subnormal vector gives NaN).
    let v_scale = gamma.length() + walk.v_z_minus_m_per_s.abs();
    if gamma.length() <= 1e-14 * v_scale {
        return Some(walk.after_s());
    }
    let dir = gamma.normalize();
    if h.invariance(dir).abs() <= 1e-12 * scale {
        let ray = InvariantDirection {
            direction: dir,
            lambda: dir.dot(h.velocity(dir)),
        };
        return Some(walk.after_l(gamma, ray));
    }
    None
}
