//! Reproduction of Papetti, Avanzini & Rocchesso, Tables I–III, against the printed values.
//!
//! Printed values live in `urto_dsp::impact::paper`. Entries the text does not determine are
//! checked against an independent computation instead, with the reason beside each.

use urto_dsp::analytic::Impact;
use urto_dsp::impact::paper::{self, PrintedBounceTable, PrintedImpactTable};
use urto_dsp::impact::{simulate_bounces, Discretization};
use urto_dsp::integrate::Method;

/// Agreement with a printed value as the issue states it: within `relative`, or within one unit of
/// its last printed digit (`last_digit`), whichever is looser.
fn assert_close(what: &str, ours: f64, printed: f64, last_digit: f64, relative: f64) {
    let tolerance = (relative * printed.abs()).max(last_digit);
    assert!(
        (ours - printed).abs() <= tolerance,
        "{what}: ours {ours}, printed {printed} (±{tolerance})"
    );
}

fn check_impact_table(
    name: &str,
    impact: &Impact,
    printed: &PrintedImpactTable,
    skip: &[(&str, Method)],
) {
    let reports = paper::impact_table(impact);
    for (i, method) in Method::ALL.into_iter().enumerate() {
        let r = &reports[i];
        let rows = [
            ("dev_x", r.dev_x_pct, printed.dev_x_pct[i]),
            ("err_v_out", r.err_v_out_pct, printed.err_v_out_pct[i]),
            ("dev_h", r.dev_h_pct, printed.dev_h_pct[i]),
        ];
        for (metric, ours, theirs) in rows {
            if skip.contains(&(metric, method)) {
                continue;
            }
            // Last printed digit: values are printed with three decimals or one significant digit.
            let digit = if theirs.abs() >= 1e-3 {
                1e-3
            } else {
                10f64.powf(theirs.abs().log10().floor())
            };
            assert_close(
                &format!("Table {name} {metric} {method:?}"),
                ours,
                theirs,
                digit,
                0.01,
            );
        }
    }
}

#[test]
fn table_i() {
    // Table I RK4 %dev(H) (1e-5) is not determined by the text (DESIGN.md: nobody reproduces it);
    // ours is 3e-7, below it. The Verlet and RK4 %err(v_out) (2e-6) sit at the precision of the
    // paper's numerical root of eq. (6); ours, against the Lambert W root, are below 1e-7.
    check_impact_table(
        "I",
        &paper::TABLE_I,
        &paper::PRINTED_TABLE_I,
        &[
            ("dev_h", Method::Rk4),
            ("err_v_out", Method::Verlet),
            ("err_v_out", Method::Rk4),
        ],
    );
    let reports = paper::impact_table(&paper::TABLE_I);
    assert!(reports[3].dev_h_pct < 1e-5);
    assert!(reports[1].err_v_out_pct.abs() < 2e-6 && reports[3].err_v_out_pct.abs() < 2e-6);
}

#[test]
fn table_ii_a() {
    check_impact_table("II(a)", &paper::CASE_1, &paper::PRINTED_TABLE_II_A, &[]);
}

#[test]
fn table_ii_b() {
    // %err(v_out) of Table II(b) was printed against ṽ_out (DESIGN.md); check that row that way.
    check_impact_table(
        "II(b)",
        &paper::CASE_2,
        &paper::PRINTED_TABLE_II_B,
        &Method::ALL.map(|m| ("err_v_out", m)),
    );
    for (i, r) in paper::impact_table(&paper::CASE_2).iter().enumerate() {
        let vs_approx = 100.0 * (r.v_out_sim / r.v_out_approx - 1.0);
        assert_close(
            &format!("II(b) err_v_out vs ṽ_out {i}"),
            vs_approx,
            paper::PRINTED_TABLE_II_B.err_v_out_pct[i],
            1e-3,
            0.01,
        );
    }
    // Newton on AM1's delay-free loop converges in a few iterations (DESIGN.md: at most about 4).
    assert!(paper::impact_table(&paper::CASE_2)[0].newton_iterations_max <= 4);
}

