//! Per-note expression (issue 13, point 4): each dimension reaches only the voice it is addressed
//! to, and does to it what the physics says: tuning retunes the modes by 2^(t/12) without a click,
//! brightness scales the stiffness of the next contacts (the contact time follows k^(−1/(α+1))),
//! volume scales the output exactly, and a channel's messages leave a released note whose channel
//! a newer note took (MPE).

use urto_dsp::resonator::ObjectKind;
use urto_dsp::voice::{Change, Engine, Expression, NoteId, NoteTarget, Patch, PlayMode};

const FS: f64 = 48_000.0;

fn render(engine: &mut Engine, patch: &Patch, samples: usize) -> [Vec<f32>; 2] {
    let (mut left, mut right) = (vec![0.0f32; samples], vec![0.0f32; samples]);
    for (l, r) in left.chunks_mut(64).zip(right.chunks_mut(64)) {
        engine.process_stereo(patch, l, r);
    }
    [left, right]
}

fn note(key: u8, channel: u8, voice_id: Option<i32>) -> NoteId {
    NoteId {
        key,
        channel,
        voice_id,
    }
}

/// A strike with no stereo width: each voice's channels differ only by its pan.
fn mono_patch() -> Patch {
    let mut patch = Patch::default();
    patch.stereo.width = 0.0;
    patch
}

fn panned(pan: f64) -> Expression {
    Expression {
        pan,
        ..Expression::NEUTRAL
    }
}

/// Every kind of change but pan (which would move A into B's channel), as a note would get them.
const CHANGES: [Change; 8] = [
    Change::Tuning(7.0),
    Change::Bend(-2.0),
    Change::Brightness(1.0),
    Change::Pressure(1.0),
    Change::Volume(0.25),
    Change::StiffnessDecades(-1.0),
    Change::GainDb(-6.0),
    Change::Drive(0.0),
];

/// Whether `change` is heard in `mode` after the first 0.1 s: brightness and stiffness act on
/// contacts to come (none after a single strike; a rolling ball may never leave the surface; a
/// dropped body lands after 0.25 s), pressure on a ball (a struck hammer has flown off; a
/// tumbling body is not pressed), drive on a slider alone.
fn is_heard(change: Change, mode: PlayMode) -> bool {
    match change {
        Change::Brightness(_) | Change::StiffnessDecades(_) => {
            matches!(mode, PlayMode::Bounce | PlayMode::Drop)
        }
        Change::Pressure(_) => matches!(mode, PlayMode::Bounce | PlayMode::Roll | PlayMode::Slide),
        Change::Drive(_) => mode == PlayMode::Slide,
        _ => true,
    }
}

/// Two notes, A (channel 1, key 60, note id 11) hard left and B (channel 2, key 64, note id 12)
/// hard right, struck and rung for 0.1 s; then `changes` to `target` and 0.3 s more.
fn two_notes(mode: PlayMode, target: Option<NoteTarget>, changes: &[Change]) -> [Vec<f32>; 2] {
    let patch = Patch {
        mode,
        ..mono_patch()
    };
    let mut engine = Engine::new(FS);
    engine.start_note(&patch, note(60, 1, Some(11)), 0.8, &panned(-1.0));
    engine.start_note(&patch, note(64, 2, Some(12)), 0.8, &panned(1.0));
    let mut out = render(&mut engine, &patch, 4800);
    if let Some(target) = target {
        for &change in changes {
            engine.express(&patch, target, change);
        }
    }
    let more = render(&mut engine, &patch, 14_400);
    out[0].extend_from_slice(&more[0]);
    out[1].extend_from_slice(&more[1]);
    out
}

#[test]
fn expression_for_a_note_that_is_not_playing_changes_nothing() {
    for mode in PlayMode::ALL {
        let plain = two_notes(mode, None, &[]);
        assert!(plain[0].iter().any(|&y| y != 0.0), "{mode:?}: silent");
        for target in [
            NoteTarget::voice(13),
            NoteTarget::note(1, 64),
            NoteTarget::note(3, 60),
            NoteTarget::key(61),
            NoteTarget::channel(0),
        ] {
            let out = two_notes(mode, Some(target), &CHANGES);
            assert!(out == plain, "{mode:?}, {target:?}");
        }
    }
}

#[test]
fn expression_on_one_note_changes_that_note_alone() {
    for mode in PlayMode::ALL {
        let plain = two_notes(mode, None, &[]);
        // A is the left channel, B the right: (target, the channel it must change).
        for (target, changed) in [
            (NoteTarget::voice(11), 0),
            (NoteTarget::note(1, 60), 0),
            (NoteTarget::channel(1), 0),
            (NoteTarget::key(64), 1),
            (NoteTarget::voice(12), 1),
        ] {
            for change in CHANGES {
                let out = two_notes(mode, Some(target), &[change]);
                let what = format!("{mode:?}, {target:?}, {change:?}");
                let other_kept = out[1 - changed] == plain[1 - changed];
                assert!(other_kept, "{what}: the other note changed");
                assert!(out[changed].iter().all(|y| y.is_finite()), "{what}");
                if is_heard(change, mode) {
                    assert!(out[changed] != plain[changed], "{what}: not heard");
                }
            }
        }
    }
}

