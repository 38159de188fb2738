//! Host behaviour through the real CLAP bundle: reactivation at other sample rates (8 kHz to
//! 384 kHz), reset mid-note, zero-length and changing blocks, a note on a block's last sample, note-offs for notes
//! never on, all notes off / all sound off (MIDI controllers 123 and 120, CLAP wildcard note-off
//! and choke), and garbage state refused with the parameters kept.

use urto_dsp::voice::PlayMode;
use urto_host_tests::{
    clap_path, clap_state, expected_fundamental_hz, rms, state_json, strongest_peak_hz, Midi, Note,
    NoteEnd, NoteOff, ParamChange, Render, Session,
};

fn note(at_sample: u64, key: u8) -> Note {
    Note {
        at_sample,
        key,
        velocity: 0.8,
    }
}

/// Where two renders first differ (`None`: identical), so a failure reports a place, not arrays.
fn first_difference(a: &[f32], b: &[f32]) -> Option<usize> {
    (a.len() != b.len())
        .then_some(a.len().min(b.len()))
        .or_else(|| {
            a.iter()
                .zip(b)
                .position(|(x, y)| x.to_bits() != y.to_bits())
        })
}

/// Render `r` in a new instance.
fn fresh(r: &Render) -> Vec<f32> {
    Session::new(&clap_path()).unwrap().render(r).unwrap()
}

#[test]
fn reactivation_at_other_sample_rates_stays_in_tune() {
    // One instance, deactivated and activated again at each rate in turn.
    let mut session = Session::new(&clap_path()).unwrap();
    for fs in [44_100.0, 8_000.0, 96_000.0, 384_000.0, 48_000.0] {
        let notes = [note(0, 69)];
        let audio = session
            .render(&Render {
                sample_rate_hz: fs,
                block_frames: 512,
                total_frames: fs as usize,
                notes: &notes,
                ..Render::default()
            })
            .unwrap();
        assert!(audio.iter().all(|x| x.is_finite()), "{fs} Hz");
        assert!(rms(&audio) > 1e-4, "{fs} Hz is silent");
        let peak = strongest_peak_hz(&audio, fs);
        let expected = expected_fundamental_hz(69);
        assert!(
            (peak / expected - 1.0).abs() < 0.02,
            "{fs} Hz: peak at {peak} Hz"
        );
    }
}

#[test]
fn reset_mid_note_silences_and_the_next_note_plays_as_new() {
    let reset_at = 4800;
    let render = |notes: &[Note], resets: &[u64]| {
        fresh(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 512,
            total_frames: 24_000,
            notes,
            resets,
            ..Render::default()
        })
    };
    let ringing = render(&[note(0, 60)], &[]);
    let reset = render(&[note(0, 60)], &[reset_at]);
    assert_eq!(first_difference(&reset[..4800], &ringing[..4800]), None);
    assert!(rms(&ringing[4800..9600]) > 1e-4, "the note rings on");
    assert!(
        reset[4800..].iter().all(|&x| x == 0.0),
        "silent after the reset"
    );
    // A note after the reset sounds exactly as in a fresh instance, shifted.
    let again = render(&[note(0, 60), note(9600, 64)], &[reset_at]);
    let fresh = render(&[note(0, 64)], &[]);
    assert_eq!(
        first_difference(&again[9600..], &fresh[..24_000 - 9600]),
        None
    );
}

#[test]
fn zero_length_and_changing_blocks_change_nothing() {
    let notes = [note(0, 60), note(1000, 64), note(4095, 67), note(9000, 72)];
    let offs = [NoteOff {
        at_sample: 7000,
        key: 64,
    }];
    let render = |pattern: &[usize]| {
        fresh(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 8192,
            total_frames: 24_000,
            notes: &notes,
            note_offs: &offs,
            block_pattern: pattern,
            ..Render::default()
        })
    };
    let reference = render(&[512]);
    assert!(rms(&reference) > 1e-4);
    for pattern in [
        &[0, 1, 0, 7, 64, 0, 8192][..],
        &[1][..],
        &[4095, 0, 2, 8191][..],
    ] {
        let audio = render(pattern);
        assert_eq!(
            first_difference(&audio, &reference),
            None,
            "blocks {pattern:?}"
        );
    }
}

