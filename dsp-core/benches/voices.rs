//! Cost of a 32-mode voice in contact, ringing freely, rolling, sliding, bouncing, under a dropped die and crumpling, struck by a point
//! mass and by a spoon with 8 modes of its own (two ringing bodies, against one of 40 modes); a 30 s decaying tail
//! against a steady one; and the real-time factor of 64 voices of 32 modes at 48 kHz under dense
//! notes.

mod common;
#[path = "common/dropped_die.rs"]
mod dropped_die;
#[path = "common/prepared_engine.rs"]
mod prepared_engine;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use dropped_die::dropped_die;
use prepared_engine::prepared_engine;
use std::hint::black_box;
use urto_dsp::body::{StrikerKind, StrikerSpec};
use urto_dsp::contact::HuntCrossley;
use urto_dsp::material::{Material, MATERIALS};
use urto_dsp::resonator::{ObjectKind, ObjectSpec};
use urto_dsp::surface::{SurfaceKind, SurfaceSettings};
use urto_dsp::voice::{Engine, Gesture, Patch, PlayMode, MAX_VOICES};

const FS: f64 = 48_000.0;
const BLOCK: usize = 1024;
const CONTACT_BLOCK: usize = 4096;

/// A rectangular plate whose 32 lowest modes all lie below Nyquist at the benchmarks' note (the
/// default marimba bar, whose overtones climb as n², keeps 14 of 32 there: these benchmarks
/// rang 14 modes before they said so).
fn patch_32_modes() -> Patch {
    let mut patch = Patch::default();
    patch.object.kind = ObjectKind::RectangularPlate;
    patch.object.num_modes = 32;
    patch.object.t60_s = 20.0;
    patch
}

/// Steel without losses, for a striker that rings through every iteration.
static UNDAMPED_STEEL: Material = Material {
    loss_factor: 1e-9,
    ..MATERIALS[0]
};

/// `patch` struck by a 15 cm steel spoon (a rod): 8 modes of its own below 24 kHz, ringing
/// practically undamped like the object, heard at full striker level.
fn with_spoon(patch: &Patch) -> Patch {
    Patch {
        striker: StrikerSpec {
            kind: StrikerKind::Rod,
            material: &UNDAMPED_STEEL,
            size_m: 0.15,
        },
        striker_level: 1.0,
        ..*patch
    }
    .resolved()
}

fn voice(c: &mut Criterion) {
    let mut group = c.benchmark_group("voice_32_modes");
    // A soft contact (k = 10² N/m^1.5) lasts ~4500 samples: a block of CONTACT_BLOCK samples is all
    // contact, and the strike's set-up (object table, transitions, eq. 9) is spread over it.
    let mut soft = patch_32_modes();
    soft.contact.law = HuntCrossley {
        stiffness: 1e2,
        mu_s_per_m: 0.5,
        alpha: 1.5,
    };
    // The same with an exponent off the fast paths of `pow_exponent` (a general `powf`).
    let mut soft_general = soft;
    soft_general.contact.law.alpha = 1.37;
    let two_body = with_spoon(&soft);
    let mut contact_out = vec![0.0f32; CONTACT_BLOCK];
    group.throughput(Throughput::Elements(CONTACT_BLOCK as u64));
    for (name, patch) in [
        ("contact", soft),
        ("contact_alpha_1_37", soft_general),
        ("contact_two_body", two_body),
    ] {
        group.bench_function(name, |b| {
            let mut engine = prepared_engine(&patch, FS);
            b.iter(|| {
                engine.reset();
                engine.note_on(&patch, 48, 0.5);
                engine.process(&patch, &mut contact_out);
                black_box(contact_out[CONTACT_BLOCK - 1])
            })
        });
    }
    group.throughput(Throughput::Elements(BLOCK as u64));
    // A practically undamped object, so the voice rings through every iteration; with a spoon
    // that rings too (32 + 8 modes), against one body of 40 modes.
    let mut ringing = patch_32_modes();
    ringing.object.t60_s = 1e6;
    let mut ringing_40 = ringing;
    ringing_40.object.num_modes = 40;
    for (name, patch) in [
        ("free", ringing),
        ("free_two_body", with_spoon(&ringing)),
        ("free_40_modes", ringing_40),
    ] {
        steady_block(&mut group, name, &patch, (48, 0.5));
    }
    // A ball rolling on the object (steady state), and a ball bouncing on it: a drop from 5 cm
    // bounces for about a second, all of it rendered per iteration.
    let mut rolling = patch_32_modes();
    rolling.mode = PlayMode::Roll;
    rolling.hammer_mass_kg = 0.005;
    rolling.contact.law.stiffness = 1e9;
    steady_block(&mut group, "roll", &rolling, (48, 0.5));
    // A slider drawn over the object (steady state): the default rosin friction, 1 N at 0.3 m/s,
    // over a rough surface (its 84 partials read as they sound below 0.40·fs).
    let mut sliding = patch_32_modes();
    sliding.mode = PlayMode::Slide;
    sliding.hammer_mass_kg = 0.005;
    sliding.contact.law.stiffness = 1e9;
    sliding.slide.surface = SurfaceSettings {
        kind: SurfaceKind::Fractal,
        height_m: 1e-7,
        ..SurfaceSettings::smooth()
    };
    steady_block(&mut group, "slide", &sliding, (48, 0.5));
    // A crumple held on the same object (steady state): a steady Poisson stream of point-mass
    // fragments (0.1 g whole) at 1 000 and 5 000 (the plugin's top) events per second, each an
    // impact from the 16-striker pool.
    for rate_per_s in [1000.0, 5000.0] {
        let mut crumpling = patch_32_modes();
        crumpling.mode = PlayMode::Crumple;
        crumpling.hammer_mass_kg = 1e-4;
        crumpling.crumple.rate_per_s = rate_per_s;
        crumpling.crumple.gesture = Gesture::Steady;
        steady_block(
            &mut group,
            &format!("crumple_{rate_per_s}_per_s"),
            &crumpling,
            (48, 1.0),
        );
    }
    let mut bouncing = patch_32_modes();
    bouncing.mode = PlayMode::Bounce;
    bouncing.hammer_mass_kg = 0.005;
    bouncing.fall.height_m = 0.05;
    let second = FS as usize;
    let mut bounce_out = vec![0.0f32; second];
    group.throughput(Throughput::Elements(second as u64));
    group.bench_function("bounce", |b| {
        let mut engine = prepared_engine(&bouncing, FS);
        b.iter(|| {
            engine.reset();
            engine.note_on(&bouncing, 48, 0.0);
            engine.process(&bouncing, &mut bounce_out);
            black_box(bounce_out[second - 1])
        })
    });
    // The dropped die, the whole second in which it lands, rattles and rests per iteration.
    let dropping = dropped_die();
    group.bench_function("drop", |b| {
        let mut engine = prepared_engine(&dropping, FS);
        b.iter(|| {
            engine.reset();
            engine.note_on(&dropping, 48, 0.0);
            engine.process(&dropping, &mut bounce_out);
            black_box(bounce_out[second - 1])
        })
    });
    group.finish();
}

