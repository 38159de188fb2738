//! A preset played through the real CLAP bundle: `cargo xtask audition` (its WAV, spectrogram and levels) and the slide demos of `cargo xtask demo`.

use crate::media::{self, FS};
use anyhow::{anyhow, bail, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use urto::presets::{factory, Preset};
use urto::UrtoParams;
use urto_host_tests::{clap_state, rms, strongest_peak_hz, Note, NoteOff, Render, Session};

/// `cargo xtask audition`: play one preset's middle C through the CLAP.
#[derive(clap::Parser)]
#[command(name = "cargo xtask audition")]
pub struct AuditionArgs {
    /// A preset file (.json) or a factory preset's name.
    preset: String,
    /// Velocity, 1…127.
    #[arg(long, default_value_t = 127)]
    velocity: u8,
    /// How long the key is held, s.
    #[arg(long, default_value_t = 2.5)]
    hold_s: f64,
    /// Length of the render, s.
    #[arg(long, default_value_t = 3.5)]
    seconds: f64,
    /// Where the WAV and the spectrogram go.
    #[arg(long, default_value = "target/audition")]
    out: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The preset a path or a factory name names.
fn find(preset: &str) -> Result<Preset> {
    if preset.ends_with(".json") {
        return Preset::load(Path::new(preset)).map_err(|e| anyhow!("{preset}: {e}"));
    }
    factory()
        .into_iter()
        .find(|p| p.name.eq_ignore_ascii_case(preset))
        .ok_or_else(|| {
            anyhow!("no factory preset named {preset:?} (cargo xtask presets lists them)")
        })
}

/// Middle C at `velocity` held for `hold_s` of `seconds`, through the CLAP at `clap` with
/// `preset` loaded: the channel louder while held, from 0.1 s (the one a steady sound's
/// calibration measures).
pub fn play(
    clap: &Path,
    preset: &Preset,
    velocity: u8,
    hold_s: f64,
    seconds: f64,
) -> Result<Vec<f32>> {
    let state = clap_state(&serde_json::to_vec(
        &preset.to_state(&UrtoParams::default()),
    )?);
    let mut session = Session::new(clap).map_err(|e| anyhow!("loading {}: {e}", clap.display()))?;
    session
        .load_state(&state)
        .map_err(|e| anyhow!("loading {}: {e}", preset.name))?;
    let at = |s: f64| (s * FS) as u64;
    let channels = session
        .render_stereo(&Render {
            sample_rate_hz: FS,
            block_frames: 512,
            total_frames: at(seconds) as usize,
            notes: &[Note {
                at_sample: 0,
                key: 60,
                velocity: f64::from(velocity) / 127.0,
            }],
            note_offs: &[NoteOff {
                at_sample: at(hold_s),
                key: 60,
            }],
            ..Render::default()
        })
        .map_err(|e| anyhow!("rendering {}: {e}", preset.name))?;
    let held = |c: &Vec<f32>| rms(held_span(c, hold_s));
    let [left, right] = channels;
    Ok(if held(&left) >= held(&right) {
        left
    } else {
        right
    })
}

/// The span a steady sound is measured over: from 0.1 s to the release.
fn held_span(audio: &[f32], hold_s: f64) -> &[f32] {
    let end = ((hold_s * FS) as usize).min(audio.len());
    &audio[((0.1 * FS) as usize).min(end)..end]
}

/// What a render measures: its peak, its steady level while held (RMS from 0.1 s to the
/// release, as a steady sound's calibration hears it) and its strongest spectral peak over that
/// span.
fn measure(audio: &[f32], hold_s: f64) -> (f64, f64, f64) {
    let db = |x: f64| 20.0 * x.max(1e-12).log10();
    let peak = audio.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let held = held_span(audio, hold_s);
    let pitch = if held.len() > 64 {
        strongest_peak_hz(held, FS)
    } else {
        f64::NAN
    };
    (db(f64::from(peak)), db(rms(held)), pitch)
}

pub fn audition(args: &AuditionArgs) -> Result<()> {
    if !(1..=127).contains(&args.velocity) {
        bail!("--velocity must lie in 1…127");
    }
    if !(args.hold_s >= 0.2 && args.seconds >= args.hold_s && args.seconds <= 600.0) {
        bail!("--hold-s must be at least 0.2 and --seconds at least --hold-s (at most 600)");
    }
    let preset = find(&args.preset)?;
    let audio = play(
        Path::new(crate::CLAP_BUNDLE),
        &preset,
        args.velocity,
        args.hold_s,
        args.seconds,
    )?;
    std::fs::create_dir_all(&args.out)?;
    let stem: String = preset
        .name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let wav = args.out.join(format!("{stem}.wav"));
    let png = args.out.join(format!("{stem}.png"));
    media::write_wav(&wav, &audio)?;
    media::register_font()?;
    media::spectrogram(&png, &preset.name, &audio, &[], "")?;
    let (peak_dbfs, held_rms_dbfs, peak_hz) = measure(&audio, args.hold_s);
    if args.json {
        println!(
            "{}",
            json!({"preset": preset.name, "peak_dbfs": peak_dbfs, "held_rms_dbfs": held_rms_dbfs,
                   "strongest_peak_hz": peak_hz, "wav": wav, "spectrogram": png})
        );
    } else {
        println!(
            "{}: peak {peak_dbfs:.1} dBFS, held RMS {held_rms_dbfs:.1} dBFS, strongest peak {peak_hz:.1} Hz\n  {}\n  {}",
            preset.name,
            wav.display(),
            png.display()
        );
    }
    Ok(())
}

/// The preset demos, each a WAV and a spectrogram: (preset, file stem, held s, rendered s,
/// whether the object's fundamental is marked). The slides: the finger round a wine glass
/// (singing at the glass's mode) and the squeaking door hinge; the crumples: paper crushed in
/// the hand and footsteps on gravel; the break: a wine glass shattering on tiles.
const DEMOS: [(&str, &str, f64, f64, bool); 5] = [
    (
        "Finger round a wine glass",
        "slide-wine-glass",
        3.0,
        4.0,
        true,
    ),
    ("Squeaking door hinge", "slide-door-hinge", 3.0, 4.0, true),
    ("Crumpled paper", "crumple-paper", 2.5, 3.0, false),
    (
        "Footsteps on gravel",
        "crumple-footsteps-gravel",
        2.5,
        3.0,
        false,
    ),
    (
        "Wine glass on tiles",
        "break-wine-glass-tiles",
        0.2,
        2.5,
        false,
    ),
];

/// Render [`DEMOS`] through the CLAP at `clap` into `out_dir`.
pub fn render_demos(clap: &Path, out_dir: &Path) -> Result<Vec<String>> {
    media::register_font()?;
    let mut written = vec![];
    for (name, stem, hold_s, seconds, mark) in DEMOS {
        let preset = find(name)?;
        let audio = play(clap, &preset, 127, hold_s, seconds)?;
        let wav = out_dir.join(format!("{stem}.wav"));
        media::write_wav(&wav, &audio)?;
        let mode_hz = preset
            .plain_value("fixed-f0")
            .map(f64::from)
            .filter(|_| mark);
        let (_, _, peak_hz) = measure(&audio, hold_s);
        let png = out_dir.join(format!("{stem}.png"));
        let title = format!("{name}: strongest peak {peak_hz:.1} Hz");
        media::spectrogram(
            &png,
            &title,
            &audio,
            mode_hz.as_slice(),
            "the object's fundamental",
        )?;
        written.push(format!("  {} and {}", wav.display(), png.display()));
    }
    Ok(written)
}
