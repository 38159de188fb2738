//! The plugin built with `nice-plug/assert_process_allocs` (debug) renders dense notes, note-offs,
//! chokes, MIDI controllers (mod wheel, all notes off, all sound off, MPE bends, pressure, CC 74),
//! note expressions, polyphonic modulation and automation in every mode without aborting: any allocation in process() kills the host process and fails this test.

use urto::presets::factory;
use urto::UrtoParams;
use urto_dsp::voice::PlayMode;
use urto_host_tests::{
    clap_state, Expression, Midi, Modulation, Note, NoteEnd, NoteExpressionType, NoteOff,
    ParamChange, Render, Session, VoicedNote,
};

#[test]
fn process_does_not_allocate() {
    let Some(path) = std::env::var_os("URTO_CLAP_NO_ALLOC") else {
        panic!("URTO_CLAP_NO_ALLOC must name the assert_process_allocs debug build (cargo xtask test sets it)");
    };
    let path = std::path::Path::new(&path);
    let notes: Vec<Note> = (0..300u64)
        .map(|i| Note {
            at_sample: i * 97,
            key: 24 + (i * 7 % 80) as u8,
            velocity: (i % 10) as f64 / 9.0,
        })
        .collect();
    let offs: Vec<NoteOff> = notes
        .iter()
        .map(|n| NoteOff {
            at_sample: n.at_sample + 500,
            key: n.key,
        })
        .collect();
    let chokes: Vec<NoteEnd> = (0..40u64)
        .map(|i| NoteEnd {
            at_sample: i * 1009 + 13,
            key: (i % 4 != 0).then_some(24 + (i * 11 % 80) as u8),
            choke: i % 2 == 0,
        })
        .collect();
    // Mod wheel sweeps, all notes off (123), all sound off (120).
    let midi: Vec<Midi> = (0..60u64)
        .map(|i| Midi {
            at_sample: i * 733 + 5,
            bytes: match i % 10 {
                4 => [0xB0, 123, 0],
                5 => [0xB0, 120, 0],
                6 => [
                    0xE0 | (i % 16) as u8,
                    (i * 5 % 128) as u8,
                    (i * 13 % 128) as u8,
                ],
                7 => [0xD0 | (i % 16) as u8, (i * 29 % 128) as u8, 0],
                8 => [0xB0 | (i % 16) as u8, 74, (i * 41 % 128) as u8],
                9 => [0x90 | (i % 16) as u8, 30 + (i % 60) as u8, 90],
                _ => [0xB0, 1, (i * 19 % 128) as u8],
            },
        })
        .collect();
    // Notes with ids, their expressions and polyphonic modulation of the stiffness and the gain.
    let voiced: Vec<VoicedNote> = (0..100u64)
        .map(|i| VoicedNote {
            at_sample: i * 401 + 3,
            key: 30 + (i * 13 % 70) as u8,
            channel: (i % 16) as u8,
            note_id: i as u32,
            velocity: 0.7,
        })
        .collect();
    let kinds = [
        (NoteExpressionType::Tuning, 5.0),
        (NoteExpressionType::Volume, 0.5),
        (NoteExpressionType::Pan, 0.2),
        (NoteExpressionType::Brightness, 0.9),
        (NoteExpressionType::Pressure, 0.6),
        (NoteExpressionType::Expression, 0.4),
    ];
    let expressions: Vec<Expression> = (0..300u64)
        .map(|i| Expression {
            at_sample: i * 139 + 50,
            note_id: (i / 3) as u32,
            kind: kinds[i as usize % kinds.len()].0,
            value: kinds[i as usize % kinds.len()].1,
        })
        .collect();
    // The first factory preset of each mode, then the contact and the mode automated under the
    // notes.
    for mode in 0..PlayMode::ALL.len() {
        let preset = factory()
            .into_iter()
            .find(|p| p.plain_value("mode").unwrap_or(0.0) as usize == mode)
            .unwrap_or_else(|| panic!("no factory preset in mode {mode}"));
        let mut session = Session::new(path).expect("load the no-alloc CLAP");
        let state = serde_json::to_vec(&preset.to_state(&UrtoParams::default())).unwrap();
        session.load_state(&clap_state(&state)).expect("state");
        let ids: Vec<u32> = [
            "Stiffness",
            "Dissipation",
            "Contact shape",
            "Mode",
            "Output gain",
        ]
        .iter()
        .map(|n| session.param_id(n).unwrap())
        .collect();
        let changes: Vec<ParamChange> = (0..400u64)
            .map(|i| ParamChange {
                at_sample: i * 71,
                param_id: ids[(i % 5) as usize],
                value: if i % 5 == 3 {
                    (i / 5 % PlayMode::ALL.len() as u64) as f64
                } else {
                    (i * 37 % 100) as f64 / 100.0
                },
            })
            .collect();
        let (stiffness, gain) = (ids[0], ids[4]);
        let modulations: Vec<Modulation> = (0..200u64)
            .map(|i| Modulation {
                at_sample: i * 211 + 7,
                param_id: if i % 2 == 0 { stiffness } else { gain },
                note_id: (i / 2) as u32,
                amount: (i % 7) as f64 / 20.0 - 0.15,
            })
            .collect();
        let out = session
            .render(&Render {
                sample_rate_hz: 44_100.0,
                block_frames: 333,
                total_frames: 44_100,
                notes: &notes,
                note_offs: &offs,
                changes: &changes,
                note_ends: &chokes,
                midi: &midi,
                voiced: &voiced,
                expressions: &expressions,
                modulations: &modulations,
                ..Render::default()
            })
            .expect("render");
        assert!(out.iter().all(|x| x.is_finite()), "{}", preset.name);
        assert!(out.iter().any(|x| *x != 0.0), "{}", preset.name);
    }
}
