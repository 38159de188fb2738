//! Tests of the comparison against closed forms: damped sinusoids, an exponential decay, sines' centroids and band powers.

use super::*;

/// One exponentially damped sinusoid a·e^(−ln(1000)·t/T60)·sin(2πft + φ); T60 = ∞ is undamped.
#[derive(Clone, Copy)]
struct Mode {
    frequency_hz: f64,
    amplitude: f64,
    t60_s: f64,
    phase: f64,
}

fn mode(frequency_hz: f64, amplitude: f64, t60_s: f64) -> Mode {
    Mode {
        frequency_hz,
        amplitude,
        t60_s,
        phase: 0.0,
    }
}

/// The closed form Σ modes sampled at `rate_hz` for `seconds`, after `silence_s` of zeros.
fn sound(modes: &[Mode], rate_hz: f64, seconds: f64, silence_s: f64) -> Sound {
    let silence = (silence_s * rate_hz).round() as usize;
    let n = (seconds * rate_hz).round() as usize;
    let samples = std::iter::repeat_n(0.0, silence)
        .chain((0..n).map(|i| {
            let t = i as f64 / rate_hz;
            modes
                .iter()
                .map(|m| {
                    let envelope = (-(1000f64.ln()) * t / m.t60_s).exp();
                    m.amplitude
                        * envelope
                        * (std::f64::consts::TAU * m.frequency_hz * t + m.phase).sin()
                })
                .sum::<f64>()
        }))
        .collect();
    Sound {
        samples,
        sample_rate_hz: rate_hz,
    }
}

fn describe_default(s: &Sound) -> Description {
    describe(s, &Options::default()).expect("a closed-form sound is described")
}

/// Five well separated partials, from 100 Hz up, with their own decays.
fn five_modes() -> Vec<Mode> {
    vec![
        mode(100.0, 1.0, 1.5),
        mode(261.63, 0.7, 1.2),
        mode(440.0, 0.8, 1.0),
        mode(1234.5, 0.5, 0.6),
        mode(3001.0, 0.3, 0.4),
    ]
}

#[test]
fn partials_of_damped_sinusoids_within_half_a_cent_and_two_percent_in_t60() {
    for rate_hz in [44_100.0, 96_000.0] {
        let d = describe_default(&sound(&five_modes(), rate_hz, 1.2, 0.0));
        assert!(d.partials.len() >= 5, "{rate_hz} Hz: {:?}", d.partials);
        for m in five_modes() {
            let found = d.partials[..5]
                .iter()
                .min_by(|a, b| {
                    let c = |p: &&Partial| cents(m.frequency_hz, p.frequency_hz).abs();
                    c(a).total_cmp(&c(b))
                })
                .copied()
                .expect("five partials");
            let off_cents = cents(m.frequency_hz, found.frequency_hz);
            assert!(
                off_cents.abs() < 0.5,
                "{rate_hz} Hz: {} Hz found at {} ({off_cents} cents)",
                m.frequency_hz,
                found.frequency_hz
            );
            let t60 = found.t60_s.expect("a damped partial has a T60");
            assert!(
                (t60 / m.t60_s - 1.0).abs() < 0.02,
                "{rate_hz} Hz: {} Hz T60 {t60} s, not {} s",
                m.frequency_hz,
                m.t60_s
            );
        }
    }
}

#[test]
fn a_low_partial_that_dies_quickly_is_within_half_a_cent() {
    // 55 Hz dying in 0.2 s: the window shrinks to the decay (about 0.1 s, 5½ periods).
    let d = describe_default(&sound(&[mode(55.0, 1.0, 0.2)], 48_000.0, 0.6, 0.0));
    let p = d.partials.first().expect("one partial");
    assert!(
        cents(55.0, p.frequency_hz).abs() < 0.5,
        "{p:?}, window {} s",
        d.window_s
    );
    let t60 = p.t60_s.expect("it decays");
    assert!((t60 / 0.2 - 1.0).abs() < 0.02, "{p:?}");
}

