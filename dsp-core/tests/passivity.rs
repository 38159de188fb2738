//! Property: with both corrections on, no Hunt–Crossley impact ever holds or leaves with more
//! energy than it came in with, for any integrator, over the parameter ranges.

mod common;

use common::log_range;
use proptest::prelude::*;
use urto_dsp::analytic::Impact;
use urto_dsp::contact::HuntCrossley;
use urto_dsp::correct::{ApproxRange, Correction, ExitVelocity};
use urto_dsp::impact::run_contact;
use urto_dsp::integrate::Method;

/// Sample rate that puts between 5 and 2000 samples in the contact: 44.1 kHz unless the contact
/// (eq. 9) is too short (then oversampled) or too long for a test (then undersampled).
fn sample_rate_for(impact: &Impact) -> f64 {
    let samples = impact.contact_time_s() * 44_100.0;
    44_100.0 * (5.0 / samples).max(1.0) * (2000.0 / samples).min(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..ProptestConfig::with_cases(10_000)
    })]

    #[test]
    fn corrected_impacts_never_gain_energy(
        stiffness in log_range(1e2, 1e12),
        mu in log_range(1e-3, 10.0),
        alpha in 1.0f64..3.0,
        v_in in log_range(1e-3, 20.0),
        method in prop::sample::select(Method::ALL.to_vec()),
        auto_exit in any::<bool>(),
    ) {
        let impact = Impact { stiffness, mu_s_per_m: mu, alpha, mass_kg: 0.01, v_in_m_per_s: v_in };
        let law = HuntCrossley { stiffness, mu_s_per_m: mu, alpha };
        let exit = if auto_exit { ExitVelocity::Auto(ApproxRange { below: 0.798, above: 8.05 }) } else { ExitVelocity::Exact };
        let h0 = 0.5 * 0.01 * v_in * v_in;
        let mut h_max = 0.0f64;
        let run = run_contact(&law, 0.01, v_in, 0.0, 1.0 / sample_rate_for(&impact), method,
            Some((&impact, Correction::Both, exit)), |x, v| {
                h_max = h_max.max(0.5 * 0.01 * v * v + stiffness * x.max(0.0).powf(alpha + 1.0) / (alpha + 1.0));
            });
        prop_assert!(run.ended);
        let h_out = 0.5 * 0.01 * run.v_out_m_per_s * run.v_out_m_per_s;
        prop_assert!(h_out <= h0, "exit energy {h_out} > {h0}");
        prop_assert!(h_max <= h0 * (1.0 + 1e-9), "energy during contact {h_max} > {h0}");
        prop_assert!(run.v_out_m_per_s < 0.0);
    }
}
