//! Modal analysis of a recorded strike: its damped modes by subband ESPRIT, refined by least squares.

pub mod bands;
mod esprit;
mod input;
mod joint;
mod noise;
pub mod recording;
mod refine;

pub use input::InputError;
pub use recording::Recording;

use noise::{band_noise, local_noise, periodogram};
use num_complex::Complex64;
use refine::{BandMode, Fit};
use std::f64::consts::PI;

/// ln 1000: a mode falls 60 dB in T60 = ln 1000/δ.
const LN_1000: f64 = std::f64::consts::LN_10 * 3.0;

/// What the analysis may report.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// At most this many modes, the strongest.
    pub max_modes: usize,
    /// Modes weaker than this, dB re the strongest mode, are dropped.
    pub min_level_db: f64,
    /// A mode must stand this far above the noise, dB, as a matched filter hears it: E/σ², E its
    /// energy and σ² the noise's per-sample power in its band.
    pub min_snr_db: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_modes: 512,
            min_level_db: -90.0,
            min_snr_db: 32.0,
        }
    }
}

/// One damped mode: x(t) = A·e^{−t·ln(1000)/T60}·cos(2π·f·t + φ), t from the onset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mode {
    pub frequency_hz: f64,
    pub t60_s: f64,
    /// A, full scale.
    pub amplitude: f64,
    /// φ at the onset.
    pub phase_rad: f64,
    /// 20·log10(A/A_strongest).
    pub level_db: f64,
}

/// The modes of a recording and what they leave.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub sample_rate_hz: f64,
    /// Where the strike starts, s from the recording's start: the modes' time origin.
    pub onset_s: f64,
    /// The noise's per-sample power, dB re the strongest mode's A²/2: the median over the bands
    /// analysed.
    pub noise_floor_db: f64,
    /// The residual's energy (recording − modes, from the onset), dB re the recording's.
    pub residual_db: f64,
    /// Strongest first.
    pub modes: Vec<Mode>,
}

/// Why a recording cannot be analysed.
pub type AnalysisError = InputError;

/// The damped modes of one strike. Never on the audio thread: it allocates freely. The recording
/// is split into overlapping bands ([`bands`]), each heterodyned, low-passed and decimated; in
/// each, ESPRIT (`esprit`) finds the poles of the order ESTER picks, their amplitudes follow by
/// least squares, every mode is refined against the band's data with the filter's onset transient
/// modelled (`refine`), then all together with the onset's click (`joint`). A band keeps the
/// modes inside the zone it owns that decay and stand above its noise.
pub fn analyse(recording: &Recording, options: &Options) -> Result<Analysis, AnalysisError> {
    let samples = &recording.samples;
    let fs = recording.sample_rate_hz;
    input::check(recording)?;
    let centred = input::without_dc(samples);
    let onset = input::onset(&centred);
    input::check_decays(&centred[onset..])?;
    let nfft = bands::fft_len(samples.len(), fs);
    let spectrum = bands::spectrum(samples, nfft);
    let mut designs: Vec<bands::Design> = Vec::new();
    let (mut found, mut noises) = (Vec::new(), Vec::new());
    for zone in bands::zones(fs) {
        let width = zone.1 - zone.0;
        let index = match designs.iter().position(|d| d.width_hz == width) {
            Some(i) => i,
            None => {
                designs.push(bands::design(fs, width, nfft));
                designs.len() - 1
            }
        };
        let band = bands::cut(&spectrum, fs, zone, &designs[index]);
        if let Some((modes, noise)) = analyse_band(&band, onset, samples.len(), fs, options) {
            found.extend(modes);
            if noise.is_finite() {
                noises.push(noise);
            }
        }
    }
    if found.is_empty() {
        return Err(InputError::NothingDecays);
    }
    Ok(conclude(&centred, fs, onset, found, &mut noises, options))
}

/// The modes one band owns and its noise's power per full-rate sample; None where the band has
/// too few samples to analyse.
fn analyse_band(
    band: &bands::Band,
    onset: usize,
    len: usize,
    fs: f64,
    options: &Options,
) -> Option<(Vec<Mode>, f64)> {
    let h = band.half_taps();
    let d = band.decimation;
    let first = onset.saturating_sub(h).div_ceil(d);
    let last = (len - 1)
        .checked_sub(h)
        .map(|n| (n / d).min(band.signal.len() - 1))?;
    if last <= first {
        return None;
    }
    let fit = Fit {
        band,
        onset,
        first,
        last,
    };
    let steady = fit.steady();
    if last < steady + 24 {
        return None;
    }
    let window = esprit_window(&band.signal[steady..=last]);
    let poles = esprit::poles(&band.signal[steady..steady + window]);
    if poles.is_empty() {
        return Some((Vec::new(), band_noise(band, &fit.data()[steady - first..])));
    }
    let mut modes = fit.amplitudes(&poles, steady, window);
    let residual = fit.relax(&mut modes, 6);
    let noise = band_noise(band, &residual[steady - first..]);
    // What stands no higher than noise could stand, or lies in the stop-band, is dropped before
    // the joint fit.
    modes.retain(|m| {
        band.transfer(m.s).0.norm() >= refine::FROZEN_GAIN
            && matched_snr_db(2.0 * m.c.norm(), -m.s.re, noise) >= 10.0
    });
    let residual = fit.joint(&mut modes);
    let noise = band_noise(band, &residual[steady - first..]);
    let spectrum = periodogram(&residual[steady - first..]);
    let owned = modes
        .iter()
        .filter_map(|m| {
            let local = local_noise(band, fs, &spectrum, m).map_or(noise, |l| l.min(noise));
            owned_mode(band, onset, fs, m, local, options)
        })
        .collect();
    Some((owned, noise))
}

