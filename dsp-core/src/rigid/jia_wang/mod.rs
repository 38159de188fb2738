//! Jia & Wang's single-point 3D frictional impact between two rigid bodies, solved on the normal impulse.
//
// The contact frame has z along the contact normal (the inward normal of body 1) and x, y in the
// tangent plane. A [`Problem`] is the inverse inertia matrix W at the contact (eq. 5), the
// pre-impact contact velocity v⁻ (eq. 2, v_z⁻ < 0 when approaching), the friction coefficient μ
// and Stronge's energetic coefficient of restitution e (§2.2). [`solve`] returns the total impulse
// I_r, the post-impact contact velocity v⁺ = v⁻ + W I_r (eq. 4) and the events the impact went
// through (c: end of compression, r: end of restitution, s: zero sliding velocity, l: sliding in
// an invariant direction, §6).
//
// Four methods share one closed-form back end (§6.2–6.3, `closed_form.rs`):
// - [`Method::Exact`]: adaptive RK4 on the hodograph ODE (eq. 31) to a tight tolerance, event
//   localisation by root finding, then the closed forms.
// - [`Method::Algorithm1Fixed`] / [`Method::Algorithm1Variable`]: the paper's Algorithm 1 with
//   Euler steps of fixed size or of the size of eq. 36.
// - [`Method::Brute`]: fixed-step RK4 on the impulse, the sliding velocity and the energy
//   together, no closed form before stick or resumed slip; an independent check.
//
// Solving allocates nothing and does not panic: events live in a fixed-size list and invalid
// input is an [`Error`].

mod algorithm1;
mod brute;
mod closed_form;
mod exact;
pub mod examples;
mod hodograph;
#[cfg(test)]
mod tests;

use glam::{DMat3, DVec3};

pub use hodograph::{Hodograph, InvariantDirection, InvariantDirections};

/// One impact: the inverse inertia at the contact, the approach velocity, friction and restitution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Problem {
    /// Inverse inertia matrix W at the contact in the contact frame (eq. 5), 1/kg; symmetric
    /// positive definite (Proposition 2).
    pub w: DMat3,
    /// Pre-impact contact velocity of body 1 relative to body 2 (eq. 2), m/s; v_z < 0.
    pub v_minus: DVec3,
    /// Coulomb friction coefficient μ ≥ 0.
    pub mu: f64,
    /// Stronge's energetic coefficient of restitution e ∈ [0, 1] (§2.2): the energy released in
    /// restitution is e² times the energy absorbed in compression.
    pub e: f64,
}

/// How to integrate the sliding velocity before a closed form takes over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Event-driven solution of §6: adaptive RK4 (step doubling, relative tolerance 1e-9) until
    /// the end of restitution or until the sliding velocity vanishes, then the closed forms.
    Exact,
    /// Algorithm 1 with Euler steps of a fixed normal impulse `step_n_s` (Table 1, "FS").
    Algorithm1Fixed { step_n_s: f64 },
    /// Algorithm 1 with the step of eq. 36 (Table 1, "VS"; the paper uses ε = 0.5, h1 = h2 = 0.01).
    /// `h1_m_per_s` is the hodograph arc length per step, `h2_rad` its turning angle per step.
    Algorithm1Variable {
        eps: f64,
        h1_m_per_s: f64,
        h2_rad: f64,
    },
    /// Fixed-step RK4 of the impulse, sliding velocity and energy (eqs. 11, 28, 31) with a normal
    /// impulse step `step_n_s`, shortened only near γ = 0 (to resolve the turning direction and
    /// walk into γ = 0).
    Brute { step_n_s: f64 },
}

/// Why an impact could not be solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Error {
    /// A number of the problem or method is NaN or infinite.
    NotFinite,
    /// W is not symmetric (relative asymmetry above 1e-9).
    NotSymmetric,
    /// W is not positive definite.
    NotPositiveDefinite,
    /// v_z⁻ ≥ 0: the bodies are not approaching.
    NotApproaching,
    /// μ < 0.
    NegativeFriction,
    /// e outside [0, 1].
    RestitutionOutOfRange,
    /// A step size or tolerance of the method is not positive.
    InvalidStep,
    /// The normal contact velocity stops increasing before the impact ends: the impact solution
    /// condition (18) fails and the paper's model does not terminate.
    NoTermination,
    /// The step budget (10⁷ iterations) ran out, or the exact solver's step fell below 10⁻⁴⁰ of
    /// the impulse scale.
    TooManySteps,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::NotFinite => "a number is NaN or infinite",
            Self::NotSymmetric => "W is not symmetric",
            Self::NotPositiveDefinite => "W is not positive definite",
            Self::NotApproaching => "v_z must be negative (the bodies must approach)",
            Self::NegativeFriction => "mu must be non-negative",
            Self::RestitutionOutOfRange => "e must lie in [0, 1]",
            Self::InvalidStep => "step sizes and tolerances must be positive",
            Self::NoTermination => {
                "the normal velocity stops increasing: the impact does not end (condition 18 fails)"
            }
            Self::TooManySteps => "the step budget ran out",
        })
    }
}

