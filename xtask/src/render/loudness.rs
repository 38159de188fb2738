//! A file's level: EBU R 128 loudness and true peak (the ebur128 crate), normalisation to a target under a true-peak ceiling, and the tail trimmed at −90 dBFS with a short fade.

use super::limiter;
use anyhow::{anyhow, Result};
use ebur128::{EbuR128, Mode};
use serde::Deserialize;

/// Where a tail is cut: its last sample at or above −90 dBFS.
const TAIL_DBFS: f64 = -90.0;
/// The fade-out that ends a trimmed file, s.
const FADE_S: f64 = 0.010;
/// BS.1770's gating block and its hop, s; the momentary and short-term meters are read every
/// hop.
const BLOCK_S: f64 = 0.4;
const METER_HOP_S: f64 = 0.1;

/// What EBU R 128 (ITU-R BS.1770-4) measures of a file.
#[derive(Debug, Clone, Copy)]
pub struct Loudness {
    /// Integrated loudness, LUFS (gated).
    pub integrated_lufs: f64,
    /// Loudness range, LU.
    pub range_lu: f64,
    /// The highest true peak of any channel, dBTP (4× oversampled at 48 kHz).
    pub true_peak_dbtp: f64,
    /// The highest momentary (400 ms) and short-term (3 s) loudness read every 100 ms, LUFS.
    pub max_momentary_lufs: f64,
    pub max_short_term_lufs: f64,
    /// The highest sample, dBFS.
    pub sample_peak_dbfs: f64,
}

/// Measure `channels` (each the same length) at `rate_hz`; refuses silence, which has no
/// loudness to normalise.
pub fn measure(channels: &[Vec<f32>], rate_hz: u32) -> Result<Loudness> {
    let count = channels.len() as u32;
    let mode = Mode::I | Mode::LRA | Mode::TRUE_PEAK | Mode::M | Mode::S | Mode::SAMPLE_PEAK;
    let mut meter = EbuR128::new(count, rate_hz, mode)?;
    let hop = (METER_HOP_S * f64::from(rate_hz)) as usize;
    let (mut max_momentary, mut max_short_term) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let len = channels[0].len();
    let mut start = 0;
    while start < len {
        let end = (start + hop).min(len);
        let planar: Vec<&[f32]> = channels.iter().map(|c| &c[start..end]).collect();
        meter.add_frames_planar_f32(&planar)?;
        max_momentary = max_momentary.max(meter.loudness_momentary()?);
        max_short_term = max_short_term.max(meter.loudness_shortterm()?);
        start = end;
    }
    let integrated_lufs = meter.loudness_global()?;
    if !integrated_lufs.is_finite() {
        return Err(anyhow!(
            "it is silent (below the −70 LUFS gate): nothing to measure"
        ));
    }
    let db = |x: f64| 20.0 * x.max(1e-12).log10();
    let mut true_peak: f64 = 0.0;
    let mut sample_peak: f64 = 0.0;
    for channel in 0..count {
        true_peak = true_peak.max(meter.true_peak(channel)?);
        sample_peak = sample_peak.max(meter.sample_peak(channel)?);
    }
    Ok(Loudness {
        integrated_lufs,
        range_lu: meter.loudness_range()?,
        true_peak_dbtp: db(true_peak),
        max_momentary_lufs: max_momentary,
        max_short_term_lufs: max_short_term,
        sample_peak_dbfs: db(sample_peak),
    })
}

/// How a true peak above the ceiling is kept under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum PeakControl {
    /// A true-peak limiter takes the peaks down; the file meets its loudness target.
    Limit,
    /// The whole file's gain is lowered; its transients stay as they were, and it may fall
    /// short of the target.
    Gain,
}

/// A file brought to its level, and how.
#[derive(Debug, Clone)]
pub struct Levelled {
    pub channels: Vec<Vec<f32>>,
    /// The gain applied, dB.
    pub gain_db: f64,
    /// The limiter's largest reduction, dB (0: it did nothing).
    pub limiter_reduction_db: f64,
    /// Whether the ceiling kept the file below its target (peak control by gain).
    pub ceiling_limited: bool,
    /// The file as written, measured.
    pub loudness: Loudness,
}

/// Rounds of gain correction at most; each measures the file as it will be written.
const ROUNDS: usize = 8;
/// How close to the target a file's integrated loudness is brought, LU.
const TOLERANCE_LU: f64 = 0.02;
/// How far below the ceiling a gain brings the true peak, dB: the ceiling holds after the
/// samples are rounded.
const GAIN_MARGIN_DB: f64 = 0.01;

