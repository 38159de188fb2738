//! The checks of the CLAP validator (free-audio/clap-validator, which `cargo xtask validate` also
//! runs itself) written against the real bundle, so they run in `cargo test` and can be extended:
//! descriptor, ports, parameter conversions and ranges, parameter fuzzing (random values and
//! bounds, and the permutation the validator once failed), state reproducibility (after
//! processing, after a flush, through chunked streams), random consistent and inconsistent note
//! and MIDI events, and the thread-safety check (audio processed on its own thread, host calls
//! checked per thread).

use clack_extensions::audio_ports::{AudioPortInfoBuffer, PluginAudioPorts};
use clack_extensions::note_ports::{
    NoteDialect, NoteDialects, NotePortInfoBuffer, PluginNotePorts,
};
use clack_extensions::params::PluginParams;
use clack_host::prelude::*;
use nice_plug::params::Params;
use std::ffi::CString;
use std::io::{Read, Write};
use urto_host_tests::{
    clap_path, Midi, Note, NoteEnd, NoteOff, ParamChange, ParamSpec, Render, Session, URTO_CLAP_ID,
};

/// Block size of the validator's processing tests.
const BLOCK: usize = 512;
/// Parameter permutations and blocks per permutation of the validator's fuzz test.
const PERMUTATIONS: usize = 50;
const BLOCKS_PER_PERMUTATION: usize = 5;

/// Output a CLAP host accepts: finite and not subnormal (the validator checks both).
fn assert_clean(audio: &[f32], what: &str) {
    if let Some(i) = audio
        .iter()
        .position(|x| !x.is_finite() || x.is_subnormal())
    {
        panic!("{what}: sample {i} is {}", audio[i]);
    }
}

#[test]
fn the_descriptor_is_complete_and_consistent() {
    // SAFETY: loading a dynamic library runs its initialisers; the path is our own plugin.
    let entry = unsafe { PluginEntry::load(clap_path()) }.unwrap();
    let factory = entry.get_plugin_factory().unwrap();
    let descriptors: Vec<_> = factory.plugin_descriptors().collect();
    assert_eq!(descriptors.len(), 1, "one plugin in the factory");
    let d = &descriptors[0];
    let text = |s: Option<&std::ffi::CStr>| s.map(|s| s.to_string_lossy().into_owned());
    assert_eq!(text(d.id()).as_deref(), Some(URTO_CLAP_ID));
    assert_eq!(text(d.name()).as_deref(), Some("Urto"));
    assert!(text(d.vendor()).is_some_and(|v| !v.is_empty()));
    assert_eq!(
        text(d.version()).as_deref(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    let features: Vec<String> = d
        .features()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    // An instrument, and each feature once (the validator's features-duplicates).
    assert!(features.iter().any(|f| f == "instrument"), "{features:?}");
    let mut unique = features.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), features.len(), "{features:?}");
}

#[test]
fn ports_are_one_note_input_and_one_stereo_output() {
    let mut session = Session::new(&clap_path()).unwrap();
    let handle = session.main_thread();
    let notes: PluginNotePorts = handle.get_extension().expect("note-ports");
    assert_eq!(notes.count(&handle, true), 1, "note inputs");
    assert_eq!(notes.count(&handle, false), 0, "note outputs");
    let mut buffer = NotePortInfoBuffer::new();
    let port = notes.get(&handle, 0, true, &mut buffer).unwrap();
    assert!(port
        .supported_dialects
        .contains(NoteDialects::CLAP | NoteDialects::MIDI));
    let preferred = port.preferred_dialect.expect("a preferred dialect");
    assert!(port.supported_dialects.supports(preferred));
    assert_eq!(preferred, NoteDialect::Clap);

    let audio: PluginAudioPorts = handle.get_extension().expect("audio-ports");
    assert_eq!(audio.count(&handle, true), 0, "audio inputs");
    assert_eq!(audio.count(&handle, false), 1, "audio outputs");
    let mut buffer = AudioPortInfoBuffer::new();
    let out = audio.get(&handle, 0, false, &mut buffer).unwrap();
    assert_eq!(out.channel_count, 2);
}

