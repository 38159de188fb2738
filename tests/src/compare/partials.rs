//! Partials by peak picking on a long, zero-padded Gaussian-windowed spectrum from the onset, and each one's T60 from its magnitude track over Gaussian STFT frames.

use super::{line_slope, Options, Partial};
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// The Gaussian windows span ±4 standard deviations (their ends at e^−8, −69.5 dB).
pub const GAUSSIAN_HALF_WIDTH_SIGMAS: f64 = 4.0;
/// The long window's FFT is at least this many times its length (a power of two).
pub const ZERO_PADDING: usize = 8;
/// Shortest window of the partials' spectrum, s (shorter sounds use all they have).
pub const MIN_WINDOW_S: f64 = 0.05;
/// Partials are looked for between this and 0.45 × the sample rate, Hz.
pub const MIN_PARTIAL_HZ: f64 = 20.0;
pub const MAX_PARTIAL_RATE_FRACTION: f64 = 0.45;
/// A partial's track window is this many periods of its distance to the nearest other peak.
pub const TRACK_SEPARATION_PERIODS: f64 = 5.0;
/// Shortest track window, s.
pub const MIN_TRACK_WINDOW_S: f64 = 0.02;
/// Track frames hop by this fraction of their window.
pub const TRACK_HOP_FRACTION: f64 = 0.25;
/// The track fit ends above its floor by this much, dB…
pub const TRACK_ABOVE_FLOOR_DB: f64 = 10.0;
/// … and at most this far below the track's maximum, dB.
pub const TRACK_FIT_DEPTH_DB: f64 = 60.0;

/// Length of the partials' window: the time the Schroeder curve takes to fall 30 dB (or to meet
/// the noise; the whole sound if it does not decay), clamped to [min_window_s, max_window_s]
/// (50 ms and 1 s by default) and to the sound's length.
pub(crate) fn window_s(decay_s: f64, duration_s: f64, options: &Options) -> f64 {
    decay_s
        .clamp(
            options.min_window_s,
            options.max_window_s.max(options.min_window_s),
        )
        .min(duration_s)
}

/// A Gaussian window of `n` samples, centred, σ = n/8: w[i] = exp(−½((i − (n−1)/2)/σ)²).
pub(crate) fn gaussian(n: usize) -> Vec<f64> {
    let centre = (n as f64 - 1.0) / 2.0;
    let sigma = n as f64 / (2.0 * GAUSSIAN_HALF_WIDTH_SIGMAS);
    (0..n)
        .map(|i| (-0.5 * ((i as f64 - centre) / sigma).powi(2)).exp())
        .collect()
}

/// The strongest partials of the normalised sound `y` (from its onset), strongest first.
pub(crate) fn partials(y: &[f64], rate_hz: f64, window_s: f64, options: &Options) -> Vec<Partial> {
    let (level_db, bin_hz) = spectrum_db(y, rate_hz, window_s);
    let mut peaks = pick_peaks(&level_db, bin_hz, rate_hz, options);
    // Each partial's nearest neighbour among all accepted peaks, or its own image at −f.
    let mut by_frequency: Vec<f64> = peaks.iter().map(|p| p.frequency_hz).collect();
    by_frequency.sort_by(f64::total_cmp);
    let nearest = |f: f64| {
        let i = by_frequency.partition_point(|&g| g < f);
        let below = i
            .checked_sub(1)
            .and_then(|j| by_frequency.get(j))
            .map(|g| f - g);
        let above = by_frequency.get(i + 1).map(|g| g - f);
        [below, above].into_iter().flatten().fold(2.0 * f, f64::min)
    };
    peaks.truncate(options.max_partials);
    let strongest_db = peaks.first().map_or(0.0, |p| p.level_db);
    peaks
        .iter()
        .map(|p| {
            let track_s = (TRACK_SEPARATION_PERIODS / nearest(p.frequency_hz))
                .clamp(MIN_TRACK_WINDOW_S.min(window_s), window_s);
            Partial {
                frequency_hz: p.frequency_hz,
                level_db: p.level_db - strongest_db,
                t60_s: t60_from_track(&track_db(y, rate_hz, p.frequency_hz, track_s)),
            }
        })
        .collect()
}

/// A spectral peak: the parabola's vertex.
#[derive(Clone, Copy, Debug)]
struct Peak {
    frequency_hz: f64,
    level_db: f64,
}

/// Magnitude in dB (a sine of amplitude A reads 20·log10 A) of the first `window_s` of `y` under
/// a Gaussian window, zero-padded to ≥ 8× its length, and the bin spacing in Hz.
fn spectrum_db(y: &[f64], rate_hz: f64, window_s: f64) -> (Vec<f64>, f64) {
    let n = ((window_s * rate_hz).round() as usize).clamp(2, y.len().max(2));
    let w = gaussian(n);
    let size = n.next_power_of_two() * ZERO_PADDING;
    let mut buffer = vec![Complex::new(0.0, 0.0); size];
    for (b, (x, w)) in buffer.iter_mut().zip(y.iter().zip(&w)) {
        *b = Complex::new(x * w, 0.0);
    }
    FftPlanner::new()
        .plan_fft_forward(size)
        .process(&mut buffer);
    let scale = 2.0 / w.iter().sum::<f64>();
    let level_db = buffer[..=size / 2]
        .iter()
        .map(|c| 20.0 * (c.norm() * scale).max(1e-20).log10())
        .collect();
    (level_db, rate_hz / size as f64)
}

