//! `cargo xtask compare A B [--max-partials N] [--json]`: two recordings compared independently of the subspace analysis (docs/analysis.md).

use anyhow::Result;
use clap::Parser;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use urto_dsp::analysis::recording;
use urto_host_tests::compare::{
    compare as compare_descriptions, describe, Comparison, Description, LogMel, MatchedPartial,
    Options, Partial, Sound, MEL_FLOOR_DB, MEL_FRAME_S, MEL_HOP_S, MEL_LOW_HZ, NUM_MEL_BANDS,
};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask compare")]
pub struct CompareArgs {
    /// The first recording, A (WAV or FLAC; stereo is taken as its mid).
    a: PathBuf,
    /// The second recording, B.
    b: PathBuf,
    /// Most partials reported per recording, strongest first (≥ 1).
    #[arg(long, default_value_t = 16)]
    max_partials: usize,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

/// A bad input, named: refused with exit code 2 (clap's own code for a bad command).
type Refusal = String;

pub fn compare(args: &CompareArgs) -> Result<()> {
    match report(args) {
        Ok(comparison) if args.json => {
            println!(
                "{}",
                serde_json::to_string_pretty(&to_json(args, &comparison))?
            );
        }
        Ok(comparison) => print_tables(args, &comparison),
        Err(reason) => {
            eprintln!("error: {reason}");
            std::process::exit(2)
        }
    }
    Ok(())
}

/// Both recordings read, described and compared, or the refusal naming the file at fault.
fn report(args: &CompareArgs) -> Result<Comparison, Refusal> {
    if args.max_partials == 0 {
        return Err("--max-partials must be at least 1".into());
    }
    let options = Options {
        max_partials: args.max_partials,
        ..Options::default()
    };
    let a = read_and_describe(&args.a, &options)?;
    let b = read_and_describe(&args.b, &options)?;
    Ok(compare_descriptions(a, b, &options))
}

fn read_and_describe(path: &Path, options: &Options) -> Result<Description, Refusal> {
    let name = path.display();
    let recording = recording::read(path).map_err(|e| format!("{name}: {e}"))?;
    let sound = Sound {
        samples: recording.samples,
        sample_rate_hz: recording.sample_rate_hz,
    };
    describe(&sound, options).map_err(|e| format!("{name}: {e}"))
}

fn partial_json(p: &Partial) -> Value {
    json!({ "frequency_hz": p.frequency_hz, "level_db": p.level_db, "t60_s": p.t60_s })
}

fn description_json(path: &Path, d: &Description) -> Value {
    json!({
        "file": path.display().to_string(),
        "sample_rate_hz": d.sample_rate_hz,
        "onset_s": d.onset_s,
        "duration_s": d.duration_s,
        "gain_db": d.gain_db,
        "window_s": d.window_s,
        "partials": d.partials.iter().map(partial_json).collect::<Vec<_>>(),
        "t60_s": d.decay.t60_s,
        "schroeder_fit_db": d.decay.fit_db.map(|(from, to)| [from, to]),
        "decay_range_db": d.decay.decay_range_db,
        "decays_far_enough": d.decay.fit_db == Some((-5.0, -35.0)),
        "noise_db": d.decay.noise_db,
        "centroid_20ms_hz": d.centroid_20ms_hz,
        "centroid_100ms_hz": d.centroid_100ms_hz,
    })
}

fn matched_json(m: &MatchedPartial) -> Value {
    json!({
        "a_frequency_hz": m.a.frequency_hz,
        "b_frequency_hz": m.b.map(|b| b.frequency_hz),
        "cents": m.cents,
        "a_level_db": m.a.level_db,
        "b_level_db": m.b.map(|b| b.level_db),
        "level_difference_db": m.level_difference_db,
        "a_t60_s": m.a.t60_s,
        "b_t60_s": m.b.and_then(|b| b.t60_s),
        "t60_ratio": m.t60_ratio,
    })
}

fn log_mel_json(l: &LogMel) -> Value {
    json!({
        "bands": NUM_MEL_BANDS,
        "low_hz": MEL_LOW_HZ,
        "high_hz": l.top_hz,
        "mel": "HTK, 2595·log10(1 + f/700)",
        "frame_s": MEL_FRAME_S.min(l.span_s),
        "hop_s": MEL_HOP_S,
        "frames": l.frames_db.len(),
        "span_s": l.span_s,
        "floor_db": MEL_FLOOR_DB,
    })
}

fn to_json(args: &CompareArgs, c: &Comparison) -> Value {
    json!({
        "a": description_json(&args.a, &c.a),
        "b": description_json(&args.b, &c.b),
        "log_mel_distance_db": c.log_mel_distance_db,
        "log_mel": log_mel_json(&c.log_mel_a),
        "match_cents": Options::default().match_cents,
        "matched": c.matched.iter().map(matched_json).collect::<Vec<_>>(),
    })
}

/// `value` with `decimals`, or "–" when there is none.
fn or_dash(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "–".into(), |v| format!("{v:.decimals$}"))
}

