//! A comparison of two sounds, independent of the subspace analysis: onset-aligned, RMS-normalised, partials by STFT peak picking, T60s, centroids and a log-mel distance (docs/analysis.md).

mod centroid;
mod decay;
mod logmel;
mod onset;
mod partials;
#[cfg(test)]
mod tests;

pub use centroid::CENTROID_WINDOW_S;
pub use decay::BroadbandDecay;
pub use logmel::{
    band_edges_hz, hz_to_mel, log_mel, log_mel_distance_db, mel_to_hz, LogMel, MEL_FLOOR_DB,
    MEL_FRAME_S, MEL_HIGH_HZ, MEL_HOP_S, MEL_LOW_HZ, MEL_RATE_FRACTION, MEL_SPAN_S, NUM_MEL_BANDS,
};
pub use onset::NORMALISATION_S;
#[cfg(test)]
pub(crate) use partials::gaussian;

use std::fmt;

/// A sound shorter than this after its onset is refused, s.
pub const MIN_DURATION_S: f64 = 0.02;
/// At most this much of a sound after its onset is analysed, s (bounds the cost of a long file).
pub const MAX_ANALYSIS_S: f64 = 30.0;

/// A sound to describe: mono samples in full scale and the rate they were sampled at.
#[derive(Clone, Debug, PartialEq)]
pub struct Sound {
    pub samples: Vec<f64>,
    pub sample_rate_hz: f64,
}

/// The choices a description and a comparison leave open (docs/analysis.md gives the defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Most partials reported per sound, strongest first.
    pub max_partials: usize,
    /// A spectral peak counts if it lies within this many dB (≤ 0) of the strongest one.
    pub peak_threshold_db: f64,
    /// … and if, on each side, the spectrum dips this many dB below it before any stronger peak.
    pub peak_dip_db: f64,
    /// Shortest window of the partials' spectrum, s.
    pub min_window_s: f64,
    /// Longest window of the partials' spectrum, s.
    pub max_window_s: f64,
    /// A partial of A is matched with the nearest of B's if within this many cents.
    pub match_cents: f64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_partials: 16,
            peak_threshold_db: -60.0,
            peak_dip_db: 10.0,
            min_window_s: partials::MIN_WINDOW_S,
            max_window_s: 1.0,
            match_cents: 50.0,
        }
    }
}

/// One partial: a peak of the long-window spectrum, with the T60 of its magnitude track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Partial {
    /// Vertex of the parabola through the log magnitudes of the peak bin and its neighbours, Hz.
    pub frequency_hz: f64,
    /// The vertex's level in dB re the strongest partial's (0 for the strongest).
    pub level_db: f64,
    /// −60 dB over the slope of a line fitted to its dB track, s; None when it does not decay.
    pub t60_s: Option<f64>,
}

/// What one sound is, measured from its onset after RMS normalisation.
#[derive(Clone, Debug, PartialEq)]
pub struct Description {
    pub sample_rate_hz: f64,
    /// The onset in the file, s.
    pub onset_s: f64,
    /// Length analysed after the onset, s.
    pub duration_s: f64,
    /// The normalising gain 1/RMS(first 0.5 s after the onset), dB.
    pub gain_db: f64,
    /// Length of the Gaussian window the partials were picked on, s.
    pub window_s: f64,
    /// Strongest first, at most `Options::max_partials`.
    pub partials: Vec<Partial>,
    pub decay: BroadbandDecay,
    /// Power-weighted mean frequency of a 20 ms Hann frame centred 20 ms after the onset, Hz.
    pub centroid_20ms_hz: Option<f64>,
    /// The same for a frame centred 100 ms after the onset, Hz.
    pub centroid_100ms_hz: Option<f64>,
    /// Log-mel band powers of this sound alone (its own band range, its first second).
    pub log_mel: LogMel,
    signal: Vec<f64>,
}

impl Description {
    /// The normalised sound from its onset on.
    pub fn signal(&self) -> &[f64] {
        &self.signal
    }

    /// Log-mel band powers up to `top_hz` over `span_s`: its own when they are those.
    pub fn log_mel_over(&self, top_hz: f64, span_s: f64) -> LogMel {
        if self.log_mel.top_hz == top_hz && self.log_mel.span_s == span_s {
            self.log_mel.clone()
        } else {
            log_mel(&self.signal, self.sample_rate_hz, top_hz, span_s)
        }
    }
}

