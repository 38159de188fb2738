//! The recording split into overlapping analysis bands: each heterodyned to baseband, low-passed and decimated.

use num_complex::Complex64;
use rustfft::FftPlanner;
use std::f64::consts::PI;

/// The lowest frequency a band owns: below it nothing is analysed (sub-audio, DC).
pub const LOWEST_HZ: f64 = 20.0;
/// The widest band: above 2 × this an octave is wider, and the bands are this wide instead.
pub const WIDEST_BAND_HZ: f64 = 2000.0;
/// Stop-band attenuation of every band's low-pass prototype (Kaiser window), dB.
const STOPBAND_DB: f64 = 80.0;

/// One analysis band: the frequencies it owns, and its signal at the decimated rate.
///
/// `signal[m]` = Σₖ g[k]·x[m·D − k]·e^{−iω_c(m·D − k)}: the recording heterodyned by its centre
/// ω_c, filtered by the zero-phase low-pass `filter` g (k = −h…h) and kept every D-th sample.
pub struct Band {
    /// The band owns the modes whose frequency lies in [lo, hi) Hz.
    pub zone_hz: (f64, f64),
    /// The centre ω_c, rad per full-rate sample (on the FFT's grid).
    pub center_rad: f64,
    /// D: the band keeps every D-th sample.
    pub decimation: usize,
    /// g[k] for k = −h…h (index k + h), unit gain at DC.
    pub filter: Vec<f64>,
    /// The band signal, one value every D full-rate samples from sample 0.
    pub signal: Vec<Complex64>,
}

impl Band {
    /// h: the filter reaches h samples either side.
    pub fn half_taps(&self) -> usize {
        self.filter.len() / 2
    }

    /// G(s) = Σₖ g[k]·e^{−s·k} and dG/ds, the filter's transfer function at a complex frequency
    /// s = ln v (v the mode's baseband pole per full-rate sample): a damped mode e^{s·n} that has
    /// rung through the whole filter leaves it as G(s)·e^{s·n}.
    pub fn transfer(&self, s: Complex64) -> (Complex64, Complex64) {
        self.terms(s).fold(
            (Complex64::new(0.0, 0.0), Complex64::new(0.0, 0.0)),
            |(g, dg), (t, dt)| (g + t, dg + dt),
        )
    }

    /// The terms of G(s) and dG/ds for k = −h … h: g[k]·e^{−sk} and −k·g[k]·e^{−sk}.
    pub fn terms(&self, s: Complex64) -> impl Iterator<Item = (Complex64, Complex64)> + '_ {
        let h = self.half_taps() as f64;
        let step = (-s).exp();
        let mut e = (s * h).exp();
        self.filter.iter().enumerate().map(move |(i, &g)| {
            let k = i as f64 - h;
            let term = g * e;
            e *= step;
            (term, -k * term)
        })
    }
}

/// The band plan: zones of an octave from [`LOWEST_HZ`] until an octave would be wider than
/// [`WIDEST_BAND_HZ`], then zones that wide up to the Nyquist frequency (the last up to 1.5 times
/// as wide).
pub fn zones(sample_rate_hz: f64) -> Vec<(f64, f64)> {
    let nyquist_hz = 0.5 * sample_rate_hz;
    let mut zones = Vec::new();
    let mut lo = LOWEST_HZ;
    while lo < nyquist_hz {
        let width = lo.min(WIDEST_BAND_HZ);
        // A last zone narrower than half a width joins this one: its filter would be longer
        // than the FFT leaves room for.
        let hi = if nyquist_hz - (lo + width) < 0.5 * width {
            nyquist_hz
        } else {
            lo + width
        };
        zones.push((lo, hi));
        lo = hi;
    }
    zones
}

/// The FFT length every band is cut from: a power of two that holds the recording and the
/// longest filter's reach after it, so that the spectral product is a linear convolution.
pub fn fft_len(samples: usize, sample_rate_hz: f64) -> usize {
    let longest = prototype_len(sample_rate_hz, LOWEST_HZ);
    (samples + longest + 1).next_power_of_two()
}

/// The spectrum of the zero-padded recording, Nfft = [`fft_len`] bins.
pub fn spectrum(samples: &[f64], nfft: usize) -> Vec<Complex64> {
    let mut buffer: Vec<Complex64> = samples.iter().map(|&x| Complex64::new(x, 0.0)).collect();
    buffer.resize(nfft, Complex64::new(0.0, 0.0));
    FftPlanner::new()
        .plan_fft_forward(nfft)
        .process(&mut buffer);
    buffer
}

/// Kaiser's length for a transition `width_hz` wide at [`STOPBAND_DB`]:
/// K = (A − 8)/(2.285·Δω) (Kaiser 1974; Oppenheim & Schafer eq. 7.63), made odd.
fn prototype_len(sample_rate_hz: f64, width_hz: f64) -> usize {
    let delta_omega = 2.0 * PI * width_hz / sample_rate_hz;
    let taps = ((STOPBAND_DB - 8.0) / (2.285 * delta_omega)).ceil() as usize;
    taps | 1
}

