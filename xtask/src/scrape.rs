//! `cargo xtask scrape`: a stylus drawn over a surface through the engine's surface reader and contact — the pulse rate, the force's spectral centroid and the alias between the harmonics, as JSON.

use anyhow::Result;
use clap::Parser;
use rustfft::{num_complex::Complex, FftPlanner};
use serde_json::{json, Value};
use urto_dsp::surface::{scrape, RidgeShape, Scrape, SurfaceKind, SurfaceSettings};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask scrape", allow_negative_numbers = true)]
pub struct ScrapeArgs {
    /// ridges | fractal | grain | smooth
    #[arg(long, default_value = "ridges")]
    surface: String,
    /// Ridge spacing, m.
    #[arg(long, default_value_t = 2e-3)]
    ridge_spacing_m: f64,
    /// rounded | saw | teeth
    #[arg(long, default_value = "teeth")]
    ridge_shape: String,
    /// Ridge height, or RMS roughness, m.
    #[arg(long, default_value_t = 1e-8)]
    height_m: f64,
    /// Drawing speed, m/s (negative: backwards; not zero).
    #[arg(long)]
    speed_m_per_s: f64,
    #[arg(long, default_value_t = 48_000.0)]
    sample_rate_hz: f64,
    #[arg(long)]
    json: bool,
}

/// Samples analysed (after a 0.1 s settling of the stylus).
const ANALYSED: usize = 1 << 16;

pub fn run(args: &ScrapeArgs) -> Result<()> {
    let settings = match surface(args) {
        Ok(settings) => settings,
        Err(reason) => {
            eprintln!("error: {reason}");
            std::process::exit(2)
        }
    };
    let rate = args.sample_rate_hz;
    let settle = (0.1 * rate) as usize;
    let force = scrape(
        &Scrape::stylus(settings, args.speed_m_per_s, rate),
        0.0,
        settle + ANALYSED,
    );
    let force = &force[settle..];
    let pulse = (settings.kind == SurfaceKind::Ridges)
        .then(|| args.speed_m_per_s.abs() / args.ridge_spacing_m);
    let report = json!({
        "pulse_rate_hz": pulse.map_or(Value::Null, |_| json!(1.0 / period_s(force, rate))),
        "expected_pulse_rate_hz": pulse,
        "force_centroid_hz": centroid_hz(force, rate),
        "alias_db": pulse.map_or(Value::Null, |f0| json!(alias_db(force, rate, f0))),
        "surface": args.surface,
        "ridge_spacing_m": args.ridge_spacing_m,
        "ridge_shape": args.ridge_shape,
        "height_m": args.height_m,
        "speed_m_per_s": args.speed_m_per_s,
        "sample_rate_hz": rate,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for (key, value) in report.as_object().into_iter().flatten() {
            println!("{key:>22}  {value}");
        }
    }
    Ok(())
}

/// The surface the arguments describe, or the refusal naming the first bad value.
fn surface(args: &ScrapeArgs) -> Result<SurfaceSettings, String> {
    if !(args.speed_m_per_s.is_finite() && args.speed_m_per_s != 0.0) {
        return Err("--speed-m-per-s must be finite and not zero".into());
    }
    if !(args.ridge_spacing_m > 1e-6 && args.ridge_spacing_m < 1.0) {
        return Err("--ridge-spacing-m must lie in (1e-6, 1) m".into());
    }
    if !(args.height_m >= 0.0 && args.height_m <= 1e-3) {
        return Err("--height-m must lie in [0, 1e-3] m".into());
    }
    if !(args.sample_rate_hz >= 8_000.0 && args.sample_rate_hz <= 384_000.0) {
        return Err("--sample-rate-hz must lie in [8000, 384000]".into());
    }
    let kind = match args.surface.as_str() {
        "ridges" => SurfaceKind::Ridges,
        "fractal" => SurfaceKind::Fractal,
        "grain" => SurfaceKind::Grain,
        "smooth" => SurfaceKind::Smooth,
        other => {
            return Err(format!(
                "unknown --surface {other:?}: ridges, fractal, grain, smooth"
            ))
        }
    };
    let ridge_shape = match args.ridge_shape.as_str() {
        "rounded" => RidgeShape::Rounded,
        "saw" => RidgeShape::Saw,
        "teeth" => RidgeShape::Teeth { duty: 0.3 },
        other => {
            return Err(format!(
                "unknown --ridge-shape {other:?}: rounded, saw, teeth"
            ))
        }
    };
    Ok(SurfaceSettings {
        kind,
        height_m: args.height_m,
        ridge_spacing_m: args.ridge_spacing_m,
        ridge_shape,
        ..SurfaceSettings::smooth()
    })
}

fn centred(signal: &[f64]) -> Vec<f64> {
    let mean = signal.iter().sum::<f64>() / signal.len() as f64;
    signal.iter().map(|x| x - mean).collect()
}

/// The 4-term Blackman–Harris window's power spectrum of `signal` (sidelobes below −92 dB), bins
/// 0 to N/2.
fn power(signal: &[f64]) -> Vec<f64> {
    let n = signal.len();
    let w = |i: usize| {
        let x = std::f64::consts::TAU * i as f64 / n as f64;
        0.35875 - 0.48829 * x.cos() + 0.14128 * (2.0 * x).cos() - 0.01168 * (3.0 * x).cos()
    };
    let mut buf: Vec<Complex<f64>> = centred(signal)
        .iter()
        .enumerate()
        .map(|(i, x)| Complex::new(x * w(i), 0.0))
        .collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    buf[..=n / 2].iter().map(|c| c.norm_sqr()).collect()
}

/// The spectral centroid of the force from 20 Hz to 0.45·fs, Hz.
fn centroid_hz(force: &[f64], rate: f64) -> f64 {
    let p = power(force);
    let bin = rate / force.len() as f64;
    let (mut weighted, mut total) = (0.0, 0.0);
    for (i, power) in p.iter().enumerate() {
        let f = i as f64 * bin;
        if f >= 20.0 && f <= 0.45 * rate {
            weighted += f * power;
            total += power;
        }
    }
    weighted / total
}

/// The energy more than 8 bins (four main-lobe widths) from every harmonic of `pulse_hz`,
/// against the whole, dB: what folded back from above Nyquist.
fn alias_db(force: &[f64], rate: f64, pulse_hz: f64) -> f64 {
    let p = power(force);
    let bin = rate / force.len() as f64;
    let total: f64 = p.iter().sum();
    let between: f64 = p
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let f = *i as f64 * bin;
            let nearest = (f / pulse_hz).round() * pulse_hz;
            (f - nearest).abs() > 8.0 * bin
        })
        .map(|(_, power)| power)
        .sum();
    10.0 * (between / total).log10()
}