impl std::error::Error for Error {}

/// Most events an impact can have: c, r, s and l each happen at most once (§6).
pub const MAX_EVENTS: usize = 4;

/// One event: its letter (c, r, s, l of §6), the normal impulse at which it happened (N·s) and
/// the total impulse then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    pub name: char,
    pub iz_n_s: f64,
    pub impulse_n_s: DVec3,
}

/// The events of one impact in the order they happened, in a fixed-size list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Events {
    names: [u8; MAX_EVENTS],
    iz_n_s: [f64; MAX_EVENTS],
    impulse_n_s: [DVec3; MAX_EVENTS],
    len: usize,
}

impl Events {
    const EMPTY: Self = Self {
        names: [0; MAX_EVENTS],
        iz_n_s: [0.0; MAX_EVENTS],
        impulse_n_s: [DVec3::ZERO; MAX_EVENTS],
        len: 0,
    };

    /// Append an event; a fifth is ignored (each letter happens at most once).
    fn push(&mut self, name: u8, iz_n_s: f64, impulse_n_s: DVec3) {
        if let (Some(n), Some(i), Some(p)) = (
            self.names.get_mut(self.len),
            self.iz_n_s.get_mut(self.len),
            self.impulse_n_s.get_mut(self.len),
        ) {
            *n = name;
            *i = iz_n_s;
            *p = impulse_n_s;
            self.len += 1;
        }
    }

    /// The event sequence as in Fig. 9, e.g. "csr".
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.names.get(..self.len).unwrap_or(&[])).unwrap_or("")
    }

    /// The events in order.
    pub fn iter(&self) -> impl Iterator<Item = Event> + '_ {
        self.names
            .iter()
            .zip(&self.iz_n_s)
            .zip(&self.impulse_n_s)
            .take(self.len)
            .map(|((n, iz), p)| Event {
                name: char::from(*n),
                iz_n_s: *iz,
                impulse_n_s: *p,
            })
    }

    /// The normal impulse at the event named `name`, if it happened.
    pub fn iz_of(&self, name: char) -> Option<f64> {
        self.iter().find(|e| e.name == name).map(|e| e.iz_n_s)
    }
}

/// The outcome of one impact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// Total impulse I_r on body 1 (contact frame), N·s.
    pub impulse_n_s: DVec3,
    /// Post-impact contact velocity v⁺ = v⁻ + W I_r (eq. 4), m/s.
    pub v_plus_m_per_s: DVec3,
    /// The events in order (Fig. 9).
    pub events: Events,
    /// Integration steps taken before the closed form took over (Table 1's "#Iter.").
    pub iterations: usize,
}

impl Solution {
    /// The event sequence, e.g. "csr".
    pub fn sequence(&self) -> &str {
        self.events.as_str()
    }
}

/// One step of the impulse path, reported to the observer of [`solve_observed`]: the normal
/// impulse and the total impulse at its two ends. A closed-form stretch is one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    pub iz_from_n_s: f64,
    pub iz_to_n_s: f64,
    pub impulse_from_n_s: DVec3,
    pub impulse_to_n_s: DVec3,
}

impl Problem {
    /// A problem from W's rows (contact frame), v⁻, μ and e; not validated.
    pub fn from_rows(w_rows: [[f64; 3]; 3], v_minus: [f64; 3], mu: f64, e: f64) -> Self {
        Self {
            w: DMat3::from_cols_array_2d(&w_rows).transpose(),
            v_minus: DVec3::from_array(v_minus),
            mu,
            e,
        }
    }