/// The low-pass prototype of a zone `width_hz` wide: pass-band ±width/2, transition one width,
/// cut-off (−6 dB) at ±width, a Kaiser-windowed sinc with β = 0.1102·(A − 8.7), unit DC gain.
fn prototype(sample_rate_hz: f64, width_hz: f64) -> Vec<f64> {
    let taps = prototype_len(sample_rate_hz, width_hz);
    let half = (taps / 2) as f64;
    let beta = 0.1102 * (STOPBAND_DB - 8.7);
    let cutoff = width_hz / sample_rate_hz;
    let mut g: Vec<f64> = (0..taps)
        .map(|i| {
            let k = i as f64 - half;
            let sinc = if k == 0.0 {
                1.0
            } else {
                (2.0 * PI * cutoff * k).sin() / (2.0 * PI * cutoff * k)
            };
            let r = k / half.max(1.0);
            sinc * bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / bessel_i0(beta)
        })
        .collect();
    let dc: f64 = g.iter().sum();
    g.iter_mut().for_each(|v| *v /= dc);
    g
}

/// I₀ by its power series Σ ((x/2)^j / j!)², summed until a term no longer counts.
fn bessel_i0(x: f64) -> f64 {
    let (mut sum, mut term, mut j) = (1.0, 1.0, 1.0);
    while term > 1e-17 * sum {
        term *= (0.5 * x / j) * (0.5 * x / j);
        sum += term;
        j += 1.0;
    }
    sum
}

/// The decimation D of a zone: the largest power of two (at most Nfft / 64) that keeps the band's
/// stop-band edge, 1.5 widths either side of its centre, inside the decimated rate fs/D.
fn decimation(sample_rate_hz: f64, width_hz: f64, nfft: usize) -> usize {
    let mut d = 1;
    while sample_rate_hz / (2 * d) as f64 >= 3.0 * width_hz && 2 * d <= nfft / 64 {
        d *= 2;
    }
    d
}

/// A band's filter and decimation, shared by every zone of the same width.
pub struct Design {
    pub width_hz: f64,
    pub decimation: usize,
    pub filter: Vec<f64>,
    /// G at the Nfft-grid offsets −M/2 … M/2 − 1 (index j + M/2), M = Nfft/D.
    response: Vec<Complex64>,
}

/// The design of a zone `width_hz` wide for a spectrum of `nfft` bins.
pub fn design(sample_rate_hz: f64, width_hz: f64, nfft: usize) -> Design {
    let decimation = decimation(sample_rate_hz, width_hz, nfft);
    let filter = prototype(sample_rate_hz, width_hz);
    let response = filter_response(&filter, nfft, nfft / decimation);
    Design {
        width_hz,
        decimation,
        filter,
        response,
    }
}

/// Cut one band out of the recording's spectrum: the bins within ±fs/(2D) of the zone's centre,
/// times the prototype's spectrum G on the same grid, to baseband, inverse FFT of Nfft/D points.
/// (The product is exact: Nfft leaves room for the filter's reach; the bins left out lie in the
/// stop-band.)
pub fn cut(
    spectrum: &[Complex64],
    sample_rate_hz: f64,
    zone_hz: (f64, f64),
    design: &Design,
) -> Band {
    let nfft = spectrum.len();
    let m = nfft / design.decimation;
    let center_bin =
        (0.5 * (zone_hz.0 + zone_hz.1) / sample_rate_hz * nfft as f64).round() as usize;
    let mut bins = vec![Complex64::new(0.0, 0.0); m];
    for (j, response) in design.response.iter().enumerate() {
        let offset = j as isize - (m / 2) as isize;
        let source = (center_bin as isize + offset).rem_euclid(nfft as isize) as usize;
        let target = offset.rem_euclid(m as isize) as usize;
        bins[target] = spectrum[source] * response;
    }
    FftPlanner::new().plan_fft_inverse(m).process(&mut bins);
    let scale = 1.0 / nfft as f64;
    bins.iter_mut().for_each(|v| *v *= scale);
    Band {
        zone_hz,
        center_rad: 2.0 * PI * center_bin as f64 / nfft as f64,
        decimation: design.decimation,
        filter: design.filter.clone(),
        signal: bins,
    }
}

/// G at the Nfft-grid offsets −M/2 … M/2 − 1 (index j + M/2): the prototype's DFT of length Nfft.
fn filter_response(filter: &[f64], nfft: usize, m: usize) -> Vec<Complex64> {
    let half = filter.len() / 2;
    let mut buffer = vec![Complex64::new(0.0, 0.0); nfft];
    for (i, &g) in filter.iter().enumerate() {
        let k = i as isize - half as isize;
        buffer[k.rem_euclid(nfft as isize) as usize] = Complex64::new(g, 0.0);
    }
    FftPlanner::new()
        .plan_fft_forward(nfft)
        .process(&mut buffer);
    (0..m)
        .map(|j| {
            let offset = j as isize - (m / 2) as isize;
            buffer[offset.rem_euclid(nfft as isize) as usize]
        })
        .collect()
}