#[test]
fn a_note_on_the_last_sample_of_a_block_sounds_on_that_sample() {
    let render = |block: usize| {
        fresh(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: block,
            total_frames: 4096,
            notes: &[note(63, 60)],
            ..Render::default()
        })
    };
    let audio = render(64);
    assert!(
        audio[..63].iter().all(|&x| x == 0.0),
        "silent before the note"
    );
    let first = audio
        .iter()
        .position(|&x| x != 0.0)
        .expect("the note sounds");
    assert!((63..66).contains(&first), "first sound at sample {first}");
    assert_eq!(first_difference(&audio, &render(1)), None);
}

#[test]
fn note_offs_for_notes_never_on_are_harmless() {
    let notes = [note(100, 60)];
    let stray: Vec<NoteOff> = (0..128u8)
        .map(|key| NoteOff {
            at_sample: 50 + u64::from(key) * 37,
            key,
        })
        .filter(|off| off.key != 60)
        .collect();
    let render = |offs: &[NoteOff]| {
        fresh(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 256,
            total_frames: 12_000,
            notes: &notes,
            note_offs: offs,
            ..Render::default()
        })
    };
    assert_eq!(first_difference(&render(&stray), &render(&[])), None);
}

#[test]
fn garbage_state_is_refused_and_the_parameters_are_kept() {
    let mut session = Session::new(&clap_path()).unwrap();
    let k = session.param_id("Stiffness").unwrap();
    // Move a parameter away from its default so "kept" means something.
    session
        .render(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 64,
            total_frames: 64,
            changes: &[urto_host_tests::ParamChange {
                at_sample: 0,
                param_id: k,
                value: 0.25,
            }],
            ..Render::default()
        })
        .unwrap();
    let before = session.save_state().unwrap();
    let valid_json = state_json(&before).to_vec();
    let garbage: Vec<Vec<u8>> = vec![
        vec![],
        vec![0xff; 3],
        (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect(),
        clap_state(b"not json at all"),
        clap_state(br#"{"version": 1, "params": "nope"}"#),
        clap_state(&valid_json[..valid_json.len() / 2]),
        {
            // A length prefix far beyond the data.
            let mut bytes = (u64::MAX / 2).to_le_bytes().to_vec();
            bytes.extend_from_slice(&valid_json);
            bytes
        },
    ];
    for bytes in &garbage {
        assert!(
            session.load_state(bytes).is_err(),
            "accepted {} bytes of garbage",
            bytes.len()
        );
        assert_eq!(
            session.save_state().unwrap(),
            before,
            "garbage changed the state"
        );
    }
    // And the instance still plays.
    let audio = session
        .render(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 512,
            total_frames: 9600,
            notes: &[note(0, 60)],
            ..Render::default()
        })
        .unwrap();
    assert!(audio.iter().all(|x| x.is_finite()) && rms(&audio) > 1e-4);
}

const FS: f64 = 48_000.0;
/// When the notes of the all-off tests are ended.
const END_AT: u64 = 9_600;
const CHORD: [u8; 3] = [48, 60, 67];

/// Render `CHORD` (struck at 0) for 1.5 s in play mode `mode` (its index in [`PlayMode::ALL`]), with
/// `ends` and `midi` sent.
fn chord(mode: f64, ends: &[NoteEnd], midi: &[Midi], keys: &[u8]) -> Vec<f32> {
    let mut session = Session::new(&clap_path()).unwrap();
    let mode_id = session.param_id("Mode").unwrap();
    let notes: Vec<Note> = keys.iter().map(|&k| note(0, k)).collect();
    session
        .render(&Render {
            sample_rate_hz: FS,
            block_frames: 512,
            total_frames: (1.5 * FS) as usize,
            notes: &notes,
            note_ends: ends,
            midi,
            changes: &[ParamChange {
                at_sample: 0,
                param_id: mode_id,
                value: mode,
            }],
            ..Render::default()
        })
        .unwrap()
}

