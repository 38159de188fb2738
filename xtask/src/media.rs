//! The demos' media: WAV files (48 kHz, 32-bit float), line plots and spectrograms (PNG), for the demo scenes and `cargo xtask drop`.

use anyhow::{anyhow, Result};
use plotters::prelude::*;
use std::path::Path;

/// The sample rate of every demo render, Hz.
pub const FS: f64 = 48_000.0;

/// Register the plots' font (egui's Ubuntu Light) once before drawing.
pub fn register_font() -> Result<()> {
    plotters::style::register_font(
        "sans-serif",
        FontStyle::Normal,
        epaint_default_fonts::UBUNTU_LIGHT,
    )
    .map_err(|_| anyhow!("the plot font would not load"))
}

/// Write mono `audio` at [`FS`] as a 32-bit float WAV.
pub fn write_wav(path: &Path, audio: &[f32]) -> Result<()> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: FS as u32,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut writer = hound::WavWriter::create(path, spec)?;
    for sample in audio {
        writer.write_sample(*sample)?;
    }
    writer.finalize()?;
    Ok(())
}

/// Write `audio` normalised to −1 dBFS peak; refuses silence or non-finite audio. Returns the
/// gain applied.
pub fn write_normalised_wav(path: &Path, audio: &[f32]) -> Result<f32> {
    let peak = audio.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if !(peak > 0.0 && peak.is_finite()) {
        return Err(anyhow!(
            "{} would hold silence or non-finite audio",
            path.display()
        ));
    }
    let gain = 0.89 / peak;
    let normalised: Vec<f32> = audio.iter().map(|x| x * gain).collect();
    write_wav(path, &normalised)?;
    Ok(gain)
}

/// A line plot of `points`.
pub fn plot(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &[(f64, f64)],
) -> Result<()> {
    plot_with_marks(path, title, x_label, y_label, points, &[])
}

/// [`plot`] with a red vertical line at each of `marks_x`.
pub fn plot_with_marks(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    points: &[(f64, f64)],
    marks_x: &[f64],
) -> Result<()> {
    let (x_max, y_min, y_max) = points
        .iter()
        .fold((f64::MIN, f64::MAX, f64::MIN), |(x, lo, hi), &(px, py)| {
            (x.max(px), lo.min(py), hi.max(py))
        });
    let pad = 0.05 * (y_max - y_min).max(1e-12);
    let root = BitMapBackend::new(path, (1000, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 24))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(0.0..x_max, (y_min - pad)..(y_max + pad))?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .label_style(("sans-serif", 16))
        .draw()?;
    let (lo, hi) = (y_min - pad, y_max + pad);
    chart.draw_series(
        marks_x
            .iter()
            .map(|&x| PathElement::new([(x, lo), (x, hi)], RED.mix(0.5))),
    )?;
    chart.draw_series(LineSeries::new(points.iter().copied(), &BLUE))?;
    root.present()?;
    Ok(())
}

/// Frame length and hop of the spectrograms, samples.
const FRAME: usize = 2048;
const HOP: usize = 512;
/// Highest frequency shown, Hz, and the level range below the loudest cell, dB.
const SPECTROGRAM_MAX_HZ: f64 = 12_000.0;
const SPECTROGRAM_RANGE_DB: f64 = 90.0;

/// A spectrogram of `audio` (Hann-windowed frames of [`FRAME`] every [`HOP`] samples) as a PNG:
/// time across, frequency up to [`SPECTROGRAM_MAX_HZ`], level in dB below the loudest cell; the
/// frequencies `marks_hz` (what they are: `marks_are`, e.g. the striker's modes) as white dashes
/// at the left edge (those above the plot are listed in the caption).
pub fn spectrogram(
    path: &Path,
    title: &str,
    audio: &[f32],
    marks_hz: &[f64],
    marks_are: &str,
) -> Result<()> {
    spectrogram_at(path, title, audio, FS, marks_hz, marks_are)
}

/// [`spectrogram`] of audio sampled at `fs` Hz (a recording's own rate).
pub fn spectrogram_at(
    path: &Path,
    title: &str,
    audio: &[f32],
    fs: f64,
    marks_hz: &[f64],
    marks_are: &str,
) -> Result<()> {
    let fft = rustfft::FftPlanner::<f64>::new().plan_fft_forward(FRAME);
    let window: Vec<f64> = (0..FRAME)
        .map(|i| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / FRAME as f64).cos())
        .collect();
    let bins = ((SPECTROGRAM_MAX_HZ / fs * FRAME as f64) as usize).min(FRAME / 2);
    let mut frames: Vec<Vec<f64>> = vec![];
    let mut buffer = vec![rustfft::num_complex::Complex::new(0.0, 0.0); FRAME];
    for start in (0..audio.len().saturating_sub(FRAME)).step_by(HOP) {
        for (b, (x, w)) in buffer.iter_mut().zip(audio[start..].iter().zip(&window)) {
            *b = rustfft::num_complex::Complex::new(f64::from(*x) * w, 0.0);
        }
        fft.process(&mut buffer);
        frames.push(
            buffer[..bins]
                .iter()
                .map(|c| 10.0 * (c.norm_sqr() + 1e-30).log10())
                .collect(),
        );
    }
    let top = frames.iter().flatten().fold(f64::MIN, |m, &x| m.max(x));
    let root = BitMapBackend::new(path, (1000, 530)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot_area, caption_area) = root.split_vertically(500);
    let seconds = audio.len() as f64 / fs;
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(0.0..seconds, 0.0..SPECTROGRAM_MAX_HZ)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("frequency (Hz)")
        .label_style(("sans-serif", 16))
        .disable_mesh()
        .draw()?;
    let (dt, df) = (HOP as f64 / fs, fs / FRAME as f64);
    chart.draw_series(frames.iter().enumerate().flat_map(|(i, frame)| {
        frame.iter().enumerate().map(move |(k, &db)| {
            let level = ((db - top) / SPECTROGRAM_RANGE_DB + 1.0).clamp(0.0, 1.0);
            let (t, f) = (i as f64 * dt, k as f64 * df);
            Rectangle::new(
                [(t, f), (t + dt, f + df)],
                HSLColor(0.7 * (1.0 - level), 0.9, 0.1 + 0.5 * level).filled(),
            )
        })
    }))?;
    let dash = 0.04 * seconds;
    chart.draw_series(
        marks_hz
            .iter()
            .filter(|&&f| f < SPECTROGRAM_MAX_HZ)
            .map(|&f| PathElement::new([(0.0, f), (dash, f)], WHITE.stroke_width(3))),
    )?;
    let above: Vec<String> = marks_hz
        .iter()
        .filter(|&&f| f >= SPECTROGRAM_MAX_HZ)
        .take(3)
        .map(|f| format!("{:.0} kHz", f / 1000.0))
        .collect();
    let caption = if marks_hz.is_empty() {
        String::new()
    } else if above.is_empty() {
        format!("white dashes: {marks_are}")
    } else {
        format!(
            "white dashes: {marks_are}; above the plot: {} …",
            above.join(", ")
        )
    };
    caption_area.draw(&Text::new(caption, (90, 6), ("sans-serif", 15)))?;
    root.present()?;
    Ok(())
}