/// The rows of the description table, by name.
const ROWS: [&str; 7] = [
    "sample rate",
    "onset",
    "length from onset",
    "partials' window",
    "T60 (Schroeder)",
    "centroid at 20 ms",
    "centroid at 100 ms",
];

/// One description's cells, in the order of `ROWS`.
fn cells(d: &Description) -> [String; 7] {
    let fit = match d.decay.fit_db {
        Some((from, to)) if to > -35.0 => format!(
            "({from}…{to} dB: decays only {:.0} dB)",
            d.decay.decay_range_db
        ),
        Some((from, to)) => format!("({from}…{to} dB)"),
        None => format!("(decays only {:.0} dB)", d.decay.decay_range_db),
    };
    [
        format!("{} Hz", d.sample_rate_hz),
        format!("{:.4} s", d.onset_s),
        format!("{:.3} s", d.duration_s),
        format!("{:.3} s", d.window_s),
        format!("{} s {fit}", or_dash(d.decay.t60_s, 3)),
        format!("{} Hz", or_dash(d.centroid_20ms_hz, 0)),
        format!("{} Hz", or_dash(d.centroid_100ms_hz, 0)),
    ]
}

fn print_tables(args: &CompareArgs, c: &Comparison) {
    let file = |p: &Path| {
        p.file_name()
            .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
    };
    let (a, b) = (
        format!("A  {}", file(&args.a)),
        format!("B  {}", file(&args.b)),
    );
    println!("{:<20}{a:<38}{b}", "");
    for ((name, a), b) in ROWS.iter().zip(cells(&c.a)).zip(cells(&c.b)) {
        println!("{name:<20}{a:<38}{b}");
    }
    let l = &c.log_mel_a;
    println!("\nlog-mel distance {:.2} dB", c.log_mel_distance_db);
    println!(
        "  {NUM_MEL_BANDS} HTK-mel bands {MEL_LOW_HZ}–{:.0} Hz; {} frames of {:.0} ms every {:.0} ms \
         over {:.3} s; floor {MEL_FLOOR_DB} dB under each sound's loudest band",
        l.top_hz,
        l.frames_db.len(),
        1e3 * MEL_FRAME_S.min(l.span_s),
        1e3 * MEL_HOP_S,
        l.span_s
    );
    print_partials(c);
}

fn print_partials(c: &Comparison) {
    println!(
        "\nA's partials, each with the nearest of B's within {} cents",
        Options::default().match_cents
    );
    println!(
        "{:>11} {:>9} {:>8}   {:>11} {:>9} {:>8}   {:>8} {:>8}",
        "A Hz", "level dB", "T60 s", "B Hz", "level dB", "T60 s", "cents", "T60 B/A"
    );
    for m in &c.matched {
        println!(
            "{:>11.3} {:>9.2} {:>8}   {:>11} {:>9} {:>8}   {:>8} {:>8}",
            m.a.frequency_hz,
            m.a.level_db,
            or_dash(m.a.t60_s, 3),
            or_dash(m.b.map(|b| b.frequency_hz), 3),
            or_dash(m.b.map(|b| b.level_db), 2),
            or_dash(m.b.and_then(|b| b.t60_s), 3),
            or_dash(m.cents, 2),
            or_dash(m.t60_ratio, 3),
        );
    }
    let unmatched: Vec<String> =
        c.b.partials
            .iter()
            .filter(|p| !c.matched.iter().any(|m| m.b == Some(**p)))
            .map(|p| format!("{:.3} Hz ({:.1} dB)", p.frequency_hz, p.level_db))
            .collect();
    if !unmatched.is_empty() {
        println!(
            "B's partials matched by none of A's: {}",
            unmatched.join(", ")
        );
    }
}
