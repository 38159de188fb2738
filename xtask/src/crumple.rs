//! `cargo xtask crumple`: the events of a crumpling stream — when each falls, the energy it releases and the size of what gives — taken sample by sample as a voice takes them, and with `--wav` heard as a crumple note plays them.

use crate::media::{self, FS};
use anyhow::Result;
use clap::Parser;
use serde_json::json;
use std::path::PathBuf;
use urto_dsp::stream::{EnergyLaw, Event, EventStream, StreamSettings};
use urto_dsp::voice::{note_seed, Crumple, Engine, Gesture, Patch, PlayMode};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask crumple", allow_negative_numbers = true)]
pub struct CrumpleArgs {
    /// Events per second (a Poisson process), ≥ 0.
    #[arg(long)]
    rate_per_s: f64,
    /// The power law's exponent α, p(E) ∝ E^(−α) (crumpling sheets: 1.3–1.6).
    #[arg(long)]
    energy_exponent: Option<f64>,
    /// The smallest energy an event releases, J.
    #[arg(long)]
    min_energy_j: Option<f64>,
    /// The largest, J (needed when the exponent is at most 1).
    #[arg(long)]
    max_energy_j: Option<f64>,
    /// Instead of the power law, the reference toolkit's clipped exponential law at this
    /// crushing energy, J.
    #[arg(long, conflicts_with_all = ["energy_exponent", "min_energy_j", "max_energy_j"])]
    sdt_energy_j: Option<f64>,
    /// Seconds of the stream.
    #[arg(long)]
    seconds: f64,
    /// Which stream: the one the engine's `seed`-th note on middle C draws (from 1).
    #[arg(long)]
    seed: u64,
    /// The sample rate the events are taken at (they do not depend on it).
    #[arg(long, default_value_t = 48_000.0)]
    sample_rate_hz: f64,
    #[arg(long)]
    json: bool,
    /// Also render the stream as that note plays it (the default patch in crumple mode, at
    /// velocity 127, held for --seconds, then its ring) to this WAV, mono at 48 kHz, normalised;
    /// needs the power law with --max-energy-j.
    #[arg(long)]
    wav: Option<PathBuf>,
}

/// The longest stream the command takes, s.
const MAX_SECONDS: f64 = 3600.0;
/// The highest rate, events per second: a million events a second for an hour is far more
/// than a JSON report can carry.
const MAX_RATE_PER_S: f64 = 1e6;
/// The key the stream's note is played on (middle C), and the ring heard after it, s.
const KEY: u8 = 60;
const RING_S: f64 = 0.5;
/// What a crumple note takes: its events' largest energy over their smallest, and its rate.
const MAX_SPAN: f64 = 1e6;
const MAX_NOTE_RATE_PER_S: f64 = 5000.0;
const MAX_NOTE_SECONDS: f64 = 60.0;

