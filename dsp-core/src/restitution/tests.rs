//! Restitution: μ(e) checked through eq. (6) and by simulation; c_opt checked by simulation over
//! the restitution paper's Section 5.1 parameter ranges.

use super::*;
use crate::analytic::Impact;
use crate::contact::{HertzDamper, HuntCrossley};
use crate::impact::run_contact;
use crate::integrate::Method;

/// Deterministic uniform numbers in [0, 1) (xorshift64*), so the random sets are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo * (hi / lo).powf(self.next())
    }
}

#[test]
fn mu_for_restitution_satisfies_eq6() {
    for e in [0.01, 0.05, 0.3, 0.7, 0.95, 0.99, 0.9999] {
        for v_in in [1e-3, 0.5, 20.0] {
            let mu = mu_for_restitution(e, v_in);
            let impact = Impact {
                stiffness: 1e9,
                mu_s_per_m: mu,
                alpha: 1.5,
                mass_kg: 0.01,
                v_in_m_per_s: v_in,
            };
            let e_closed = -impact.v_out_exact_m_per_s() / v_in;
            assert!(
                (e_closed - e).abs() < 1e-9,
                "e {e} v_in {v_in}: μ {mu} gives {e_closed}"
            );
        }
    }
    assert_eq!(mu_for_restitution(1.0, 1.0), 0.0);
}

/// Measured e of a Hunt–Crossley impact simulated with RK4 at 64 × 44.1 kHz.
fn hunt_crossley_e(e: f64) -> f64 {
    let (k, alpha, m, v_in) = (1e7, 1.5, 0.01, 1.0);
    let law = HuntCrossley {
        stiffness: k,
        mu_s_per_m: mu_for_restitution(e, v_in),
        alpha,
    };
    let run = run_contact(
        &law,
        m,
        v_in,
        0.0,
        1.0 / (64.0 * 44_100.0),
        Method::Rk4,
        None,
        |_, _| {},
    );
    assert!(run.ended && run.n_contact > 100, "{run:?}");
    -run.v_out_m_per_s / v_in
}

#[test]
fn simulated_restitution_matches_the_target() {
    for i in 0..=20 {
        let e = 0.05 + (0.99 - 0.05) * f64::from(i) / 20.0;
        let measured = hunt_crossley_e(e);
        assert!((measured - e).abs() < 1e-4, "e {e}: measured {measured}");
    }
}

/// Measured e of the Hertz + linear-damper law with c = c_opt, simulated with RK4 at a step of
/// 1/4000 of the contact-time scale (m/(k·v^(n−1)))^(1/(n+1)); the bodies separate at zero force.
fn hertz_e(e: f64, k: f64, n: f64, m: f64, v_in: f64) -> f64 {
    let law = HertzDamper {
        stiffness: k,
        damping_n_s_per_m: c_opt_n_s_per_m(e, k, n, m, v_in),
        exponent: n,
    };
    let time_scale_s = (m / (k * v_in.powf(n - 1.0))).powf(1.0 / (n + 1.0));
    let h = time_scale_s / 4000.0;
    let run = run_contact(&law, m, v_in, 0.0, h, Method::Rk4, None, |_, _| {});
    assert!(
        run.ended,
        "no separation for e {e} k {k} n {n} m {m} v {v_in}"
    );
    -run.v_out_m_per_s / v_in
}

#[test]
fn c_opt_reproduces_the_target_restitution_over_section_5_1() {
    // Section 5.1: m ∈ [1e-5, 1e2] kg, k ∈ [1e5, 1e10] N/mⁿ, v_in ∈ [1e-3, 1e2] m/s, n ∈ [1, 2];
    // 300 random systems per e. Fig. 8 shows the upper bound of |e_out − e| per e; the fits of
    // eqs. (46)–(47) were made over e ∈ [0.45, 1].
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut worst = Vec::new();
    for e in [0.5, 0.6, 0.7, 0.8, 0.9, 0.95] {
        let mut max_err = 0.0f64;
        for _ in 0..300 {
            let m = rng.log_uniform(1e-5, 1e2);
            let k = rng.log_uniform(1e5, 1e10);
            let v_in = rng.log_uniform(1e-3, 1e2);
            let n = 1.0 + rng.next();
            max_err = max_err.max((hertz_e(e, k, n, m, v_in) - e).abs());
        }
        worst.push((e, max_err));
    }
    println!("max |e_out − e| per e: {worst:?}");
    // Fig. 8 gives the bound only graphically; measured here: about 0.003 for every e.
    for (e, max_err) in &worst {
        assert!(
            *max_err < 0.01,
            "e {e}: max |e_out − e| = {max_err} ({worst:?})"
        );
    }
}

#[test]
fn c_opt_for_n1_matches_the_kelvin_voigt_closed_form() {
    // n = 1 (eq. 57): c = 1.4181·(e^−0.44 − 1)·√(km); eq. (55) gives the exact e for ξ = c/(2√(km)).
    for e in [0.5, 0.7, 0.9] {
        let (k, m) = (1.0, 1.0);
        let c = c_opt_n_s_per_m(e, k, 1.0, m, 1.0);
        let eq57 = 1.4181 * (e.powf(-0.44) - 1.0) * (k * m).sqrt();
        assert!((c / eq57 - 1.0).abs() < 2e-3, "c {c} vs eq. 57 {eq57}");
        let xi = c / (2.0 * (k * m).sqrt());
        let root = (1.0 - xi * xi).sqrt();
        // ξ < 1: e = exp(−ξ/√(1−ξ²)·atan2(2ξ√(1−ξ²), 2ξ² − 1)), the quadrant taken by atan2.
        let e_exact = (-xi / root * (2.0 * xi * root).atan2(2.0 * xi * xi - 1.0)).exp();
        let e_sim = hertz_e(e, k, 1.0, m, 1.0);
        assert!(
            (e_sim - e_exact).abs() < 1e-4,
            "simulation {e_sim} vs eq. 55 {e_exact}"
        );
        assert!(
            (e_exact - e).abs() < 0.02,
            "eq. 57 restitutes {e_exact} for target {e}"
        );
    }
}