#[test]
fn parameters_are_well_formed() {
    let mut session = Session::new(&clap_path()).unwrap();
    let params = session.params().unwrap();
    // Every parameter the plugin declares, and no others.
    assert_eq!(params.len(), urto::UrtoParams::default().param_map().len());
    let mut ids: Vec<u32> = params.iter().map(|p| p.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), params.len(), "parameter ids are unique");
    for p in &params {
        assert!(!p.name.is_empty());
        assert!(
            p.min.is_finite() && p.max.is_finite() && p.min < p.max,
            "{}: range {}…{}",
            p.name,
            p.min,
            p.max
        );
        assert!((p.min..=p.max).contains(&p.default), "{}: default", p.name);
        let value = session.param_value(p.id).unwrap();
        assert_eq!(
            value, p.default,
            "{}: a new instance is at its default",
            p.name
        );
        if p.stepped {
            // On a step, to the f32 precision of nice-plug's normalised values (the wrapper
            // declares "Modes" 1…128 as 0…127 with default 15.0000004).
            let off_step = (p.default - p.default.round()).abs();
            assert!(off_step < 1e-5, "{}: stepped default {}", p.name, p.default);
        }
    }
}

/// The plugin's text for `value` of parameter `id`.
fn value_to_text(session: &mut Session, id: u32, value: f64) -> String {
    let handle = session.main_thread();
    let params: PluginParams = handle.get_extension().unwrap();
    let mut buffer = [0u8; 256];
    let text = params
        .value_to_text(&handle, ClapId::new(id), value, &mut buffer)
        .unwrap_or_else(|_| panic!("no text for parameter {id} at {value}"));
    String::from_utf8(text.to_vec()).unwrap()
}

/// The plugin's value for `text` of parameter `id`.
fn text_to_value(session: &mut Session, id: u32, text: &str) -> f64 {
    let handle = session.main_thread();
    let params: PluginParams = handle.get_extension().unwrap();
    let c_text = CString::new(text).unwrap();
    params
        .text_to_value(&handle, ClapId::new(id), &c_text)
        .unwrap_or_else(|| panic!("parameter {id} does not parse {text:?}"))
}

#[test]
fn parameter_conversions_round_trip() {
    // The validator's param-conversions: from a value's text, back to a value, to text again and
    // to a value again, the texts and the values agree.
    let mut rng = fastrand::Rng::with_seed(0xC1A9);
    let mut session = Session::new(&clap_path()).unwrap();
    for p in session.params().unwrap() {
        let random = |rng: &mut fastrand::Rng| p.min + rng.f64() * (p.max - p.min);
        let values = [
            p.min,
            p.max,
            random(&mut rng),
            random(&mut rng),
            random(&mut rng),
            random(&mut rng),
        ];
        for start in values {
            let text = value_to_text(&mut session, p.id, start);
            let value = text_to_value(&mut session, p.id, &text);
            assert!(
                (p.min..=p.max).contains(&value),
                "{}: {text:?} parses to {value}",
                p.name
            );
            let text_again = value_to_text(&mut session, p.id, value);
            assert_eq!(text_again, text, "{}: {start} → {text:?} → {value}", p.name);
            let value_again = text_to_value(&mut session, p.id, &text_again);
            assert_eq!(value_again, value, "{}: {text:?}", p.name);
        }
    }
}

/// A value of `p` drawn uniformly over its range (whole steps for stepped parameters).
fn random_value(p: &ParamSpec, rng: &mut fastrand::Rng) -> f64 {
    if p.stepped {
        rng.i64(p.min as i64..=p.max as i64) as f64
    } else {
        p.min + rng.f64() * (p.max - p.min)
    }
}

/// Random note and MIDI traffic over `frames` samples. `consistent`: every note-off follows its
/// note-on; otherwise anything goes (offs and chokes of notes never on, raw MIDI of every kind,
/// data bytes out of range).
struct Traffic {
    notes: Vec<Note>,
    offs: Vec<NoteOff>,
    ends: Vec<NoteEnd>,
    midi: Vec<Midi>,
}

