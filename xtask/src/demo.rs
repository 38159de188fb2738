//! `cargo xtask demo`: short WAV renders through the real CLAP bundle.

use anyhow::{anyhow, Result};
use std::path::Path;
use urto_host_tests::{render, Note};

/// Render every demo into `out_dir` and print where everything is.
pub fn render_all(clap: &Path, out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir)?;
    let fs = crate::media::FS as u64;
    // A rising arpeggio, each strike harder than the last.
    let arpeggio: Vec<Note> = [48u8, 52, 55, 60, 64, 67, 72, 76, 79, 84]
        .iter()
        .enumerate()
        .map(|(i, &key)| Note {
            at_sample: i as u64 * fs / 4,
            key,
            velocity: 0.3 + 0.07 * i as f64,
        })
        .collect();
    // One bar struck ever harder: 0.05 m/s to 5 m/s.
    let velocity_ramp: Vec<Note> = (0..8)
        .map(|i| Note {
            at_sample: i * fs / 2,
            key: 60,
            velocity: i as f64 / 7.0,
        })
        .collect();
    let mut written = Vec::new();
    for (name, notes, seconds) in [
        ("arpeggio", &arpeggio, 5),
        ("velocity-ramp", &velocity_ramp, 6),
    ] {
        let frames = (fs * seconds) as usize;
        let audio = render(clap, crate::media::FS, 512, notes, frames)
            .map_err(|e| anyhow!("rendering {name}: {e}"))?;
        let path = out_dir.join(format!("{name}.wav"));
        crate::media::write_wav(&path, &audio)?;
        let peak = audio.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        written.push(format!(
            "  {} ({seconds} s, peak {peak:.3})",
            path.display()
        ));
    }
    let mut scenes = crate::scenes::render_all(out_dir)?;
    scenes.extend(crate::drop::render_demos(out_dir)?);
    written.extend(crate::audition::render_demos(clap, out_dir)?);
    println!("Bundles:\n  target/bundled/Urto.clap\n  target/bundled/Urto.vst3");
    println!(
        "Demo renders (48 kHz, through the CLAP; the slides with their spectrograms):\n{}",
        written.join("\n")
    );
    println!(
        "Bounce, roll, two-body and drop scenes (48 kHz, the voice engine of dsp-core) and plots:\n{}",
        scenes.join("\n")
    );
    let screenshots = crate::standalone::screenshots(out_dir)?;
    println!(
        "Editor screenshots (standalone under Xvfb), one per tab and one at 1.5× scale:\n{}",
        screenshots
            .iter()
            .map(|png| format!("  {}", png.display()))
            .collect::<Vec<_>>()
            .join("\n")
    );
    Ok(())
}
