//! Surfaces: the reader sums the partials it should, retraces the profile backwards, keeps every partial below Nyquist, and the rough kinds have their height and slope.

use super::*;
use rustfft::{num_complex::Complex, FftPlanner};

fn ridges(shape: RidgeShape) -> SurfaceSettings {
    SurfaceSettings {
        kind: SurfaceKind::Ridges,
        height_m: 1e-4,
        ridge_spacing_m: 2e-3,
        ridge_shape: shape,
        ..SurfaceSettings::smooth()
    }
}

fn fractal() -> SurfaceSettings {
    SurfaceSettings {
        kind: SurfaceKind::Fractal,
        height_m: 2e-6,
        slope: 2.0,
        seed: 7,
        ..SurfaceSettings::smooth()
    }
}

fn grain() -> SurfaceSettings {
    SurfaceSettings {
        kind: SurfaceKind::Grain,
        height_m: 5e-6,
        grain_m: 1e-4,
        seed: 3,
        ..SurfaceSettings::smooth()
    }
}

/// Read `settings` from x = 0 at `speed` for `samples`, then at `back` for as many.
fn read(settings: &SurfaceSettings, rate_hz: f64, speeds: &[(f64, usize)]) -> Vec<ProfileSample> {
    let mut reader = SurfaceReader::new(rate_hz);
    reader.set_surface(settings, 0.0, 0.0);
    speeds
        .iter()
        .flat_map(|&(v, n)| std::iter::repeat_n(v, n))
        .map(|v| reader.advance(v))
        .collect()
}

#[test]
fn read_slowly_the_reader_is_the_sum_of_every_partial() {
    // Slow enough that every partial sounds below 0.40·fs: nothing is faded.
    for settings in [
        ridges(RidgeShape::Rounded),
        ridges(RidgeShape::Saw),
        ridges(RidgeShape::Teeth { duty: 0.3 }),
        fractal(),
        grain(),
    ] {
        let partials = Partials::new(&settings);
        let top_k = partials.wavenumber_per_m[partials.count - 1];
        let rate_hz = 48_000.0;
        let v = 0.3 * rate_hz * std::f64::consts::TAU / top_k;
        let samples = read(&settings, rate_hz, &[(v, 5000), (-0.7 * v, 5000)]);
        let mut x = 0.0;
        let scale = (0..2000)
            .map(|i| partials.height_m(i as f64 * 1e-5).abs())
            .fold(0.0, f64::max);
        for (n, s) in samples.iter().enumerate() {
            x += s.travel_m;
            let want = partials.height_m(x);
            assert!(
                (s.height_m - want).abs() < 1e-9 * scale,
                "{:?} sample {n}: {} against {want}",
                settings.kind,
                s.height_m
            );
        }
    }
}

#[test]
fn reading_backwards_retraces_the_profile() {
    for settings in [ridges(RidgeShape::Saw), fractal(), grain()] {
        let n = 4096;
        let samples = read(&settings, 44_100.0, &[(0.2, n), (-0.2, n)]);
        let forward: Vec<f64> = samples[..n].iter().map(|s| s.height_m).collect();
        // Backwards from the end, sample n + j is at the position of sample n − 2 − j.
        for j in 0..n - 1 {
            let back = samples[n + j].height_m;
            let there = forward[n - 2 - j];
            assert!(
                (back - there).abs() <= 1e-9 * forward.iter().map(|h| h.abs()).fold(0.0, f64::max)
            );
        }
    }
}

/// Power spectrum of `signal` (no window: the tests sample whole periods), bins 0 to N/2.
fn power(signal: &[f64]) -> Vec<f64> {
    let n = signal.len();
    let mut buf: Vec<Complex<f64>> = signal.iter().map(|&x| Complex::new(x, 0.0)).collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    buf[..=n / 2].iter().map(|c| c.norm_sqr()).collect()
}