    /// Check the input: finite, W symmetric positive definite, approaching, μ ≥ 0, e ∈ [0, 1].
    pub fn validate(&self) -> Result<(), Error> {
        let cols = self.w.to_cols_array();
        let finite = cols.iter().all(|x| x.is_finite())
            && self.v_minus.is_finite()
            && self.mu.is_finite()
            && self.e.is_finite();
        if !finite {
            return Err(Error::NotFinite);
        }
        let scale = cols.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let asym = (self.w - self.w.transpose()).to_cols_array();
        if asym.iter().any(|x| x.abs() > 1e-9 * scale) {
            return Err(Error::NotSymmetric);
        }
        // Sylvester's criterion on the leading minors, relative to the matrix's size.
        // W / scale keeps the minors representable for any size of W.
        let w = self.w * scale.recip();
        let m1 = w.x_axis.x;
        let m2 = w.x_axis.x * w.y_axis.y - w.x_axis.y * w.y_axis.x;
        let m3 = w.determinant();
        if !(m1 > 1e-12 && m2 > 1e-12 && m3 > 1e-12) {
            return Err(Error::NotPositiveDefinite);
        }
        if self.v_minus.z >= 0.0 {
            return Err(Error::NotApproaching);
        }
        if self.mu < 0.0 {
            return Err(Error::NegativeFriction);
        }
        if !(0.0..=1.0).contains(&self.e) {
            return Err(Error::RestitutionOutOfRange);
        }
        Ok(())
    }

    /// The frictionless total normal impulse −m v_z⁻ (1 + e) with m = 1/(ẑᵀWẑ) (§2.4), N·s: the
    /// scale of every impulse of this impact.
    pub fn frictionless_iz_n_s(&self) -> f64 {
        -self.v_minus.z * (1.0 + self.e) / self.w.z_axis.z
    }

    /// Kinetic energy change of the two bodies for a total impulse I: Iᵀ(v⁻ + v⁺)/2
    /// = ½(v⁺ᵀW⁻¹v⁺ − v⁻ᵀW⁻¹v⁻), J (the work of the impulse, eq. 4).
    pub fn energy_change_j(&self, impulse_n_s: DVec3) -> f64 {
        let v_plus = self.v_minus + self.w * impulse_n_s;
        0.5 * impulse_n_s.dot(self.v_minus + v_plus)
    }
}

impl Method {
    /// Steps, ε, h1 and h2 must be finite and positive (ε < 1, eq. 36).
    fn validate(&self) -> Result<(), Error> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        let valid = match *self {
            Self::Exact => true,
            Self::Algorithm1Fixed { step_n_s } | Self::Brute { step_n_s } => ok(step_n_s),
            Self::Algorithm1Variable {
                eps,
                h1_m_per_s,
                h2_rad,
            } => ok(eps) && eps < 1.0 && ok(h1_m_per_s) && ok(h2_rad),
        };
        if valid {
            Ok(())
        } else {
            Err(Error::InvalidStep)
        }
    }
}

/// Solve one impact (§6, Algorithm 1).
pub fn solve(problem: &Problem, method: Method) -> Result<Solution, Error> {
    solve_observed(problem, method, &mut |_| {})
}

/// [`solve`] with at most `max_steps` integration steps ([`Error::TooManySteps`] past them): a
/// bound on the work of one impact, for the audio thread.
pub fn solve_within(
    problem: &Problem,
    method: Method,
    max_steps: usize,
) -> Result<Solution, Error> {
    solve_budgeted(problem, method, max_steps, &mut |_| {})
}

/// Solve one impact and report every step of the impulse path to `observe` (e.g. to check that
/// each increment lies in the friction cone).
pub fn solve_observed(
    problem: &Problem,
    method: Method,
    observe: &mut dyn FnMut(&Step),
) -> Result<Solution, Error> {
    solve_budgeted(problem, method, closed_form::MAX_ITERATIONS, observe)
}

fn solve_budgeted(
    problem: &Problem,
    method: Method,
    max_steps: usize,
    observe: &mut dyn FnMut(&Step),
) -> Result<Solution, Error> {
    problem.validate()?;
    method.validate()?;
    let mut walk = closed_form::Walk::new(problem, observe);
    walk.budget = max_steps;
    match method {
        Method::Exact => exact::solve(&mut walk)?,
        Method::Algorithm1Fixed { step_n_s } => {
            algorithm1::solve(&mut walk, algorithm1::StepRule::Fixed(step_n_s))?
        }
        Method::Algorithm1Variable {
            eps,
            h1_m_per_s,
            h2_rad,
        } => algorithm1::solve(
            &mut walk,
            algorithm1::StepRule::Variable {
                eps,
                h1: h1_m_per_s,
                h2: h2_rad,
            },
        )?,
        Method::Brute { step_n_s } => brute::solve(&mut walk, step_n_s)?,
    }
    Ok(walk.finish(problem))
}
