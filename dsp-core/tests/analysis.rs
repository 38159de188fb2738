//! The modal analysis against synthetic strikes whose modes the generator knows, with the Cramér–Rao bound.

use std::f64::consts::PI;
use urto_dsp::analysis::{analyse, Mode, Options, Recording};

/// One generated mode: x(t) = A·e^{−t·ln 1000/T60}·cos(2πft + φ) from t = 0.
#[derive(Clone, Copy, Debug)]
struct Truth {
    frequency_hz: f64,
    t60_s: f64,
    amplitude: f64,
    phase_rad: f64,
}

impl Truth {
    fn decay_per_s(&self) -> f64 {
        1000f64.ln() / self.t60_s
    }
}

/// The strike: the modes summed from sample 0, plus white Gaussian noise of standard deviation σ.
fn generate(modes: &[Truth], fs: f64, seconds: f64, sigma: f64, seed: u64) -> Vec<f64> {
    let n = (seconds * fs) as usize;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut x: Vec<f64> = (0..n).map(|_| sigma * gaussian(&mut rng)).collect();
    for m in modes {
        for (i, v) in x.iter_mut().enumerate() {
            let t = i as f64 / fs;
            let envelope = m.amplitude * (-m.decay_per_s() * t).exp();
            if envelope < 1e-12 {
                break;
            }
            *v += envelope * (2.0 * PI * m.frequency_hz * t + m.phase_rad).cos();
        }
    }
    x
}

/// A standard normal draw (Box–Muller).
fn gaussian(rng: &mut fastrand::Rng) -> f64 {
    let u = rng.f64().max(1e-300);
    let v = rng.f64();
    (-2.0 * u.ln()).sqrt() * (2.0 * PI * v).cos()
}

/// The Cramér–Rao bound of one mode's frequency (Hz) and decay (1/s), alone in white noise σ²:
/// the inverse of the Fisher information Σₙ ∂s/∂θᵢ·∂s/∂θⱼ/σ² over (A, φ, ω, δ), summed here
/// sample by sample over the generated length.
fn cramer_rao(m: &Truth, fs: f64, n: usize, sigma: f64) -> (f64, f64) {
    let mut fisher = [[0.0f64; 4]; 4];
    let omega = 2.0 * PI * m.frequency_hz / fs;
    let delta = m.decay_per_s() / fs;
    for i in 0..n {
        let t = i as f64;
        let e = (-delta * t).exp();
        if e < 1e-10 {
            break;
        }
        let (sin, cos) = (omega * t + m.phase_rad).sin_cos();
        let a = m.amplitude;
        let grad = [e * cos, -a * e * sin, -a * e * t * sin, -a * t * e * cos];
        for r in 0..4 {
            for c in 0..4 {
                fisher[r][c] += grad[r] * grad[c] / (sigma * sigma);
            }
        }
    }
    let inverse = invert4(fisher);
    let sd_omega = inverse[2][2].sqrt();
    let sd_delta = inverse[3][3].sqrt();
    (sd_omega * fs / (2.0 * PI), sd_delta * fs)
}

/// A 4 × 4 inverse by Gauss–Jordan elimination with partial pivoting.
fn invert4(m: [[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let mut a = m;
    let mut inv = [[0.0; 4]; 4];
    for (i, row) in inv.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for j in 0..4 {
            a[col][j] /= p;
            inv[col][j] /= p;
        }
        for r in 0..4 {
            if r != col {
                let f = a[r][col];
                for j in 0..4 {
                    a[r][j] -= f * a[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    inv
}

fn nearest<'a>(modes: &'a [Mode], frequency_hz: f64) -> Option<&'a Mode> {
    modes.iter().min_by(|a, b| {
        (a.frequency_hz - frequency_hz)
            .abs()
            .total_cmp(&(b.frequency_hz - frequency_hz).abs())
    })
}

#[test]
fn three_modes_smoke() {
    let fs = 48000.0;
    let truth = [
        Truth {
            frequency_hz: 440.0,
            t60_s: 2.0,
            amplitude: 0.5,
            phase_rad: 0.3,
        },
        Truth {
            frequency_hz: 1213.0,
            t60_s: 0.5,
            amplitude: 0.2,
            phase_rad: -1.0,
        },
        Truth {
            frequency_hz: 5003.0,
            t60_s: 0.05,
            amplitude: 0.1,
            phase_rad: 2.0,
        },
    ];
    let sigma = 0.5 * 10f64.powf(-50.0 / 20.0) / 2f64.sqrt();
    let x = generate(&truth, fs, 3.0, sigma, 1);
    let analysis = analyse(
        &Recording {
            samples: x.clone(),
            sample_rate_hz: fs,
        },
        &Options::default(),
    )
    .unwrap();
    eprintln!(
        "onset {} noise {:.1} residual {:.1}",
        analysis.onset_s, analysis.noise_floor_db, analysis.residual_db
    );
    for m in &analysis.modes {
        eprintln!(
            "{:10.4} Hz  T60 {:8.4}  A {:.5}  φ {:6.3}  {:6.1} dB noise {:6.1}",
            m.frequency_hz, m.t60_s, m.amplitude, m.phase_rad, m.level_db, m.noise_db
        );
    }
    for t in &truth {
        let m = nearest(&analysis.modes, t.frequency_hz).unwrap();
        let (sf, sd) = cramer_rao(t, fs, x.len(), sigma);
        eprintln!(
            "truth {:.3}: df {:.2e} Hz (crb {:.2e}) dT60 {:.3}% dA {:.3} dB",
            t.frequency_hz,
            m.frequency_hz - t.frequency_hz,
            sf,
            100.0 * (m.t60_s / t.t60_s - 1.0),
            20.0 * (m.amplitude / t.amplitude).log10()
        );
        let _ = sd;
    }
}
