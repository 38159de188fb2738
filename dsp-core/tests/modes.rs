//! One checker, run for every play mode (`PlayMode::ALL`): the output does not depend on the host's block sizes, a reset and a replay are bit-identical, all sound off silences within its time without a click, nothing allocates, nothing is NaN or subnormal, and the voices end.

use assert_no_alloc::{assert_no_alloc, AllocDisabler};
use urto_dsp::voice::{Engine, Patch, PlayMode, CHOKE_T60_S};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
/// Two notes, released after a quarter of a second (a rolling ball rolls to a stop), heard for
/// five seconds: every mode's voices end by then on this short-ringing object.
const RELEASE_AT: usize = 12_000;
const LENGTH: usize = 240_000;

/// A patch of `mode` on a short-ringing 16-mode object with a light ball let fall from 5 cm.
fn patch(mode: PlayMode) -> Patch {
    let mut patch = Patch {
        mode,
        hammer_mass_kg: 0.005,
        ..Patch::default()
    };
    patch.object.num_modes = 16;
    patch.object.t60_s = 0.3;
    patch.fall.height_m = 0.05;
    patch.bounce.irregularity = 0.3;
    patch.resolved()
}

/// Render `samples` samples in blocks cycling through `blocks`, without allocating.
fn render(engine: &mut Engine, patch: &Patch, out: &mut [f32], blocks: &[usize]) {
    let mut start = 0;
    for &size in blocks.iter().cycle() {
        let end = (start + size).min(out.len());
        assert_no_alloc(|| engine.process(patch, &mut out[start..end]));
        start = end;
        if start == out.len() {
            break;
        }
    }
}

/// The two notes, their release and the tails, on `engine`, in blocks cycling through `blocks`.
fn play(engine: &mut Engine, patch: &Patch, blocks: &[usize]) -> Vec<f32> {
    let mut out = vec![0.0f32; LENGTH];
    assert_no_alloc(|| {
        engine.note_on(patch, 60, 0.8);
        engine.note_on(patch, 67, 0.5);
    });
    render(engine, patch, &mut out[..RELEASE_AT], blocks);
    assert_no_alloc(|| {
        engine.note_off(patch, 60);
        engine.note_off(patch, 67);
    });
    render(engine, patch, &mut out[RELEASE_AT..], blocks);
    out
}

/// Largest jump between consecutive samples.
fn largest_step(x: &[f32]) -> f32 {
    x.windows(2).fold(0.0, |m, w| m.max((w[1] - w[0]).abs()))
}

/// The checks every play mode passes.
fn check(mode: PlayMode) {
    let patch = patch(mode);
    let mut engine = Engine::new(FS);
    let reference = play(&mut engine, &patch, &[64]);
    assert!(reference.iter().any(|&y| y != 0.0), "{mode:?} is silent");
    assert!(
        reference
            .iter()
            .all(|y| y.is_finite() && (*y == 0.0 || y.abs() >= f32::MIN_POSITIVE)),
        "{mode:?}: a sample is not finite, or subnormal"
    );
    assert_eq!(engine.active_voices(), 0, "{mode:?}: the voices end");
    assert_eq!(engine.non_finite_resets(), 0, "{mode:?}: a voice was reset");

    let split = play(&mut Engine::new(FS), &patch, &[1, 13, 500, 77, 256, 3]);
    let first = reference.iter().zip(&split).position(|(a, b)| a != b);
    assert!(
        first.is_none(),
        "{mode:?}: block sizes change sample {first:?}"
    );

    engine.reset();
    assert!(
        play(&mut engine, &patch, &[64]) == reference,
        "{mode:?}: replay after a reset"
    );
    for idle in [1, 100, 4_800] {
        let mut engine = Engine::new(FS);
        render(&mut engine, &patch, &mut vec![0.0; idle], &[64]);
        let after_idle = play(&mut engine, &patch, &[64]);
        assert!(
            after_idle == reference,
            "{mode:?}: after {idle} samples of silence"
        );
    }

    // All sound off while four notes sound (a dropped body has landed by 0.3 s).
    let mut engine = Engine::new(FS);
    for note in [48, 60, 67, 72] {
        engine.note_on(&patch, note, 0.9);
    }
    let mut before = vec![0.0f32; 14_400];
    render(&mut engine, &patch, &mut before, &[256]);
    assert_no_alloc(|| engine.all_sound_off());
    // The voices end at −120 dB, two choke T60s later (one block of slack).
    let mut after = vec![0.0f32; (2.0 * CHOKE_T60_S * FS) as usize + 256];
    render(&mut engine, &patch, &mut after, &[256]);
    assert_eq!(engine.active_voices(), 0, "{mode:?}: all sound off");
    // No click: the damped vibration moves about as fast as the free one did in its last 10 ms
    // (a hard cut jumps by the whole amplitude).
    let ringing = &before[before.len() - 480..];
    let joined: Vec<f32> = ringing[479..].iter().chain(&after).copied().collect();
    assert!(
        largest_step(&joined) <= 2.0 * largest_step(ringing),
        "{mode:?}: {} after all sound off, {} before",
        largest_step(&joined),
        largest_step(ringing)
    );
}

#[test]
fn every_play_mode_passes_the_checks() {
    for mode in PlayMode::ALL {
        check(mode);
    }
}
