//! A band's noise: its residual's mean power, and the power round one narrow mode.

use super::bands::Band;
use super::refine::BandMode;
use num_complex::Complex64;
use std::f64::consts::PI;

/// A mode is heard against the noise round it where its zone holds this many of its bandwidths.
const LOCAL_BANDWIDTHS: f64 = 16.0;
/// The noise round a mode is read from its half-widths this far off it…
const INNER_HALF_WIDTHS: f64 = 2.0;
/// … to this far, on each side.
const OUTER_HALF_WIDTHS: f64 = 8.0;
/// The noise round a mode spans at least this many bins a side, and is read from at least this
/// many inside the zone.
const MIN_BINS: f64 = 16.0;

/// The band's noise per full-rate sample: the residual's mean power over its steady samples ÷ Σg².
pub(super) fn band_noise(band: &Band, steady_residual: &[Complex64]) -> f64 {
    let power =
        steady_residual.iter().map(|v| v.norm_sqr()).sum::<f64>() / steady_residual.len() as f64;
    let filter_power: f64 = band.filter.iter().map(|g| g * g).sum();
    (power / filter_power).max(f64::MIN_POSITIVE)
}

/// |R_k|²/L of a band residual r of L samples: its mean over k is r's mean power.
pub(super) fn periodogram(r: &[Complex64]) -> Vec<f64> {
    let mut buffer = r.to_vec();
    rustfft::FftPlanner::new()
        .plan_fft_forward(buffer.len())
        .process(&mut buffer);
    let len = buffer.len() as f64;
    buffer.iter().map(|v| v.norm_sqr() / len).collect()
}

/// The noise's per-sample power round a narrow mode (bandwidth δ/π Hz at most 1/16 of its
/// zone), None for a broad one: the periodogram of the band's residual averaged over the bins
/// [`INNER_HALF_WIDTHS`] to [`OUTER_HALF_WIDTHS`] of its half-widths δ·D off it (see
/// [`MIN_BINS`]; only the bins inside the zone), times D: a white noise σ² has density σ²/D in the
/// pass-band at the decimated rate. The bins nearest the mode are left out: its own fit has
/// absorbed the noise there.
pub(super) fn local_noise(band: &Band, fs: f64, spectrum: &[f64], mode: &BandMode) -> Option<f64> {
    let bandwidth_hz = -mode.s.re * fs / PI;
    if LOCAL_BANDWIDTHS * bandwidth_hz > band.zone_hz.1 - band.zone_hz.0 {
        return None;
    }
    let len = spectrum.len() as i64;
    let d = band.decimation as f64;
    let per_bin_rad = 2.0 * PI / len as f64;
    let centre = mode.s.im * d / per_bin_rad;
    let half_width = -mode.s.re * d / per_bin_rad;
    let inner = (INNER_HALF_WIDTHS * half_width).ceil() as i64 + 1;
    let span = ((OUTER_HALF_WIDTHS - INNER_HALF_WIDTHS) * half_width).max(MIN_BINS);
    let outer = inner + span.ceil() as i64;
    let in_zone = |bin: f64| {
        let hz = (band.center_rad + bin * per_bin_rad / d) * fs / (2.0 * PI);
        hz >= band.zone_hz.0 && hz < band.zone_hz.1
    };
    let bins: Vec<f64> = (inner..=outer)
        .flat_map(|offset| [centre - offset as f64, centre + offset as f64])
        .filter(|&bin| in_zone(bin))
        .map(|bin| spectrum[(bin.round() as i64).rem_euclid(len) as usize])
        .collect();
    (bins.len() >= MIN_BINS as usize).then(|| d * bins.iter().sum::<f64>() / bins.len() as f64)
}
