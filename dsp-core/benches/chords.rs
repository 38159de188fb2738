//! The audio thread's cost of notes: one note-on, and one 64-sample block at 48 kHz that starts
//! 64 notes at once (a chord on every voice), with the default patch prepared off the audio
//! thread (as the plugin does when the patch changes); that preparation's cost, and a note-on
//! that must prepare its patch itself; a pitch bend that retunes every voice of a full chord.

mod common;
#[path = "common/prepared_engine.rs"]
mod prepared_engine;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use prepared_engine::prepared_engine;
use std::hint::black_box;
use std::time::{Duration, Instant};
use urto_dsp::voice::{Change, Engine, NoteTarget, Patch, Prepared, MAX_VOICES};

const FS: f64 = 48_000.0;
/// Samples in the burst's block (`BURST_BLOCK_SAMPLES` in xtask/src/bench.rs).
const BURST_BLOCK: usize = 64;

/// An engine with every voice in use and `patch` prepared.
fn engine(patch: &Patch) -> Engine {
    let mut engine = prepared_engine(patch, FS);
    engine.set_polyphony(MAX_VOICES);
    engine
}

/// The keys of a 64-note chord: every voice a different note.
fn chord() -> impl Iterator<Item = u8> {
    (0..MAX_VOICES as u8).map(|i| 30 + i)
}

/// Time `iters` chords from an idle engine (the reset is not timed): every note takes a free
/// voice and sets up its object, as a chord after silence does; with `block`, the block that
/// starts them is rendered too.
fn time_chords(
    engine: &mut Engine,
    patch: &Patch,
    iters: u64,
    mut block: Option<&mut [f32]>,
) -> Duration {
    let mut elapsed = Duration::ZERO;
    for _ in 0..iters {
        engine.reset();
        let start = Instant::now();
        for key in chord() {
            engine.note_on(patch, key, 1.0);
        }
        if let Some(out) = block.as_deref_mut() {
            engine.process(patch, out);
        }
        elapsed += start.elapsed();
        black_box(&block);
    }
    elapsed
}

fn chords(c: &mut Criterion) {
    let patch = Patch::default();
    let mut group = c.benchmark_group("chords");
    group.throughput(Throughput::Elements(MAX_VOICES as u64));
    group.bench_function("note_on", |b| {
        let mut engine = engine(&patch);
        b.iter_custom(|iters| time_chords(&mut engine, &patch, iters, None))
    });
    // One element: the whole block, notes and render.
    group.throughput(Throughput::Elements(1));
    let mut out = [0.0f32; BURST_BLOCK];
    group.bench_function("burst_64_notes_block", |b| {
        let mut engine = engine(&patch);
        b.iter_custom(|iters| time_chords(&mut engine, &patch, iters, Some(&mut out)))
    });
    // A pitch bend on the channel of a 64-note chord just struck: each voice recomputes its
    // modes' transitions (per voice).
    group.throughput(Throughput::Elements(MAX_VOICES as u64));
    group.bench_function("bend_64_notes", |b| {
        let mut engine = engine(&patch);
        for key in chord() {
            engine.note_on(&patch, key, 1.0);
        }
        // Under way: the strikes have begun.
        engine.process(&patch, &mut [0.0; BURST_BLOCK]);
        let mut up = false;
        b.iter(|| {
            up = !up;
            let bend = Change::Bend(if up { 0.5 } else { 0.0 });
            engine.express(&patch, NoteTarget::channel(0), bend);
        })
    });
    // The worker thread's work when the patch changes (α kept: the contact-time table stays),
    // and a note-on that finds no preparation for its patch and prepares its key and the level
    // itself: the rare case of a note within milliseconds of a change.
    let mut other = patch;
    other.object.t60_s *= 1.01;
    group.throughput(Throughput::Elements(1));
    group.bench_function("prepare_patch", |b| {
        let mut prepared = Prepared::new(FS);
        let mut flip = false;
        b.iter(|| {
            flip = !flip;
            prepared.prepare(if flip { &patch } else { &other });
        })
    });
    group.bench_function("note_on_unprepared", |b| {
        let mut engine = Engine::new(FS);
        let mut flip = false;
        b.iter(|| {
            flip = !flip;
            engine.note_on(if flip { &patch } else { &other }, 60, 1.0);
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config(3);
    targets = chords
}
criterion_main!(benches);