pub fn crumple(args: &CrumpleArgs) -> Result<()> {
    let refuse = |reason: String| -> ! {
        eprintln!("error: {reason}");
        std::process::exit(2)
    };
    let settings = settings(args).unwrap_or_else(|reason| refuse(reason));
    let note = args
        .wav
        .as_ref()
        .map(|path| note_patch(args).map(|patch| (path, patch)))
        .transpose()
        .unwrap_or_else(|reason| refuse(reason));
    let events = take(args, settings);
    if args.json {
        let report = json!({
            "count": events.len(),
            "events": events.iter().map(|e| json!({
                "time_s": e.time_s,
                "energy_j": e.energy_j,
                "size": e.size,
            })).collect::<Vec<_>>(),
            "rate_per_s": args.rate_per_s,
            "seconds": args.seconds,
            "seed": args.seed,
            "sample_rate_hz": args.sample_rate_hz,
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} events in {} s ({:.1} per s)",
            events.len(),
            args.seconds,
            events.len() as f64 / args.seconds
        );
        println!("{:>12}  {:>12}  {:>6}", "time_s", "energy_j", "size");
        for e in events.iter().take(20) {
            println!("{:>12.6}  {:>12.4e}  {:>6.3}", e.time_s, e.energy_j, e.size);
        }
    }
    if let Some((path, patch)) = note {
        media::write_normalised_wav(path, &render(&patch, args.seed, args.seconds))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// The crumple note that plays the stream of `args`: the default patch in crumple mode, its
/// rate steady and its energies the power law's; or the reason it cannot.
fn note_patch(args: &CrumpleArgs) -> Result<Patch, String> {
    let (Some(exponent), Some(min_j), Some(max_j)) =
        (args.energy_exponent, args.min_energy_j, args.max_energy_j)
    else {
        return Err(
            "--wav plays the power law: give --energy-exponent, --min-energy-j and \
                    --max-energy-j"
                .into(),
        );
    };
    let span = max_j / min_j;
    if !(span > 1.0 && span <= MAX_SPAN) {
        return Err(format!(
            "--wav: --max-energy-j must lie within {MAX_SPAN:e} times --min-energy-j"
        ));
    }
    if !(args.rate_per_s <= MAX_NOTE_RATE_PER_S && args.seconds <= MAX_NOTE_SECONDS) {
        return Err(format!(
            "--wav plays at most {MAX_NOTE_RATE_PER_S} events per second for \
             {MAX_NOTE_SECONDS} s"
        ));
    }
    let patch = Patch::default();
    let crumple = Crumple {
        rate_per_s: args.rate_per_s,
        energy_exponent: exponent,
        min_energy_j: min_j,
        energy_span: span,
        gesture: Gesture::Steady,
        ..patch.crumple
    };
    Ok(Patch {
        mode: PlayMode::Crumple,
        crumple,
        ..patch
    }
    .resolved())
}

/// The engine's `seed`-th note on [`KEY`] of `patch` at velocity 127, held for `seconds` and
/// then ringing for [`RING_S`], mono at [`FS`].
fn render(patch: &Patch, seed: u64, seconds: f64) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    engine.set_notes_struck(seed - 1);
    engine.note_on(patch, KEY, 1.0);
    let held = (seconds * FS).round() as usize;
    let mut audio = vec![0.0f32; held + (RING_S * FS) as usize];
    for block in audio[..held].chunks_mut(256) {
        engine.process(patch, block);
    }
    engine.note_off(patch, KEY);
    for block in audio[held..].chunks_mut(256) {
        engine.process(patch, block);
    }
    audio
}

/// The stream the arguments describe, or the refusal naming the first bad value.
fn settings(args: &CrumpleArgs) -> Result<StreamSettings, String> {
    if !(args.rate_per_s >= 0.0 && args.rate_per_s <= MAX_RATE_PER_S) {
        return Err(format!(
            "--rate-per-s must lie in [0, {MAX_RATE_PER_S:e}] events per second, not {}",
            args.rate_per_s
        ));
    }
    if args.seed == 0 {
        return Err("--seed counts notes from 1".into());
    }
    if !(args.seconds > 0.0 && args.seconds <= MAX_SECONDS) {
        return Err(format!(
            "--seconds must lie in (0, {MAX_SECONDS}], not {}",
            args.seconds
        ));
    }
    if !(args.sample_rate_hz >= 8_000.0 && args.sample_rate_hz <= 768_000.0) {
        return Err("--sample-rate-hz must lie in [8000, 768000]".into());
    }
    let law = match (args.sdt_energy_j, args.energy_exponent, args.min_energy_j) {
        (Some(scale_j), _, _) => EnergyLaw::sdt(scale_j),
        (None, Some(exponent), Some(min_j)) => {
            EnergyLaw::power_law(exponent, min_j, args.max_energy_j)
        }
        _ => Err("give --energy-exponent and --min-energy-j (or --sdt-energy-j)".into()),
    };
    law.map(StreamSettings::new)
        .map_err(|reason| format!("{reason} (--energy-exponent, --min-energy-j, --max-energy-j)"))
}

/// The stream's events, taken at the end of each sample as a voice takes them.
fn take(args: &CrumpleArgs, settings: StreamSettings) -> Vec<Event> {
    let mut stream = EventStream::new(settings, args.rate_per_s, note_seed(args.seed, KEY));
    let samples = (args.seconds * args.sample_rate_hz).ceil() as usize;
    let mut events = Vec::new();
    for n in 1..=samples {
        let end_s = (n as f64 / args.sample_rate_hz).min(args.seconds);
        while let Some(event) = stream.next_before(end_s) {
            events.push(event);
        }
    }
    events
}