/// `raw` at `rate_hz` with its integrated loudness at `target_lufs` and no true peak above
/// `ceiling_dbtp`, its tail trimmed: the gain is corrected on the file as written (trimmed,
/// limited), because the trim and the limiter change what BS.1770's gates let through.
pub fn normalise(
    raw: &[Vec<f32>],
    rate_hz: u32,
    target_lufs: f64,
    ceiling_dbtp: f64,
    control: PeakControl,
) -> Result<Levelled> {
    let mut gain_db = target_lufs - measure(raw, rate_hz)?.integrated_lufs;
    // The last round's gain and loudness: the secant through it and this round's steps the next
    // (a limiter makes the loudness grow slower than the gain).
    let mut last: Option<(f64, f64)> = None;
    // Where the limiter holds the peaks: its own interpolation can read a true peak a few
    // hundredths of a dB lower than the meter does, so a file the meter finds over the ceiling
    // is limited again that much lower.
    let mut limit_at_dbtp = ceiling_dbtp;
    let mut round = 0;
    loop {
        let mut channels = raw.to_vec();
        apply_gain(&mut channels, gain_db);
        let limiter_reduction_db = match control {
            PeakControl::Limit => limiter::limit(&mut channels, rate_hz, limit_at_dbtp),
            PeakControl::Gain => 0.0,
        };
        trim_tail(&mut channels, rate_hz);
        let loudness = measure(&channels, rate_hz)?;
        let short_db = target_lufs - loudness.integrated_lufs;
        let step_db = match control {
            PeakControl::Limit => {
                let slope = last.map_or(1.0, |(g, l)| {
                    ((loudness.integrated_lufs - l) / (gain_db - g)).clamp(0.05, 1.0)
                });
                short_db / slope
            }
            PeakControl::Gain => {
                short_db.min(ceiling_dbtp - GAIN_MARGIN_DB - loudness.true_peak_dbtp)
            }
        };
        round += 1;
        let over_db = loudness.true_peak_dbtp - ceiling_dbtp;
        let under_ceiling = match control {
            PeakControl::Limit => over_db <= 0.0,
            PeakControl::Gain => over_db <= -GAIN_MARGIN_DB / 2.0,
        };
        if (step_db.abs() < TOLERANCE_LU && under_ceiling) || round == ROUNDS {
            return Ok(Levelled {
                channels,
                gain_db,
                limiter_reduction_db,
                ceiling_limited: control == PeakControl::Gain && short_db >= TOLERANCE_LU,
                loudness,
            });
        }
        if control == PeakControl::Limit && over_db > 0.0 {
            limit_at_dbtp -= over_db + GAIN_MARGIN_DB;
        }
        last = Some((gain_db, loudness.integrated_lufs));
        gain_db += step_db;
    }
}

/// `raw` left at its level, its tail trimmed.
pub fn physical(raw: &[Vec<f32>], rate_hz: u32) -> Result<Levelled> {
    let mut channels = raw.to_vec();
    trim_tail(&mut channels, rate_hz);
    let loudness = measure(&channels, rate_hz)?;
    Ok(Levelled {
        channels,
        gain_db: 0.0,
        limiter_reduction_db: 0.0,
        ceiling_limited: false,
        loudness,
    })
}

/// Multiply every sample by `gain_db`.
fn apply_gain(channels: &mut [Vec<f32>], gain_db: f64) {
    let gain = 10f64.powf(gain_db / 20.0);
    for sample in channels.iter_mut().flatten() {
        *sample = (f64::from(*sample) * gain) as f32;
    }
}

