//! Contact laws: the force between two bodies as a function of compression and its velocity.

mod hertz_damper;
mod hunt_crossley;

pub use hertz_damper::HertzDamper;
pub use hunt_crossley::{pow_exponent, HuntCrossley};

/// The contact parameters' ranges: stiffness k (N/m^α), Hunt–Crossley μ (s/m) and the exponent α
/// the product offers and keeps every contact within.
pub const MIN_STIFFNESS: f64 = 1e2;
pub const MAX_STIFFNESS: f64 = 1e12;
pub const MAX_MU_S_PER_M: f64 = 50.0;
pub const MIN_ALPHA: f64 = 1.0;
pub const MAX_ALPHA: f64 = 3.0;

/// A contact law f(x, v): force in N (≥ 0, pushing the bodies apart) at compression `x` (m) and
/// compression velocity `v` (m/s). Zero for x ≤ 0.
pub trait ContactLaw {
    /// The force f(x, v).
    fn force_n(&self, x_m: f64, v_m_per_s: f64) -> f64;

    /// The force and its partial derivatives (f, ∂f/∂x, ∂f/∂v), for Newton's method on the
    /// delay-free loop of implicit schemes. Where the force is clamped to zero the partials are 0.
    fn force_and_partials(&self, x_m: f64, v_m_per_s: f64) -> (f64, f64, f64);
}
