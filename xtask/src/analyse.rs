//! `cargo xtask analyse REC`: the damped modes of a recorded strike (urto_dsp::analysis), as a table or JSON.

use anyhow::Result;
use clap::Parser;
use serde_json::json;
use std::path::PathBuf;
use urto_dsp::analysis::{self, recording, Analysis, Options};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask analyse")]
pub struct AnalyseArgs {
    /// The recording: a WAV or FLAC file of one strike (mono, or the mid of stereo), at most 60 s.
    recording: PathBuf,
    /// Report at most this many modes, the strongest.
    #[arg(long, default_value_t = 512)]
    max_modes: usize,
    /// Drop modes weaker than this, dB re the strongest mode (≤ 0).
    #[arg(long, default_value_t = -90.0, allow_negative_numbers = true)]
    min_level_db: f64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Also draw the recording's spectrogram with the modes found marked, as a PNG.
    #[arg(long, value_name = "PNG")]
    spectrogram: Option<PathBuf>,
}

/// Bad input is named on standard error with exit code 2.
fn refuse(why: impl std::fmt::Display) -> ! {
    eprintln!("error: {why}");
    std::process::exit(2)
}

pub fn analyse(args: &AnalyseArgs) -> Result<()> {
    if args.max_modes == 0 {
        refuse("--max-modes must be at least 1");
    }
    if args.min_level_db.is_nan() || args.min_level_db > 0.0 {
        refuse(format!(
            "--min-level-db {} must be a level at or under the strongest mode's, ≤ 0 dB",
            args.min_level_db
        ));
    }
    let recording = recording::read(&args.recording)
        .unwrap_or_else(|e| refuse(format!("{}: {e}", args.recording.display())));
    let options = Options {
        max_modes: args.max_modes,
        min_level_db: args.min_level_db,
        ..Options::default()
    };
    let result = analysis::analyse(&recording, &options)
        .unwrap_or_else(|e| refuse(format!("{}: {e}", args.recording.display())));
    if args.json {
        println!("{}", serde_json::to_string_pretty(&to_json(&result))?);
    } else {
        print_table(&result);
    }
    if let Some(png) = &args.spectrogram {
        crate::media::register_font()?;
        let audio: Vec<f32> = recording.samples.iter().map(|&x| x as f32).collect();
        let marks: Vec<f64> = result
            .modes
            .iter()
            .take(40)
            .map(|m| m.frequency_hz)
            .collect();
        let title = format!(
            "{} and its {} strongest modes",
            args.recording.display(),
            marks.len()
        );
        crate::media::spectrogram_at(
            png,
            &title,
            &audio,
            recording.sample_rate_hz,
            &marks,
            "modes found",
        )?;
    }
    Ok(())
}

fn to_json(a: &Analysis) -> serde_json::Value {
    json!({
        "sample_rate_hz": a.sample_rate_hz,
        "onset_s": a.onset_s,
        "noise_floor_db": a.noise_floor_db,
        "residual_db": a.residual_db,
        "modes": a.modes.iter().map(|m| json!({
            "frequency_hz": m.frequency_hz,
            "t60_s": m.t60_s,
            "level_db": m.level_db,
            "phase_rad": m.phase_rad,
            "amplitude": m.amplitude,
        })).collect::<Vec<_>>(),
    })
}

fn print_table(a: &Analysis) {
    println!(
        "{} modes; onset {:.4} s; noise floor {:.1} dB, residual {:.1} dB (re the strongest mode / the recording)",
        a.modes.len(),
        a.onset_s,
        a.noise_floor_db,
        a.residual_db
    );
    println!(
        "{:>12} {:>10} {:>9} {:>9}",
        "f (Hz)", "T60 (s)", "level dB", "phase"
    );
    for m in &a.modes {
        println!(
            "{:>12.3} {:>10.4} {:>9.1} {:>9.3}",
            m.frequency_hz, m.t60_s, m.level_db, m.phase_rad
        );
    }
}
