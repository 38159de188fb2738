//! Per-note expression through the release CLAP in a real CLAP host (issue 13, point 4): note
//! expressions and polyphonic modulation sent to one note id, and MPE MIDI sent on one channel,
//! change that note alone — the output with two notes is exactly the sum of the changed note
//! alone and the other note alone — and do what they say (tuning retunes, volume scales, pan
//! places); the plugin tells the host when a note ended.

use urto_host_tests::{
    clap_path, expected_fundamental_hz, strongest_peak_hz, Expression, Midi, Modulation, NoteEnd,
    NoteExpressionType, Render, Session, VoicedNote,
};

const FS: f64 = 48_000.0;
const FRAMES: usize = 28_800;
/// When expressions arrive: 0.2 s after the notes.
const EVENT_AT: u64 = 9_600;

/// A session with the ball dropped in bounce mode (so pressure has a ball to press; bounces
/// draw nothing at random, so a note alone sounds as it does beside another).
fn session(extra: &[(&str, f64)]) -> Session {
    let mut session = Session::new(&clap_path()).expect("the CLAP loads");
    let mut changes = vec![(session.param_id("Mode").unwrap(), 1.0)];
    for (name, value) in extra {
        changes.push((session.param_id(name).unwrap(), *value));
    }
    session.flush(&changes).unwrap();
    session
}

fn voiced(key: u8, channel: u8, note_id: u32) -> VoicedNote {
    VoicedNote {
        at_sample: 100,
        key,
        channel,
        note_id,
        velocity: 0.8,
    }
}

/// A (key 60, note id 1) and B (key 67, note id 2).
const A: u32 = 1;
const B: u32 = 2;

fn render(session: &mut Session, r: &Render) -> [Vec<f32>; 2] {
    let out = session.render_stereo(r).expect("renders");
    assert!(out.iter().flatten().all(|y| y.is_finite()));
    out
}

/// Whether `both` is exactly the sum of `a` and `b`, channel by channel, sample by sample (the
/// engine adds its voices' f32 outputs in that order).
fn is_sum(both: &[Vec<f32>; 2], a: &[Vec<f32>; 2], b: &[Vec<f32>; 2]) -> bool {
    (0..2).all(|c| {
        both[c]
            .iter()
            .zip(&a[c])
            .zip(&b[c])
            .all(|((y, x), z)| *y == *x + *z)
    })
}

/// Render A and B, A alone and B alone, each with `events` (which name A); check that the pair
/// is the sum of the two alone and differs from the pair without events; return A alone, with
/// and without the events.
fn only_a_changes(
    session: &mut Session,
    expressions: &[Expression],
    modulations: &[Modulation],
) -> ([Vec<f32>; 2], [Vec<f32>; 2]) {
    let pair = [voiced(60, 0, A), voiced(67, 0, B)];
    let base = Render {
        sample_rate_hz: FS,
        block_frames: 256,
        total_frames: FRAMES,
        expressions,
        modulations,
        ..Render::default()
    };
    let both = render(
        session,
        &Render {
            voiced: &pair,
            ..base.clone()
        },
    );
    let a = render(
        session,
        &Render {
            voiced: &pair[..1],
            ..base.clone()
        },
    );
    let b = render(
        session,
        &Render {
            voiced: &pair[1..],
            ..base.clone()
        },
    );
    let plain = Render {
        expressions: &[],
        modulations: &[],
        ..base
    };
    let both_plain = render(
        session,
        &Render {
            voiced: &pair,
            ..plain.clone()
        },
    );
    let a_plain = render(
        session,
        &Render {
            voiced: &pair[..1],
            ..plain
        },
    );
    assert!(is_sum(&both, &a, &b), "the other note changed");
    assert!(both != both_plain, "the note did not change");
    (a, a_plain)
}

fn expression(kind: NoteExpressionType, value: f64) -> Expression {
    Expression {
        at_sample: EVENT_AT,
        note_id: A,
        kind,
        value,
    }
}

/// Peak of `signal` from `from` on.
fn peak(signal: &[f32], from: usize) -> f32 {
    signal[from..].iter().fold(0.0, |m, y| m.max(y.abs()))
}