#[test]
fn levels_of_undamped_sines_are_their_amplitude_ratios() {
    let modes = [
        mode(330.0, 1.0, f64::INFINITY),
        mode(2017.0, 0.25, f64::INFINITY),
    ];
    let d = describe_default(&sound(&modes, 48_000.0, 0.6, 0.0));
    assert_eq!(d.partials.len(), 2, "{:?}", d.partials);
    assert!(d.partials[0].level_db.abs() < 1e-12);
    let expected_db = 20.0 * 0.25f64.log10();
    assert!(
        (d.partials[1].level_db - expected_db).abs() < 0.05,
        "{:?}",
        d.partials
    );
    assert!(cents(2017.0, d.partials[1].frequency_hz).abs() < 0.1);
    // Undamped: no decay to measure.
    assert_eq!(d.partials[0].t60_s, None);
}

#[test]
fn schroeder_t60_of_one_exponential_decay_is_its_t60() {
    let d = describe_default(&sound(&[mode(1000.0, 0.5, 0.5)], 48_000.0, 1.5, 0.02));
    let t60 = d.decay.t60_s.expect("it decays");
    assert!((t60 / 0.5 - 1.0).abs() < 0.01, "T60 {t60} s, not 0.5 s");
    assert_eq!(d.decay.fit_db, Some((-5.0, -35.0)));
}

#[test]
fn schroeder_fit_shortens_when_the_decay_meets_noise() {
    // White noise 40 dB under the sound's start: the curve falls about 30 dB before it.
    let mut s = sound(&[mode(1000.0, 1.0, 0.5)], 48_000.0, 1.5, 0.0);
    let mut rng = fastrand::Rng::with_seed(7);
    let noise_rms = 10f64.powf(-40.0 / 20.0) / 2f64.sqrt();
    for x in &mut s.samples {
        *x += noise_rms * 3f64.sqrt() * (2.0 * rng.f64() - 1.0);
    }
    let d = describe_default(&s);
    assert_eq!(d.decay.fit_db, Some((-5.0, -25.0)), "{:?}", d.decay);
    let t60 = d.decay.t60_s.expect("it decays");
    assert!(
        (t60 / 0.5 - 1.0).abs() < 0.05,
        "T60 {t60} s, not 0.5 s: {:?}",
        d.decay
    );
}

#[test]
fn centroid_of_one_sine_is_its_frequency() {
    let d = describe_default(&sound(
        &[mode(1000.0, 1.0, f64::INFINITY)],
        44_100.0,
        0.3,
        0.0,
    ));
    for c in [d.centroid_20ms_hz, d.centroid_100ms_hz] {
        let c = c.expect("a sounding frame");
        assert!((c - 1000.0).abs() < 0.5, "centroid {c} Hz");
    }
}

#[test]
fn centroid_of_two_sines_is_their_power_weighted_mean() {
    let modes = [
        mode(500.0, 1.0, f64::INFINITY),
        mode(3000.0, 0.5, f64::INFINITY),
    ];
    let expected_hz = (1.0 * 500.0 + 0.25 * 3000.0) / 1.25;
    let d = describe_default(&sound(&modes, 48_000.0, 0.3, 0.0));
    for c in [d.centroid_20ms_hz, d.centroid_100ms_hz] {
        let c = c.expect("a sounding frame");
        assert!(
            (c / expected_hz - 1.0).abs() < 1e-3,
            "centroid {c} Hz, not {expected_hz}"
        );
    }
}

fn distance(a: &Sound, b: &Sound) -> f64 {
    compare_sounds(a, b, &Options::default())
        .expect("both described")
        .log_mel_distance_db
}

#[test]
fn log_mel_distance_of_a_sound_with_itself_louder_and_delayed_is_zero() {
    let a = sound(&five_modes(), 44_100.0, 0.6, 0.0);
    assert_eq!(distance(&a, &a), 0.0);
    let louder = Sound {
        samples: a
            .samples
            .iter()
            .map(|x| x * 10f64.powf(6.0 / 20.0))
            .collect(),
        ..a.clone()
    };
    assert!(
        distance(&a, &louder) < 1e-9,
        "6 dB louder: {}",
        distance(&a, &louder)
    );
    let delayed = sound(&five_modes(), 44_100.0, 0.6, 0.137);
    assert!(
        distance(&a, &delayed) < 1e-9,
        "delayed: {}",
        distance(&a, &delayed)
    );
}

