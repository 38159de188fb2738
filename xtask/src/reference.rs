//! `cargo xtask reference`: the reference set of real recordings (freepats, hydrogen-drumkits) — every fixture with its facts, as a table, JSON or the docs' Markdown, and with `--wav` its unlooped samples to listen to.

use crate::apt;
use crate::render::ucs::note_name;
use anyhow::{bail, Context, Result};
use clap::Parser;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use urto_host_tests::reference::{self, Fixture, FREEPATS_DIR, HYDROGEN_DRUMKITS_DIR};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask reference")]
pub struct ReferenceArgs {
    /// Print one JSON array (every fact of every fixture but its samples).
    #[arg(long, conflicts_with = "markdown")]
    json: bool,
    /// Print the Markdown table of docs/reference-set.md.
    #[arg(long)]
    markdown: bool,
    /// Also write each fixture's unlooped samples to DIR/<id>.wav (32-bit float, mono, at the
    /// recording's own rate, not normalised).
    #[arg(long, value_name = "DIR")]
    wav: Option<PathBuf>,
}

pub fn reference(args: &ReferenceArgs) -> Result<()> {
    if let Some(dir) = &args.wav {
        if dir.exists() && !dir.is_dir() {
            eprintln!("error: --wav {} is a file, not a directory", dir.display());
            std::process::exit(2)
        }
    }
    apt::ensure_packages(&reference::PACKAGES)?;
    let set = match reference::reference_set() {
        Ok(set) => set,
        Err(why) => bail!("the reference set: {why}"),
    };
    if args.json {
        let report: Vec<Value> = set.iter().map(fixture_json).collect();
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else if args.markdown {
        print_markdown(&set);
    } else {
        print_table(&set);
    }
    if let Some(dir) = &args.wav {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for f in &set {
            write_wav(&dir.join(format!("{}.wav", f.id)), f)?;
        }
        eprintln!("wrote {} WAV files to {}", set.len(), dir.display());
    }
    Ok(())
}

/// The fixture's file relative to its package's folder.
fn relative_path(f: &Fixture) -> &Path {
    [FREEPATS_DIR, HYDROGEN_DRUMKITS_DIR]
        .iter()
        .find_map(|dir| f.source.path.strip_prefix(dir).ok())
        .unwrap_or(&f.source.path)
}

/// The fixture's file relative to its package's folder, with its wave index when it has one.
fn source(f: &Fixture) -> String {
    let path = relative_path(f);
    match f.source.sample_index {
        Some(index) => format!("{} #{index}", path.display()),
        None => path.display().to_string(),
    }
}

/// Its note as `C#5 (554.4 Hz)`, or `—` when unpitched.
fn note(f: &Fixture) -> String {
    match (f.root_key, f.note_hz) {
        (Some(key), Some(hz)) => format!("{} {} ({hz:.1} Hz)", key, note_name(key)),
        _ => "—".into(),
    }
}

/// What sets it apart: short, reverb added, a copy, a looped wave's loop start.
fn flags(f: &Fixture) -> String {
    let mut flags = vec![];
    if let Some(start) = f.loop_start_samples {
        flags.push(format!("looped at {start}"));
    }
    if f.short {
        flags.push("SHORT".into());
    }
    if f.reverb_added {
        flags.push("reverb added".into());
    }
    if let Some(original) = f.copy_of {
        flags.push(format!("copy of {original}"));
    }
    flags.join(", ")
}

fn print_table(set: &[Fixture]) {
    println!(
        "{:<24} {:<18} {:<9} {:<20} {:>7} {:>8} {:>8} {:>7}  {:<38} flags",
        "id", "instrument", "kind", "note", "fs_hz", "nyq_hz", "cont_hz", "len_s", "source"
    );
    for f in set {
        let from = format!("{}: {}", f.source.package, source(f));
        println!(
            "{:<24} {:<18} {:<9} {:<20} {:>7.0} {:>8.0} {:>8.0} {:>7.3}  {:<38} {}",
            f.id,
            f.instrument.name(),
            f.kind.name(),
            note(f),
            f.sample_rate_hz,
            f.bandwidth_hz,
            f.content_bandwidth_hz,
            f.unlooped_s(),
            from,
            flags(f)
        );
    }
}

fn print_markdown(set: &[Fixture]) {
    println!(
        "| id | instrument (real) | package | path | sample | root key, note | fs (Hz) | bandwidth: Nyquist / content (Hz) | unlooped (s) | looped | kind | notes |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for f in set {
        let path = relative_path(f);
        let sample = match (&f.source.sample_index, &f.source.wave_name) {
            (Some(index), Some(name)) => format!("{index} (`{name}`)"),
            _ => "—".into(),
        };
        let looped = match f.loop_start_samples {
            Some(start) => format!("yes, at {start}"),
            None => "no".into(),
        };
        let mut notes = f.notes.to_string();
        for (flag, text) in [
            (f.short, "SHORT (< 50 ms)"),
            (f.reverb_added, "reverb added"),
        ] {
            if flag && !notes.contains(text) {
                notes = format!("{text}; {notes}");
            }
        }
        println!(
            "| `{}` | {} | {} | `{}` | {} | {} | {:.0} | {:.0} / {:.0} | {:.3} | {} | {} | {} |",
            f.id,
            f.instrument.name(),
            f.source.package,
            path.display(),
            sample,
            note(f),
            f.sample_rate_hz,
            f.bandwidth_hz,
            f.content_bandwidth_hz,
            f.unlooped_s(),
            looped,
            f.kind.name(),
            notes.replace('|', "\\|")
        );
    }
}

fn fixture_json(f: &Fixture) -> Value {
    json!({
        "id": f.id,
        "instrument": f.instrument.name(),
        "kind": f.kind.name(),
        "package": f.source.package,
        "path": f.source.path,
        "sample_index": f.source.sample_index,
        "wave_name": f.source.wave_name,
        "sample_rate_hz": f.sample_rate_hz,
        "bandwidth_hz": f.bandwidth_hz,
        "content_bandwidth_hz": f.content_bandwidth_hz,
        "header_root_hz": f.header_root_hz,
        "root_key": f.root_key,
        "note": f.root_key.map(note_name),
        "note_hz": f.note_hz,
        "played_range_hz": f.played_range_hz.map(|(low, high)| [low, high]),
        "looped": f.looped,
        "loop_start_samples": f.loop_start_samples,
        "unlooped_samples": f.samples.len(),
        "unlooped_s": f.unlooped_s(),
        "short": f.short,
        "reverb_added": f.reverb_added,
        "copy_of": f.copy_of,
        "notes": f.notes,
    })
}

/// The fixture's unlooped samples as a mono 32-bit float WAV at its own rate.
fn write_wav(path: &Path, f: &Fixture) -> Result<()> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: f.sample_rate_hz.round() as u32,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut writer = hound::WavWriter::create(path, spec)
        .with_context(|| format!("creating {}", path.display()))?;
    for &x in &f.samples {
        writer.write_sample(x as f32)?;
    }
    writer.finalize()?;
    Ok(())
}
