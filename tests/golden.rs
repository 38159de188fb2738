//! Golden sound: every factory preset's middle C at velocities 127 and 64 through the real CLAP,
//! compared with stored fingerprints (per-10 ms RMS of each channel, the strongest spectral peaks)
//! that were taken before the scene refactor, within a tolerance that CPU dispatch cannot reach.
//!
//! `URTO_GOLDEN_BLESS=1` adds the fingerprints of presets that have none to
//! `tests/golden/fingerprints.json` and keeps every stored one (a new preset's sound becomes its
//! reference; an old one's never moves by accident); `URTO_GOLDEN_DUMP=DIR` also writes each
//! render's raw f32 samples there, for a bit-exact comparison of two builds on one machine.

use rayon::prelude::*;
use rustfft::num_complex::Complex;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use urto::presets::{factory, Preset};
use urto_host_tests::{render_preset_note, workspace_root};

const FS: f64 = 48_000.0;
/// Each render: 3 s, the key held for 2 s.
const SECONDS: f64 = 3.0;
const HOLD_S: f64 = 2.0;
const VELOCITIES: [u8; 2] = [127, 64];
/// Frames of the RMS envelope, s.
const FRAME_S: f64 = 0.01;
/// Levels are stored in hundredths of a dB; frames below this (dBFS) are stored as the floor.
const FLOOR_DBFS: f64 = -100.0;
/// Spectral peaks kept per render.
const PEAKS: usize = 6;
/// The tolerances. FMA against separate multiply-add, or another SIMD lane width, moves a sample by
/// ~1e-7 of full scale; a changed stiffness, mass, decay or level by far more than these.
const RMS_TOLERANCE_DB: f64 = 0.5;
/// Frames compared with the tolerance: louder than this in the reference (dBFS); quieter ones
/// must stay quieter than `QUIET_CEILING_DBFS`.
const LOUD_DBFS: f64 = -70.0;
const QUIET_CEILING_DBFS: f64 = -60.0;
const PEAK_TOLERANCE_DB: f64 = 1.5;

fn fingerprint_path() -> PathBuf {
    workspace_root().join("tests/golden/fingerprints.json")
}

/// The left and right channels of `preset`'s middle C at MIDI velocity `velocity`.
fn render(preset: &Preset, velocity: u8) -> [Vec<f32>; 2] {
    render_preset_note(preset, 60, f64::from(velocity) / 127.0, HOLD_S, SECONDS, FS)
}

fn dbfs(x: f64) -> f64 {
    (20.0 * x.log10()).max(FLOOR_DBFS)
}

/// Per-frame RMS in dBFS.
fn rms_envelope_db(channel: &[f32]) -> Vec<f64> {
    channel
        .chunks((FRAME_S * FS) as usize)
        .map(|frame| dbfs(urto_host_tests::rms(frame)))
        .collect()
}

/// The magnitude spectrum (bins 1/[`SECONDS`] Hz apart; dBFS-like, 20·log10 of the Hann-windowed FFT magnitude normalised by
/// the window's sum) of the channels' mean.
fn spectrum_db(left: &[f32], right: &[f32]) -> Vec<f64> {
    let n = left.len();
    let window = |i: usize| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n as f64).cos();
    let mut buffer: Vec<Complex<f64>> = left
        .iter()
        .zip(right)
        .enumerate()
        .map(|(i, (&l, &r))| Complex::new(0.5 * f64::from(l + r) * window(i), 0.0))
        .collect();
    rustfft::FftPlanner::new()
        .plan_fft_forward(n)
        .process(&mut buffer);
    let scale = 2.0 / (0.5 * n as f64);
    buffer[..n / 2]
        .iter()
        .map(|c| 20.0 * (c.norm() * scale).max(1e-12).log10())
        .collect()
}

/// The `PEAKS` strongest local maxima of `spectrum` louder than [`FLOOR_DBFS`]: (bin, dB).
fn peaks(spectrum: &[f64]) -> Vec<(usize, f64)> {
    let mut maxima: Vec<(usize, f64)> = (1..spectrum.len() - 1)
        .filter(|&k| spectrum[k] > spectrum[k - 1] && spectrum[k] >= spectrum[k + 1])
        .filter(|&k| spectrum[k] > FLOOR_DBFS)
        .map(|k| (k, spectrum[k]))
        .collect();
    maxima.sort_by(|a, b| b.1.total_cmp(&a.1));
    maxima.truncate(PEAKS);
    maxima
}

fn centi(db: f64) -> i64 {
    (db * 100.0).round() as i64
}

/// A channel's envelope in hundredths of a dB, without its trailing frames at the floor.
fn stored_envelope(channel: &[f32]) -> Vec<i64> {
    let mut envelope: Vec<i64> = rms_envelope_db(channel).into_iter().map(centi).collect();
    while envelope.last() == Some(&centi(FLOOR_DBFS)) {
        envelope.pop();
    }
    envelope
}

