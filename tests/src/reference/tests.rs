//! The installed reference set against what each instrument's physics says, with spectra computed here (rustfft), not by the code under test.

use super::*;
use crate::{hann_magnitudes, peak_hz};
use std::sync::OnceLock;

/// The set, read once for every test of this module.
fn set() -> &'static [Fixture] {
    static SET: OnceLock<Result<Vec<Fixture>, String>> = OnceLock::new();
    match SET.get_or_init(reference_set) {
        Ok(set) => set,
        Err(why) => panic!("the reference set: {why}"),
    }
}

/// A Hann-windowed magnitude spectrum, zero-padded to 4× the next power of two: (|X|, Hz per bin).
fn spectrum(samples: &[f64], sample_rate_hz: f64) -> (Vec<f64>, f64) {
    let len = 4 * samples.len().next_power_of_two();
    (hann_magnitudes(samples, len), sample_rate_hz / len as f64)
}

/// The strongest spectral peak above 20 Hz, Hz, refined by a parabola through the log magnitudes.
fn strongest_peak_hz(samples: &[f64], sample_rate_hz: f64) -> f64 {
    let (magnitude, hz_per_bin) = spectrum(samples, sample_rate_hz);
    peak_hz(&magnitude, (20.0 / hz_per_bin).ceil() as usize, hz_per_bin)
}

/// How far a partial near `ratio`·f0 stands out: the strongest bin within ±1 % of it over the
/// median of the bins within ±10 %, dB.
fn prominence_db(magnitude: &[f64], hz_per_bin: f64, f0_hz: f64, ratio: f64) -> f64 {
    let bins = |from: f64, to: f64| {
        let (a, b) = (
            (from * f0_hz * ratio / hz_per_bin) as usize,
            (to * f0_hz * ratio / hz_per_bin) as usize,
        );
        magnitude[a..=b.min(magnitude.len() - 1)].to_vec()
    };
    let peak = bins(0.99, 1.01).into_iter().fold(0.0, f64::max);
    let mut wide = bins(0.9, 1.1);
    wide.sort_by(f64::total_cmp);
    20.0 * (peak / wide[wide.len() / 2]).log10()
}

/// Cents from `expected_hz` to `measured_hz`.
fn cents(measured_hz: f64, expected_hz: f64) -> f64 {
    1200.0 * (measured_hz / expected_hz).log2()
}

/// Less than half a semitone: a note mislabelled by one key fails.
const PITCH_TOLERANCE_CENTS: f64 = 40.0;

/// Where each pitched instrument's strongest partial lies, as multiples of its note, and why.
///
/// - Glockenspiel, marimba, xylophone: a struck free bar radiates its fundamental most; the
///   note is the fundamental's (glockenspiel samples are stored at their sounding pitch, two
///   octaves above the written note, so 1×, not 4×).
/// - Tubular bell: the strike tone is a virtual pitch an octave below the 4th free–free mode
///   (modes 4, 5, 6 lie near 2 : 3 : 4 of it); struck at its top, the 4th mode is the
///   strongest, so 2×.
/// - Hammered dulcimer: a struck string's harmonics; which of the 1st to 3rd is strongest
///   depends on where the hammer strikes it, so 1, 2 or 3×.
/// - Timpani: the (1,1) mode is the principal tone, so 1×.
/// - Claves: one strong bending mode, so 1× (the note recorded is that mode: the patch's root
///   is a placeholder).
/// - Wood block: two modes of equal strength 1 : 1.12 (the note recorded is the lower), so 1
///   or 1.12×.
fn expected_ratios(instrument: Instrument) -> &'static [f64] {
    match instrument {
        Instrument::Glockenspiel
        | Instrument::Marimba
        | Instrument::Xylophone
        | Instrument::Timpani
        | Instrument::Claves => &[1.0],
        Instrument::TubularBell => &[2.0],
        Instrument::HammeredDulcimer => &[1.0, 2.0, 3.0],
        Instrument::WoodBlock => &[1.0, freepats::WOOD_BLOCK_TWIN_RATIO],
        Instrument::CrashCymbal | Instrument::SnareDrum => &[],
    }
}

