//! `cargo xtask break`: a break preset's plan — the crack's events, the fragments' landings, the fragments and the energy ledger — as the engine's N-th note on middle C draws it, and with `--wav` heard as that note plays it.

use crate::media::{self, FS};
use anyhow::Result;
use clap::{Parser, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use urto::params::Controllers;
use urto::presets::factory;
use urto_dsp::stream::{BreakEvent, BreakPlan, Piece};
use urto_dsp::voice::{break_settings, note_seed, Engine, Patch};

/// What breaks: each a factory preset of the Break category.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Object {
    Glass,
    Plate,
    Bottle,
    Twig,
    Ice,
}

impl Object {
    fn preset(self) -> &'static str {
        match self {
            Object::Glass => "Wine glass on tiles",
            Object::Plate => "Plate smashed",
            Object::Bottle => "Bottle breaking",
            Object::Twig => "Twig snapping",
            Object::Ice => "Ice cracking",
        }
    }
}

#[derive(Parser, Debug)]
#[command(name = "cargo xtask break", allow_negative_numbers = true)]
pub struct BreakArgs {
    /// What breaks (its factory preset).
    #[arg(long, value_enum)]
    object: Object,
    /// The energy it holds when it breaks, J (the preset's when left out).
    #[arg(long)]
    stored_energy_j: Option<f64>,
    /// Which break: the one the engine's `seed`-th note on middle C draws (from 1).
    #[arg(long)]
    seed: u64,
    #[arg(long)]
    json: bool,
    /// Also render that note (velocity 127) to this WAV, mono at 48 kHz, normalised.
    #[arg(long)]
    wav: Option<PathBuf>,
}

/// The key the break's note is played on (middle C), and the longest it is heard, s.
const KEY: u8 = 60;
const MAX_WAV_S: f64 = 30.0;
/// The stored energies the command takes, J (the Stored energy parameter's range).
const STORED_RANGE_J: (f64, f64) = (1e-4, 10.0);

pub fn fracture(args: &BreakArgs) -> Result<()> {
    let refuse = |reason: String| -> ! {
        eprintln!("error: {reason}");
        std::process::exit(2)
    };
    let patch = patch(args).unwrap_or_else(|reason| refuse(reason));
    let mut plan = BreakPlan::new(break_settings(&patch), note_seed(args.seed, KEY));
    let mut events = Vec::new();
    while let Some(event) = plan.next_before(f64::INFINITY) {
        events.push(event);
    }
    let ledger = plan.ledger();
    if args.json {
        let report = json!({
            "object": args.object.preset(),
            "seed": args.seed,
            "events": events.iter().map(event_json).collect::<Vec<_>>(),
            "fragments": plan.fragments().iter().map(|f| json!({
                "mass_kg": f.mass_kg,
                "impacts": f.impacts,
                "launch_energy_j": f.launch_energy_j,
                "restitution": f.restitution,
            })).collect::<Vec<_>>(),
            "ledger": {
                "stored_j": ledger.stored_j,
                "released_j": ledger.released_j,
                "remaining_j": ledger.remaining_j,
            },
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_summary(&events, &plan);
    }
    if let Some(path) = &args.wav {
        let last_s = events.last().map_or(0.0, |e| e.event.time_s);
        media::write_normalised_wav(path, &render(&patch, args.seed, last_s + 1.0))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

fn event_json(e: &BreakEvent) -> serde_json::Value {
    let kind = match e.piece {
        Piece::Crack => "crack",
        Piece::Fragment(_) => "fragment",
    };
    let mut value = json!({
        "time_s": e.event.time_s,
        "energy_j": e.event.energy_j,
        "size": e.event.size,
        "kind": kind,
    });
    if let Piece::Fragment(n) = e.piece {
        value["fragment"] = json!(n);
    }
    value
}

fn print_summary(events: &[BreakEvent], plan: &BreakPlan) {
    let cracks = events.iter().filter(|e| e.piece == Piece::Crack).count();
    let ledger = plan.ledger();
    println!(
        "{cracks} crack events, {} fragment landings of {} fragments",
        events.len() - cracks,
        plan.fragments().len()
    );
    println!(
        "stored {:.4e} J = released {:.4e} J + remaining {:.4e} J",
        ledger.stored_j, ledger.released_j, ledger.remaining_j
    );
    println!(
        "{:>9}  {:>8}  {:>11}  {:>7}",
        "mass_kg", "impacts", "launch_j", "e"
    );
    for f in plan.fragments() {
        println!(
            "{:>9.5}  {:>8}  {:>11.4e}  {:>7.3}",
            f.mass_kg, f.impacts, f.launch_energy_j, f.restitution
        );
    }
}

/// The object's preset as the engine plays it, the stored energy given; or the reason it
/// cannot.
fn patch(args: &BreakArgs) -> Result<Patch, String> {
    if args.seed == 0 {
        return Err("--seed counts notes from 1".into());
    }
    let name = args.object.preset();
    let preset = factory()
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("the factory preset {name:?} is missing"))?;
    let mut patch = preset.to_params().patch(&Controllers::default());
    if let Some(stored_j) = args.stored_energy_j {
        if !(STORED_RANGE_J.0..=STORED_RANGE_J.1).contains(&stored_j) {
            return Err(format!(
                "--stored-energy-j must lie in [{}, {}] J, not {stored_j}",
                STORED_RANGE_J.0, STORED_RANGE_J.1
            ));
        }
        patch.fracture.stored_energy_j = stored_j;
    }
    Ok(patch)
}

/// The engine's `seed`-th note on [`KEY`] of `patch` at velocity 127 over `seconds` (at most
/// [`MAX_WAV_S`]), mono at [`FS`].
fn render(patch: &Patch, seed: u64, seconds: f64) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    engine.set_notes_struck(seed - 1);
    engine.note_on(patch, KEY, 1.0);
    let mut audio = vec![0.0f32; (seconds.min(MAX_WAV_S) * FS) as usize];
    for block in audio.chunks_mut(256) {
        engine.process(patch, block);
    }
    audio
}