/// Cut the tail after the last sample of any channel at or above −90 dBFS, fade the last 10 ms
/// before the cut out (a raised-cosine half), and end the file on BS.1770's block grid: 400 ms,
/// then whole 100 ms hops, silence filling the rest. Meters differ in how they count a last
/// block the file ends within (libebur128 leaves it out, pyloudnorm counts it padded with
/// silence); on the grid there is none, and every meter reads the same blocks.
fn trim_tail(channels: &mut [Vec<f32>], rate_hz: u32) {
    let floor = 10f64.powf(TAIL_DBFS / 20.0) as f32;
    let last = channels
        .iter()
        .filter_map(|c| c.iter().rposition(|x| x.abs() >= floor))
        .max()
        .unwrap_or(0);
    let len = channels[0].len();
    let fade = ((FADE_S * f64::from(rate_hz)) as usize).min(len);
    let cut = (last + 1).max(fade).min(len);
    let (block, hop) = (
        (BLOCK_S * f64::from(rate_hz)) as usize,
        (METER_HOP_S * f64::from(rate_hz)) as usize,
    );
    let grid = block + cut.saturating_sub(block).div_ceil(hop) * hop;
    for channel in channels.iter_mut() {
        channel.truncate(cut);
        for (i, sample) in channel[cut - fade..].iter_mut().enumerate() {
            let x = (i + 1) as f64 / fade as f64;
            *sample *= (0.5 * (1.0 + (std::f64::consts::PI * x).cos())) as f32;
        }
        channel.resize(grid, 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 kHz sine at `amplitude` for `seconds`, on `channels` channels.
    fn sine(amplitude: f64, seconds: f64, channels: usize) -> Vec<Vec<f32>> {
        let n = (seconds * 48_000.0) as usize;
        let one: Vec<f32> = (0..n)
            .map(|i| {
                (amplitude * (2.0 * std::f64::consts::PI * 1000.0 * i as f64 / 48_000.0).sin())
                    as f32
            })
            .collect();
        vec![one; channels]
    }

    #[test]
    fn a_full_scale_sine_at_1_khz_reads_as_bs_1770_says() {
        // BS.1770-4: a 0 dBFS 1 kHz sine in one channel reads −3.01 LKFS; in two, 0.
        let mono = measure(&sine(1.0, 3.0, 1), 48_000).unwrap();
        assert!((mono.integrated_lufs + 3.01).abs() < 0.05, "{mono:?}");
        let stereo = measure(&sine(0.5, 3.0, 2), 48_000).unwrap();
        assert!((stereo.integrated_lufs + 6.02).abs() < 0.05, "{stereo:?}");
        assert!((stereo.true_peak_dbtp + 6.02).abs() < 0.1, "{stereo:?}");
    }

    #[test]
    fn silence_is_refused() {
        assert!(measure(&[vec![0.0; 48_000]], 48_000).is_err());
    }

    /// A decaying 1 kHz tone struck at 0.1 s: a click, then its ring.
    fn struck(seconds: f64) -> Vec<Vec<f32>> {
        let tone = (0..(seconds * 48_000.0) as usize)
            .map(|i| {
                let t = (i as f64 / 48_000.0 - 0.1).max(0.0);
                let ring = (-t / 0.05).exp() * (2.0 * std::f64::consts::PI * 1000.0 * t).sin();
                (0.05 * ring) as f32
            })
            .collect();
        vec![tone]
    }

    #[test]
    fn a_file_is_brought_to_its_target_under_its_ceiling() {
        let raw = struck(1.0);
        for control in [PeakControl::Limit, PeakControl::Gain] {
            let done = normalise(&raw, 48_000, -14.0, -1.0, control).unwrap();
            let again = measure(&done.channels, 48_000).unwrap();
            assert!(
                again.true_peak_dbtp <= -1.0 + 1e-9,
                "{control:?}: {again:?}"
            );
            match control {
                // The ring's integrated loudness is 10 dB or so below its peak: the target
                // needs the limiter, or the gain falls short of it.
                PeakControl::Limit => {
                    assert!(
                        (again.integrated_lufs + 14.0).abs() < TOLERANCE_LU,
                        "{again:?}"
                    );
                    assert!(
                        done.limiter_reduction_db > 0.5,
                        "{}",
                        done.limiter_reduction_db
                    );
                    assert!(!done.ceiling_limited);
                }
                PeakControl::Gain => {
                    assert!(
                        again.integrated_lufs < -14.5 && done.ceiling_limited,
                        "{again:?}"
                    );
                    assert!(
                        (again.true_peak_dbtp + 1.0).abs() < TOLERANCE_LU,
                        "{again:?}"
                    );
                }
            }
        }
        let quiet = normalise(&raw, 48_000, -30.0, -1.0, PeakControl::Limit).unwrap();
        assert_eq!(quiet.limiter_reduction_db, 0.0);
        assert!((quiet.loudness.integrated_lufs + 30.0).abs() < TOLERANCE_LU);
    }

    #[test]
    fn the_tail_is_cut_below_minus_90_dbfs_faded_and_ends_on_the_block_grid() {
        // A decaying tone: 1 at 0, 10^(−90/20) at 0.85 s.
        let n = 48_000;
        let decay = (1e-90f64.powf(1.0 / 20.0)).ln() / (0.85 * 48_000.0);
        let tone: Vec<f32> = (0..n)
            .map(|i| ((decay * i as f64).exp() * if i % 2 == 0 { 1.0 } else { -1.0 }) as f32)
            .collect();
        let mut channels = vec![tone];
        trim_tail(&mut channels, 48_000);
        let audio = &channels[0];
        let cut = audio.iter().rposition(|x| *x != 0.0).unwrap() + 1;
        assert!((cut as i64 - 40_800).abs() <= 1, "cut at {cut}");
        assert!(audio[cut - 1].abs() < 1e-7, "not faded");
        // 0.85 s ends on the grid at 0.4 + 5 × 0.1 s; a short sound is one block long.
        assert_eq!(audio.len(), 43_200);
        let mut click = vec![vec![0.0f32; 48_000]];
        click[0][100] = 1.0;
        trim_tail(&mut click, 48_000);
        assert_eq!(click[0].len(), 19_200);
        // A note over in fewer samples than the fade is long.
        let mut blip = vec![vec![0.5f32; 300]];
        trim_tail(&mut blip, 96_000);
        assert_eq!(blip[0].len(), 38_400);
    }
}