#[test]
fn note_expressions_reach_only_the_note_they_name() {
    let mut session = session(&[]);
    let after = EVENT_AT as usize + 4_800;
    // Tuning: an octave up (CLAP: semitones).
    let (a, _) = only_a_changes(
        &mut session,
        &[expression(NoteExpressionType::Tuning, 12.0)],
        &[],
    );
    let heard_hz = strongest_peak_hz(&a[0][after..], FS);
    let expected_hz = expected_fundamental_hz(72);
    assert!(
        (heard_hz / expected_hz - 1.0).abs() < 0.02,
        "tuned to {heard_hz} Hz, expected {expected_hz}"
    );
    // Volume: half (CLAP: a gain ratio 0…4), exact once its 5 ms glide is over.
    let (a, a_plain) = only_a_changes(
        &mut session,
        &[expression(NoteExpressionType::Volume, 0.5)],
        &[],
    );
    let halved = (0..2).all(|c| {
        a[c][after..]
            .iter()
            .zip(&a_plain[c][after..])
            .all(|(y, x)| (y - 0.5 * x).abs() <= 1e-6 * x.abs().max(1e-3))
    });
    assert!(halved, "volume 0.5 is not half");
    // Pan hard left (CLAP: 0 left … 1 right): nothing on the right once it glided there.
    let (a, _) = only_a_changes(
        &mut session,
        &[expression(NoteExpressionType::Pan, 0.0)],
        &[],
    );
    assert_eq!(peak(&a[1], after), 0.0, "panned left, heard on the right");
    assert!(peak(&a[0], after) > 0.0);
    // Brightness and pressure change the note (next contacts, the ball's fall).
    for kind in [NoteExpressionType::Brightness, NoteExpressionType::Pressure] {
        only_a_changes(&mut session, &[expression(kind, 1.0)], &[]);
    }
}

#[test]
fn polyphonic_modulation_reaches_only_its_note() {
    let mut session = session(&[]);
    let gain = session.param_id("Output gain").unwrap();
    let stiffness = session.param_id("Stiffness").unwrap();
    let modulation = |param_id, amount| Modulation {
        at_sample: EVENT_AT,
        param_id,
        note_id: A,
        amount,
    };
    // −0.1 of the gain's 60 dB span: −6 dB on this note alone.
    let (a, a_plain) = only_a_changes(&mut session, &[], &[modulation(gain, -0.1)]);
    let after = EVENT_AT as usize + 4_800;
    let factor = 10f32.powf(-6.0 / 20.0);
    let scaled = (0..2).all(|c| {
        a[c][after..]
            .iter()
            .zip(&a_plain[c][after..])
            .all(|(y, x)| (y - factor * x).abs() <= 1e-5 * x.abs().max(1e-3))
    });
    assert!(scaled, "the gain modulation is not −6 dB");
    only_a_changes(&mut session, &[], &[modulation(stiffness, 0.2)]);
}

#[test]
fn the_host_is_told_when_a_note_ended() {
    let mut session = session(&[("Mode", 0.0)]);
    let note = voiced(60, 0, 5);
    let choke = NoteEnd {
        at_sample: 4_800,
        key: Some(60),
        choke: true,
    };
    render(
        &mut session,
        &Render {
            sample_rate_hz: FS,
            block_frames: 256,
            total_frames: 9_600,
            voiced: &[note],
            note_ends: &[choke],
            ..Render::default()
        },
    );
    let ended = session.ended_notes();
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert_eq!((ended[0].note_id, ended[0].key), (5, 60));
    // A choke damps to a T60 of 10 ms: the voice ends at −120 dB, 20 ms later.
    let after_ms = (ended[0].at_sample - choke.at_sample) as f64 / FS * 1e3;
    assert!(
        (15.0..30.0).contains(&after_ms),
        "ended {after_ms} ms after the choke"
    );
}

/// MIDI 1.0 bytes of a pitch bend of `semitones` on a range of `range` semitones.
fn bend(channel: u8, semitones: f64, range: f64) -> [u8; 3] {
    let raw = (8192.0 + 8192.0 * semitones / range).round().min(16383.0) as u16;
    [0xE0 | channel, (raw & 0x7F) as u8, (raw >> 7) as u8]
}