/// Why a sound cannot be described.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The sample rate is not a positive finite number.
    BadRate(f64),
    /// A sample is NaN or infinite.
    NotFinite { index: usize },
    /// Every sample is zero.
    Silent,
    /// The sound lasts less than `MIN_DURATION_S` from its onset.
    TooShort { duration_s: f64 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::BadRate(rate) => write!(f, "sample rate {rate} Hz is not a positive number"),
            Refusal::NotFinite { index } => write!(f, "sample {index} is not a finite number"),
            Refusal::Silent => write!(f, "the sound is silent (every sample is zero)"),
            Refusal::TooShort { duration_s } => write!(
                f,
                "the sound lasts {:.1} ms from its onset, shorter than {:.0} ms",
                duration_s * 1e3,
                MIN_DURATION_S * 1e3
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// Describe one sound: onset, RMS normalisation, partials, broadband and per-partial T60,
/// centroids and log-mel band powers (every rule in docs/analysis.md).
pub fn describe(sound: &Sound, options: &Options) -> Result<Description, Refusal> {
    let rate = sound.sample_rate_hz;
    if !(rate.is_finite() && rate > 0.0) {
        return Err(Refusal::BadRate(rate));
    }
    if let Some(index) = sound.samples.iter().position(|x| !x.is_finite()) {
        return Err(Refusal::NotFinite { index });
    }
    let start = onset::onset(&sound.samples, rate).ok_or(Refusal::Silent)?;
    let available = sound.samples.len() - start;
    let duration_s = available as f64 / rate;
    if duration_s < MIN_DURATION_S {
        return Err(Refusal::TooShort { duration_s });
    }
    let end = start + available.min((MAX_ANALYSIS_S * rate) as usize);
    let raw = &sound.samples[start..end];
    let rms = onset::rms(&raw[..raw.len().min((NORMALISATION_S * rate) as usize)]);
    if rms <= 0.0 {
        return Err(Refusal::Silent);
    }
    let gain = 1.0 / rms;
    let signal: Vec<f64> = raw.iter().map(|x| x * gain).collect();
    let duration_s = signal.len() as f64 / rate;
    let (decay, minus_30_db_s) = decay::schroeder(&signal, rate);
    // A sound that never stands 10 dB above its own tail does not decay: it gets its whole length.
    let decays_s = (decay.decay_range_db > 0.0).then_some(decay.decay_end_s);
    let decay_s = minus_30_db_s.or(decays_s).unwrap_or(duration_s);
    let window_s = partials::window_s(decay_s, duration_s, options);
    Ok(Description {
        sample_rate_hz: rate,
        onset_s: start as f64 / rate,
        duration_s,
        gain_db: 20.0 * gain.log10(),
        window_s,
        partials: partials::partials(&signal, rate, window_s, options),
        decay,
        centroid_20ms_hz: centroid::centroid_hz(&signal, rate, 0.02),
        centroid_100ms_hz: centroid::centroid_hz(&signal, rate, 0.1),
        log_mel: log_mel(
            &signal,
            rate,
            logmel::top_hz(rate, rate),
            duration_s.min(MEL_SPAN_S),
        ),
        signal,
    })
}

/// One of A's partials beside the nearest of B's (in cents) when one lies within the tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchedPartial {
    pub a: Partial,
    pub b: Option<Partial>,
    /// 1200·log2(f_B/f_A).
    pub cents: Option<f64>,
    /// T60_B/T60_A, when both decay.
    pub t60_ratio: Option<f64>,
    /// level_B − level_A, dB (each re its own strongest partial).
    pub level_difference_db: Option<f64>,
}

/// Two descriptions side by side: the log-mel distance and the matched partials.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub a: Description,
    pub b: Description,
    /// RMS over bands and frames of the difference of the floored log-mel band powers, dB.
    pub log_mel_distance_db: f64,
    /// The band powers both were measured with: the lower rate's band range, the shorter span.
    pub log_mel_a: LogMel,
    pub log_mel_b: LogMel,
    /// Each of A's partials in A's order.
    pub matched: Vec<MatchedPartial>,
}

/// Compare two described sounds: log-mel distance over the common band range and span, and each
/// of A's partials matched with the nearest of B's.
pub fn compare(a: Description, b: Description, options: &Options) -> Comparison {
    let top_hz = logmel::top_hz(a.sample_rate_hz, b.sample_rate_hz);
    let span_s = a.duration_s.min(b.duration_s).min(MEL_SPAN_S);
    let log_mel_a = a.log_mel_over(top_hz, span_s);
    let log_mel_b = b.log_mel_over(top_hz, span_s);
    let matched = match_partials(&a.partials, &b.partials, options.match_cents);
    Comparison {
        log_mel_distance_db: log_mel_distance_db(&log_mel_a, &log_mel_b),
        log_mel_a,
        log_mel_b,
        matched,
        a,
        b,
    }
}

/// Describe both sounds and compare them.
pub fn compare_sounds(a: &Sound, b: &Sound, options: &Options) -> Result<Comparison, Refusal> {
    Ok(compare(
        describe(a, options)?,
        describe(b, options)?,
        options,
    ))
}

/// Difference in cents from `from_hz` to `to_hz`: 1200·log2(to/from).
pub fn cents(from_hz: f64, to_hz: f64) -> f64 {
    1200.0 * (to_hz / from_hz).log2()
}

/// Each of `a` with the nearest of `b` in cents, if within `tolerance_cents`.
pub fn match_partials(a: &[Partial], b: &[Partial], tolerance_cents: f64) -> Vec<MatchedPartial> {
    a.iter()
        .map(|&pa| {
            let nearest = b
                .iter()
                .map(|&pb| (pb, cents(pa.frequency_hz, pb.frequency_hz)))
                .min_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))
                .filter(|(_, c)| c.abs() <= tolerance_cents);
            MatchedPartial {
                a: pa,
                b: nearest.map(|(pb, _)| pb),
                cents: nearest.map(|(_, c)| c),
                t60_ratio: nearest
                    .and_then(|(pb, _)| Some(pb.t60_s? / pa.t60_s?))
                    .filter(|r| r.is_finite()),
                level_difference_db: nearest.map(|(pb, _)| pb.level_db - pa.level_db),
            }
        })
        .collect()
}

/// Slope of the least-squares line through `points` (x, y), or None for fewer than two distinct x.
pub(crate) fn line_slope(points: impl Iterator<Item = (f64, f64)> + Clone) -> Option<f64> {
    let (n, sx, sy) = points.clone().fold((0.0, 0.0, 0.0), |(n, sx, sy), (x, y)| {
        (n + 1.0, sx + x, sy + y)
    });
    if n < 2.0 {
        return None;
    }
    let (mx, my) = (sx / n, sy / n);
    let (sxy, sxx) = points.fold((0.0, 0.0), |(sxy, sxx), (x, y)| {
        (sxy + (x - mx) * (y - my), sxx + (x - mx) * (x - mx))
    });
    (sxx > 0.0).then(|| sxy / sxx)
}
