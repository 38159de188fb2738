//! Free ringing of a 128-mode bank (ns per mode per sample, a sample at a time and in blocks, re-struck every iteration: a steady state) against a plain scalar loop and against this machine's multiply-add throughput (the roofline), and the cost of a bank put at 1e-300 of full scale or in the subnormal range against a normal one.

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
    // Each iteration strikes the bank afresh, so it rings at full scale however long criterion
    // runs (left alone, its modes would decay for hundreds of seconds of audio).
    group.bench_function("bank", |b| {
        b.iter(|| {
            bank.reset();
            bank.advance(Slot::Full, 1.0);
            let mut out = 0.0;
            for _ in 0..SAMPLES {
                let pickup = bank.ring();
                out += pickup.mid_pa + pickup.side_pa;
            }
            black_box(out)
        })
    });
    let (mut mid, mut side) = ([0.0; SAMPLES], [0.0; SAMPLES]);
    group.bench_function("bank_block", |b| {
        b.iter(|| {
            bank.reset();
            bank.advance(Slot::Full, 1.0);
            bank.ring_block(&mut mid, &mut side);
            black_box(mid[SAMPLES - 1] + side[SAMPLES - 1])
        })
    });
    let struck = scalar_bank(&modes);
    let mut scalar = struck.clone();
    group.bench_function("scalar", |b| {
        b.iter(|| {
            scalar.copy_from_slice(&struck);
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

/// Independent chains the multiply-add kernels keep in flight: [`ACCUMULATORS`] groups of
/// [`LANES`] lanes, the bank's lane groups (8 doubles: two AVX2 registers each, so 8 registers of
/// accumulators, enough to cover a multiply-add's latency on both of its ports).
const LANES: usize = 8;
const ACCUMULATORS: usize = 4;
/// Rounds of the kernels per iteration.
const ROUNDS: usize = 4096;

/// `ROUNDS` rounds of acc = acc·c + d over every lane of every accumulator, each one fused
/// multiply-add (`mul_add`: one instruction where the processor has FMA), in lane groups the
/// compiler keeps in vector registers; compiled for AVX2 + FMA as well as the baseline, as the
/// bank's kernels are.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
fn fma_simd(acc: &mut [[f64; LANES]; ACCUMULATORS], c: f64, d: f64) {
    for _ in 0..ROUNDS {
        for group in acc.iter_mut() {
            for x in group.iter_mut() {
                *x = x.mul_add(c, d);
            }
        }
    }
}

/// The same multiply-adds one lane at a time, as scalar FMA instructions (`vfmadd213sd`) on
/// [`LANES`] independent chains: written as instructions, since the compiler would pack any
/// scalar code of this shape into vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn fma_scalar(acc: &mut [[f64; LANES]; ACCUMULATORS], c: f64, d: f64) {
    for group in acc.iter_mut() {
        let [mut a0, mut a1, mut a2, mut a3, mut a4, mut a5, mut a6, mut a7] = *group;
        for _ in 0..ROUNDS {
            // SAFETY: register-only arithmetic on an FMA processor (this function's feature).
            unsafe {
                std::arch::asm!(
                    "vfmadd213sd {a0}, {c}, {d}",
                    "vfmadd213sd {a1}, {c}, {d}",
                    "vfmadd213sd {a2}, {c}, {d}",
                    "vfmadd213sd {a3}, {c}, {d}",
                    "vfmadd213sd {a4}, {c}, {d}",
                    "vfmadd213sd {a5}, {c}, {d}",
                    "vfmadd213sd {a6}, {c}, {d}",
                    "vfmadd213sd {a7}, {c}, {d}",
                    a0 = inout(xmm_reg) a0,
                    a1 = inout(xmm_reg) a1,
                    a2 = inout(xmm_reg) a2,
                    a3 = inout(xmm_reg) a3,
                    a4 = inout(xmm_reg) a4,
                    a5 = inout(xmm_reg) a5,
                    a6 = inout(xmm_reg) a6,
                    a7 = inout(xmm_reg) a7,
                    c = in(xmm_reg) c,
                    d = in(xmm_reg) d,
                    options(pure, nomem, nostack),
                );
            }
        }
        *group = [a0, a1, a2, a3, a4, a5, a6, a7];
    }
}

fn roofline(c: &mut Criterion) {
    // c and d keep every accumulator at a fixed point of x = c·x + d (x = 1), a normal number.
    let mut group = c.benchmark_group("roofline_fma");
    group.throughput(Throughput::Elements((ROUNDS * ACCUMULATORS * LANES) as u64));
    let mut acc = [[1.0; LANES]; ACCUMULATORS];
    group.bench_function("simd", |b| {
        b.iter(|| {
            fma_simd(&mut acc, black_box(0.5), black_box(0.5));
            black_box(acc[0][0])
        })
    });
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        group.bench_function("scalar", |b| {
            b.iter(|| {
                // SAFETY: the processor has FMA (checked above).
                unsafe { fma_scalar(&mut acc, black_box(0.5), black_box(0.5)) };
                black_box(acc[0][0])
            })
        });
    }
    group.finish();
}

fn subnormal(c: &mut Criterion) {
    // Undamped modes, so the state stays where it is put for the whole measurement: an impulse
    // of 1 N, of 1e-300 N (p near 1e-304, q already subnormal) or of 1e-315 N (a subnormal
    // force, every q and p subnormal). The bank flushes a state below its negligible
    // level within 64 steps (`ModalBank::ring`), so after criterion's warm-up all three ring at
    // the cost of a normal state, on any processor.
    let modes: Vec<Mode> = modes()
        .into_iter()
        .map(|m| Mode { t60_s: 1e9, ..m })
        .collect();
    let mut group = c.benchmark_group("modal_state_128");
    group.throughput(Throughput::Elements((SAMPLES * MAX_MODES) as u64));
    for (name, impulse_n) in [
        ("normal", 1.0),
        ("quiet_1e-300", 1e-300),
        ("subnormal", 1e-315),
    ] {
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
    targets = ring, roofline, subnormal
}
criterion_main!(benches);
