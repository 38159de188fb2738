//! Broadband T60 by Schroeder's backward integration, with the noise floor taken off and the tail past the noise extrapolated.

use super::line_slope;

/// Frames of the energy envelope that finds where the sound meets the noise, s.
pub const ENVELOPE_FRAME_S: f64 = 0.01;
/// The noise floor is the mean square of this last fraction of the sound (at least one frame).
pub const TAIL_FRACTION: f64 = 0.1;
/// The sound has met the noise after the last envelope frame more than this above it, dB.
pub const ABOVE_NOISE_DB: f64 = 10.0;
/// The fit starts where the Schroeder curve has fallen this far, dB.
pub const FIT_START_DB: f64 = -5.0;
/// The fit ends at the first of these the curve passes before the noise, dB.
pub const FIT_ENDS_DB: [f64; 3] = [-35.0, -25.0, -15.0];
/// The partials' window is as long as the curve takes to fall this far, dB.
pub const WINDOW_DECAY_DB: f64 = -30.0;

/// The broadband decay of a sound (docs/analysis.md, "Broadband T60").
#[derive(Clone, Debug, PartialEq)]
pub struct BroadbandDecay {
    /// −60 dB over the slope of the line fitted to the Schroeder curve in dB, s; None when the
    /// curve does not fall 15 dB before the noise.
    pub t60_s: Option<f64>,
    /// The fitted range of the curve, dB re its start: (−5, −35), else (−5, −25), else (−5, −15).
    pub fit_db: Option<(f64, f64)>,
    /// How far the curve falls before the sound meets the noise, dB (< 35: not far enough for
    /// the full range).
    pub decay_range_db: f64,
    /// Mean square of the last 10 % of the sound, dB re the mean square of its first 0.5 s.
    pub noise_db: f64,
    /// Where the sound meets the noise: the end of the last 10 ms frame more than 10 dB above
    /// it, s after the onset.
    pub decay_end_s: f64,
}

/// The decay of the normalised sound `y` (RMS 1 over its first 0.5 s), and the time at which its
/// Schroeder curve first falls 30 dB (None if it does not before the noise).
pub(crate) fn schroeder(y: &[f64], rate_hz: f64) -> (BroadbandDecay, Option<f64>) {
    let frame = ((ENVELOPE_FRAME_S * rate_hz).round() as usize).max(1);
    let tail = ((y.len() as f64 * TAIL_FRACTION) as usize).clamp(frame.min(y.len()), y.len());
    let noise = mean_square(&y[y.len() - tail..]);
    let powers: Vec<f64> = y.chunks_exact(frame).map(mean_square).collect();
    let above = noise * 10f64.powf(ABOVE_NOISE_DB / 10.0);
    let end_frames = powers.iter().rposition(|&p| p > above).map_or(0, |k| k + 1);
    let end = end_frames * frame;
    let mut decay = BroadbandDecay {
        t60_s: None,
        fit_db: None,
        decay_range_db: 0.0,
        noise_db: 10.0 * noise.max(1e-300).log10(),
        decay_end_s: end as f64 / rate_hz,
    };
    if end_frames < 2 {
        return (decay, None);
    }
    let tail_energy = tail_energy(&powers[..end_frames], noise, frame, rate_hz);
    let curve = curve_db(&y[..end], noise, tail_energy);
    decay.decay_range_db = -curve[end];
    let at = |level_db: f64| curve.iter().position(|&c| c <= level_db);
    let minus_30_db_s = at(WINDOW_DECAY_DB)
        .filter(|&n| n < end)
        .map(|n| n as f64 / rate_hz);
    let Some(to_db) = FIT_ENDS_DB
        .into_iter()
        .find(|&l| decay.decay_range_db >= -l)
    else {
        return (decay, minus_30_db_s);
    };
    if let (Some(from), Some(to)) = (at(FIT_START_DB), at(to_db)) {
        let points = (from..=to).map(|n| (n as f64 / rate_hz, curve[n]));
        decay.t60_s = line_slope(points).filter(|&s| s < 0.0).map(|s| -60.0 / s);
        decay.fit_db = Some((FIT_START_DB, to_db));
    }
    (decay, minus_30_db_s)
}

/// The Schroeder curve in dB re its start: 10·log10(E(n)/E(0)), with E(n) the sum of
/// (y[m]² − noise) over m ≥ n plus the tail energy past the end, floored at a tiny positive
/// energy. One value per sample and one past the end.
fn curve_db(y: &[f64], noise: f64, tail_energy: f64) -> Vec<f64> {
    let mut energy = vec![0.0; y.len() + 1];
    energy[y.len()] = tail_energy;
    for n in (0..y.len()).rev() {
        energy[n] = energy[n + 1] + (y[n] * y[n] - noise);
    }
    let total = energy[0].max(1e-300);
    energy
        .iter()
        .map(|&e| 10.0 * (e.max(total * 1e-30) / total).log10())
        .collect()
}

/// Energy (in samples' squares) of the decay past the last frame, extrapolated from the line
/// fitted to the frames' levels (noise taken off) from the loudest frame on: P·fs·10/(|s|·ln 10)
/// for power P at the end and slope s in dB/s. Zero if the line does not fall.
fn tail_energy(powers: &[f64], noise: f64, frame: usize, rate_hz: f64) -> f64 {
    let loudest = (0..powers.len())
        .max_by(|&i, &j| powers[i].total_cmp(&powers[j]))
        .unwrap_or(0);
    let frame_s = frame as f64 / rate_hz;
    let level_db = |p: f64| 10.0 * (p - noise).max(1e-300).log10();
    let points = (loudest..powers.len()).map(|k| ((k as f64 + 0.5) * frame_s, level_db(powers[k])));
    let Some(slope) = line_slope(points.clone()).filter(|&s| s < 0.0) else {
        return 0.0;
    };
    let count = (powers.len() - loudest) as f64;
    let (mean_t, mean_db) =
        points.fold((0.0, 0.0), |(t, l), (x, y)| (t + x / count, l + y / count));
    let end_db = mean_db + slope * (powers.len() as f64 * frame_s - mean_t);
    10f64.powf(end_db / 10.0) * rate_hz * 10.0 / (-slope * std::f64::consts::LN_10)
}

/// Mean of the squares of `x` (0 for an empty slice).
pub(crate) fn mean_square(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>() / x.len().max(1) as f64
}
