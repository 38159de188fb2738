//! `cargo xtask soak --minutes M [--seed S] [--json]`: minutes of random dense MIDI (notes, and now
//! and then all notes off or all sound off), mode switches and contact automation through the real CLAP bundle (clack-host), beside a twin of the plugin's
//! engine fed the same events; the twin's audio must match the plugin's bit for bit, so its voice
//! counts are the plugin's.

use anyhow::{anyhow, bail, Result};

use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};
use urto::params::Controllers;
use urto::UrtoParams;
use urto_dsp::voice::{Engine, PlayMode};
use urto_host_tests::{Midi, Note, NoteOff, ParamChange, Render, Session};

const SAMPLE_RATE_HZ: f64 = 48_000.0;
const MAX_BLOCK: usize = 1024;
/// Silence after the last note-off, for every tail to end (strikes ring out at −120 dB, balls come
/// to rest, rolls stop), s.
const TAIL_S: f64 = 120.0;
/// Mean time between events, s (about 25 events a second: notes, note-offs, automation).
const MEAN_GAP_S: f64 = 0.04;

/// What the soak measured.
pub struct SoakReport {
    pub audio_s: f64,
    pub realtime_factor: f64,
    pub nan_count: u64,
    pub peak_voices: usize,
    pub mean_voices: f64,
    pub quarantined_resets: u64,
    pub voices_left: usize,
    /// Samples where the plugin's output differs from the twin's.
    pub mismatches: u64,
    pub notes: usize,
    pub changes: usize,
    /// All-notes-off and all-sound-off messages sent.
    pub all_offs: usize,
}

/// A parameter the soak automates: its name in the host, its id in the plugin, the normalised range
/// swept (the contact's normal ranges: k 1e5…1e10, μ 0.05…2 s/m, α 1.2…2.5), or the steps of a
/// choice. (Below μ ≈ 0.05 s/m a bouncing ball is nearly elastic and bounces on for minutes before
/// the capture velocity stops it: physics, but longer than the soak's tail.)
struct Automated {
    name: &'static str,
    id: &'static str,
    normalized: (f64, f64),
    steps: Option<u32>,
}

const AUTOMATED: [Automated; 4] = [
    Automated {
        name: "Stiffness",
        id: "k",
        normalized: (0.3, 0.8),
        steps: None,
    },
    Automated {
        name: "Dissipation",
        id: "mu",
        normalized: (0.18, 0.45),
        steps: None,
    },
    Automated {
        name: "Contact shape",
        id: "alpha",
        normalized: (0.1, 0.75),
        steps: None,
    },
    Automated {
        name: "Mode",
        id: "mode",
        normalized: (0.0, 1.0),
        // Every play mode.
        steps: Some(PlayMode::ALL.len() as u32 - 1),
    },
];

/// MIDI control changes (channel 1) the soak sends now and then.
const ALL_SOUND_OFF: [u8; 3] = [0xB0, 120, 0];
const ALL_NOTES_OFF: [u8; 3] = [0xB0, 123, 0];

