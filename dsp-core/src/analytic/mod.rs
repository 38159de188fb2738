//! Closed forms of the Hunt–Crossley mass–wall impact (Papetti et al., Section II-A).

/// Maximum compression in metres of a mass `mass_kg` hitting a rigid wall at `v_in_m_per_s`
/// through Hunt–Crossley with stiffness `stiffness` (N/m^α), dissipation `mu_s_per_m` and
/// exponent `alpha` (eq. 4).
///
/// The bracket μv − ln(1 + μv) over μ² is evaluated by its series v²/2 − μv³/3 + μ²v⁴/4 when μv is
/// small, where the closed form cancels catastrophically; μ = 0 gives the lossless
/// ((α+1)·m·v²/(2k))^(1/(α+1)).
pub fn x_max_m(
    stiffness: f64,
    mu_s_per_m: f64,
    alpha: f64,
    mass_kg: f64,
    v_in_m_per_s: f64,
) -> f64 {
    let v = v_in_m_per_s.abs();
    let mu_v = mu_s_per_m * v;
    let bracket_over_mu2 = if mu_v < 1e-3 {
        v * v * (0.5 - mu_v / 3.0 + mu_v * mu_v / 4.0)
    } else {
        (mu_v - mu_v.ln_1p()) / (mu_s_per_m * mu_s_per_m)
    };
    (mass_kg * (alpha + 1.0) / stiffness * bracket_over_mu2).powf(1.0 / (alpha + 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossless_limit_is_energy_balance() {
        // μ = 0: ½mv² = k·x^(α+1)/(α+1) → x = ((α+1)mv²/(2k))^(1/(α+1)).
        let (k, a, m, v): (f64, f64, f64, f64) = (1e9, 1.5, 0.01, 2.0);
        let expected = ((a + 1.0) * m * v * v / (2.0 * k)).powf(1.0 / (a + 1.0));
        let got = x_max_m(k, 0.0, a, m, v);
        assert!((got / expected - 1.0).abs() < 1e-12);
    }

    #[test]
    fn series_and_closed_form_agree_at_the_switch() {
        // Either side of μv = 1e-3 the two evaluations of eq. (4) must agree.
        let (k, a, m, v) = (1e9, 1.5, 0.01, 1.0);
        let below = x_max_m(k, 0.999e-3, a, m, v);
        let above = x_max_m(k, 1.001e-3, a, m, v);
        assert!((below / above - 1.0).abs() < 1e-6, "{below} {above}");
    }

    #[test]
    fn dissipation_reduces_compression() {
        let lossless = x_max_m(1e9, 0.0, 1.5, 0.01, 3.0);
        let lossy = x_max_m(1e9, 0.5, 1.5, 0.01, 3.0);
        assert!(lossy < lossless);
    }
}
