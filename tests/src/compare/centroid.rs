//! Spectral centroid of a short Hann frame at a given time after the onset.

use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// Length of the centroid's Hann frame, s (centred on the time asked for).
pub const CENTROID_WINDOW_S: f64 = 0.02;
/// The frame's FFT is at least this many times its length (a power of two).
const CENTROID_ZERO_PADDING: usize = 4;

/// Hann window of `n` samples without zero ends: w[i] = sin²(π(i + ½)/n).
pub(crate) fn hann(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            (std::f64::consts::PI * (i as f64 + 0.5) / n as f64)
                .sin()
                .powi(2)
        })
        .collect()
}

/// Σ f_k·|X_k|² / Σ |X_k|² over the bins from 0 to fs/2 of a 20 ms Hann frame of `y` centred
/// `at_s` after the onset (samples past the end read as zero); None if the frame is silent.
pub(crate) fn centroid_hz(y: &[f64], rate_hz: f64, at_s: f64) -> Option<f64> {
    let n = ((CENTROID_WINDOW_S * rate_hz).round() as usize).max(2);
    let start = ((at_s * rate_hz).round() as usize).saturating_sub(n / 2);
    let size = n.next_power_of_two() * CENTROID_ZERO_PADDING;
    let mut buffer = vec![Complex::new(0.0, 0.0); size];
    for ((b, w), x) in buffer.iter_mut().zip(hann(n)).zip(y.iter().skip(start)) {
        *b = Complex::new(x * w, 0.0);
    }
    FftPlanner::new()
        .plan_fft_forward(size)
        .process(&mut buffer);
    let bin_hz = rate_hz / size as f64;
    let (moment, power) = buffer[..=size / 2]
        .iter()
        .enumerate()
        .fold((0.0, 0.0), |(m, p), (k, c)| {
            (m + k as f64 * bin_hz * c.norm_sqr(), p + c.norm_sqr())
        });
    (power > 0.0).then(|| moment / power)
}