/// How much of a band's steady data ESPRIT reads: until its power (over windows of 64 band
/// samples) last stands 6 dB above the power of its quietest window, at least 384 samples.
fn esprit_window(y: &[Complex64]) -> usize {
    const W: usize = 64;
    let powers: Vec<f64> = y
        .chunks(W)
        .map(|c| c.iter().map(|v| v.norm_sqr()).sum::<f64>() / c.len() as f64)
        .collect();
    let quiet = powers.iter().copied().fold(f64::INFINITY, f64::min);
    let loud = powers.iter().rposition(|&p| p > 4.0 * quiet).unwrap_or(0);
    ((loud + 1) * W).clamp(384.min(y.len()), y.len())
}

/// A mode's SNR as a matched filter hears it, dB: E/σ², E = Σₙ (A·e^{−δn}·cos)² ≈
/// A²/(2·(1 − e^{−2δ})) its energy, δ its decay per sample and σ² the noise's per-sample power.
fn matched_snr_db(amplitude: f64, decay_per_sample: f64, noise: f64) -> f64 {
    let energy = amplitude * amplitude / (2.0 * -(-2.0 * decay_per_sample).exp_m1());
    10.0 * (energy / noise).log10()
}

/// A band's mode as a [`Mode`], if the band owns it (its frequency in the zone), it decays, it
/// outlasts the band filter's reach and it stands [`Options::min_snr_db`] above the noise.
fn owned_mode(
    band: &bands::Band,
    onset: usize,
    fs: f64,
    mode: &BandMode,
    noise: f64,
    options: &Options,
) -> Option<Mode> {
    let omega = band.center_rad + mode.s.im;
    let frequency_hz = omega * fs / (2.0 * PI);
    let decay_per_sample = -mode.s.re;
    // A mode that dies within the filter's reach (T60 < 3h samples) cannot be told from the
    // click of the onset.
    let t60_samples = LN_1000 / decay_per_sample;
    if !(t60_samples >= 3.0 * band.half_taps() as f64) {
        return None;
    }
    if !(decay_per_sample > 0.0) || frequency_hz < band.zone_hz.0 || frequency_hz >= band.zone_hz.1
    {
        return None;
    }
    let b = mode.c * Complex64::from_polar(1.0, band.center_rad * onset as f64);
    let amplitude = 2.0 * b.norm();
    if !(matched_snr_db(amplitude, decay_per_sample, noise) >= options.min_snr_db) {
        return None;
    }
    Some(Mode {
        frequency_hz,
        t60_s: LN_1000 / (decay_per_sample * fs),
        amplitude,
        phase_rad: b.arg(),
        level_db: 0.0,
    })
}

/// Levels re the strongest, the level floor and the cap, the noise floor (the median of the
/// bands') and the residual (of the recording less its mean).
fn conclude(
    centred: &[f64],
    fs: f64,
    onset: usize,
    mut found: Vec<Mode>,
    band_noises: &mut [f64],
    options: &Options,
) -> Analysis {
    found.sort_by(|a, b| b.amplitude.total_cmp(&a.amplitude));
    let strongest = found[0].amplitude;
    band_noises.sort_by(f64::total_cmp);
    let noise = band_noises
        .get(band_noises.len() / 2)
        .copied()
        .unwrap_or(f64::NAN);
    let modes: Vec<Mode> = found
        .into_iter()
        .map(|mut m| {
            m.level_db = 20.0 * (m.amplitude / strongest).log10();
            m
        })
        .filter(|m| m.level_db >= options.min_level_db)
        .take(options.max_modes)
        .collect();
    Analysis {
        sample_rate_hz: fs,
        onset_s: onset as f64 / fs,
        noise_floor_db: 10.0 * (noise / (0.5 * strongest * strongest)).log10(),
        residual_db: residual_db(&centred[onset..], fs, &modes),
        modes,
    }
}

/// 10·log10(Σ(x − x̂)²/Σx²) from the onset, x̂ the modes' sum.
fn residual_db(x: &[f64], fs: f64, modes: &[Mode]) -> f64 {
    let mut error = x.to_vec();
    for m in modes {
        let decay = LN_1000 / (m.t60_s * fs);
        let step = Complex64::new(-decay, 2.0 * PI * m.frequency_hz / fs).exp();
        let mut z = Complex64::from_polar(m.amplitude, m.phase_rad);
        for e in error.iter_mut() {
            *e -= z.re;
            z *= step;
            if z.norm_sqr() < 1e-30 {
                break;
            }
        }
    }
    let energy: f64 = x.iter().map(|v| v * v).sum();
    let left: f64 = error.iter().map(|v| v * v).sum();
    10.0 * (left / energy).log10()
}