impl Traffic {
    fn random(rng: &mut fastrand::Rng, frames: usize, consistent: bool) -> Traffic {
        let mut t = Traffic {
            notes: vec![],
            offs: vec![],
            ends: vec![],
            midi: vec![],
        };
        let mut held: Vec<u8> = vec![];
        for at in (0..frames as u64).step_by(97) {
            let roll = rng.u8(..100);
            if roll < 30 {
                let key = rng.u8(..128);
                t.notes.push(Note {
                    at_sample: at + rng.u64(..97),
                    key,
                    velocity: rng.f64(),
                });
                held.push(key);
            } else if roll < 55 {
                let key = if consistent {
                    match held.pop() {
                        Some(key) => key,
                        None => continue,
                    }
                } else {
                    rng.u8(..128)
                };
                t.offs.push(NoteOff {
                    at_sample: at + 96,
                    key,
                });
            } else if !consistent && roll < 65 {
                t.ends.push(NoteEnd {
                    at_sample: at + rng.u64(..97),
                    key: rng.bool().then(|| rng.u8(..128)),
                    choke: rng.bool(),
                });
            } else if !consistent {
                let status = rng.u8(0x80..=0xEF);
                let data = |rng: &mut fastrand::Rng| {
                    if rng.u8(..10) == 0 {
                        rng.u8(..)
                    } else {
                        rng.u8(..128)
                    }
                };
                t.midi.push(Midi {
                    at_sample: at + rng.u64(..97),
                    bytes: [status, data(rng), data(rng)],
                });
            }
        }
        t
    }

    /// All of it sent to `session` in blocks of [`BLOCK`]; the first output channel.
    fn render(&self, session: &mut Session, sample_rate_hz: f64, frames: usize) -> Vec<f32> {
        session
            .render(&Render {
                sample_rate_hz,
                block_frames: BLOCK,
                total_frames: frames,
                notes: &self.notes,
                note_offs: &self.offs,
                note_ends: &self.ends,
                midi: &self.midi,
                ..Render::default()
            })
            .unwrap()
    }
}

/// The validator's parameter fuzzing: [`PERMUTATIONS`] permutations of a value drawn by `draw`
/// for every parameter, each processed for 5 blocks of 512 samples with random notes; the output
/// stays finite and never subnormal. Returns how many permutations made sound.
fn fuzz(seed: u64, draw: impl Fn(&ParamSpec, &mut fastrand::Rng) -> f64) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut session = Session::new(&clap_path()).unwrap();
    let params = session.params().unwrap();
    let mut sounding = 0;
    for permutation in 0..PERMUTATIONS {
        let values: Vec<(u32, f64)> = params.iter().map(|p| (p.id, draw(p, &mut rng))).collect();
        let audio = render_with(&mut session, &values, &mut rng);
        assert_clean(&audio, &format!("permutation {permutation}: {values:?}"));
        sounding += usize::from(audio.iter().any(|&x| x != 0.0));
    }
    assert_eq!(session.thread_violations(), Vec::<String>::new());
    sounding
}

#[test]
fn parameter_fuzzing_keeps_the_output_clean() {
    // The validator's param-fuzz-basic: random values over each parameter's range.
    let sounding = fuzz(0xF022, random_value);
    // Not a vacuous pass: most permutations make sound (some draw no note-on, or a drop from a
    // height the ball does not fall within 58 ms).
    eprintln!("{sounding} of {PERMUTATIONS} permutations sound");
    assert!(sounding > PERMUTATIONS / 2, "{sounding} permutations sound");
}

/// The parameter values (CLAP values, by name) with which clap-validator 0.4.1's
/// param-fuzz-bounds found subnormal output ("permutation 4 of 50 … sample index 26 is subnormal
/// (2.1165e-40)"): Mode = Roll, Object = String struck and picked up at its end (a node of every
/// mode, where sin(nπ) is ~1e-16 rather than 0), Decay T60 at its minimum, 128 modes, the linear
/// damper law, the energy guard off.
const VALIDATOR_SUBNORMAL_PERMUTATION: &[(&str, f64)] = &[
    ("Stiffness", 1.0),
    ("Tuning A4", 1.0),
    ("Dissipation", 1.0),
    ("Contact law", 1.0),
    ("Output gain", 1.0),
    ("Mode", 2.0),
    ("Ball radius", 1.0),
    ("Contact shape", 1.0),
    ("Decay T60", 0.0),
    ("Energy guard", 0.0),
    ("Modes", 127.0),
    ("Hardest strike", 0.0),
    ("Softest strike", 0.0),
    ("Roll speed", 1.0),
    ("Hammer mass", 0.0),
    ("Polyphony", 63.0),
    ("Integrator", 0.0),
    ("Inharmonicity", 1.0),
    ("Gravity", 1.0),
    ("Material", 0.0),
    ("Out of round", 0.0),
    ("Strike position", 1.0),
    ("Lift at release", 1.0),
    ("Capture velocity", 1.0),
    ("Roll speed source", 3.0),
    ("Object mass", 0.0),
    ("Drop height", 0.0),
    ("Release damping", 0.0),
    // "Roughness slope" 1 and "Roughness" at its top (10⁻⁴ m) then; the roll rolls on the
    // surface group now, and these are the fractal they meant (β = 3, 5.66·10⁻⁴ m).
    ("Surface slope", 3.0),
    ("Object", 8.0),
    ("Pickup position", 1.0),
    ("Key tracking", 0.0),
    ("Gravity in contact", 0.0),
    ("Damping from", 0.0),
    ("Exit correction", 1.0),
    ("Linear damping", 0.0),
    ("Restitution", 1.0),
    ("Fixed pitch", 1.0),
    ("Surface height", -3.247),
    ("Irregularity", 0.0),
];