/// Frequency (Hz) of the strongest component of `signal` between `lo_hz` and `hi_hz`: a Hann
/// window and a DFT evaluated every 0.05 Hz.
fn peak_hz(signal: &[f32], lo_hz: f64, hi_hz: f64) -> f64 {
    let n = signal.len() as f64;
    let windowed: Vec<f64> = signal
        .iter()
        .enumerate()
        .map(|(i, &y)| f64::from(y) * (1.0 - (std::f64::consts::TAU * i as f64 / n).cos()))
        .collect();
    let mut best = (0.0, lo_hz);
    let mut f = lo_hz;
    while f <= hi_hz {
        let w = std::f64::consts::TAU * f / FS;
        let (re, im) = windowed
            .iter()
            .enumerate()
            .fold((0.0, 0.0), |(re, im), (i, y)| {
                let (s, c) = (w * i as f64).sin_cos();
                (re + y * c, im - y * s)
            });
        let power = re * re + im * im;
        if power > best.0 {
            best = (power, f);
        }
        f += 0.05;
    }
    best.1
}

#[test]
fn tuning_and_bend_retune_the_object_by_their_ratio_without_a_click() {
    let patch = Patch {
        mode: PlayMode::Strike,
        ..mono_patch()
    };
    let f0_hz = patch.tuning.f0_hz(60);
    for (change, semitones) in [
        (Change::Tuning(7.0), 7.0),
        (Change::Bend(-12.0), -12.0),
        (Change::Tuning(0.5), 0.5),
    ] {
        let mut engine = Engine::new(FS);
        engine.note_on(&patch, 60, 1.0);
        let before = render(&mut engine, &patch, 9600)[0].clone();
        engine.express(&patch, NoteTarget::key(60), change);
        let after = render(&mut engine, &patch, 12_000)[0].clone();
        let expected_hz = f0_hz * 2f64.powf(semitones / 12.0);
        let measured_before = peak_hz(&before[2400..], 0.9 * f0_hz, 1.1 * f0_hz);
        let measured_after = peak_hz(&after, 0.9 * expected_hz, 1.1 * expected_hz);
        assert!(
            (measured_before / f0_hz - 1.0).abs() < 2e-3,
            "{measured_before}"
        );
        assert!(
            (measured_after / expected_hz - 1.0).abs() < 2e-3,
            "{change:?}: {measured_after} Hz, expected {expected_hz}"
        );
        // No click: the output (the modes' velocities) does not jump; only its slope changes,
        // as each mode's restoring force −M·ω₀²·q does at once by up to the ratio squared. So the
        // step across the retune is at most the largest of the 64 steps before it times r².
        let jump = (after[0] - before[before.len() - 1]).abs();
        let steps_before = before[before.len() - 64..]
            .windows(2)
            .fold(0.0f32, |m, w| m.max((w[1] - w[0]).abs()));
        let ratio = 2f32.powf(semitones as f32 / 12.0).max(1.0);
        assert!(
            jump <= 1.1 * ratio * ratio * steps_before,
            "{change:?}: jump {jump}, steps before {steps_before}"
        );
    }
}

/// Duration (s) of the first contact of a strike on a heavy bar with `expression`.
fn contact_time_s(patch: &Patch, expression: &Expression) -> f64 {
    let mut engine = Engine::new(FS);
    engine.start_note(patch, NoteId::key(60), 1.0, expression);
    render(&mut engine, patch, 4800);
    let trace = engine.trace().expect("a strike is traced");
    let points = trace.points();
    let last = points.iter().rfind(|p| p.x_m > 0.0).expect("a contact");
    f64::from(last.t_s) - f64::from(points[0].t_s)
}

#[test]
fn brightness_scales_the_contact_stiffness() {
    // A rigid-like object: the contact is the mass–wall impact, whose duration scales as
    // k^(−1/(α+1)) at a fixed μ·v_in (eq. 1 made dimensionless).
    let mut patch = mono_patch();
    patch.object.kind = ObjectKind::FreeBar;
    patch.object_mass_kg = 1e4;
    patch.contact.law.stiffness = 1e7;
    for brightness in [0.0, 1.0] {
        let bright = Expression {
            brightness,
            ..Expression::NEUTRAL
        };
        let ratio = contact_time_s(&patch, &bright) / contact_time_s(&patch, &Expression::NEUTRAL);
        let alpha = patch.contact.law.alpha;
        let expected = 10f64.powf(-2.0 * (brightness - 0.5) / (alpha + 1.0));
        assert!(
            (ratio / expected - 1.0).abs() < 0.03,
            "brightness {brightness}: contact time × {ratio}, expected × {expected}"
        );
    }
}

