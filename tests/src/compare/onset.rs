//! The onset of a sound (a threshold crossing backed off to the end of the quiet before it) and its RMS.

/// A sample reaching this fraction of the peak magnitude marks the attack (−20 dB).
pub const ATTACK_FRACTION: f64 = 0.1;
/// A sample below this fraction of the peak magnitude is quiet (−40 dB).
pub const QUIET_FRACTION: f64 = 0.01;
/// A quiet stretch lasts at least this long (or reaches back to the file's start), s.
pub const QUIET_STRETCH_S: f64 = 1e-3;
/// The quiet stretch is looked for at most this long before the attack, s.
pub const MAX_BACKOFF_S: f64 = 0.02;
/// The RMS normalisation is taken over this long after the onset, s.
pub const NORMALISATION_S: f64 = 0.5;

/// The onset sample: with the attack a = the first sample with |x| ≥ 0.1·max|x|, the sample after
/// the last quiet sample j (|x| < 0.01·max|x|, preceded by 1 ms of quiet samples or only quiet ones
/// back to the start) with a − 20 ms ≤ j < a; the attack itself if there is none. None for silence.
pub(crate) fn onset(x: &[f64], rate_hz: f64) -> Option<usize> {
    let peak = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if peak <= 0.0 {
        return None;
    }
    let attack = x.iter().position(|v| v.abs() >= ATTACK_FRACTION * peak)?;
    let quiet = QUIET_FRACTION * peak;
    let stretch = ((QUIET_STRETCH_S * rate_hz).round() as usize).max(1);
    let earliest = attack.saturating_sub((MAX_BACKOFF_S * rate_hz).round() as usize);
    let first = earliest.saturating_sub(stretch);
    let mut run = 0usize;
    let mut onset = attack;
    for (j, v) in x.iter().enumerate().take(attack).skip(first) {
        run = if v.abs() < quiet { run + 1 } else { 0 };
        if j >= earliest && run > 0 && (run > stretch || run == j + 1) {
            onset = j + 1;
        }
    }
    Some(onset)
}

/// Root-mean-square of `x` (0 for an empty slice).
pub(crate) fn rms(x: &[f64]) -> f64 {
    (x.iter().map(|v| v * v).sum::<f64>() / x.len().max(1) as f64).sqrt()
}