#[test]
fn log_mel_distance_across_sample_rates_is_small() {
    let d = distance(
        &sound(&five_modes(), 44_100.0, 0.6, 0.0),
        &sound(&five_modes(), 48_000.0, 0.6, 0.0),
    );
    assert!(d < 0.2, "44.1 vs 48 kHz: {d} dB");
}

#[test]
fn log_mel_distance_of_known_band_differences_is_their_rms() {
    // A steady sine at every band's peak (rounded to 2 Hz, so that they are orthogonal over the
    // 0.5 s normalisation); B doubles two of them (+6.02 dB). After the RMS normalisation the 38
    // others differ by d1 = 10·log10(P_B/P_A), the two by d1 − 20·log10 2.
    let edges = band_edges_hz(16_000.0);
    let doubled = [25, 33];
    let modes = |gain: f64| -> Vec<Mode> {
        (0..NUM_MEL_BANDS)
            .map(|b| {
                let a = if doubled.contains(&b) { gain } else { 1.0 };
                mode(2.0 * (edges[b + 1] / 2.0).round(), a, f64::INFINITY)
            })
            .collect()
    };
    let power = |gain: f64| (38.0 + 2.0 * gain * gain) / 2.0;
    let d1 = 10.0 * (power(2.0) / power(1.0)).log10();
    let d2 = d1 - 20.0 * 2f64.log10();
    let expected = ((38.0 * d1 * d1 + 2.0 * d2 * d2) / 40.0).sqrt();
    let d = distance(
        &sound(&modes(1.0), 44_100.0, 0.6, 0.0),
        &sound(&modes(2.0), 44_100.0, 0.6, 0.0),
    );
    assert!((d - expected).abs() < 0.05, "{d} dB, not {expected} dB");
}

#[test]
fn matched_partials_of_a_detuned_copy_are_its_detuning() {
    let detune = 2f64.powf(3.0 / 1200.0);
    let shifted: Vec<Mode> = five_modes()
        .iter()
        .map(|m| Mode {
            frequency_hz: m.frequency_hz * detune,
            ..*m
        })
        .collect();
    let c = compare_sounds(
        &sound(&five_modes(), 44_100.0, 1.0, 0.0),
        &sound(&shifted, 44_100.0, 1.0, 0.0),
        &Options::default(),
    )
    .expect("both described");
    for m in &c.matched[..5] {
        let off = m.cents.expect("every partial has its match");
        assert!((off - 3.0).abs() < 0.5, "{m:?}");
        let ratio = m.t60_ratio.expect("both decay");
        assert!((ratio - 1.0).abs() < 0.03, "{m:?}");
    }
}

#[test]
fn silence_short_and_non_finite_sounds_are_refused() {
    let o = Options::default();
    let silent = Sound {
        samples: vec![0.0; 48_000],
        sample_rate_hz: 48_000.0,
    };
    assert_eq!(describe(&silent, &o), Err(Refusal::Silent));
    let short = sound(&[mode(1000.0, 1.0, 1.0)], 48_000.0, 0.01, 0.0);
    assert!(matches!(
        describe(&short, &o),
        Err(Refusal::TooShort { .. })
    ));
    let mut broken = sound(&[mode(1000.0, 1.0, 1.0)], 48_000.0, 0.1, 0.0);
    broken.samples[100] = f64::NAN;
    assert_eq!(
        describe(&broken, &o),
        Err(Refusal::NotFinite { index: 100 })
    );
    let no_rate = Sound {
        sample_rate_hz: 0.0,
        ..broken
    };
    assert_eq!(describe(&no_rate, &o), Err(Refusal::BadRate(0.0)));
}