#[test]
fn volume_scales_the_note_exactly() {
    let patch = mono_patch();
    let render_with = |expression: &Expression| {
        let mut engine = Engine::new(FS);
        engine.start_note(&patch, NoteId::key(60), 1.0, expression);
        render(&mut engine, &patch, 9600)
    };
    let plain = render_with(&Expression::NEUTRAL);
    let half = render_with(&Expression {
        volume: 0.5,
        ..Expression::NEUTRAL
    });
    let exact = plain
        .iter()
        .flatten()
        .zip(half.iter().flatten())
        .all(|(p, h)| *h == 0.5 * p);
    assert!(exact, "volume 0.5 is not exactly half the note");
}

#[test]
fn with_mpe_a_released_note_no_longer_follows_its_channel() {
    let patch = mono_patch();
    // A is held (left) or released, B on another channel (right); then A's channel bends.
    let run = |mpe: bool, release: bool, bend: bool| {
        let mut engine = Engine::new(FS);
        engine.set_channel_per_note(mpe);
        engine.start_note(&patch, note(60, 3, None), 0.8, &panned(-1.0));
        engine.start_note(&patch, note(67, 4, None), 0.8, &panned(1.0));
        render(&mut engine, &patch, 2400);
        if release {
            engine.release(&patch, NoteTarget::note(3, 60));
        }
        if bend {
            engine.express(&patch, NoteTarget::channel(3), Change::Bend(2.0));
        }
        render(&mut engine, &patch, 9600)
    };
    for (mpe, release, heard) in [
        (true, true, false),
        (true, false, true),
        (false, true, true),
    ] {
        let (plain, bent) = (run(mpe, release, false), run(mpe, release, true));
        let what = format!("MPE {mpe}, released {release}");
        assert!(bent[1] == plain[1], "{what}: the other note was bent");
        assert_eq!(bent[0] != plain[0], heard, "{what}");
    }
}

/// A voice's next note sounds as on a fresh engine, whatever the last note left in it: here a
/// ball at rest, pressed, its voice choked; the next note starts bent (a retune at its note-on).
#[test]
fn a_voice_starts_the_same_whatever_its_last_note_left() {
    let mut patch = mono_patch();
    patch.mode = PlayMode::Bounce;
    patch.fall.height_m = 0.0;
    patch.fall.gravity.capture_m_per_s = 10.0;
    let bent = Expression {
        bend_semitones: 5.0,
        ..Expression::NEUTRAL
    };
    let mut used = Engine::new(FS);
    used.note_on(&patch, 60, 0.01);
    render(&mut used, &patch, 2400);
    used.express(&patch, NoteTarget::key(60), Change::Pressure(1.0));
    render(&mut used, &patch, 2400);
    used.choke(NoteTarget::key(60));
    render(&mut used, &patch, 4800);
    assert_eq!(used.active_voices(), 0);
    let mut fresh = Engine::new(FS);
    for engine in [&mut used, &mut fresh] {
        engine.start_note(&patch, NoteId::key(62), 0.5, &bent);
    }
    let (a, b) = (
        render(&mut used, &patch, 9600),
        render(&mut fresh, &patch, 9600),
    );
    assert!(a == b, "the last note's rest changed the next note");
}

#[test]
fn the_host_learns_which_notes_ended() {
    let patch = mono_patch();
    let mut engine = Engine::new(FS);
    let ended = |engine: &mut Engine| engine.take_ended().collect::<Vec<_>>();
    engine.start_note(&patch, note(60, 0, Some(1)), 1.0, &Expression::NEUTRAL);
    engine.start_note(&patch, note(62, 0, Some(2)), 1.0, &Expression::NEUTRAL);
    // Struck again under a new id: the old id's voice ended.
    engine.start_note(&patch, note(60, 0, Some(3)), 1.0, &Expression::NEUTRAL);
    assert_eq!(ended(&mut engine), [note(60, 0, Some(1))]);
    engine.choke(NoteTarget::voice(2));
    render(&mut engine, &patch, 4800);
    assert_eq!(ended(&mut engine), [note(62, 0, Some(2))]);
    engine.reset();
    assert_eq!(ended(&mut engine), [note(60, 0, Some(3))]);
    assert_eq!(engine.active_voices(), 0);
    // Stolen: one voice, a second note takes it.
    engine.set_polyphony(1);
    engine.start_note(&patch, note(70, 0, Some(4)), 1.0, &Expression::NEUTRAL);
    engine.start_note(&patch, note(72, 0, Some(5)), 1.0, &Expression::NEUTRAL);
    assert_eq!(ended(&mut engine), [note(70, 0, Some(4))]);
    // Decayed: the voice ends by itself at −120 dB.
    let mut short = patch;
    short.object.t60_s = 0.05;
    engine.start_note(&short, note(40, 0, Some(6)), 1.0, &Expression::NEUTRAL);
    assert_eq!(ended(&mut engine), [note(72, 0, Some(5))]);
    render(&mut engine, &short, 48_000);
    assert_eq!(ended(&mut engine), [note(40, 0, Some(6))]);
}