/// The period of `signal` from its autocorrelation: the first peak past the zero-lag lobe
/// reaching 90 % of the largest there, refined by a parabola, s.
fn period_s(signal: &[f64], rate: f64) -> f64 {
    let n = signal.len();
    let mut buf: Vec<Complex<f64>> = centred(signal)
        .into_iter()
        .chain(std::iter::repeat_n(0.0, n))
        .map(|x| Complex::new(x, 0.0))
        .collect();
    let mut planner = FftPlanner::new();
    planner.plan_fft_forward(2 * n).process(&mut buf);
    buf.iter_mut()
        .for_each(|c| *c = Complex::new(c.norm_sqr(), 0.0));
    planner.plan_fft_inverse(2 * n).process(&mut buf);
    let r: Vec<f64> = buf[..n / 2].iter().map(|c| c.re).collect();
    let Some(start) = r.iter().position(|&x| x < 0.0) else {
        return f64::NAN;
    };
    let top = r[start..].iter().copied().fold(f64::MIN, f64::max);
    let Some(k) = (start.max(1)..r.len() - 1)
        .find(|&k| r[k] >= 0.9 * top && r[k] >= r[k - 1] && r[k] >= r[k + 1])
    else {
        return f64::NAN;
    };
    let (a, b, c) = (r[k - 1], r[k], r[k + 1]);
    (k as f64 + 0.5 * (a - c) / (a - 2.0 * b + c)) / rate
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(line: &str) -> String {
        surface(&ScrapeArgs::try_parse_from(line.split_whitespace()).unwrap()).unwrap_err()
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        assert!(refusal("scrape --speed-m-per-s 0").contains("--speed-m-per-s"));
        assert!(refusal("scrape --speed-m-per-s 1 --surface glass").contains("--surface"));
        assert!(
            refusal("scrape --speed-m-per-s 1 --ridge-spacing-m -1").contains("--ridge-spacing-m")
        );
    }
}
