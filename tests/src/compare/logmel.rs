//! Log-mel band powers (40 HTK-mel triangular bands) over 10 ms hops, floored 80 dB under the loudest, and the RMS distance between two sounds' bands.

use super::centroid::hann;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// Number of mel bands.
pub const NUM_MEL_BANDS: usize = 40;
/// Lower edge of the lowest band, Hz.
pub const MEL_LOW_HZ: f64 = 50.0;
/// Upper edge of the highest band, at most, Hz …
pub const MEL_HIGH_HZ: f64 = 16_000.0;
/// … and at most this fraction of the lower of the two sample rates.
pub const MEL_RATE_FRACTION: f64 = 0.45;
/// Length of a frame's Hann window, s.
pub const MEL_FRAME_S: f64 = 0.04;
/// Frames start every 10 ms from the onset, s.
pub const MEL_HOP_S: f64 = 0.01;
/// The distance covers the first second (or the shorter sound's length), s.
pub const MEL_SPAN_S: f64 = 1.0;
/// Band powers are floored this far under the sound's loudest band, dB.
pub const MEL_FLOOR_DB: f64 = 80.0;
/// A frame's FFT is at least this many times its length (a power of two).
const MEL_ZERO_PADDING: usize = 4;

/// HTK mel: m = 2595·log10(1 + f/700).
pub fn hz_to_mel(frequency_hz: f64) -> f64 {
    2595.0 * (1.0 + frequency_hz / 700.0).log10()
}

/// Inverse of [`hz_to_mel`]: f = 700·(10^(m/2595) − 1).
pub fn mel_to_hz(mel: f64) -> f64 {
    700.0 * (10f64.powf(mel / 2595.0) - 1.0)
}

/// The 42 band edges: equally spaced in mel from 50 Hz to `top_hz`; band b rises from edge b to
/// b + 1 and falls to b + 2.
pub fn band_edges_hz(top_hz: f64) -> Vec<f64> {
    let (low, high) = (hz_to_mel(MEL_LOW_HZ), hz_to_mel(top_hz));
    (0..NUM_MEL_BANDS + 2)
        .map(|i| mel_to_hz(low + (high - low) * i as f64 / (NUM_MEL_BANDS + 1) as f64))
        .collect()
}

/// The bands' top for two sample rates: min(16 kHz, 0.45·min(rate_a, rate_b)).
pub(crate) fn top_hz(rate_a_hz: f64, rate_b_hz: f64) -> f64 {
    MEL_HIGH_HZ.min(MEL_RATE_FRACTION * rate_a_hz.min(rate_b_hz))
}

/// A sound's log-mel band powers.
#[derive(Clone, Debug, PartialEq)]
pub struct LogMel {
    /// Upper edge of the highest band, Hz.
    pub top_hz: f64,
    /// Length covered from the onset, s.
    pub span_s: f64,
    /// Per frame (every 10 ms), per band: 10·log10 of the band power, floored 80 dB under the
    /// loudest value of all frames and bands.
    pub frames_db: Vec<[f64; NUM_MEL_BANDS]>,
}

/// Band powers of the normalised sound `y`: frames of a 40 ms Hann window (or `span_s` if
/// shorter) starting every 10 ms from the onset while they end within `span_s`; band power
/// P_b = 2/(N·Σw²)·Σ_k T_b(f_k)·|X_k|² over the bins of an N-point FFT (a sine of amplitude A at
/// a band's peak gives about A²/2), T_b the triangle of band b.
pub fn log_mel(y: &[f64], rate_hz: f64, top_hz: f64, span_s: f64) -> LogMel {
    let n = ((MEL_FRAME_S.min(span_s) * rate_hz).round() as usize).max(2);
    let frames = (((span_s - MEL_FRAME_S.min(span_s)) / MEL_HOP_S + 1e-9).floor() as usize) + 1;
    let w = hann(n);
    let size = n.next_power_of_two() * MEL_ZERO_PADDING;
    let scale = 2.0 / (size as f64 * w.iter().map(|v| v * v).sum::<f64>());
    let weights = triangles(top_hz, rate_hz / size as f64, size / 2);
    let fft = FftPlanner::new().plan_fft_forward(size);
    let mut buffer = vec![Complex::new(0.0, 0.0); size];
    let mut frames_db: Vec<[f64; NUM_MEL_BANDS]> = (0..frames)
        .map(|k| {
            let start = (k as f64 * MEL_HOP_S * rate_hz).round() as usize;
            buffer.fill(Complex::new(0.0, 0.0));
            for ((b, w), x) in buffer.iter_mut().zip(&w).zip(y.iter().skip(start)) {
                *b = Complex::new(x * w, 0.0);
            }
            fft.process(&mut buffer);
            std::array::from_fn(|band| {
                let power: f64 = weights[band]
                    .iter()
                    .map(|&(i, t)| t * buffer[i].norm_sqr())
                    .sum();
                10.0 * (power * scale).max(1e-300).log10()
            })
        })
        .collect();
    let loudest = frames_db.iter().flatten().copied().fold(f64::MIN, f64::max);
    for level in frames_db.iter_mut().flatten() {
        *level = level.max(loudest - MEL_FLOOR_DB);
    }
    LogMel {
        top_hz,
        span_s,
        frames_db,
    }
}

/// Each band's (bin, triangle weight) pairs for bins 0..=`last_bin` of spacing `bin_hz`.
fn triangles(top_hz: f64, bin_hz: f64, last_bin: usize) -> Vec<Vec<(usize, f64)>> {
    let edges = band_edges_hz(top_hz);
    edges
        .windows(3)
        .map(|e| {
            let (low, centre, high) = (e[0], e[1], e[2]);
            let first = (low / bin_hz).ceil() as usize;
            let last = ((high / bin_hz).floor() as usize).min(last_bin);
            (first..=last)
                .map(|i| {
                    let f = i as f64 * bin_hz;
                    let t = if f <= centre {
                        (f - low) / (centre - low)
                    } else {
                        (high - f) / (high - centre)
                    };
                    (i, t.max(0.0))
                })
                .collect()
        })
        .collect()
}

/// √(mean over bands b and frames k of (L_A[k][b] − L_B[k][b])²), dB, over the frames both have.
pub fn log_mel_distance_db(a: &LogMel, b: &LogMel) -> f64 {
    let frames = a.frames_db.len().min(b.frames_db.len());
    let sum: f64 = a.frames_db[..frames]
        .iter()
        .zip(&b.frames_db[..frames])
        .flat_map(|(fa, fb)| fa.iter().zip(fb).map(|(x, y)| (x - y) * (x - y)))
        .sum();
    (sum / (frames * NUM_MEL_BANDS).max(1) as f64).sqrt()
}