/// Parameter changes setting `values` (id, CLAP value) at sample 0.
fn changes_at_start(values: &[(u32, f64)]) -> Vec<ParamChange> {
    values
        .iter()
        .map(|&(param_id, value)| ParamChange {
            at_sample: 0,
            param_id,
            value,
        })
        .collect()
}

/// Render random consistent traffic after setting `values` at sample 0 (notes strictly after).
fn render_with(session: &mut Session, values: &[(u32, f64)], rng: &mut fastrand::Rng) -> Vec<f32> {
    let changes = changes_at_start(values);
    let frames = BLOCK * BLOCKS_PER_PERMUTATION;
    let traffic = Traffic::random(rng, frames, true);
    let notes: Vec<Note> = traffic
        .notes
        .iter()
        .filter(|n| n.at_sample > 0)
        .copied()
        .collect();
    session
        .render(&Render {
            sample_rate_hz: 44_100.0,
            block_frames: BLOCK,
            total_frames: frames,
            notes: &notes,
            note_offs: &traffic.offs,
            changes: &changes,
            ..Render::default()
        })
        .unwrap()
}

#[test]
fn the_permutation_the_validator_failed_stays_clean() {
    let mut session = Session::new(&clap_path()).unwrap();
    let params = session.params().unwrap();
    let values: Vec<(u32, f64)> = VALIDATOR_SUBNORMAL_PERMUTATION
        .iter()
        .map(|&(name, value)| {
            let p = params
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("no parameter named {name}"));
            (p.id, value)
        })
        .collect();
    // Recorded when Urto had 40 parameters; the ones added since (dynamic range, velocity curve,
    // level) stay at their defaults.
    assert!(
        values.len() == 40 && params.len() >= 40,
        "the permutation sets every parameter it was recorded with"
    );
    let mut rng = fastrand::Rng::with_seed(4);
    for round in 0..20 {
        let audio = render_with(&mut session, &values, &mut rng);
        assert_clean(&audio, &format!("round {round}"));
        // Struck and heard on a node of every mode: exact silence, not merely a quiet signal
        // (the output stage's flush alone would hide a leftover 1e-40 from the check above).
        assert!(
            audio.iter().all(|&x| x == 0.0),
            "round {round}: a node is heard"
        );
    }
}

#[test]
fn parameters_at_their_bounds_keep_the_output_clean() {
    // The validator's param-fuzz-bounds: every parameter at its minimum or its maximum.
    let sounding = fuzz(0xB0B, |p, rng| if rng.bool() { p.min } else { p.max });
    eprintln!("{sounding} of {PERMUTATIONS} permutations at the bounds sound");
    assert!(
        sounding >= PERMUTATIONS / 4,
        "{sounding} permutations sound"
    );
}

#[test]
fn inconsistent_note_and_midi_events_keep_the_output_clean() {
    // The validator's process-note-inconsistent (and -basic with `consistent`), longer: 200
    // blocks of each.
    let mut rng = fastrand::Rng::with_seed(0x1DEA);
    let mut session = Session::new(&clap_path()).unwrap();
    for consistent in [true, false] {
        let frames = 200 * BLOCK;
        let traffic = Traffic::random(&mut rng, frames, consistent);
        let audio = traffic.render(&mut session, 44_100.0, frames);
        assert_clean(&audio, &format!("consistent {consistent}"));
        assert!(urto_host_tests::rms(&audio) > 1e-4, "the notes sound");
    }
    assert_eq!(session.thread_violations(), Vec::<String>::new());
}

