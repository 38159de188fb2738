//! A true-peak limiter for offline files: the peaks between samples estimated by 4× windowed-sinc interpolation, the gain reduction each needs spread before it (0.3 ms) and after it (20 ms) as exponentials in dB, applied to every channel alike.

/// Interpolated points between two samples, counting the sample itself (4× oversampling, as
/// ITU-R BS.1770-4's true-peak meter at 48 kHz).
const OVERSAMPLE: usize = 4;
/// Samples each side of an interpolated point the windowed sinc reaches.
const HALF_TAPS: usize = 16;
/// Time constants of the reduction's spread before and after a peak, s.
const ATTACK_S: f64 = 0.0003;
const RELEASE_S: f64 = 0.020;
/// The margin the interpolation's error is given, dB.
const MARGIN_DB: f64 = 0.05;

/// The polyphase filters: for each fractional position p/4 (p = 1…3), the Hann-windowed sinc
/// weights of the samples n − HALF_TAPS + 1 … n + HALF_TAPS.
fn phases() -> [[f64; 2 * HALF_TAPS]; OVERSAMPLE - 1] {
    let mut filters = [[0.0; 2 * HALF_TAPS]; OVERSAMPLE - 1];
    for (p, filter) in filters.iter_mut().enumerate() {
        let frac = (p + 1) as f64 / OVERSAMPLE as f64;
        for (j, weight) in filter.iter_mut().enumerate() {
            // The distance from the interpolated point to sample n − HALF_TAPS + 1 + j.
            let t = frac + HALF_TAPS as f64 - 1.0 - j as f64;
            let x = std::f64::consts::PI * t;
            let sinc = if t == 0.0 { 1.0 } else { x.sin() / x };
            let window = 0.5 + 0.5 * (x / HALF_TAPS as f64).cos();
            *weight = sinc * window;
        }
    }
    filters
}

/// The largest magnitude of `channels` at each sample and at the points between it and the next.
fn true_peaks(channels: &[Vec<f32>]) -> Vec<f64> {
    let filters = phases();
    let len = channels[0].len();
    let mut peaks = vec![0.0f64; len];
    for channel in channels {
        // The channel between HALF_TAPS zeros each side, so every tap reads a sample.
        let mut padded = vec![0.0f64; len + 2 * HALF_TAPS];
        for (p, x) in padded[HALF_TAPS..].iter_mut().zip(channel) {
            *p = f64::from(*x);
        }
        for (n, peak) in peaks.iter_mut().enumerate() {
            // Samples n − HALF_TAPS + 1 … n + HALF_TAPS.
            let taps = &padded[n + 1..n + 1 + 2 * HALF_TAPS];
            let mut largest = padded[n + HALF_TAPS].abs();
            for filter in &filters {
                let value: f64 = filter.iter().zip(taps).map(|(w, x)| w * x).sum();
                largest = largest.max(value.abs());
            }
            *peak = peak.max(largest);
        }
    }
    peaks
}

/// Passes of the limiter at most: a pass's attack leaves the samples before a peak a little less
/// reduced than the peak, so the peak rebuilt between them may still cross; the next pass takes
/// that down.
const PASSES: usize = 4;

/// Limit `channels` at `rate_hz` so that no true peak exceeds `ceiling_dbtp`, pass after pass
/// until none does; returns the reduction taken, dB (each pass's largest, summed: 0 when nothing
/// reached the ceiling, and then nothing changes).
pub fn limit(channels: &mut [Vec<f32>], rate_hz: u32, ceiling_dbtp: f64) -> f64 {
    let mut total_db = 0.0;
    for _ in 0..PASSES {
        let reduction_db = limit_once(channels, rate_hz, ceiling_dbtp);
        if reduction_db == 0.0 {
            break;
        }
        total_db += reduction_db;
    }
    total_db
}

/// One pass of [`limit`]: the reduction each true peak over the ceiling needs, spread; returns
/// the largest.
fn limit_once(channels: &mut [Vec<f32>], rate_hz: u32, ceiling_dbtp: f64) -> f64 {
    let ceiling_db = ceiling_dbtp - MARGIN_DB;
    let reduction_db: Vec<f64> = true_peaks(channels)
        .iter()
        .map(|&p| (20.0 * p.max(1e-30).log10() - ceiling_db).max(0.0))
        .collect();
    let largest = reduction_db.iter().fold(0.0f64, |m, &r| m.max(r));
    if largest == 0.0 {
        return 0.0;
    }
    let decay = |tau_s: f64| (-1.0 / (tau_s * f64::from(rate_hz))).exp();
    let (attack, release) = (decay(ATTACK_S), decay(RELEASE_S));
    let mut spread = reduction_db;
    for n in (0..spread.len().saturating_sub(1)).rev() {
        spread[n] = spread[n].max(spread[n + 1] * attack);
    }
    for n in 1..spread.len() {
        spread[n] = spread[n].max(spread[n - 1] * release);
    }
    for channel in channels.iter_mut() {
        for (sample, r) in channel.iter_mut().zip(&spread) {
            *sample = (f64::from(*sample) * 10f64.powf(-r / 20.0)) as f32;
        }
    }
    largest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::loudness::measure;

    /// A quiet 440 Hz tone with a click at 0.5 s whose true peak lies between two samples.
    fn tone_with_click() -> Vec<Vec<f32>> {
        let mut tone: Vec<f32> = (0..48_000)
            .map(|i| 0.01 * (2.0 * std::f64::consts::PI * 440.0 * i as f64 / 48_000.0).sin() as f32)
            .collect();
        // A band-limited click: a sinc centred half-way between samples 24 000 and 24 001.
        for (i, sample) in tone.iter_mut().enumerate().skip(23_900).take(200) {
            let x = std::f64::consts::PI * 0.9 * (i as f64 - 24_000.5);
            *sample += (0.9 * x.sin() / x) as f32;
        }
        vec![tone.clone(), tone]
    }

    #[test]
    fn no_true_peak_crosses_the_ceiling_after_limiting() {
        let mut audio = tone_with_click();
        let before = measure(&audio, 48_000).unwrap();
        assert!(before.true_peak_dbtp > -1.5, "{before:?}");
        let reduction = limit(&mut audio, 48_000, -6.0);
        let after = measure(&audio, 48_000).unwrap();
        assert!(reduction > 4.0, "{reduction}");
        assert!(after.true_peak_dbtp <= -6.0, "{after:?}");
    }

    #[test]
    fn what_lies_far_from_a_peak_is_untouched() {
        let original = tone_with_click();
        let mut audio = original.clone();
        limit(&mut audio, 48_000, -6.0);
        // 10 ms before the click (33 attack constants) and 300 ms after it (15 release ones).
        assert_eq!(audio[0][..23_400], original[0][..23_400]);
        for (a, b) in audio[0][38_500..].iter().zip(&original[0][38_500..]) {
            assert!((a - b).abs() <= 1e-5 * b.abs(), "{a} against {b}");
        }
    }

    #[test]
    fn a_file_below_the_ceiling_is_left_as_it_is() {
        let original = tone_with_click();
        let mut audio = original.clone();
        assert_eq!(limit(&mut audio, 48_000, 0.0), 0.0);
        assert_eq!(audio, original);
    }
}
