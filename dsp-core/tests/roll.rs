//! Rolling: the mean contact force is the ball's weight, and the force's statistics do not depend
//! on the sample rate; no setting makes it blow up.

mod common;

use common::log_range;
use proptest::prelude::*;
use rustfft::{num_complex::Complex, FftPlanner};
use urto_dsp::contact::HuntCrossley;
use urto_dsp::integrate::Method;
use urto_dsp::interaction::{ContactSetup, Damping, Gravity, Hammer};
use urto_dsp::resonator::{object_modes, ModalBank, Mode, ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::roll::{RollSettings, Rolling, Track};
use urto_dsp::surface::{RidgeShape, SurfaceKind, SurfaceSettings};

const G: f64 = 9.81;

struct Roll {
    ball_kg: f64,
    law: HuntCrossley,
    method: Method,
    settings: RollSettings,
    speed_m_per_s: f64,
    object: ObjectSpec,
}

fn marble_on_wood() -> Roll {
    Roll {
        ball_kg: 0.005,
        law: HuntCrossley {
            stiffness: 1e9,
            mu_s_per_m: 0.3,
            alpha: 1.5,
        },
        method: Method::Am1,
        settings: RollSettings::marble(),
        speed_m_per_s: 0.5,
        object: ObjectSpec {
            kind: ObjectKind::Plank,
            num_modes: 24,
            t60_s: 0.8,
            ..ObjectSpec::marimba(180.0)
        },
    }
}

/// Roll for `seconds` at `fs`; returns the mean contact force of every sample (N), from the
/// ball's change of momentum over the sample: F̄ = m·(g + ḧ) − m·Δv/dt.
fn roll(r: &Roll, fs: f64, seconds: f64) -> Vec<f64> {
    let mut modes = [Mode::SILENT; MAX_MODES];
    // The contact force is measured, not the sound: any size radiates alike here.
    let count = object_modes(&r.object, 0.4, &mut modes);
    let mut bank = ModalBank::new(0.5);
    bank.set_modes(&modes[..count], fs);
    let setup = ContactSetup {
        law: r.law,
        method: r.method,
        guard: true,
        exit_correction: true,
        damping: Damping::HuntCrossley,
        restitution: None,
    };
    let mut ball = Hammer::new(r.ball_kg, setup);
    ball.set_gravity(Gravity {
        accel_m_per_s2: G,
        in_contact: true,
        capture_m_per_s: 0.0,
    });
    ball.place(&bank, &setup, r.ball_kg);
    let mut rolling = Rolling::new(Track::new(r.settings, 0.0));
    let dt = 1.0 / fs;
    (0..(seconds * fs) as usize)
        .map(|_| {
            let track_accel = rolling.advance(r.speed_m_per_s, 0.02, dt);
            ball.set_track_acceleration(track_accel);
            let v0 = ball.velocity_m_per_s();
            let out = ball.process_sample(&setup, &mut bank, dt);
            assert!(out.mid_pa.is_finite() && out.side_pa.is_finite() && ball.is_finite());
            r.ball_kg * (G + track_accel) - r.ball_kg * (ball.velocity_m_per_s() - v0) / dt
        })
        .collect()
}

/// Spectral centroid (Hz) of `force` between 50 Hz and 8 kHz, below both sample rates' Nyquist.
fn centroid_hz(force: &[f64], fs: f64) -> f64 {
    let mean = force.iter().sum::<f64>() / force.len() as f64;
    let mut buf: Vec<Complex<f64>> = force.iter().map(|f| Complex::new(f - mean, 0.0)).collect();
    FftPlanner::new()
        .plan_fft_forward(buf.len())
        .process(&mut buf);
    let bin_hz = fs / buf.len() as f64;
    let (mut weighted, mut total) = (0.0, 0.0);
    for (i, c) in buf.iter().enumerate().take(buf.len() / 2) {
        let f = i as f64 * bin_hz;
        if (50.0..8000.0).contains(&f) {
            weighted += f * c.norm_sqr();
            total += c.norm_sqr();
        }
    }
    weighted / total
}

#[test]
fn mean_force_is_the_weight_and_independent_of_the_sample_rate() {
    let r = marble_on_wood();
    let weight = r.ball_kg * G;
    let mut centroids = vec![];
    for fs in [44_100.0, 96_000.0] {
        let force = roll(&r, fs, 2.0);
        let settled = &force[(0.25 * fs) as usize..];
        let mean = settled.iter().sum::<f64>() / settled.len() as f64;
        let rms =
            (settled.iter().map(|f| (f - mean).powi(2)).sum::<f64>() / settled.len() as f64).sqrt();
        let centroid = centroid_hz(settled, fs);
        println!("{fs} Hz: mean force {mean:.6} N (weight {weight:.6}), rms {rms:.3e} N, centroid {centroid:.1} Hz");
        assert!(
            (mean / weight - 1.0).abs() < 0.02,
            "{fs} Hz: mean {mean} vs {weight}"
        );
        assert!(
            rms > 1e-3 * weight,
            "{fs} Hz: the track must excite the contact (rms {rms})"
        );
        centroids.push(centroid);
    }
    let ratio = centroids[0] / centroids[1];
    assert!((ratio - 1.0).abs() < 0.05, "centroids {centroids:?}");
}

#[test]
fn a_ball_over_ridges_is_heard_at_the_speed_over_their_spacing() {
    // A washboard of 2 mm ridges at 0.3 m/s: the ball's height repeats at v/d = 150 Hz. The
    // height's spectrum is the track acceleration's over (2πf)⁴; its strongest bin above 20 Hz,
    // refined by a parabola through the log magnitudes, is within 0.5 % of v/d.
    let (spacing_m, speed) = (2e-3, 0.3);
    let settings = RollSettings {
        track: SurfaceSettings {
            kind: SurfaceKind::Ridges,
            height_m: 2e-5,
            ridge_spacing_m: spacing_m,
            ridge_shape: RidgeShape::Rounded,
            ..SurfaceSettings::smooth()
        },
        ..RollSettings::marble()
    };
    for fs in [44_100.0, 96_000.0] {
        let mut rolling = Rolling::new(Track::new(settings, 0.0));
        let accel: Vec<f64> = (0..(3.0 * fs) as usize)
            .map(|_| rolling.advance(speed, 0.02, 1.0 / fs))
            .skip((0.5 * fs) as usize)
            .collect();
        let mut buf: Vec<Complex<f64>> = accel.iter().map(|&a| Complex::new(a, 0.0)).collect();
        FftPlanner::new()
            .plan_fft_forward(buf.len())
            .process(&mut buf);
        let bin_hz = fs / buf.len() as f64;
        let height = |i: usize| {
            let f = (i as f64 * bin_hz).max(bin_hz);
            (buf[i].norm_sqr() / f.powi(4)).ln()
        };
        let first = (20.0 / bin_hz) as usize;
        let peak = (first..buf.len() / 2)
            .max_by(|&a, &b| height(a).total_cmp(&height(b)))
            .unwrap();
        let (l, c, r) = (height(peak - 1), height(peak), height(peak + 1));
        let heard_hz = (peak as f64 + 0.5 * (l - r) / (l - 2.0 * c + r)) * bin_hz;
        let expected_hz = speed / spacing_m;
        println!("{fs} Hz: heard {heard_hz:.2} Hz, v/d {expected_hz:.2} Hz");
        assert!(
            (heard_hz / expected_hz - 1.0).abs() < 0.005,
            "{fs}: {heard_hz}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..ProptestConfig::with_cases(64)
    })]

    #[test]
    fn any_setting_stays_finite(
        ball_kg in log_range(1e-4, 1.0),
        stiffness in log_range(1e4, 1e12),
        mu in log_range(1e-3, 10.0),
        alpha in 1.0f64..3.0,
        radius_m in log_range(1e-3, 0.05),
        roughness_m in log_range(1e-8, 1e-4),
        slope in 0.0f64..2.0,
        speed_m_per_s in log_range(1e-3, 5.0),
        method in prop::sample::select(Method::ALL.to_vec()),
        fs in prop::sample::select(vec![44_100.0, 96_000.0]),
    ) {
        let r = Roll {
            ball_kg,
            law: HuntCrossley { stiffness, mu_s_per_m: mu, alpha },
            method,
            settings: RollSettings {
                radius_m,
                track: RollSettings::fractal_track(roughness_m, slope, 1),
                ..RollSettings::marble()
            },
            speed_m_per_s,
            ..marble_on_wood()
        };
        let force = roll(&r, fs, 0.05);
        prop_assert!(force.iter().all(|f| f.is_finite()));
    }
}