/// Set every parameter to a random value by processing one block, as automation would.
fn randomise(session: &mut Session, rng: &mut fastrand::Rng) -> Vec<(u32, f64)> {
    let params = session.params().unwrap();
    let values: Vec<(u32, f64)> = params
        .iter()
        .map(|p| (p.id, random_value(p, rng)))
        .collect();
    let changes = changes_at_start(&values);
    session
        .render(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 64,
            total_frames: 64,
            changes: &changes,
            ..Render::default()
        })
        .unwrap();
    values
}

fn all_values(session: &mut Session) -> Vec<(u32, f64)> {
    let params = session.params().unwrap();
    params
        .iter()
        .map(|p| (p.id, session.param_value(p.id).unwrap()))
        .collect()
}

#[test]
fn state_reproduces_random_parameters() {
    // The validator's state-reproducibility-basic: a random state saved, loaded into a fresh
    // instance, gives the same values and saves the same bytes.
    let mut rng = fastrand::Rng::with_seed(0x57A7);
    for _ in 0..5 {
        let (state, values) = {
            let mut a = Session::new(&clap_path()).unwrap();
            randomise(&mut a, &mut rng);
            (a.save_state().unwrap(), all_values(&mut a))
        };
        let mut b = Session::new(&clap_path()).unwrap();
        b.load_state(&state).unwrap();
        assert_eq!(all_values(&mut b), values);
        assert_eq!(b.save_state().unwrap(), state);
    }
}

#[test]
fn parameters_flushed_while_inactive_are_saved() {
    // The validator's state-reproducibility-flush: values set by clap.params flush (no audio
    // processing) save the same state as the same values set during processing.
    let mut rng = fastrand::Rng::with_seed(0xF1A5);
    let (processed_state, sent, processed_values) = {
        let mut a = Session::new(&clap_path()).unwrap();
        let sent = randomise(&mut a, &mut rng);
        (a.save_state().unwrap(), sent, all_values(&mut a))
    };
    let mut b = Session::new(&clap_path()).unwrap();
    b.flush(&sent).unwrap();
    assert_eq!(all_values(&mut b), processed_values);
    assert_eq!(b.save_state().unwrap(), processed_state);
}

/// A stream that moves at most `chunk` bytes per call, as some hosts' streams do.
struct Chunked<'a> {
    bytes: &'a mut Vec<u8>,
    position: usize,
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf
            .len()
            .min(self.chunk)
            .min(self.bytes.len() - self.position);
        buf[..n].copy_from_slice(&self.bytes[self.position..self.position + n]);
        self.position += n;
        Ok(n)
    }
}

impl Write for Chunked<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.chunk);
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn state_survives_streams_that_move_a_few_bytes_at_a_time() {
    // The validator's state-buffered-streams.
    let mut rng = fastrand::Rng::with_seed(0xB0F);
    let mut a = Session::new(&clap_path()).unwrap();
    randomise(&mut a, &mut rng);
    let whole = a.save_state().unwrap();
    for chunk in [1, 7, 100] {
        let mut bytes = vec![];
        a.save_state_to(&mut Chunked {
            bytes: &mut bytes,
            position: 0,
            chunk,
        })
        .unwrap();
        assert_eq!(bytes, whole, "saved {chunk} bytes at a time");
        let mut b = Session::new(&clap_path()).unwrap();
        b.load_state_from(&mut Chunked {
            bytes: &mut bytes,
            position: 0,
            chunk,
        })
        .unwrap();
        assert_eq!(
            b.save_state().unwrap(),
            whole,
            "loaded {chunk} bytes at a time"
        );
    }
}

#[test]
fn host_functions_are_called_from_their_threads() {
    // The validator's thread-safety check: the host records each thread-restricted call the
    // plugin makes (params.rescan and .clear on the main thread only, request_flush never on the
    // audio thread, which processes on its own thread here as in a host).
    let mut rng = fastrand::Rng::with_seed(0x7EAD);
    let mut session = Session::new(&clap_path()).unwrap();
    let values = randomise(&mut session, &mut rng);
    let state = session.save_state().unwrap();
    session.flush(&values).unwrap();
    session.load_state(&state).unwrap();
    Traffic::random(&mut rng, 20 * BLOCK, false).render(&mut session, 48_000.0, 20 * BLOCK);
    session.load_state(&state).unwrap();
    let calls = session.host_calls();
    assert!(
        calls.contains(&"params.rescan"),
        "a state load rescans the parameter values: {calls:?}"
    );
    assert_eq!(session.thread_violations(), Vec::<String>::new());
}
