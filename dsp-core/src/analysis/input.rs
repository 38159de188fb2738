//! What a recording must be for the analysis: finite, audible, unclipped, at most 60 s, decaying; and its onset.

use super::Recording;
use std::fmt;

/// The longest recording analysed, s.
pub const MAX_DURATION_S: f64 = 60.0;
/// The shortest, s.
pub const MIN_DURATION_S: f64 = 0.02;
/// The sample rates analysed, Hz.
pub const MIN_SAMPLE_RATE_HZ: f64 = 8000.0;
pub const MAX_SAMPLE_RATE_HZ: f64 = 768_000.0;
/// A recording whose peak stays under this (−120 dBFS) is silence.
const SILENCE_PEAK: f64 = 1e-6;

/// Why a recording cannot be analysed; each names what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub enum InputError {
    /// The sample rate lies outside [`MIN_SAMPLE_RATE_HZ`] … [`MAX_SAMPLE_RATE_HZ`].
    SampleRate(f64),
    /// A sample is NaN or infinite.
    NotFinite { sample: usize },
    /// Shorter than [`MIN_DURATION_S`].
    TooShort { seconds: f64 },
    /// Longer than [`MAX_DURATION_S`].
    TooLong { seconds: f64 },
    /// Its peak is under −120 dBFS.
    Silence { peak_dbfs: f64 },
    /// It reaches or passes full scale: `run` samples in a row at its peak from `sample` on.
    Clipping { sample: usize, run: usize },
    /// Its end is as loud as its start, or no decaying mode stands above its noise.
    NothingDecays,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::SampleRate(hz) => write!(
                f,
                "the sample rate {hz} Hz lies outside {MIN_SAMPLE_RATE_HZ}…{MAX_SAMPLE_RATE_HZ} Hz"
            ),
            InputError::NotFinite { sample } => write!(f, "sample {sample} is not a finite number"),
            InputError::TooShort { seconds } => write!(
                f,
                "the recording lasts {seconds:.4} s; at least {MIN_DURATION_S} s is needed"
            ),
            InputError::TooLong { seconds } => write!(
                f,
                "the recording lasts {seconds:.1} s; at most {MAX_DURATION_S} s is analysed (cut it to one strike)"
            ),
            InputError::Silence { peak_dbfs } => {
                write!(f, "the recording is silent: its peak is {peak_dbfs:.1} dBFS")
            }
            InputError::Clipping { sample, run } => write!(
                f,
                "the recording clips: {run} samples in a row at full scale from sample {sample}"
            ),
            InputError::NothingDecays => write!(
                f,
                "nothing in the recording decays: no damped mode stands above its noise (a steady sound, or noise?)"
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// Refuse what cannot be a recording of one strike.
pub fn check(recording: &Recording) -> Result<(), InputError> {
    let fs = recording.sample_rate_hz;
    if !(MIN_SAMPLE_RATE_HZ..=MAX_SAMPLE_RATE_HZ).contains(&fs) {
        return Err(InputError::SampleRate(fs));
    }
    let x = &recording.samples;
    if let Some(sample) = x.iter().position(|v| !v.is_finite()) {
        return Err(InputError::NotFinite { sample });
    }
    let seconds = x.len() as f64 / fs;
    if seconds < MIN_DURATION_S {
        return Err(InputError::TooShort { seconds });
    }
    if seconds > MAX_DURATION_S {
        return Err(InputError::TooLong { seconds });
    }
    let peak = x.iter().fold(0.0f64, |p, v| p.max(v.abs()));
    if peak < SILENCE_PEAK {
        return Err(InputError::Silence {
            peak_dbfs: 20.0 * peak.max(1e-300).log10(),
        });
    }
    clipping(x, peak)
}

/// Clipping: a sample past full scale, or [`CLIPPED_RUN`] in a row at a peak of at least
/// −0.01 dBFS (a normalised recording reaches its peak code a sample or two at a time).
fn clipping(x: &[f64], peak: f64) -> Result<(), InputError> {
    if let Some(sample) = x.iter().position(|v| v.abs() > 1.0) {
        return Err(InputError::Clipping { sample, run: 1 });
    }
    if peak < 10f64.powf(-0.01 / 20.0) {
        return Ok(());
    }
    let at_peak = |v: f64| v.abs() >= peak * (1.0 - 1e-9);
    let mut run = 0;
    for (i, &v) in x.iter().enumerate() {
        run = if at_peak(v) { run + 1 } else { 0 };
        if run >= CLIPPED_RUN {
            return Err(InputError::Clipping {
                sample: i + 1 - run,
                run,
            });
        }
    }
    Ok(())
}

/// Samples in a row at the peak that mark a recording as clipped.
const CLIPPED_RUN: usize = 6;

/// The recording less its mean: a DC offset would hide the onset and the decay.
pub fn without_dc(x: &[f64]) -> Vec<f64> {
    let mean = x.iter().sum::<f64>() / x.len().max(1) as f64;
    x.iter().map(|v| v - mean).collect()
}

/// The onset: the first sample reaching a tenth of the peak, moved back to just after the last
/// run of 8 samples before it that lie within 3 σ of the noise before it (or under −80 dB re the
/// peak, in silence); the recording's first sample when there is no such run.
pub fn onset(x: &[f64]) -> usize {
    const RUN: usize = 8;
    let peak = x.iter().fold(0.0f64, |p, v| p.max(v.abs()));
    let Some(coarse) = x.iter().position(|v| v.abs() >= 0.1 * peak) else {
        return 0;
    };
    let lead = &x[..coarse.saturating_sub(32)];
    let noise = if lead.len() >= 64 {
        (lead.iter().map(|v| v * v).sum::<f64>() / lead.len() as f64).sqrt()
    } else {
        0.0
    };
    let quiet = (3.0 * noise).max(1e-4 * peak);
    let mut run = 0;
    for i in (0..coarse).rev() {
        run = if x[i].abs() <= quiet { run + 1 } else { 0 };
        if run == RUN {
            return i + RUN;
        }
    }
    0
}

/// Refuse a steady sound: the RMS of the last tenth after the onset as high as the first tenth's.
pub fn check_decays(x: &[f64]) -> Result<(), InputError> {
    let tenth = (x.len() / 10).max(1);
    let rms = |s: &[f64]| (s.iter().map(|v| v * v).sum::<f64>() / s.len() as f64).sqrt();
    if rms(&x[x.len() - tenth..]) >= 0.7 * rms(&x[..tenth]) {
        return Err(InputError::NothingDecays);
    }
    Ok(())
}
