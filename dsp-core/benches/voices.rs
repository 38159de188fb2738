//! Cost of a 32-mode voice in contact and ringing freely, and the real-time factor of 64 voices
//! of 32 modes at 48 kHz under dense notes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use urto_dsp::contact::HuntCrossley;
use urto_dsp::voice::{Engine, Patch, MAX_VOICES};

const FS: f64 = 48_000.0;
const BLOCK: usize = 1024;

fn patch_32_modes() -> Patch {
    let mut patch = Patch::default();
    patch.object.num_modes = 32;
    patch.object.t60_s = 20.0;
    patch
}

fn voice(c: &mut Criterion) {
    let mut group = c.benchmark_group("voice_32_modes");
    group.throughput(Throughput::Elements(BLOCK as u64));
    // A soft contact (k = 10³ N/m^1.5, as in Table I) lasts ~1600 samples: the block is all contact.
    let mut soft = patch_32_modes();
    soft.contact.law = HuntCrossley {
        stiffness: 1e3,
        mu_s_per_m: 0.5,
        alpha: 1.5,
    };
    let mut out = vec![0.0f32; BLOCK];
    group.bench_function("contact", |b| {
        let mut engine = Engine::new(FS);
        b.iter(|| {
            engine.reset();
            engine.note_on(&soft, 48, 0.5);
            engine.process(&soft, &mut out);
            black_box(out[BLOCK - 1])
        })
    });
    // A practically undamped object, so the voice rings through every iteration.
    let mut ringing = patch_32_modes();
    ringing.object.t60_s = 1e6;
    group.bench_function("free", |b| {
        let mut engine = Engine::new(FS);
        engine.note_on(&ringing, 48, 0.5);
        // Let the strike finish and the hammer fly out of reach.
        for _ in 0..20 {
            engine.process(&ringing, &mut out);
        }
        b.iter(|| {
            engine.process(&ringing, &mut out);
            black_box(out[BLOCK - 1])
        })
    });
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
        let mut engine = Engine::new(FS);
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
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = voice, engine
}
criterion_main!(benches);
