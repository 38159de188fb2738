//! Hertz spring with a linear damper, f = k·δⁿ + c·δ̇, separating at zero force (Poursina &
//! Nikravesh, "Optimal damping coefficient for a class of continuous contact models", Multibody
//! System Dynamics 50, 2020, eqs. 7, 8 and 20).

use super::{pow_exponent, ContactLaw};

/// Hertz contact with linear damping (restitution paper, eq. 7): f = k·δⁿ + c·δ̇ for δ > 0.
///
/// The bodies separate when the force reaches zero during restitution (eq. 20), so the force is
/// clamped at zero instead of turning tensile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HertzDamper {
    /// Stiffness k in N/mⁿ.
    pub stiffness: f64,
    /// Linear damping c in N·s/m.
    pub damping_n_s_per_m: f64,
    /// Hertz exponent n (3/2 for spheres).
    pub exponent: f64,
}

impl ContactLaw for HertzDamper {
    #[inline]
    fn force_n(&self, x_m: f64, v_m_per_s: f64) -> f64 {
        if x_m <= 0.0 {
            return 0.0;
        }
        (self.stiffness * pow_exponent(x_m, self.exponent) + self.damping_n_s_per_m * v_m_per_s)
            .max(0.0)
    }

    #[inline]
    fn force_and_partials(&self, x_m: f64, v_m_per_s: f64) -> (f64, f64, f64) {
        let f = self.force_n(x_m, v_m_per_s);
        if f <= 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let slope = self.exponent * self.stiffness * pow_exponent(x_m, self.exponent - 1.0);
        (f, slope, self.damping_n_s_per_m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separates_instead_of_pulling() {
        let law = HertzDamper {
            stiffness: 1e8,
            damping_n_s_per_m: 50.0,
            exponent: 1.5,
        };
        // k·δⁿ = 1e8·1e-6 = 100 N; c·δ̇ = −150 N: the sum would pull, so the force is zero.
        assert_eq!(law.force_n(1e-4, -3.0), 0.0);
        assert!((law.force_n(1e-4, 1.0) - 150.0).abs() < 1e-9);
        assert_eq!(law.force_n(-1e-4, 1.0), 0.0);
    }
}