/// Local maxima between 20 Hz and 0.45·fs within `peak_threshold_db` of the strongest, each
/// separated from any stronger one by a dip of `peak_dip_db`; strongest first.
fn pick_peaks(level_db: &[f64], bin_hz: f64, rate_hz: f64, options: &Options) -> Vec<Peak> {
    let low = ((MIN_PARTIAL_HZ / bin_hz).ceil() as usize).max(1);
    let high = ((MAX_PARTIAL_RATE_FRACTION * rate_hz / bin_hz) as usize).min(level_db.len() - 2);
    let maxima: Vec<usize> = (low..=high)
        .filter(|&k| level_db[k] > level_db[k - 1] && level_db[k] >= level_db[k + 1])
        .collect();
    let strongest = maxima.iter().map(|&k| level_db[k]).fold(f64::MIN, f64::max);
    let mut peaks: Vec<Peak> = maxima
        .into_iter()
        .filter(|&k| level_db[k] >= strongest + options.peak_threshold_db)
        .filter(|&k| separated(level_db, k, options.peak_dip_db))
        .map(|k| interpolate(level_db, k, bin_hz))
        .collect();
    peaks.sort_by(|a, b| b.level_db.total_cmp(&a.level_db));
    peaks
}

/// Whether, on each side of bin `k`, the spectrum falls `dip_db` below it before it rises above
/// it (or the spectrum ends).
fn separated(level_db: &[f64], k: usize, dip_db: f64) -> bool {
    let (peak, floor) = (level_db[k], level_db[k] - dip_db);
    dips(level_db[..k].iter().rev(), peak, floor) && dips(level_db[k + 1..].iter(), peak, floor)
}

/// Whether `side` falls below `floor` before it rises above `peak` (true if it does neither).
fn dips<'a>(mut side: impl Iterator<Item = &'a f64>, peak: f64, floor: f64) -> bool {
    side.find(|&&l| l < floor || l > peak)
        .is_none_or(|&l| l < floor)
}

/// The vertex of the parabola through the dB levels of bins k − 1, k, k + 1: offset
/// δ = ½(a − c)/(a − 2b + c) bins, level b − ¼(a − c)·δ. Exact for a Gaussian lobe.
fn interpolate(level_db: &[f64], k: usize, bin_hz: f64) -> Peak {
    let (a, b, c) = (level_db[k - 1], level_db[k], level_db[k + 1]);
    let denominator = a - 2.0 * b + c;
    let delta = if denominator < 0.0 {
        0.5 * (a - c) / denominator
    } else {
        0.0
    };
    Peak {
        frequency_hz: (k as f64 + delta) * bin_hz,
        level_db: b - 0.25 * (a - c) * delta,
    }
}

/// The magnitude track (frame centre in s after the onset, dB) of `y` at `frequency_hz`: the
/// DFT at that frequency of Gaussian frames of `window_s` from the onset, hopping by a quarter.
fn track_db(y: &[f64], rate_hz: f64, frequency_hz: f64, window_s: f64) -> Vec<(f64, f64)> {
    let n = ((window_s * rate_hz).round() as usize).clamp(2, y.len().max(2));
    let w = gaussian(n);
    let scale = 2.0 / w.iter().sum::<f64>();
    let omega = std::f64::consts::TAU * frequency_hz / rate_hz;
    let kernel: Vec<Complex<f64>> = w
        .iter()
        .enumerate()
        .map(|(i, &w)| Complex::from_polar(w, -omega * i as f64))
        .collect();
    let hop = ((n as f64 * TRACK_HOP_FRACTION) as usize).max(1);
    (0..)
        .map(|j| j * hop)
        .take_while(|&start| start + n <= y.len())
        .map(|start| {
            let sum: Complex<f64> = y[start..start + n]
                .iter()
                .zip(&kernel)
                .map(|(x, k)| k * x)
                .sum();
            let time_s = (start as f64 + (n as f64 - 1.0) / 2.0) / rate_hz;
            (time_s, 20.0 * (sum.norm() * scale).max(1e-20).log10())
        })
        .collect()
}

/// T60 from a track: a least-squares line through the dB track from its maximum to its last frame
/// above both (floor + 10 dB) and (maximum − 60 dB), the floor being the mean power of the last
/// 10 % of its frames; T60 = −60/slope. None for fewer than 4 frames in range or no decay.
fn t60_from_track(track: &[(f64, f64)]) -> Option<f64> {
    let tail = (track.len() / 10).max(1);
    let floor_power = track[track.len().checked_sub(tail)?..]
        .iter()
        .map(|&(_, l)| 10f64.powf(l / 10.0))
        .sum::<f64>()
        / tail as f64;
    let floor_db = 10.0 * floor_power.max(1e-40).log10();
    let (top, max_db) = track
        .iter()
        .enumerate()
        .map(|(j, &(_, l))| (j, l))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let limit_db = (floor_db + TRACK_ABOVE_FLOOR_DB).max(max_db - TRACK_FIT_DEPTH_DB);
    let last = track.iter().rposition(|&(_, l)| l > limit_db)?;
    if last < top + 3 {
        return None;
    }
    let slope = line_slope(track[top..=last].iter().copied())?;
    (slope < 0.0).then(|| -60.0 / slope)
}
