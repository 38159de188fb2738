//! The calibrated level and the velocity curve (issue 13): a velocity-127 note of middle C peaks
//! (on the louder channel) at −9 ± 3 dBFS for every object at its defaults, struck or bouncing (a rolling ball: its RMS
//! at −9 dBFS less the rolling crest factor, ±3 dB); velocity 64 is 8–14 dB below it and velocity
//! 1 the dynamic range below (±3 dB); the physical level is the same sound in raw units.

use urto_dsp::resonator::ObjectKind;
use urto_dsp::voice::{
    Engine, Level, Patch, PlayMode, OUTPUT_PER_PA, REFERENCE_NOTE, REFERENCE_PEAK_DBFS,
};

const FS: f64 = 48_000.0;

/// The note's output over `seconds`, both channels.
fn render(patch: &Patch, note: u8, velocity_127: u8, seconds: f64) -> [Vec<f32>; 2] {
    let mut engine = Engine::new(FS);
    engine.note_on(patch, note, f32::from(velocity_127) / 127.0);
    let samples = (seconds * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; samples], vec![0.0f32; samples]);
    for (l, r) in left.chunks_mut(480).zip(right.chunks_mut(480)) {
        engine.process_stereo(patch, l, r);
    }
    [left, right]
}

/// Peak of the louder channel, dBFS.
fn peak_dbfs(channels: &[Vec<f32>; 2]) -> f64 {
    let peak = channels
        .iter()
        .flatten()
        .fold(0.0f32, |m, x| m.max(x.abs()));
    20.0 * f64::from(peak).log10()
}

/// A rolling ball's level: the RMS (dBFS) of the louder channel over 2 s after the first 0.1 s,
/// in power averaged over four successive notes. Each note rolls on a track of its own (a random
/// draw whose level scatters by ±2–3 dB about the mean); the calibration targets the mean.
fn roll_rms_dbfs(patch: &Patch, velocity_127: u8) -> f64 {
    const NOTES: usize = 4;
    let mut engine = Engine::new(FS);
    let samples = (2.0 * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; samples], vec![0.0f32; samples]);
    let mut mean_squares = [0.0f64; 2];
    let mean_square =
        |y: &[f32]| y.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>() / y.len() as f64;
    for _ in 0..NOTES {
        engine.note_on(patch, REFERENCE_NOTE, f32::from(velocity_127) / 127.0);
        engine.process_stereo(patch, &mut left, &mut right);
        mean_squares[0] += mean_square(&left[4800..]) / NOTES as f64;
        mean_squares[1] += mean_square(&right[4800..]) / NOTES as f64;
        engine.all_sound_off();
        engine.process_stereo(patch, &mut left[..9600], &mut right[..9600]);
    }
    10.0 * mean_squares[0].max(mean_squares[1]).log10()
}

fn patch(kind: ObjectKind, mode: PlayMode) -> Patch {
    let mut patch = Patch::default();
    patch.object.kind = kind;
    patch.mode = mode;
    patch
}

#[test]
fn every_object_and_mode_is_at_the_calibrated_level_with_the_velocity_spacing() {
    let mut failures = Vec::new();
    println!("object               mode     vel127   vel64   vel1   (dBFS; roll, slide: RMS)");
    for mode in PlayMode::ALL {
        for kind in ObjectKind::ALL {
            let patch = patch(kind, mode);
            let (target, level): (f64, &dyn Fn(u8) -> f64) = if mode.is_steady() {
                (REFERENCE_PEAK_DBFS - 20.0 * mode.crest().log10(), &|v| {
                    roll_rms_dbfs(&patch, v)
                })
            } else {
                (REFERENCE_PEAK_DBFS, &|v| {
                    peak_dbfs(&render(&patch, REFERENCE_NOTE, v, 1.0))
                })
            };
            let (full, half, soft) = (level(127), level(64), level(1));
            println!(
                "{:<20} {mode:<8?} {full:>7.1} {half:>7.1} {soft:>7.1}",
                kind.name()
            );
            if (full - target).abs() > 3.0 {
                failures.push(format!("{} {mode:?}: {full:.1} dBFS", kind.name()));
            }
            if !(8.0..=14.0).contains(&(full - half)) {
                failures.push(format!(
                    "{} {mode:?}: 127 − 64 = {:.1} dB",
                    kind.name(),
                    full - half
                ));
            }
            // Velocity 1 sits the dynamic range (30 dB) below velocity 127.
            if ((full - soft) - patch.velocity.range_db).abs() > 3.0 {
                failures.push(format!(
                    "{} {mode:?}: 127 − 1 = {:.1} dB",
                    kind.name(),
                    full - soft
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The level switch changes the gain only: the physical level is the calibrated output scaled by
/// the raw units' gain over the make-up gain, sample for sample.
#[test]
fn the_physical_level_is_the_same_sound_in_raw_units() {
    for kind in [ObjectKind::MarimbaBar, ObjectKind::Bell] {
        let calibrated = patch(kind, PlayMode::Strike);
        let physical = Patch {
            level: Level::Physical,
            ..calibrated
        };
        let mut engine = Engine::new(FS);
        engine.note_on(&calibrated, 60, 1.0);
        let makeup = engine.prepared().calibration().makeup_gain();
        let a = render(&calibrated, 60, 100, 0.2);
        let b = render(&physical, 60, 100, 0.2);
        let scale = OUTPUT_PER_PA / makeup;
        for (x, y) in a.iter().flatten().zip(b.iter().flatten()) {
            let expected = f64::from(*x) * scale;
            assert!(
                (f64::from(*y) - expected).abs() <= 1e-5 * expected.abs() + 1e-12,
                "{}: {y} vs {expected}",
                kind.name()
            );
        }
    }
}
