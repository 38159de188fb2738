//! The cost of analysing a recorded strike: 3 s at 48 kHz, 40 damped modes in white noise, on one core.

use criterion::{criterion_group, criterion_main, Criterion};
use std::f64::consts::PI;
use std::hint::black_box;
use urto_dsp::analysis::{analyse, Options, Recording};

/// 40 modes at 60 Hz–16 kHz (log-spaced, inharmonic), T60 from 3 s down to 0.05 s, levels
/// 0 to −30 dB, and white noise (σ = 3.5·10⁻⁴, some 32 dB under the strongest mode's per-sample
/// power): a bell-like strike.
fn strike() -> Recording {
    let fs = 48000.0;
    let n = (3.0 * fs) as usize;
    let mut rng = fastrand::Rng::with_seed(7);
    let mut x: Vec<f64> = (0..n)
        .map(|_| 0.5e-3 * (rng.f64() - 0.5) * 12f64.sqrt() * 0.7)
        .collect();
    for k in 0..40 {
        let f = 60.0 * (16000.0f64 / 60.0).powf(k as f64 / 39.0) * (1.0 + 0.01 * rng.f64());
        let t60 = 3.0 * (0.05f64 / 3.0).powf(k as f64 / 39.0);
        let a = 0.02 * 10f64.powf(-1.5 * rng.f64());
        let decay = 1000f64.ln() / t60;
        for (i, v) in x.iter_mut().enumerate() {
            let t = i as f64 / fs;
            *v += a * (-decay * t).exp() * (2.0 * PI * f * t + k as f64).cos();
        }
    }
    Recording {
        samples: x,
        sample_rate_hz: fs,
    }
}

fn analysis(c: &mut Criterion) {
    let recording = strike();
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.bench_function("strike_3s_48k", |b| {
        b.iter(|| analyse(black_box(&recording), &Options::default()))
    });
    group.finish();
}

criterion_group!(benches, analysis);
criterion_main!(benches);
