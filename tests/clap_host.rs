//! The release CLAP bundle in a real CLAP host: finite, audible, in tune, louder when struck harder.

use urto_host_tests::{
    clap_path, expected_fundamental_hz, render, rms, strongest_peak_hz, Note, Render, Session,
};

fn strike(sample_rate_hz: f64, key: u8, velocity: f64, seconds: f64) -> Vec<f32> {
    let frames = (sample_rate_hz * seconds) as usize;
    let note = Note {
        at_sample: 100,
        key,
        velocity,
    };
    render(&clap_path(), sample_rate_hz, 512, &[note], frames)
        .unwrap_or_else(|e| panic!("rendering {} failed: {e}", clap_path().display()))
}

#[test]
fn notes_are_finite_audible_and_in_tune() {
    for sample_rate_hz in [44_100.0, 96_000.0] {
        for key in [36u8, 48, 60, 72, 84] {
            for velocity in [0.3, 1.0] {
                let out = strike(sample_rate_hz, key, velocity, 1.0);
                assert!(
                    out.iter().all(|x| x.is_finite()),
                    "non-finite at {sample_rate_hz} Hz, key {key}"
                );
                let level = rms(&out);
                assert!(
                    level > 1e-4,
                    "silent at {sample_rate_hz} Hz, key {key}, velocity {velocity}: rms {level}"
                );
                let peak_hz = strongest_peak_hz(&out, sample_rate_hz);
                let expected_hz = expected_fundamental_hz(key);
                let error = (peak_hz / expected_hz - 1.0).abs();
                assert!(
                    error < 0.02,
                    "{sample_rate_hz} Hz, key {key}: peak {peak_hz:.2} Hz, expected {expected_hz:.2} Hz"
                );
            }
        }
    }
}

#[test]
fn harder_strikes_are_louder() {
    for sample_rate_hz in [44_100.0, 96_000.0] {
        let levels: Vec<f64> = [0.1, 0.4, 0.7, 1.0]
            .iter()
            .map(|&velocity| rms(&strike(sample_rate_hz, 60, velocity, 0.5)))
            .collect();
        assert!(
            levels.windows(2).all(|w| w[1] > w[0]),
            "{sample_rate_hz} Hz: {levels:?}"
        );
    }
}

#[test]
fn output_does_not_depend_on_the_host_block_size() {
    let notes = [
        Note {
            at_sample: 37,
            key: 60,
            velocity: 0.8,
        },
        Note {
            at_sample: 1000,
            key: 67,
            velocity: 0.5,
        },
    ];
    let frames = 8000;
    let reference = render(&clap_path(), 48_000.0, 1, &notes, frames).expect("render");
    for block in [7, 64, 4096] {
        let other = render(&clap_path(), 48_000.0, block, &notes, frames).expect("render");
        assert_eq!(reference, other, "block size {block}");
    }
}

/// The stereo output is the object's two pickups: the channels differ (each hears the modes'
/// shapes at its own point), with no delay between them, so their mean holds every mode the
/// louder channel holds (no comb): the strongest spectral peak is the same.
#[test]
fn the_two_channels_are_two_pickups_on_the_object() {
    let mut session = Session::new(&clap_path()).expect("load the CLAP");
    let note = Note {
        at_sample: 0,
        key: 60,
        velocity: 0.8,
    };
    let [left, right] = session
        .render_stereo(&Render {
            sample_rate_hz: 48_000.0,
            block_frames: 512,
            total_frames: 48_000,
            notes: &[note],
            ..Render::default()
        })
        .expect("render");
    let difference: Vec<f32> = left.iter().zip(&right).map(|(l, r)| l - r).collect();
    let mean: Vec<f32> = left
        .iter()
        .zip(&right)
        .map(|(l, r)| 0.5 * (l + r))
        .collect();
    assert!(
        rms(&difference) > 0.1 * rms(&mean),
        "the channels barely differ: {} against {}",
        rms(&difference),
        rms(&mean)
    );
    let fundamental_hz = expected_fundamental_hz(60);
    for channel in [&left, &right, &mean] {
        let peak_hz = strongest_peak_hz(channel, 48_000.0);
        assert!(
            (peak_hz / fundamental_hz - 1.0).abs() < 0.02,
            "{peak_hz} Hz"
        );
    }
}