/// One event of the soak's timeline.
enum Event {
    On(Note),
    Off(NoteOff),
    Change(ParamChange, &'static str, f32),
    Midi(Midi),
}

impl Event {
    fn at(&self) -> u64 {
        match self {
            Event::On(n) => n.at_sample,
            Event::Off(n) => n.at_sample,
            Event::Change(c, _, _) => c.at_sample,
            Event::Midi(m) => m.at_sample,
        }
    }
}

/// Random events over `play_s` seconds, then note-offs for every held key; times are distinct.
fn timeline(rng: &mut fastrand::Rng, play_s: f64, ids: &[u32; 4]) -> Vec<Event> {
    let mut events = vec![];
    let mut held: Vec<u8> = vec![];
    let mut t = 0u64;
    let end = (play_s * SAMPLE_RATE_HZ) as u64;
    loop {
        let gap = -MEAN_GAP_S * (1.0 - rng.f64()).ln() * SAMPLE_RATE_HZ;
        t += 1 + gap as u64;
        if t >= end {
            break;
        }
        let roll = rng.f64();
        if roll < 0.01 {
            // All notes off (2 in 3) or all sound off: every held key is let go.
            let bytes = if rng.u8(..3) == 0 {
                ALL_SOUND_OFF
            } else {
                ALL_NOTES_OFF
            };
            held.clear();
            events.push(Event::Midi(Midi {
                at_sample: t,
                bytes,
            }));
        } else if roll < 0.45 {
            let key = rng.u8(24..=108);
            held.push(key);
            events.push(Event::On(Note {
                at_sample: t,
                key,
                velocity: 0.05 + 0.95 * rng.f64(),
            }));
        } else if roll < 0.75 && !held.is_empty() {
            let key = held.swap_remove(rng.usize(..held.len()));
            events.push(Event::Off(NoteOff { at_sample: t, key }));
        } else {
            let which = if rng.f64() < 0.15 { 3 } else { rng.usize(..3) };
            let a = &AUTOMATED[which];
            // CLAP carries continuous values normalised, stepped ones as the step index.
            let (value, normalized) = match a.steps {
                Some(steps) => {
                    let step = rng.u32(..=steps);
                    (f64::from(step), step as f32 / steps as f32)
                }
                None => {
                    let n = a.normalized.0 + (a.normalized.1 - a.normalized.0) * rng.f64();
                    (n, n as f32)
                }
            };
            events.push(Event::Change(
                ParamChange {
                    at_sample: t,
                    param_id: ids[which],
                    value,
                },
                a.id,
                normalized,
            ));
        }
    }
    for key in held {
        t += 1;
        events.push(Event::Off(NoteOff { at_sample: t, key }));
    }
    events
}

/// Run the soak on the CLAP at `clap`.
pub fn soak(clap: &Path, minutes: f64, seed: u64) -> Result<SoakReport> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut session = Session::new(clap).map_err(|e| anyhow!("{e}"))?;
    let mut ids = [0u32; 4];
    for (id, a) in ids.iter_mut().zip(&AUTOMATED) {
        *id = session.param_id(a.name).map_err(|e| anyhow!("{e}"))?;
    }
    let events = timeline(&mut rng, minutes * 60.0, &ids);
    let (mut notes, mut offs, mut changes, mut midi) = (vec![], vec![], vec![], vec![]);
    for event in &events {
        match event {
            Event::On(n) => notes.push(*n),
            Event::Off(n) => offs.push(*n),
            Event::Change(c, _, _) => changes.push(*c),
            Event::Midi(m) => midi.push(*m),
        }
    }
    let pattern: Vec<usize> = (0..97).map(|_| rng.usize(1..=MAX_BLOCK)).collect();
    let last = events.last().map_or(0, Event::at);
    let total_frames = last as usize + (TAIL_S * SAMPLE_RATE_HZ) as usize;