#[test]
fn ridges_read_fast_stay_below_nyquist_and_alias_nothing() {
    // Teeth at 2 mm read at 3.1 m/s: a pulse rate of 1550 Hz whose 128 harmonics would reach
    // 198 kHz. The pulse rate is a whole number of bins (the window holds whole periods, so
    // the harmonics leak nothing): what lies between them is alias, below −60 dB of the whole.
    let rate_hz = 44_100.0;
    let n = 1 << 16;
    let pulse_bins = 2304;
    let spacing = 2e-3;
    let v = pulse_bins as f64 * rate_hz / n as f64 * spacing;
    let settings = SurfaceSettings {
        ridge_spacing_m: spacing,
        ..ridges(RidgeShape::Teeth { duty: 0.2 })
    };
    let accel: Vec<f64> = read(&settings, rate_hz, &[(v, n)])
        .iter()
        .map(|s| s.accel_m_per_s2)
        .collect();
    let p = power(&accel);
    let bin_hz = rate_hz / n as f64;
    let total: f64 = p.iter().sum();
    let near_harmonic = |i: usize| i > 0 && i.is_multiple_of(pulse_bins);
    let between: f64 = (0..p.len())
        .filter(|&i| !near_harmonic(i))
        .map(|i| p[i])
        .sum();
    let alias_db = 10.0 * (between / total).log10();
    println!("{alias_db:.1} dB between the harmonics");
    assert!(alias_db < -60.0, "{alias_db:.1} dB between the harmonics");
    let top = (0..p.len())
        .filter(|&i| p[i] > 1e-12 * total)
        .max()
        .unwrap();
    assert!(
        top as f64 * bin_hz < 0.485 * rate_hz,
        "energy up to {} Hz",
        top as f64 * bin_hz
    );
}

#[test]
fn a_rough_surface_has_its_rms_height_and_its_spectral_slope() {
    for settings in [fractal(), grain()] {
        let partials = Partials::new(&settings);
        let n = 400_000;
        let mean_sq: f64 = (0..n)
            .map(|i| partials.height_m(i as f64 * 7.3e-6).powi(2))
            .sum::<f64>()
            / n as f64;
        let rms = mean_sq.sqrt();
        assert!(
            (rms / settings.height_m - 1.0).abs() < 0.15,
            "{:?}: rms {rms}",
            settings.kind
        );
    }
    // Octave power ∝ k^(1 − β): each octave down holds 2^(β − 1) times the power (β = 2: twice),
    // on average over the seeded amplitudes.
    let partials = Partials::new(&fractal());
    let octave_power = |j: usize| -> f64 {
        (6 * j..6 * j + 6)
            .map(|i| partials.amplitude_m[i].powi(2))
            .sum()
    };
    let ratio = (octave_power(0) + octave_power(1) + octave_power(2))
        / (octave_power(6) + octave_power(7) + octave_power(8));
    assert!(
        (ratio / 64.0 - 1.0).abs() < 0.6,
        "6 octaves down hold {ratio}× the power"
    );
}

/// A tip of radius r feels the profile averaged over a Gaussian of standard deviation r: the
/// felt teeth at each point equal that average of the raw teeth, integrated here by the
/// trapezoidal rule over ±6·r (not through the partials' gains).
#[test]
fn a_tip_feels_the_profile_averaged_over_its_size() {
    let teeth = ridges(RidgeShape::Teeth { duty: 0.4 });
    let raw = Partials::new(&teeth);
    let r = 0.2e-3;
    let mut felt = raw;
    felt.felt_by(r);
    assert!(
        felt.count < raw.count,
        "the finest teeth harmonics are left out"
    );
    let steps = 2400;
    let du = 12.0 * r / steps as f64;
    for x in [0.0, 0.3e-3, 0.79e-3, 1.6e-3] {
        let average: f64 = (0..=steps)
            .map(|i| {
                let u = -6.0 * r + i as f64 * du;
                let weight = (-0.5 * (u / r).powi(2)).exp() / (r * std::f64::consts::TAU.sqrt());
                let end = if i == 0 || i == steps { 0.5 } else { 1.0 };
                end * weight * raw.height_m(x - u) * du
            })
            .sum();
        let got = felt.height_m(x);
        assert!(
            (got - average).abs() < 1e-4 * teeth.height_m,
            "x {x}: felt {got} against the average {average}"
        );
    }
}

#[test]
fn a_fractal_set_by_its_rms_below_a_wavelength_has_it_there() {
    // Over many seeds, the partials of wavelength up to 8 mm carry the asked mean square
    // (Σ a²/2 over them, read off the partials themselves). (Steeper, the few coarsest
    // partials of a seed set its scale, and the mean of the ratio drifts from the ratio of the
    // means: +8 % at β = 5.)
    for beta in [1.0, 2.0, 3.0] {
        let seeds = 400;
        let mean_square: f64 = (0..seeds)
            .map(|seed| {
                let p = Partials::new(&SurfaceSettings::fractal_rms_below(2e-6, beta, 8e-3, seed));
                (0..p.count)
                    .filter(|&i| std::f64::consts::TAU / p.wavenumber_per_m[i] <= 8e-3)
                    .map(|i| 0.5 * p.amplitude_m[i].powi(2))
                    .sum::<f64>()
            })
            .sum::<f64>()
            / seeds as f64;
        let rms = mean_square.sqrt();
        assert!((rms / 2e-6 - 1.0).abs() < 0.05, "β {beta}: rms {rms}");
    }
}
