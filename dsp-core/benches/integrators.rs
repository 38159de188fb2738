//! Cost of the four integrators per contact sample and per free-flight sample, with and without
//! the corrections (compare with Papetti et al., Table IV).

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use urto_dsp::analytic::Impact;
use urto_dsp::contact::HuntCrossley;
use urto_dsp::correct::{Correction, ExitVelocity};
use urto_dsp::impact::run_contact;
use urto_dsp::integrate::{step, MassState, Method};

/// A contact of a few hundred samples at 44.1 kHz (k = 10⁵ N/m^1.5, μ = 0.5 s/m, v_in = 1 m/s).
const IMPACT: Impact = Impact {
    stiffness: 1e5,
    mu_s_per_m: 0.5,
    alpha: 1.5,
    mass_kg: 0.01,
    v_in_m_per_s: 1.0,
};
const H_S: f64 = 1.0 / 44_100.0;

fn contact(c: &mut Criterion) {
    let law = HuntCrossley {
        stiffness: IMPACT.stiffness,
        mu_s_per_m: IMPACT.mu_s_per_m,
        alpha: IMPACT.alpha,
    };
    let mut group = c.benchmark_group("contact_sample");
    for method in Method::ALL {
        for correction in [Correction::None, Correction::Both] {
            let corrected = Some((&IMPACT, correction, ExitVelocity::Exact));
            let samples = run_contact(
                &law,
                IMPACT.mass_kg,
                IMPACT.v_in_m_per_s,
                0.0,
                H_S,
                method,
                corrected,
                |_, _| {},
            )
            .n_contact;
            group.throughput(Throughput::Elements(samples as u64));
            group.bench_with_input(
                BenchmarkId::new(method.name(), correction.name()),
                &corrected,
                |b, corrected| {
                    b.iter(|| {
                        run_contact(
                            &law,
                            IMPACT.mass_kg,
                            black_box(IMPACT.v_in_m_per_s),
                            0.0,
                            H_S,
                            method,
                            *corrected,
                            |_, _| {},
                        )
                    })
                },
            );
        }
    }
    group.finish();
}

fn free_flight(c: &mut Criterion) {
    let law = HuntCrossley {
        stiffness: IMPACT.stiffness,
        mu_s_per_m: IMPACT.mu_s_per_m,
        alpha: IMPACT.alpha,
    };
    const SAMPLES: usize = 1024;
    let mut group = c.benchmark_group("free_sample");
    group.throughput(Throughput::Elements(SAMPLES as u64));
    for method in Method::ALL {
        // The corrections act only in contact, so free flight costs the same with or without them.
        group.bench_function(method.name(), |b| {
            b.iter(|| {
                let mut state = MassState::new(&law, -10.0, black_box(1.0));
                for _ in 0..SAMPLES {
                    step(
                        method,
                        &law,
                        IMPACT.mass_kg,
                        IMPACT.mass_kg * 9.81,
                        H_S,
                        &mut state,
                    );
                }
                state
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config(2);
    targets = contact, free_flight
}
criterion_main!(benches);