    // The twin: the plugin's parameters (changed as nice-plug's wrapper changes them) mapped to
    // the engine's settings by the plugin's own code, the engine split where the plugin splits it.
    let params = UrtoParams::default();
    let controllers = Controllers::default();
    let mut patch = params.patch(&controllers);
    let mut engine = Engine::new(SAMPLE_RATE_HZ);
    engine.set_polyphony(params.output.polyphony.value().max(1) as usize);
    let mut twin = [vec![0.0f32; MAX_BLOCK], vec![0.0f32; MAX_BLOCK]];
    let mut next = 0;
    let mut report = SoakReport {
        audio_s: total_frames as f64 / SAMPLE_RATE_HZ,
        realtime_factor: 0.0,
        nan_count: 0,
        peak_voices: 0,
        mean_voices: 0.0,
        quarantined_resets: 0,
        voices_left: 0,
        mismatches: 0,
        notes: notes.len(),
        changes: changes.len(),
        all_offs: midi.len(),
    };
    let mut voice_samples = 0.0;
    let mut twin_time = Duration::ZERO;
    let mut error: Option<anyhow::Error> = None;
    let started = Instant::now();
    session
        .render_channels(
            &Render {
                sample_rate_hz: SAMPLE_RATE_HZ,
                block_frames: MAX_BLOCK,
                total_frames,
                notes: &notes,
                note_offs: &offs,
                changes: &changes,
                midi: &midi,
                block_pattern: &pattern,
                ..Render::default()
            },
            |start, left, right| {
                let twin_started = Instant::now();
                report.nan_count +=
                    left.iter().chain(right).filter(|y| !y.is_finite()).count() as u64;
                let end = start + left.len();
                let mut at = start;
                while at < end {
                    while next < events.len() && events[next].at() as usize <= at {
                        match &events[next] {
                            Event::On(n) => engine.note_on(&patch, n.key, n.velocity as f32),
                            Event::Off(n) => engine.note_off(&patch, n.key),
                            Event::Midi(m) if m.bytes == ALL_SOUND_OFF => engine.all_sound_off(),
                            Event::Midi(_) => engine.all_notes_off(&patch),
                            Event::Change(_, id, normalized) => {
                                match params.ptr(id).ok_or_else(|| anyhow!("no parameter {id}")) {
                                    // SAFETY: the pointer is into `params`, alive for the whole soak;
                                    // this is the call nice-plug's wrapper makes for a host change.
                                    Ok(ptr) => unsafe {
                                        ptr._internal_set_normalized_value(*normalized);
                                        patch = params.patch(&controllers);
                                    },
                                    Err(e) => error = Some(e),
                                }
                            }
                        }
                        next += 1;
                    }
                    let until = events.get(next).map_or(end, |e| (e.at() as usize).min(end));
                    let [twin_left, twin_right] = &mut twin;
                    let (twin_left, twin_right) =
                        (&mut twin_left[..until - at], &mut twin_right[..until - at]);
                    engine.process_stereo(&patch, twin_left, twin_right);
                    let voices = engine.active_voices();
                    report.peak_voices = report.peak_voices.max(voices);
                    voice_samples += (voices * twin_left.len()) as f64;
                    let (plugin, twin) = (
                        left[at - start..until - start]
                            .iter()
                            .chain(&right[at - start..until - start]),
                        twin_left.iter().chain(twin_right.iter()),
                    );
                    for (y, t) in plugin.zip(twin) {
                        if y.to_bits() != t.to_bits() {
                            report.mismatches += 1;
                        }
                    }
                    at = until;
                }
                twin_time += twin_started.elapsed();
            },
        )
        .map_err(|e| anyhow!("{e}"))?;
    if let Some(e) = error {
        return Err(e);
    }
    let plugin_time = started.elapsed().saturating_sub(twin_time);
    report.realtime_factor = report.audio_s / plugin_time.as_secs_f64();
    report.mean_voices = voice_samples / total_frames as f64;
    report.quarantined_resets = engine.non_finite_resets();
    report.voices_left = engine.active_voices();
    Ok(report)
}

/// `cargo xtask soak`: run, print, and fail on any NaN, quarantine, voice left or mismatch.
pub fn run(clap: &Path, minutes: f64, seed: u64, as_json: bool) -> Result<()> {
    let r = soak(clap, minutes, seed)?;
    if as_json {
        println!(
            "{}",
            json!({
                "audio_s": r.audio_s, "realtime_factor": r.realtime_factor, "nan_count": r.nan_count,
                "peak_voices": r.peak_voices, "mean_voices": r.mean_voices,
                "quarantined_resets": r.quarantined_resets, "voices_left": r.voices_left,
                "mismatched_samples": r.mismatches, "notes": r.notes, "parameter_changes": r.changes, "all_offs": r.all_offs,
            })
        );
    } else {
        println!(
            "soak: {:.0} s of audio ({minutes} min of play + {TAIL_S} s of tails), {} notes, {} parameter changes, {} all notes/sound off, seed {seed}\n\
             real-time factor {:.1}, NaN {}, voices peak {} mean {:.1}, quarantined resets {}, voices left {}, samples differing from the twin {}",
            r.audio_s, r.notes, r.changes, r.all_offs, r.realtime_factor, r.nan_count, r.peak_voices, r.mean_voices,
            r.quarantined_resets, r.voices_left, r.mismatches
        );
    }
    if r.nan_count > 0 || r.quarantined_resets > 0 || r.voices_left > 0 || r.mismatches > 0 {
        bail!("the soak failed (see above)");
    }
    Ok(())
}