#[test]
fn every_fixture_decodes_finite_in_range_and_consistent() {
    let set = set();
    assert!(set.len() >= 30, "only {} fixtures", set.len());
    let mut ids = std::collections::HashSet::new();
    for f in set {
        let id = f.id;
        assert!(ids.insert(id), "{id} twice");
        assert!(
            id.split('-').all(|w| !w.is_empty()
                && w.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "{id} is not kebab-case"
        );
        assert!(!f.samples.is_empty(), "{id}: no samples");
        assert!(
            f.samples.iter().all(|x| x.is_finite() && x.abs() <= 1.0),
            "{id}: a sample is not finite or beyond full scale"
        );
        assert!(
            (8_000.0..=192_000.0).contains(&f.sample_rate_hz),
            "{id}: sample rate {} Hz",
            f.sample_rate_hz
        );
        assert_eq!(f.bandwidth_hz, f.sample_rate_hz / 2.0, "{id}: Nyquist");
        assert!(
            f.content_bandwidth_hz > 0.0 && f.content_bandwidth_hz <= f.bandwidth_hz,
            "{id}: content bandwidth {} Hz",
            f.content_bandwidth_hz
        );
        assert_eq!(f.looped, f.loop_start_samples.is_some(), "{id}: loop");
        if let Some(start) = f.loop_start_samples {
            assert_eq!(
                f.samples.len(),
                start,
                "{id}: the unlooped part ends at the loop start"
            );
        }
        assert_eq!(f.short, f.unlooped_s() < SHORT_S, "{id}: short flag");
        assert_eq!(f.kind, f.instrument.kind(), "{id}: kind");
        assert_eq!(
            f.root_key,
            f.note_hz.and_then(nearest_key),
            "{id}: root key"
        );
        assert!(f.source.path.is_file(), "{id}: {}", f.source.path.display());
    }
}

#[test]
fn each_pitched_fixture_peaks_where_its_instrument_puts_it() {
    let mut wrong = vec![];
    for f in set() {
        let (Some(note_hz), ratios) = (f.note_hz, expected_ratios(f.instrument)) else {
            assert!(
                expected_ratios(f.instrument).is_empty(),
                "{}: pitched, no note",
                f.id
            );
            continue;
        };
        let peak_hz = strongest_peak_hz(&f.samples, f.sample_rate_hz);
        let nearest = ratios
            .iter()
            .map(|r| cents(peak_hz, r * note_hz))
            .min_by(|a, b| a.abs().total_cmp(&b.abs()))
            .unwrap_or(f64::INFINITY);
        if nearest.abs() > PITCH_TOLERANCE_CENTS {
            wrong.push(format!(
                "{} ({}): strongest peak {peak_hz:.1} Hz = {:.3}× its note {note_hz:.1} Hz, expected {ratios:?}×",
                f.id,
                f.instrument.name(),
                peak_hz / note_hz
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_xylophone_patch_plays_marimba_below_key_66_told_by_its_4th_partial() {
    let patch = set()
        .iter()
        .filter(|f| f.source.path.ends_with("Tone_000/013_Xylophone.pat"));
    let key_hz = |key: f64| 440.0 * 2f64.powf((key - 69.0) / 12.0);
    let mut checked = 0;
    for f in patch {
        let (magnitude, hz_per_bin) = spectrum(&f.samples, f.sample_rate_hz);
        let f0_hz = strongest_peak_hz(&f.samples, f.sample_rate_hz);
        let marimba = f.instrument == Instrument::Marimba;
        // Where the patch plays the wave: marimba waves end just below key 66 (F#4), so keys up
        // to 65 play marimba; xylophone waves start above key 65.
        let (low_hz, high_hz) = f.played_range_hz.unwrap_or_default();
        assert_eq!(
            marimba,
            high_hz < key_hz(66.0),
            "{}: plays up to {high_hz} Hz",
            f.id
        );
        assert!(
            marimba || low_hz > key_hz(65.0),
            "{}: plays from {low_hz} Hz",
            f.id
        );
        if 4.4 * f0_hz > f.bandwidth_hz {
            continue;
        }
        // A marimba bar is undercut to put its 2nd mode at 4×; a xylophone bar's is near 3×.
        let fourth = prominence_db(&magnitude, hz_per_bin, f0_hz, 4.0);
        assert_eq!(
            marimba,
            fourth >= 20.0,
            "{}: the partial at 4× stands {fourth:.1} dB out",
            f.id
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} waves checked");
}

/// `samples` read at `ratio` times their rate (linear interpolation): a transposition by `ratio`.
fn transposed(samples: &[f64], ratio: f64) -> Vec<f64> {
    let len = ((samples.len() - 1) as f64 / ratio) as usize;
    (0..len)
        .map(|i| {
            let t = i as f64 * ratio;
            let (k, frac) = (t as usize, t.fract());
            let next = samples.get(k + 1).copied().unwrap_or(samples[k]);
            samples[k] * (1.0 - frac) + next * frac
        })
        .collect()
}

/// The largest normalised cross-correlation of `a` and `b` over lags of ±`max_lag` samples.
fn best_correlation(a: &[f64], b: &[f64], max_lag: usize) -> f64 {
    let energy = |x: &[f64]| x.iter().map(|v| v * v).sum::<f64>();
    let norm = (energy(a) * energy(b)).sqrt();
    (0..=2 * max_lag)
        .map(|shift| {
            let lag = shift as isize - max_lag as isize;
            let sum: f64 = a
                .iter()
                .enumerate()
                .filter_map(|(i, x)| {
                    let j = usize::try_from(i as isize + lag).ok()?;
                    b.get(j).map(|y| x * y)
                })
                .sum();
            sum.abs() / norm
        })
        .fold(0.0, f64::max)
}

#[test]
fn a_copy_is_its_original_transposed_and_nothing_else_is() {
    let set = set();
    let by_id = |id: &str| set.iter().find(|f| f.id == id);
    let copies: Vec<_> = set.iter().filter(|f| f.copy_of.is_some()).collect();
    assert!(!copies.is_empty(), "the wood blocks are one recording");
    for copy in copies {
        let original = copy
            .copy_of
            .and_then(by_id)
            .expect("the original is in the set");
        let ratio = copy.note_hz.unwrap_or(1.0) / original.note_hz.unwrap_or(1.0);
        let ratio = ratio * original.sample_rate_hz / copy.sample_rate_hz;
        let same = best_correlation(&copy.samples, &transposed(&original.samples, ratio), 50);
        assert!(
            same > 0.95,
            "{}: correlation {same:.3} with {}",
            copy.id,
            original.id
        );
        // Untransposed, or against another recording of the family, it does not match.
        let plain = best_correlation(&copy.samples, &original.samples, 50);
        assert!(plain < 0.5, "{}: {plain:.3} untransposed", copy.id);
    }
}

#[test]
fn a_missing_package_is_named() {
    let nowhere = Path::new("/nonexistent/reference");
    let error = freepats::fixtures(nowhere).expect_err("no freepats there");
    assert!(
        error.contains("install the Debian package freepats"),
        "{error}"
    );
    let error = kits::fixtures(nowhere).expect_err("no kits there");
    assert!(
        error.contains("install the Debian package hydrogen-drumkits"),
        "{error}"
    );
}

/// 16-bit samples of 200 sinusoids (seeded) below `cutoff_hz` and one weak narrow line at
/// `line_hz` (a hum's harmonic, an alias), at 44.1 kHz: a band-limited recording.
fn quantized_tones(cutoff_hz: f64, line_hz: f64, seconds: f64) -> Vec<f64> {
    let fs = 44_100.0;
    let mut rng = fastrand::Rng::with_seed(7);
    let mut tones: Vec<(f64, f64, f64)> = (0..200)
        .map(|_| {
            (
                rng.f64() * cutoff_hz,
                rng.f64() * std::f64::consts::TAU,
                0.01,
            )
        })
        .collect();
    tones.push((line_hz, 0.0, 0.001));
    (0..(seconds * fs) as usize)
        .map(|i| {
            let t = i as f64 / fs;
            let x: f64 = tones
                .iter()
                .map(|(f, p, a)| a * (std::f64::consts::TAU * f * t + p).sin())
                .sum();
            (x * 32768.0).round().clamp(-32768.0, 32767.0) / 32768.0
        })
        .collect()
}

#[test]
fn content_bandwidth_finds_where_a_band_limited_recording_ends() {
    let limited = content_bandwidth_hz(&quantized_tones(5_000.0, 15_000.0, 0.5), 44_100.0);
    assert!(
        (5_000.0..5_000.0 + 2.0 * 22_050.0 / 64.0).contains(&limited),
        "{limited} Hz"
    );
    let mut rng = fastrand::Rng::with_seed(3);
    let white: Vec<f64> = (0..22_050)
        .map(|_| ((rng.f64() - 0.5) * 32768.0).round() / 32768.0)
        .collect();
    assert_eq!(content_bandwidth_hz(&white, 44_100.0), 22_050.0);
    assert_eq!(content_bandwidth_hz(&[0.0; 4096], 44_100.0), 0.0);
}
