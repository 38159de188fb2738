//! The Hunt–Crossley contact law f = k·x^α·(1 + μ·v) (Papetti et al., eq. 1).

use super::ContactLaw;

/// Hunt–Crossley impact force between a point mass and a surface (Papetti, Avanzini, Rocchesso,
/// "Numerical methods for a non-linear impact model", eq. 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HuntCrossley {
    /// Stiffness k in N/m^α.
    pub stiffness: f64,
    /// Dissipation μ = λ/k in s/m.
    pub mu_s_per_m: f64,
    /// Contact-shape exponent α (1.5 for Hertzian spheres).
    pub alpha: f64,
}

impl HuntCrossley {
    /// x^α for x ≥ 0. The common exponents (1, 3/2, 2, 5/2, 3; 3/2 is Hertz's sphere) use
    /// products and a square root, within an ulp of `powf` and several times faster; other
    /// exponents use `powf`.
    #[inline]
    pub fn x_pow_alpha(&self, x_m: f64) -> f64 {
        pow_exponent(x_m, self.alpha)
    }

    /// x^(α−1) for x > 0, with the same fast paths: x^α = x·x^(α−1) and its derivative
    /// α·x^(α−1) without a division.
    #[inline]
    pub fn x_pow_alpha_minus_one(&self, x_m: f64) -> f64 {
        pow_exponent(x_m, self.alpha - 1.0)
    }
}

/// x^a for x ≥ 0, with exact fast paths for a ∈ {0.5, 1, 1.5, 2, 2.5, 3} (and 1 for a = 0).
#[inline]
pub fn pow_exponent(x: f64, a: f64) -> f64 {
    if a == 1.5 {
        x * x.sqrt()
    } else if a == 0.5 {
        x.sqrt()
    } else if a == 0.0 {
        1.0
    } else if a == 1.0 {
        x
    } else if a == 2.0 {
        x * x
    } else if a == 2.5 {
        x * x * x.sqrt()
    } else if a == 3.0 {
        x * x * x
    } else {
        x.powf(a)
    }
}

impl ContactLaw for HuntCrossley {
    /// Eq. (1). Zero when the bodies are apart (x ≤ 0). The "sticky" region 1 + μ·v < 0, which an
    /// impact started from x = 0 never reaches in continuous time (Section II-A), is clamped to
    /// zero so a discretized contact can never pull.
    #[inline]
    fn force_n(&self, x_m: f64, v_m_per_s: f64) -> f64 {
        if x_m <= 0.0 {
            return 0.0;
        }
        let elastic = self.stiffness * self.x_pow_alpha(x_m);
        (elastic * (1.0 + self.mu_s_per_m * v_m_per_s)).max(0.0)
    }

    #[inline]
    fn force_and_partials(&self, x_m: f64, v_m_per_s: f64) -> (f64, f64, f64) {
        let damping = 1.0 + self.mu_s_per_m * v_m_per_s;
        if x_m <= 0.0 || damping <= 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let x_pow = self.x_pow_alpha(x_m);
        let elastic = self.stiffness * x_pow;
        (
            elastic * damping,
            self.alpha * elastic / x_m * damping,
            elastic * self.mu_s_per_m,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAW: HuntCrossley = HuntCrossley {
        stiffness: 1e9,
        mu_s_per_m: 0.5,
        alpha: 1.5,
    };

    #[test]
    fn zero_when_apart() {
        assert_eq!(LAW.force_n(0.0, 3.0), 0.0);
        assert_eq!(LAW.force_n(-1e-3, 3.0), 0.0);
    }

    #[test]
    fn matches_eq1_in_contact() {
        // k·x^α·(1 + μv) with x = 1e-4 m, v = 2 m/s: 1e9 · 1e-6 · 2 = 2000 N.
        let f = LAW.force_n(1e-4, 2.0);
        assert!((f - 2000.0).abs() < 1e-9 * 2000.0, "{f}");
    }

    #[test]
    fn never_pulls() {
        assert_eq!(LAW.force_n(1e-4, -3.0), 0.0);
    }

    #[test]
    fn fast_powers_agree_with_powf() {
        for a in [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 1.37] {
            for x in [1e-9, 3.7e-5, 0.25, 1.0, 7.5] {
                let fast = pow_exponent(x, a);
                let reference: f64 = x.powf(a);
                assert!(
                    (fast / reference - 1.0).abs() < 4.0 * f64::EPSILON,
                    "{x}^{a}: {fast} vs {reference}"
                );
            }
        }
    }

    #[test]
    fn partials_match_finite_differences() {
        let (x, v) = (3e-5, 0.7);
        let (f, fx, fv) = LAW.force_and_partials(x, v);
        assert_eq!(f, LAW.force_n(x, v));
        let (dx, dv) = (1e-10, 1e-6);
        let fx_fd = (LAW.force_n(x + dx, v) - LAW.force_n(x - dx, v)) / (2.0 * dx);
        let fv_fd = (LAW.force_n(x, v + dv) - LAW.force_n(x, v - dv)) / (2.0 * dv);
        assert!((fx / fx_fd - 1.0).abs() < 1e-6, "{fx} {fx_fd}");
        assert!((fv / fv_fd - 1.0).abs() < 1e-6, "{fv} {fv_fd}");
    }
}
