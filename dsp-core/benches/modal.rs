//! Free ringing of a 128-mode bank: ns per mode per sample, against a plain scalar loop over an
//! array of modes (the same arithmetic, two accumulators for the two pickups' mid and side
//! signals, no lane grouping); and the same bank with
//! its state in the subnormal range, which shows what denormals cost on the machine at hand.

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use urto_dsp::radiation::Radiator;
use urto_dsp::resonator::{ModalBank, Mode, Slot, MAX_MODES};

const FS: f64 = 48_000.0;
const SAMPLES: usize = 512;

fn modes() -> Vec<Mode> {
    (0..MAX_MODES)
        .map(|i| Mode {
            freq_hz: 50.0 + 150.0 * i as f64,
            t60_s: 2.0 / (1.0 + i as f64 / 16.0),
            strike_shape: 1.0 / (1.0 + i as f64),
            pickup_shape: if i % 2 == 0 { 1.0 } else { -0.5 },
            side_shape: if i % 3 == 0 { 0.25 } else { -0.1 },
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect()
}

/// The plain version: an array of per-mode structs, updated and summed in one scalar loop.
#[derive(Clone, Copy)]
struct ScalarMode {
    a: [f64; 4],
    pickup: f64,
    side: f64,
    q: f64,
    p: f64,
}

fn scalar_bank(modes: &[Mode]) -> Vec<ScalarMode> {
    modes
        .iter()
        .map(|m| {
            let (wd, sg) = (std::f64::consts::TAU * m.freq_hz, 1000f64.ln() / m.t60_s);
            let (e, (s, c)) = ((-sg / FS).exp(), (wd / FS).sin_cos());
            let w0_sq = wd * wd + sg * sg;
            ScalarMode {
                a: [
                    e * (c + sg * s / wd),
                    e * s / wd,
                    -e * w0_sq * s / wd,
                    e * (c - sg * s / wd),
                ],
                pickup: m.pickup_shape,
                side: m.side_shape,
                q: 0.0,
                p: 1.0,
            }
        })
        .collect()
}

fn ring(c: &mut Criterion) {
    let modes = modes();
    let mut group = c.benchmark_group("modal_free_128");
    group.throughput(Throughput::Elements((SAMPLES * MAX_MODES) as u64));
    let mut bank = ModalBank::new(0.1);
    bank.set_modes(&modes, FS);
    bank.advance(Slot::Full, 1.0);
    group.bench_function("bank", |b| {
        b.iter(|| {
            let mut out = 0.0;
            for _ in 0..SAMPLES {
                let pickup = bank.ring();
                out += pickup.mid_pa + pickup.side_pa;
            }
            black_box(out)
        })
    });
    let mut scalar = scalar_bank(&modes);
    group.bench_function("scalar", |b| {
        b.iter(|| {
            let mut out = 0.0;
            for _ in 0..SAMPLES {
                let (mut mid, mut side) = (0.0, 0.0);
                for m in scalar.iter_mut() {
                    let (q, p) = (m.q, m.p);
                    m.q = m.a[0] * q + m.a[1] * p;
                    m.p = m.a[2] * q + m.a[3] * p;
                    mid += m.pickup * m.p;
                    side += m.side * m.p;
                }
                out += mid + side;
            }
            black_box(out)
        })
    });
    group.finish();
}

fn subnormal(c: &mut Criterion) {
    // Undamped modes, so the state stays where it is put for the whole measurement: an impulse
    // of 1 N, or of 1e-315 N (a subnormal force, leaving every q and p subnormal).
    let modes: Vec<Mode> = modes()
        .into_iter()
        .map(|m| Mode { t60_s: 1e9, ..m })
        .collect();
    let mut group = c.benchmark_group("modal_state_128");
    group.throughput(Throughput::Elements((SAMPLES * MAX_MODES) as u64));
    for (name, impulse_n) in [("normal", 1.0), ("subnormal", 1e-315)] {
        let mut bank = ModalBank::new(0.1);
        bank.set_modes(&modes, FS);
        bank.advance(Slot::Full, impulse_n);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut out = 0.0;
                for _ in 0..SAMPLES {
                    out += bank.ring().mid_pa;
                }
                black_box(out)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config(2);
    targets = ring, subnormal
}
criterion_main!(benches);