fn each_key(choke: bool) -> Vec<NoteEnd> {
    CHORD
        .iter()
        .map(|&k| NoteEnd {
            at_sample: END_AT,
            key: Some(k),
            choke,
        })
        .collect()
}

fn every_key(choke: bool) -> [NoteEnd; 1] {
    [NoteEnd {
        at_sample: END_AT,
        key: None,
        choke,
    }]
}

/// MIDI control change `cc` (value 0) on channel 1 at `END_AT`.
fn controller(cc: u8) -> [Midi; 1] {
    [Midi {
        at_sample: END_AT,
        bytes: [0xB0, cc, 0],
    }]
}

#[test]
fn all_notes_off_releases_every_held_note() {
    // Rolling balls roll on until their note-off, so a missed release is heard.
    const ROLL: f64 = 2.0;
    let held = chord(ROLL, &[], &[], &CHORD);
    let released = chord(ROLL, &each_key(false), &[], &CHORD);
    assert!(
        first_difference(&held, &released).is_some(),
        "note-offs change a roll"
    );
    for (what, audio) in [
        ("CC 123", chord(ROLL, &[], &controller(123), &CHORD)),
        (
            "wildcard note-off",
            chord(ROLL, &every_key(false), &[], &CHORD),
        ),
    ] {
        assert_eq!(first_difference(&audio, &released), None, "{what}");
    }
}

#[test]
fn all_sound_off_silences_within_two_choke_times() {
    let silent_from = END_AT as usize + (0.03 * FS) as usize;
    // Every play mode, by its index in the Mode parameter.
    for mode in (0..PlayMode::ALL.len()).map(|i| i as f64) {
        let ringing = chord(mode, &[], &[], &CHORD);
        assert!(rms(&ringing[silent_from..]) > 1e-4, "mode {mode} rings on");
        for (what, audio) in [
            ("CC 120", chord(mode, &[], &controller(120), &CHORD)),
            ("wildcard choke", chord(mode, &every_key(true), &[], &CHORD)),
            ("a choke per key", chord(mode, &each_key(true), &[], &CHORD)),
        ] {
            let end = END_AT as usize;
            assert_eq!(
                first_difference(&audio[..end], &ringing[..end]),
                None,
                "{what}"
            );
            assert!(
                audio[silent_from..].iter().all(|&x| x == 0.0),
                "mode {mode}: {what} leaves sound 30 ms later"
            );
        }
    }
    // A choke of one key leaves the others as they would sound alone.
    let choke_60 = [NoteEnd {
        at_sample: END_AT,
        key: Some(60),
        choke: true,
    }];
    let others = chord(0.0, &[], &[], &[48, 67]);
    let choked = chord(0.0, &choke_60, &[], &CHORD);
    assert_eq!(
        first_difference(&choked[silent_from..], &others[silent_from..]),
        None
    );
}

#[test]
fn reset_all_controllers_restores_the_rolling_speed() {
    // A roll follows the mod wheel (default source); wheel at 0 stops the ball, CC 121 restores
    // the state of no controller moved.
    const ROLL: f64 = 2.0;
    let wheel_down = Midi {
        at_sample: 0,
        bytes: [0xB0, 1, 0],
    };
    let reset = Midi {
        at_sample: 0,
        bytes: [0xB0, 121, 0],
    };
    let untouched = chord(ROLL, &[], &[], &[60]);
    let stopped = chord(ROLL, &[], &[wheel_down], &[60]);
    assert!(
        first_difference(&stopped, &untouched).is_some(),
        "the wheel slows the ball"
    );
    let restored = chord(ROLL, &[], &[wheel_down, reset], &[60]);
    assert_eq!(first_difference(&restored, &untouched), None);
}