/// MPE (lower zone): A on channel 2, B on channel 3, and messages on A's channel after 0.2 s:
/// A alone changes, and a bend moves its pitch by its range's share.
#[test]
fn mpe_midi_reaches_the_note_of_its_channel() {
    let mut session = session(&[("MPE", 1.0)]);
    let (a_on, b_on) = ([0x91, 60, 100], [0x92, 67, 100]);
    let midi = |bytes| Midi {
        at_sample: 100,
        bytes,
    };
    let late = |bytes| Midi {
        at_sample: EVENT_AT,
        bytes,
    };
    let run = |session: &mut Session, messages: &[Midi]| {
        let base = Render {
            sample_rate_hz: FS,
            block_frames: 256,
            total_frames: FRAMES,
            ..Render::default()
        };
        let with = |notes: &[[u8; 3]], extra: &[Midi]| {
            let mut all: Vec<Midi> = notes.iter().map(|&n| midi(n)).collect();
            all.extend_from_slice(extra);
            all
        };
        let both = render(
            session,
            &Render {
                midi: &with(&[a_on, b_on], messages),
                ..base.clone()
            },
        );
        let a = render(
            session,
            &Render {
                midi: &with(&[a_on], messages),
                ..base.clone()
            },
        );
        let b = render(
            session,
            &Render {
                midi: &with(&[b_on], &[]),
                ..base.clone()
            },
        );
        let plain = render(
            session,
            &Render {
                midi: &with(&[a_on, b_on], &[]),
                ..base.clone()
            },
        );
        let a_plain = render(
            session,
            &Render {
                midi: &with(&[a_on], &[]),
                ..base
            },
        );
        assert!(is_sum(&plain, &a_plain, &b), "plain is not a sum");
        assert!(
            is_sum(&both, &a, &b),
            "{messages:?}: the other note changed"
        );
        assert!(both != plain, "{messages:?}: the note did not change");
        a
    };
    // Member channel bend: +12 semitones on MPE's ±48.
    let a = run(&mut session, &[late(bend(1, 12.0, 48.0))]);
    let heard_hz = strongest_peak_hz(&a[0][EVENT_AT as usize + 4_800..], FS);
    let expected_hz = expected_fundamental_hz(72);
    assert!(
        (heard_hz / expected_hz - 1.0).abs() < 0.02,
        "bent to {heard_hz} Hz, expected {expected_hz}"
    );
    // Channel pressure presses the ball; CC 74 brightens the next bounces.
    run(&mut session, &[late([0xD1, 127, 0])]);
    run(&mut session, &[late([0xB1, 74, 127])]);
    // Polyphonic key pressure names the note by channel and key.
    run(&mut session, &[late([0xA1, 60, 127])]);
}

/// Without MPE a channel's bend moves every note on it, at the common ±2 semitone range.
#[test]
fn pitch_bend_moves_the_notes_of_its_channel() {
    let mut session = session(&[]);
    let messages = [
        Midi {
            at_sample: 100,
            bytes: [0x90, 60, 100],
        },
        Midi {
            at_sample: EVENT_AT,
            bytes: bend(0, 2.0, 2.0),
        },
    ];
    let out = render(
        &mut session,
        &Render {
            sample_rate_hz: FS,
            block_frames: 256,
            total_frames: FRAMES,
            midi: &messages,
            ..Render::default()
        },
    );
    let heard_hz = strongest_peak_hz(&out[0][EVENT_AT as usize + 4_800..], FS);
    let expected_hz = expected_fundamental_hz(62);
    assert!(
        (heard_hz / expected_hz - 1.0).abs() < 0.01,
        "bent to {heard_hz} Hz, expected {expected_hz}"
    );
}

/// RMS of `signal` from `from` on.
fn rms_from(signal: &[f32], from: usize) -> f64 {
    urto_host_tests::rms(&signal[from..])
}

/// The note expression "expression" (CLAP: 0…1) is a slider's share of its drawing speed: a
/// zip pulled at full speed rasps on; told 0, its slider slows to a stop within its 30 ms
/// smoothing and the zip's short ring (T60 0.04 s) dies away — 60 dB down 0.2 s later; told
/// under another note id, it plays on unchanged.
#[test]
fn the_expression_expression_draws_only_its_slider() {
    let zip = urto::presets::factory()
        .into_iter()
        .find(|p| p.name == "Zip")
        .expect("the Zip preset");
    let state = serde_json::to_vec(&zip.to_state(&urto::UrtoParams::default())).unwrap();
    let mut session = Session::new(&clap_path()).expect("the CLAP loads");
    session
        .load_state(&urto_host_tests::clap_state(&state))
        .unwrap();
    let note = [voiced(60, 0, A)];
    let stop = |note_id| Expression {
        note_id,
        ..expression(NoteExpressionType::Expression, 0.0)
    };
    let mut play = |expressions: &[Expression]| {
        render(
            &mut session,
            &Render {
                sample_rate_hz: FS,
                block_frames: 256,
                total_frames: FRAMES,
                voiced: &note,
                expressions,
                ..Render::default()
            },
        )
    };
    let (drawn, stopped, elsewhere) = (play(&[]), play(&[stop(A)]), play(&[stop(B)]));
    let late = EVENT_AT as usize + 9_600;
    let (drawn_rms, stopped_rms) = (rms_from(&drawn[0], late), rms_from(&stopped[0], late));
    assert!(drawn_rms > 1e-3, "the zip is drawn: RMS {drawn_rms}");
    assert!(
        stopped_rms < 1e-3 * drawn_rms,
        "stopped: RMS {stopped_rms} against {drawn_rms} drawn"
    );
    assert_eq!(
        elsewhere, drawn,
        "an expression for another note changed this one"
    );
}
