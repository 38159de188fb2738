//! Closed forms checked against independent computations: bisection on eq. (6), energy balance,
//! the linear-spring contact time, brute-force integration.

use super::*;

fn case(k: f64, mu: f64, alpha: f64, v_in: f64) -> Impact {
    Impact {
        stiffness: k,
        mu_s_per_m: mu,
        alpha,
        mass_kg: 0.01,
        v_in_m_per_s: v_in,
    }
}

/// Root of eq. (6) in (−1/μ, 0) by plain bisection on μv − ln(1 + μv) − (μv_in − ln(1 + μv_in)).
fn v_out_by_bisection(mu: f64, v_in: f64) -> f64 {
    let g = |v: f64| mu * v - (mu * v).ln_1p() - (mu * v_in - (mu * v_in).ln_1p());
    let (mut lo, mut hi) = (-1.0 / mu * (1.0 - 1e-15), -1e-300);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn series_and_closed_form_of_h_agree() {
    for y in [-0.5, -0.0101, -0.0099, 0.0099, 0.0101, 0.3, 5.0] {
        let closed = (y - f64::ln_1p(y)) / (y * y);
        assert!((h_over_y2(y) / closed - 1.0).abs() < 1e-12, "y = {y}");
    }
}

#[test]
fn exact_v_out_solves_eq6() {
    for (mu, v_in) in [
        (0.5, 1.0),
        (0.01, 0.5),
        (0.5, 0.5),
        (10.0, 20.0),
        (2.0, 3.0),
        (0.1, 0.2),
    ] {
        let exact = case(1e9, mu, 1.5, v_in).v_out_exact_m_per_s();
        let reference = v_out_by_bisection(mu, v_in);
        assert!(
            (exact / reference - 1.0).abs() < 1e-9,
            "μ {mu} v_in {v_in}: {exact} vs {reference}"
        );
    }
}

#[test]
fn exact_v_out_keeps_its_digits_for_small_dissipation() {
    // Series of the root of eq. (6) in u = μ·v_in: μ·v_out = −u + 2u²/3 − 4u³/9 + 44u⁴/135 − …
    let u: f64 = 1e-5;
    let series = -u + 2.0 * u * u / 3.0 - 4.0 * u.powi(3) / 9.0;
    let got = case(1e9, u, 1.5, 1.0).v_out_exact_m_per_s() * u;
    assert!((got / series - 1.0).abs() < 1e-12, "{got} vs {series}");
    assert_eq!(case(1e9, 0.0, 1.5, 2.0).v_out_exact_m_per_s(), -2.0);
}

#[test]
fn approximate_v_out_errs_as_fig3_shows() {
    // Fig. 3: small errors at both ends of μ·v_in, about 2% at worst in between.
    let err = |u: f64| {
        let c = case(1e9, u, 1.5, 1.0);
        100.0 * (c.v_out_approx_m_per_s() / c.v_out_exact_m_per_s() - 1.0)
    };
    assert!(err(1e-3).abs() < 1e-6);
    assert!(err(30.0).abs() < 1e-6);
    let worst = (1..400)
        .map(|i| err(0.02 * i as f64).abs())
        .fold(0.0, f64::max);
    assert!(worst > 1.0 && worst < 3.0, "worst |error| {worst}%");
}

#[test]
fn hamiltonian_is_kinetic_energy_at_both_ends_of_contact() {
    let c = case(1e9, 0.5, 1.5, 1.0);
    let (v_in, v_out) = (c.v_in_m_per_s, c.v_out_exact_m_per_s());
    assert!((c.hamiltonian_of_v_j(v_in) / (0.005 * v_in * v_in) - 1.0).abs() < 1e-12);
    assert!((c.hamiltonian_of_v_j(v_out) / (0.005 * v_out * v_out) - 1.0).abs() < 1e-9);
    assert!(c.x_of_v_m(v_out) < 1e-3 * c.x_max_m());
    // H(v) = T + V(x(v)) with V = k·x^(α+1)/(α+1) (eq. 13).
    let v = 0.3;
    let x = c.x_of_v_m(v);
    let t_plus_v = 0.005 * v * v + c.stiffness * x.powf(2.5) / 2.5;
    assert!((c.hamiltonian_of_v_j(v) / t_plus_v - 1.0).abs() < 1e-12);
}

#[test]
fn x_max_has_a_continuous_lossless_limit() {
    let (k, a, m, v): (f64, f64, f64, f64) = (1e9, 1.5, 0.01, 2.0);
    let x_max_m = |mu: f64| {
        Impact {
            stiffness: k,
            mu_s_per_m: mu,
            alpha: a,
            mass_kg: m,
            v_in_m_per_s: v,
        }
        .x_max_m()
    };
    let lossless = ((a + 1.0) * m * v * v / (2.0 * k)).powf(1.0 / (a + 1.0));
    assert!((x_max_m(0.0) / lossless - 1.0).abs() < 1e-12);
    let below = x_max_m(0.999e-2 / v);
    let above = x_max_m(1.001e-2 / v);
    assert!((below / above - 1.0).abs() < 1e-5);
}

#[test]
fn contact_time_of_a_linear_lossless_spring_is_half_a_period() {
    // α = 1, μ = 0: τ = π·√(m/k).
    let c = case(1e6, 0.0, 1.0, 1.3);
    let expected = std::f64::consts::PI * (0.01f64 / 1e6).sqrt();
    assert!(
        (c.contact_time_s() / expected - 1.0).abs() < 1e-6,
        "{} vs {expected}",
        c.contact_time_s()
    );
}

#[test]
fn contact_time_matches_a_brute_force_integration() {
    // Classical RK4 at a step of τ/1e5 from x = 0, v = v_in until x returns to 0.
    for (k, mu, alpha, v_in) in [
        (1e9, 0.5, 1.5, 1.0),
        (1e7, 0.01, 1.3, 0.5),
        (1e5, 3.0, 2.5, 2.0),
    ] {
        let c = case(k, mu, alpha, v_in);
        let tau = c.contact_time_s();
        let h = tau / 1e5;
        let acc = |x: f64, v: f64| -(k * x.max(0.0).powf(alpha) * (1.0 + mu * v)) / 0.01;
        let (mut x, mut v, mut t) = (0.0f64, v_in, 0.0);
        loop {
            let (k1x, k1v) = (v, acc(x, v));
            let (k2x, k2v) = (v + 0.5 * h * k1v, acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
            let (k3x, k3v) = (v + 0.5 * h * k2v, acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
            let (k4x, k4v) = (v + h * k3v, acc(x + h * k3x, v + h * k3v));
            let x_next = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
            let v_next = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
            if x_next <= 0.0 && t > 0.0 {
                t += h * x / (x - x_next); // linear interpolation of the crossing
                break;
            }
            (x, v, t) = (x_next, v_next, t + h);
        }
        assert!(
            (tau / t - 1.0).abs() < 1e-4,
            "k {k} μ {mu} α {alpha}: {tau} vs {t}"
        );
    }
}

#[test]
fn gauss_legendre_weights_integrate_polynomials() {
    let integral = gauss_legendre(0.0, 2.0, |x| x.powi(9));
    assert!((integral / (2f64.powi(10) / 10.0) - 1.0).abs() < 1e-13);
}

#[test]
fn curve_force_is_the_law_at_the_curve_point() {
    use crate::contact::{ContactLaw, HuntCrossley};
    let c = case(1e9, 0.5, 1.5, 1.0);
    let law = HuntCrossley {
        stiffness: 1e9,
        mu_s_per_m: 0.5,
        alpha: 1.5,
    };
    let curve = c.compression_curve();
    for v in [0.9, 0.3, 0.0, -0.2, -0.5] {
        let (x, f) = curve.x_and_force(v);
        assert!((x / c.x_of_v_m(v) - 1.0).abs() < 1e-14);
        assert!((f / law.force_n(x, v) - 1.0).abs() < 1e-12, "v {v}");
    }
}

/// The table agrees with the quadrature it was built from, between its points and for any
/// k, m, v_in (the scaling argument), across α and λ = μ·v_in: within 0.1%.
#[test]
fn contact_times_match_the_quadrature() {
    let mut rng = fastrand::Rng::with_seed(9);
    for alpha in [1.0, 1.3, 1.5, 2.0, 2.7, 3.0] {
        let table = ContactTimes::new(alpha);
        for _ in 0..200 {
            let impact = Impact {
                stiffness: 10f64.powf(rng.f64() * 10.0 + 2.0),
                mu_s_per_m: 0.0,
                alpha,
                mass_kg: 10f64.powf(rng.f64() * 4.0 - 4.0),
                v_in_m_per_s: 10f64.powf(rng.f64() * 4.0 - 3.0),
            };
            let lambda = 10f64.powf(rng.f64() * 9.0 - 4.5);
            let impact = Impact {
                mu_s_per_m: lambda / impact.v_in_m_per_s,
                ..impact
            };
            let (tabled, exact) = (table.contact_time_s(&impact), impact.contact_time_s());
            assert!(
                (tabled / exact - 1.0).abs() < 1e-3,
                "α {alpha}, λ {lambda:.3e}: table {tabled:.6e} s, quadrature {exact:.6e} s"
            );
        }
    }
}

/// A table answers only for its own α: any other goes to the quadrature.
#[test]
fn contact_times_of_another_alpha_fall_back_to_the_quadrature() {
    let impact = Impact {
        stiffness: 1e8,
        mu_s_per_m: 0.3,
        alpha: 1.7,
        mass_kg: 0.01,
        v_in_m_per_s: 2.0,
    };
    assert_eq!(
        ContactTimes::new(1.5).contact_time_s(&impact),
        impact.contact_time_s()
    );
    assert_eq!(
        ContactTimes::default().contact_time_s(&impact),
        impact.contact_time_s()
    );
}