fn fingerprint(channels: &[Vec<f32>; 2]) -> Value {
    let spectrum = spectrum_db(&channels[0], &channels[1]);
    json!({
        "rms_cdb": channels.iter().map(|c| stored_envelope(c)).collect::<Vec<_>>(),
        "peaks": peaks(&spectrum).into_iter().map(|(bin, db)| json!([bin, centi(db)])).collect::<Vec<_>>(),
    })
}

/// What differs between the stored fingerprint and this render, if anything.
fn compare(stored: &Value, channels: &[Vec<f32>; 2]) -> Vec<String> {
    let mut problems = Vec::new();
    for (c, channel) in channels.iter().enumerate() {
        let now = rms_envelope_db(channel);
        let then = stored["rms_cdb"][c].as_array().expect("stored envelope");
        let then = then
            .iter()
            .map(|level| level.as_f64().expect("level") / 100.0)
            .chain(std::iter::repeat(FLOOR_DBFS));
        for (frame, (then, now)) in then.zip(&now).enumerate() {
            let bad = if then > LOUD_DBFS {
                (now - then).abs() > RMS_TOLERANCE_DB
            } else {
                *now > QUIET_CEILING_DBFS
            };
            if bad {
                problems.push(format!(
                    "channel {c} at {:.2} s: {now:.2} dBFS, was {then:.2}",
                    frame as f64 * FRAME_S
                ));
            }
        }
    }
    let spectrum = spectrum_db(&channels[0], &channels[1]);
    for peak in stored["peaks"].as_array().expect("stored peaks") {
        let bin = peak[0].as_u64().expect("bin") as usize;
        let then = peak[1].as_f64().expect("level") / 100.0;
        let now = spectrum.get(bin).copied().unwrap_or(f64::NEG_INFINITY);
        // (NaN is not within.)
        let within = (now - then).abs() <= PEAK_TOLERANCE_DB;
        if !within {
            let hz = bin as f64 / SECONDS;
            problems.push(format!("peak at {hz:.1} Hz: {now:.2} dB, was {then:.2}"));
        }
    }
    problems
}

fn dump(dir: &str, name: &str, channels: &[Vec<f32>; 2]) {
    let bytes: Vec<u8> = channels
        .iter()
        .flat_map(|c| c.iter().flat_map(|x| x.to_le_bytes()))
        .collect();
    std::fs::create_dir_all(dir).expect("dump folder");
    std::fs::write(PathBuf::from(dir).join(format!("{name}.f32")), bytes).expect("dump");
}

/// A render against its stored fingerprint: `Ok(None)` when it matches, `Ok(Some(fingerprint))`
/// to bless a render that has none, `Err` naming what differs.
fn check(
    stored: Option<&Value>,
    bless: bool,
    channels: &[Vec<f32>; 2],
) -> Result<Option<Value>, String> {
    match stored {
        None if bless => Ok(Some(fingerprint(channels))),
        None => Err("no stored fingerprint (bless it)".to_string()),
        Some(stored) => {
            let problems = compare(stored, channels);
            if problems.is_empty() {
                Ok(None)
            } else {
                Err(format!(
                    "{} differences, first: {}",
                    problems.len(),
                    problems[..problems.len().min(3)].join("; ")
                ))
            }
        }
    }
}

#[test]
fn every_factory_preset_sounds_as_its_fingerprint() {
    let bless = std::env::var_os("URTO_GOLDEN_BLESS").is_some();
    let dump_dir = std::env::var("URTO_GOLDEN_DUMP").ok();
    let stored: BTreeMap<String, Value> = match std::fs::read(fingerprint_path()) {
        Ok(bytes) => serde_json::from_slice(&bytes).expect("fingerprint JSON"),
        Err(_) if bless => BTreeMap::new(),
        Err(e) => panic!("no stored fingerprints ({e}): run with URTO_GOLDEN_BLESS=1"),
    };
    let mut fresh = stored.clone();
    // The renders run on every core (rayon); collected in order.
    let outcomes: Vec<(String, Result<Option<Value>, String>)> = factory()
        .par_iter()
        .flat_map_iter(|preset| VELOCITIES.map(|velocity| (preset, velocity)))
        .map(|(preset, velocity)| {
            let key = format!("{} @ {velocity}", preset.name);
            let channels = render(preset, velocity);
            if let Some(dir) = &dump_dir {
                dump(dir, &key.replace(['/', ' '], "_"), &channels);
            }
            let outcome = check(stored.get(&key), bless, &channels);
            (key, outcome)
        })
        .collect();
    let mut failures = Vec::new();
    for (key, outcome) in outcomes {
        match outcome {
            Ok(None) => {}
            Ok(Some(blessed)) => {
                fresh.insert(key, blessed);
            }
            Err(problem) => failures.push(format!("{key}: {problem}")),
        }
    }
    if bless {
        let path = fingerprint_path();
        std::fs::create_dir_all(path.parent().unwrap()).expect("golden folder");
        let text = serde_json::to_string(&fresh).expect("JSON");
        std::fs::write(&path, text).expect("write fingerprints");
        println!("{} fingerprints in {}", fresh.len(), path.display());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
