//! Scraping: a stylus drawn over a surface hears ridges at speed / spacing, twice the speed doubles the force's spectral centroid, backwards retraces the force, and fast teeth alias nothing.

use rustfft::{num_complex::Complex, FftPlanner};
use urto_dsp::surface::{scrape, RidgeShape, Scrape, SurfaceKind, SurfaceSettings};

fn spectrum(signal: &[f64]) -> Vec<Complex<f64>> {
    let mean = signal.iter().sum::<f64>() / signal.len() as f64;
    let mut buf: Vec<Complex<f64>> = signal.iter().map(|x| Complex::new(x - mean, 0.0)).collect();
    FftPlanner::new()
        .plan_fft_forward(buf.len())
        .process(&mut buf);
    buf
}

/// The period of `signal` from its autocorrelation (through the FFT): the first lag past the
/// zero-lag lobe whose value reaches 90 % of the largest there, refined by a parabola, s.
fn period_s(signal: &[f64], rate_hz: f64) -> f64 {
    let n = signal.len();
    let mut padded = signal.to_vec();
    padded.resize(2 * n, 0.0);
    let mean = signal.iter().sum::<f64>() / n as f64;
    padded[..n].iter_mut().for_each(|x| *x -= mean);
    let mut buf: Vec<Complex<f64>> = padded.iter().map(|&x| Complex::new(x, 0.0)).collect();
    let mut planner = FftPlanner::new();
    planner.plan_fft_forward(2 * n).process(&mut buf);
    buf.iter_mut()
        .for_each(|c| *c = Complex::new(c.norm_sqr(), 0.0));
    planner.plan_fft_inverse(2 * n).process(&mut buf);
    let r: Vec<f64> = buf[..n / 2].iter().map(|c| c.re).collect();
    let start = r.iter().position(|&x| x < 0.0).unwrap();
    let top = r[start..].iter().copied().fold(f64::MIN, f64::max);
    let k = (start..r.len() - 1)
        .find(|&k| r[k] >= 0.9 * top && r[k] >= r[k - 1] && r[k] >= r[k + 1])
        .unwrap();
    let (a, b, c) = (r[k - 1], r[k], r[k + 1]);
    (k as f64 + 0.5 * (a - c) / (a - 2.0 * b + c)) / rate_hz
}

fn centroid_hz(signal: &[f64], rate_hz: f64) -> f64 {
    let s = spectrum(signal);
    let bin = rate_hz / s.len() as f64;
    let (mut weighted, mut total) = (0.0, 0.0);
    for (i, c) in s.iter().enumerate().take(s.len() / 2) {
        let f = i as f64 * bin;
        if (20.0..20_000.0).contains(&f) {
            weighted += f * c.norm_sqr();
            total += c.norm_sqr();
        }
    }
    weighted / total
}

fn teeth(spacing_m: f64) -> SurfaceSettings {
    SurfaceSettings {
        kind: SurfaceKind::Ridges,
        height_m: 2e-6,
        ridge_spacing_m: spacing_m,
        ridge_shape: RidgeShape::Teeth { duty: 0.3 },
        ..SurfaceSettings::smooth()
    }
}

fn fractal() -> SurfaceSettings {
    SurfaceSettings {
        kind: SurfaceKind::Fractal,
        height_m: 2e-7,
        slope: 2.0,
        seed: 11,
        ..SurfaceSettings::smooth()
    }
}

#[test]
fn ridges_are_heard_at_speed_over_spacing() {
    for (spacing, v) in [(2e-3, 0.3), (5e-3, 0.2), (1e-3, 0.05)] {
        let rate = 48_000.0;
        let surface = SurfaceSettings {
            height_m: 1e-8,
            ..teeth(spacing)
        };
        let force = scrape(&Scrape::stylus(surface, v, rate), 0.0, 48_000);
        let pulse_hz = 1.0 / period_s(&force[4800..], rate);
        let want = v / spacing;
        println!("{spacing} m at {v} m/s: {pulse_hz:.3} Hz against {want}");
        assert!(
            (pulse_hz / want - 1.0).abs() < 0.005,
            "{pulse_hz} against {want}"
        );
    }
}

#[test]
fn twice_the_speed_doubles_the_force_centroid() {
    let rate = 48_000.0;
    let centroid = |v: f64| {
        let force = scrape(&Scrape::stylus(fractal(), v, rate), 0.0, 1 << 16);
        centroid_hz(&force[4096..], rate)
    };
    for v in [0.002, 0.004] {
        let (slow, fast) = (centroid(v), centroid(2.0 * v));
        println!("{v} m/s: {slow:.1} Hz, twice: {fast:.1} Hz");
        assert!((fast / slow / 2.0 - 1.0).abs() < 0.02, "{slow} → {fast}");
    }
}

#[test]
fn drawn_backwards_the_force_retraces() {
    let (rate, v, n) = (48_000.0, 0.01, 24_000);
    let forward = scrape(&Scrape::stylus(fractal(), v, rate), 0.0, n);
    let end_m = v * n as f64 / rate;
    let backward = scrape(&Scrape::stylus(fractal(), -v, rate), end_m, n);
    // Backward sample j is where forward sample n − 2 − j was; skip the probe's settling.
    let pairs: Vec<(f64, f64)> = (2000..n - 2000)
        .map(|j| (backward[j], forward[n - 2 - j]))
        .collect();
    let mean = |f: fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / pairs.len() as f64;
    let (ma, mb) = (mean(|p| p.0), mean(|p| p.1));
    let cov: f64 = pairs.iter().map(|(a, b)| (a - ma) * (b - mb)).sum();
    let va: f64 = pairs.iter().map(|(a, _)| (a - ma).powi(2)).sum();
    let vb: f64 = pairs.iter().map(|(_, b)| (b - mb).powi(2)).sum();
    let correlation = cov / (va * vb).sqrt();
    println!("correlation {correlation:.6}");
    assert!(correlation > 0.99, "{correlation}");
}

#[test]
fn fast_teeth_alias_nothing_into_the_force() {
    // The pulse rate a whole number of bins: the harmonics (the contact's own products of them
    // included) fall on bins; anything between them folded back from above Nyquist. The teeth
    // are 3 nm high: the force swings by 0.5 % of the press, so the Hertz contact's own products
    // above Nyquist (which fold too, a matter of the contact, not of the surface) stay below
    // the bound; at 10 nm they reach −59.5 dB.
    let (rate, n, pulse_bins, spacing) = (44_100.0, 1usize << 16, 2304usize, 2e-3);
    let v = pulse_bins as f64 * rate / n as f64 * spacing;
    let surface = SurfaceSettings {
        height_m: 3e-9,
        ..teeth(spacing)
    };
    let force = scrape(&Scrape::stylus(surface, v, rate), 0.0, n + 8192);
    let s = spectrum(&force[8192..]);
    let power: Vec<f64> = s[..n / 2].iter().map(|c| c.norm_sqr()).collect();
    let total: f64 = power.iter().sum();
    let between: f64 = (1..n / 2)
        .filter(|i| !i.is_multiple_of(pulse_bins))
        .map(|i| power[i])
        .sum();
    let alias_db = 10.0 * (between / total).log10();
    println!("{alias_db:.1} dB between the harmonics at {v:.3} m/s");
    assert!(alias_db < -60.0, "{alias_db:.1} dB");
}
