//! A body lying on the object loses its vibration through the contact into the object: the resistance its contact point sees.

use crate::contact::HuntCrossley;

/// The contact of a body resting on the object under its weight, linearised about the static
/// compression where k·x^α = W: a spring beside a dashpot, in series with the object.
#[derive(Clone, Copy, Debug)]
pub struct RestingContact {
    /// The slope of the law at the load, k_c = α·k^(1/α)·W^((α−1)/α), N/m.
    pub stiffness_n_per_m: f64,
    /// The contact's own damping at the load, N·s/m: Hunt–Crossley's term k·x^α·μ·v is μ·W·v.
    pub damping_n_s_per_m: f64,
}

impl RestingContact {
    /// The contact of `law` (its μ set aside for `mu_s_per_m`) under `weight_n` > 0.
    pub fn hunt_crossley(law: HuntCrossley, mu_s_per_m: f64, weight_n: f64) -> Self {
        let alpha = law.alpha;
        Self {
            stiffness_n_per_m: alpha
                * law.stiffness.powf(1.0 / alpha)
                * weight_n.powf((alpha - 1.0) / alpha),
            damping_n_s_per_m: mu_s_per_m * weight_n,
        }
    }

    /// The resistance (N·s/m) through which the resting body's vibration drains at its contact
    /// point, at angular frequency `omega_rad_per_s`: Re{Y₂}/|Y₁ + Y₂|², with Y₂ the mobility
    /// of the contact, 1/(c + k_c/(jω)), in series with the object's, `object_mobility_m_per_n_s`,
    /// and Y₁ = `body_mobility_m_per_n_s` the body's own at the point (both real mean values:
    /// [`crate::resonator::MeanMobility`]). The body's free velocity v at
    /// the point drives the junction through its own mobility: the force is v/(Y₁ + Y₂) and the
    /// power ½|v|²·Re{Y₂}/|Y₁ + Y₂|² (the coupling loss factor of a point junction in
    /// statistical energy analysis, η = Re{Y₂}/(ω·M₁·|Y₁ + Y₂|²): Lyon & DeJong, *Theory and
    /// Application of Statistical Energy Analysis*). A body far stiffer than the contact and the
    /// object (Y₁ → 0) sees their resistance Re{1/Y₂}; a body far more mobile than them is pinned
    /// there, and loses little.
    pub fn resistance_n_s_per_m(
        &self,
        omega_rad_per_s: f64,
        object_mobility_m_per_n_s: f64,
        body_mobility_m_per_n_s: f64,
    ) -> f64 {
        let c = self.damping_n_s_per_m;
        let reactance = self.stiffness_n_per_m / omega_rad_per_s;
        // 1/(c − j·k_c/ω) = (c + j·k_c/ω)/(c² + (k_c/ω)²).
        let norm = c * c + reactance * reactance;
        if !(norm > 0.0) {
            return 0.0;
        }
        let conductance = c / norm + object_mobility_m_per_n_s;
        let susceptance = reactance / norm;
        let total = conductance + body_mobility_m_per_n_s;
        let magnitude_sq = total * total + susceptance * susceptance;
        if magnitude_sq > 0.0 {
            conductance / magnitude_sq
        } else {
            0.0
        }
    }
}
