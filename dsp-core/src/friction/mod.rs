//! Friction between two bodies: the elasto-plastic bristle law, solved implicitly with the bodies' responses, and the experiments that check it.

mod belt;
mod law;
mod roughness;
mod step;
#[cfg(test)]
mod tests;

pub use belt::{drag_step, steady_sliding, stick_slip, Belt, StickSlip};
pub use law::{FrictionLaw, MAX_BRISTLE_STIFFNESS, MIN_BRISTLE_STIFFNESS};
pub use roughness::{Roughness, MAX_ROUGHNESS_PER_SQRT_HZ, ROUGHNESS_BAND_HZ};
pub use step::{Bristle, FrictionStep, Slip, MAX_NEWTON_ITERATIONS};