/// Bench `patch` held on `key` at `velocity` in its steady state, a block of [`BLOCK`] samples
/// per iteration: 20 blocks are played first (the strike over and its hammer out of reach, the
/// roll, the slide or the stream under way).
fn steady_block(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    patch: &Patch,
    (key, velocity): (u8, f32),
) {
    let mut out = vec![0.0f32; BLOCK];
    group.bench_function(name, |b| {
        let mut engine = Engine::new(FS);
        engine.note_on(patch, key, velocity);
        for _ in 0..20 {
            engine.process(patch, &mut out);
        }
        b.iter(|| {
            engine.process(patch, &mut out);
            black_box(out[BLOCK - 1])
        })
    });
}

fn tail(c: &mut Criterion) {
    // A low note on 128 modes whose fundamental rings 30 s while damping ∝ f² kills the high
    // modes within milliseconds: the whole 30 s tail per iteration, against a voice that rings
    // steadily (no decay). Equal costs per sample: the decaying modes never slow the voice down.
    let mut group = c.benchmark_group("tail_128_modes");
    group.sample_size(10);
    let mut decaying = Patch::default();
    decaying.object.num_modes = 128;
    decaying.object.t60_s = 30.0;
    decaying.object.damping_slope = 1.0;
    let steady = Patch {
        object: ObjectSpec {
            t60_s: 1e6,
            damping_slope: 0.0,
            ..decaying.object
        },
        ..decaying
    };
    let tail_samples = 30 * FS as usize / BLOCK * BLOCK;
    let mut out = vec![0.0f32; BLOCK];
    group.throughput(Throughput::Elements(tail_samples as u64));
    group.bench_function("decaying_30s", |b| {
        let mut engine = prepared_engine(&decaying, FS);
        b.iter(|| {
            engine.reset();
            engine.note_on(&decaying, 24, 1.0);
            for _ in 0..tail_samples / BLOCK {
                engine.process(&decaying, &mut out);
            }
            black_box(out[BLOCK - 1])
        })
    });
    group.throughput(Throughput::Elements(BLOCK as u64));
    steady_block(&mut group, "steady", &steady, (24, 1.0));
    group.finish();
}

fn engine(c: &mut Criterion) {
    // One second of 64 voices × 32 modes at 48 kHz, every voice re-struck every 100 ms.
    let mut group = c.benchmark_group("engine_64v_32m_48k");
    group.sample_size(10);
    group.throughput(Throughput::Elements(FS as u64));
    let mut patch = patch_32_modes();
    patch.object.t60_s = 3.0;
    let mut out = vec![0.0f32; 4800];
    group.bench_function("one_second", |b| {
        let mut engine = prepared_engine(&patch, FS);
        engine.set_polyphony(MAX_VOICES);
        b.iter(|| {
            for block in 0..10 {
                for voice in 0..MAX_VOICES as u8 {
                    engine.note_on(
                        &patch,
                        30 + voice,
                        0.3 + 0.01 * f32::from((voice + block) % 60),
                    );
                }
                engine.process(&patch, &mut out);
            }
            black_box(out[0])
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config(3);
    targets = voice, tail, engine
}
criterion_main!(benches);