/// Heun from eq. (25), written out here independently of the crate's integrator, chained over the
/// rebounds of Table III; returns (accumulated %err, max %dev(H)) computed with the closed forms.
fn independent_heun_bounces(first: &Impact) -> (f64, f64) {
    let h = 1.0 / paper::SAMPLE_RATE_HZ;
    let (k, mu, a, m) = (
        first.stiffness,
        first.mu_s_per_m,
        first.alpha,
        first.mass_kg,
    );
    let force = |x: f64, v: f64| {
        if x > 0.0 {
            (k * x.powf(a) * (1.0 + mu * v)).max(0.0)
        } else {
            0.0
        }
    };
    let (mut v_in, mut v_exact_in) = (first.v_in_m_per_s, first.v_in_m_per_s);
    let (mut max_dev, mut last_sim, mut last_exact) = (0.0f64, 0.0, 0.0);
    for _ in 0..paper::TABLE_III_IMPACTS {
        let impact = Impact {
            v_in_m_per_s: v_in,
            ..*first
        };
        let scale = impact.delta_h_tau_j().abs();
        let (mut x, mut v, mut f) = (0.0f64, v_in, 0.0);
        let mut turned = false;
        loop {
            let h_sim = 0.5 * m * v * v + k * x.max(0.0).powf(a + 1.0) / (a + 1.0);
            max_dev = max_dev.max(100.0 * (h_sim - impact.hamiltonian_of_v_j(v)).abs() / scale);
            let v_pred = v - h * f / m;
            x += 0.5 * h * (v + v_pred);
            let f1 = force(x, v_pred);
            v -= 0.5 * h * (f + f1) / m;
            f = f1;
            turned |= v < 0.0;
            if x <= 0.0 && turned {
                break;
            }
        }
        last_sim = v;
        last_exact = Impact {
            v_in_m_per_s: v_exact_in,
            ..*first
        }
        .v_out_exact_m_per_s();
        v_in = -v;
        v_exact_in = -last_exact;
    }
    (
        100.0 * (last_sim * last_sim / (last_exact * last_exact) - 1.0),
        max_dev,
    )
}

fn check_bounce_table(name: &str, first: &Impact, printed: &PrintedBounceTable) {
    let (plain, as_printed, exact) = paper::bounce_table(first);
    // AM1, Verlet and RK4 accumulated errors reproduce within 2%; RK4 is printed as a magnitude
    // (RK4 loses energy here: ours is negative).
    for i in [0, 1, 3] {
        let ours = if i == 3 {
            plain[i].accum_err_pct.abs()
        } else {
            plain[i].accum_err_pct
        };
        assert_close(
            &format!("III({name}) accum {i}"),
            ours,
            printed.accum_err_pct[i],
            1e-3,
            0.02,
        );
    }
    // AM1 and Verlet max %dev reproduce too.
    for i in [0, 1] {
        assert_close(
            &format!("III({name}) max dev {i}"),
            plain[i].max_dev_h_pct,
            printed.max_dev_pct[i],
            1e-3,
            0.02,
        );
    }
    // The Heun rows and the RK4 max %dev are not reproducible from the text (DESIGN.md); the Heun
    // row is checked against an independent implementation of eq. (25) instead.
    let (accum, max_dev) = independent_heun_bounces(first);
    assert!(
        (plain[2].accum_err_pct - accum).abs() <= 1e-9 * accum.abs().max(1.0),
        "{} vs {accum}",
        plain[2].accum_err_pct
    );
    assert!(
        (plain[2].max_dev_h_pct - max_dev).abs() <= 1e-9 * max_dev,
        "{} vs {max_dev}",
        plain[2].max_dev_h_pct
    );
    // Corrected as printed (ṽ_out always): the accumulated error is ṽ_out's, deviation zero.
    assert!(as_printed.max_dev_h_pct < 1e-9);
    if printed.corrected_accum_err_pct <= 1e-7 {
        assert!(
            as_printed.accum_err_pct.abs() < 1e-7,
            "{}",
            as_printed.accum_err_pct
        );
    } else {
        assert_close(
            &format!("III({name}) corrected"),
            as_printed.accum_err_pct,
            printed.corrected_accum_err_pct,
            1e-3,
            0.02,
        );
    }
    // Beyond the paper: with the exact v_out the accumulated error vanishes.
    assert!(exact.accum_err_pct.abs() < 1e-5 && exact.max_dev_h_pct < 1e-9);
}

#[test]
fn table_iii_a() {
    check_bounce_table("a", &paper::CASE_1, &paper::PRINTED_TABLE_III_A);
}

#[test]
fn table_iii_b() {
    check_bounce_table("b", &paper::CASE_2, &paper::PRINTED_TABLE_III_B);
}

#[test]
fn corrected_rebounds_keep_the_exact_energy_with_every_method() {
    // Done-when: both corrections, exact v_out, 100 rebounds in case 1 and case 2: < 1e-5 %.
    for first in [paper::CASE_1, paper::CASE_2] {
        for method in Method::ALL {
            let d: Discretization = paper::corrected_exact(method);
            let r = simulate_bounces(&first, &d, 100);
            assert!(
                r.accum_err_pct.abs() < 1e-5,
                "{method:?}: {}",
                r.accum_err_pct
            );
        }
    }
}
