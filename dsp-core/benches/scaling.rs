//! How the engine's cost grows with the work: voices × modes ringing freely (1–64 voices of 8–128 modes), and dropped bodies falling at once (1–16).

mod common;
#[path = "common/dropped_die.rs"]
mod dropped_die;
#[path = "common/prepared_engine.rs"]
mod prepared_engine;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dropped_die::dropped_die;
use prepared_engine::prepared_engine;
use std::hint::black_box;
use urto_dsp::resonator::{object_modes, Mode, ObjectKind, MAX_MODES};
use urto_dsp::voice::{Engine, Expression, NoteId, Patch, MAX_VOICES};

const FS: f64 = 48_000.0;
const BLOCK: usize = 1024;
/// The voices × modes grid (the bank holds at most [`MAX_MODES`] = 128 modes).
const VOICES: [usize; 4] = [1, 4, 16, 64];
const MODES: [usize; 3] = [8, 32, 128];
/// Bodies dropped at once.
const DROPS: [usize; 5] = [1, 2, 4, 8, 16];

/// A rectangular plate of `modes` modes at 110 Hz on every key, ringing steadily (no decay):
/// every mode lies below 0.45·fs, so every one is rung.
fn steady_plate(modes: usize) -> Patch {
    let mut patch = Patch::default();
    patch.object.kind = ObjectKind::RectangularPlate;
    patch.object.num_modes = modes;
    patch.object.t60_s = 1e6;
    patch.object.damping_slope = 0.0;
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = 110.0;
    let spec = urto_dsp::resonator::ObjectSpec {
        f0_hz: patch.tuning.fixed_f0_hz,
        ..patch.object
    };
    let mut out = [Mode::SILENT; MAX_MODES];
    let count = object_modes(&spec, patch.object_radiating_size_m(), &mut out);
    let heard = out[..count]
        .iter()
        .filter(|m| m.freq_hz < 0.45 * FS)
        .count();
    assert_eq!(heard, modes, "the plate rings all {modes} modes");
    patch
}

fn voices_by_modes(c: &mut Criterion) {
    // Per iteration one block of every voice, struck and ringing freely: ns per
    // voice·mode·sample, constant while the work grows linearly.
    let mut group = c.benchmark_group("scaling_voices_modes");
    group.sample_size(20);
    let mut out = vec![0.0f32; BLOCK];
    for modes in MODES {
        let patch = steady_plate(modes);
        for voices in VOICES {
            group.throughput(Throughput::Elements((voices * modes * BLOCK) as u64));
            group.bench_function(format!("{voices}v_{modes}m"), |b| {
                let mut engine = Engine::new(FS);
                engine.set_polyphony(MAX_VOICES);
                for voice in 0..voices {
                    engine.note_on(&patch, 30 + voice as u8, 0.8);
                }
                for _ in 0..20 {
                    engine.process(&patch, &mut out);
                }
                assert_eq!(engine.active_voices(), voices, "every voice rings");
                b.iter(|| {
                    engine.process(&patch, &mut out);
                    black_box(out[BLOCK - 1])
                })
            });
        }
    }
    group.finish();
}

fn drops_at_once(c: &mut Criterion) {
    // The dropped die of `voice_32_modes/drop`, several at once, each the same drop (the
    // same key on its own channel, struck as the first note: the same pose and spin): the
    // whole second in which they land, rattle and rest, per iteration. ns per body·sample,
    // constant while the work grows linearly.
    let mut group = c.benchmark_group("scaling_drops");
    group.sample_size(10);
    let patch = dropped_die();
    let second = FS as usize;
    let mut out = vec![0.0f32; second];
    for bodies in DROPS {
        group.throughput(Throughput::Elements((bodies * second) as u64));
        group.bench_function(format!("{bodies}_bodies"), |b| {
            let mut engine = prepared_engine(&patch, FS);
            engine.set_polyphony(MAX_VOICES);
            b.iter(|| {
                engine.reset();
                for channel in 0..bodies as u8 {
                    let note = NoteId {
                        channel,
                        ..NoteId::key(48)
                    };
                    engine.set_notes_struck(0);
                    engine.start_note(&patch, note, 0.0, &Expression::NEUTRAL);
                }
                engine.process(&patch, &mut out);
                black_box(out[second - 1])
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config(2);
    targets = voices_by_modes, drops_at_once
}
criterion_main!(benches);
