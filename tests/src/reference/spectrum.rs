//! How high a recording's content reaches: its long-term spectrum against the noise of its own quantization step.

use crate::hann;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

/// Bands the long-term spectrum is averaged over between 0 and the Nyquist frequency.
const BANDS: usize = 64;
/// A band holds content when its mean power stands this far above the quantization noise, dB.
const ABOVE_QUANTIZATION_DB: f64 = 25.0;
/// Longest frame of the averaged periodogram, samples.
const FRAME: usize = 1024;
/// Shortest recording measured; a shorter one reports its Nyquist frequency.
const MIN_FRAME: usize = 64;
/// Most bits a quantization step is looked for at; finer data (floats) counts as this.
const MAX_BITS: i32 = 26;

/// The upper edge of the highest of 64 bands (0 … fs/2) whose mean power (Welch: Hann frames
/// of 1024, half overlapping), and its lower neighbour's, stand 25 dB above the white noise of
/// the samples' quantization step Δ (Δ²/12 spread over 0 … fs/2), Δ the coarsest grid
/// 2^−(b−1) every sample lies on.
///
/// Above it the recording holds nothing but its rounding noise: either the sample was
/// band-limited before it was stored (resampled from a lower rate) or the instrument radiates
/// nothing there that the recording kept. A comparison should not look higher. Silence
/// reports 0; a recording shorter than 64 samples reports its Nyquist frequency.
pub fn content_bandwidth_hz(samples: &[f64], sample_rate_hz: f64) -> f64 {
    let nyquist_hz = sample_rate_hz / 2.0;
    if samples.len() < MIN_FRAME {
        return nyquist_hz;
    }
    let Some(step) = quantization_step(samples) else {
        return 0.0;
    };
    let power = averaged_power(samples);
    // |X|² of white noise of variance Δ²/12 through a window w: (Δ²/12)·Σw².
    let frame = (power.len() - 1) * 2;
    let window_energy: f64 = (0..frame).map(|i| hann(i, frame).powi(2)).sum();
    let noise = step * step / 12.0 * window_energy;
    let bins = power.len() - 1;
    let holds = |band: usize| {
        let (from, to) = (1 + band * bins / BANDS, 1 + (band + 1) * bins / BANDS);
        let mean = power[from..to].iter().sum::<f64>() / (to - from).max(1) as f64;
        10.0 * (mean / noise).log10() >= ABOVE_QUANTIZATION_DB
    };
    // Two neighbouring bands, so that one narrow line (a hum's harmonic, an alias) above the
    // edge does not count as content.
    let highest = (1..BANDS)
        .rev()
        .find(|&band| holds(band) && holds(band - 1));
    highest.map_or(0.0, |band| (band + 1) as f64 / BANDS as f64 * nyquist_hz)
}

/// The coarsest step 2^−(b−1) all samples are multiples of (b ≤ 26 bits); none for silence.
fn quantization_step(samples: &[f64]) -> Option<f64> {
    let scale = 2f64.powi(MAX_BITS - 1);
    let mut bits = 0;
    for &x in samples {
        let scaled = x * scale;
        let integer = scaled.round();
        if (scaled - integer).abs() > 1e-6 {
            bits = MAX_BITS;
            break;
        }
        let value = integer as i64;
        if value != 0 {
            bits = bits.max(MAX_BITS - value.trailing_zeros() as i32);
        }
    }
    (bits > 0).then(|| 2f64.powi(1 - bits))
}

/// Mean |X_k|² over Hann frames (half overlapping), k = 0 … frame/2.
fn averaged_power(samples: &[f64]) -> Vec<f64> {
    let frame = if samples.len() >= FRAME {
        FRAME
    } else {
        1 << samples.len().ilog2()
    };
    let fft = FftPlanner::new().plan_fft_forward(frame);
    let window: Vec<f64> = (0..frame).map(|i| hann(i, frame)).collect();
    let mut power = vec![0.0; frame / 2 + 1];
    let mut buffer = vec![Complex::new(0.0, 0.0); frame];
    let mut frames = 0usize;
    let mut start = 0;
    while start + frame <= samples.len() {
        for ((b, &x), &w) in buffer.iter_mut().zip(&samples[start..]).zip(&window) {
            *b = Complex::new(x * w, 0.0);
        }
        fft.process(&mut buffer);
        for (p, b) in power.iter_mut().zip(&buffer) {
            *p += b.norm_sqr();
        }
        frames += 1;
        start += frame / 2;
    }
    power.iter_mut().for_each(|p| *p /= frames.max(1) as f64);
    power
}
