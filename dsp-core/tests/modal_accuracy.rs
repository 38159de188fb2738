//! A struck object sounds at its table frequencies (within 0.5%) and decays at its table T60s
//! (within 5%), measured on the engine's output like a listener would.

use rustfft::{num_complex::Complex, FftPlanner};
use urto_dsp::resonator::{object_modes, Mode, ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::voice::{Engine, Patch, Tuning};

const FS: f64 = 48_000.0;

fn strike(patch: &Patch, seconds: f64) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    engine.note_on(patch, 57, 0.8);
    let mut out = vec![0.0; (seconds * FS) as usize];
    for chunk in out.chunks_mut(512) {
        engine.process(patch, chunk);
    }
    out
}

fn table(patch: &Patch) -> Vec<Mode> {
    let spec = ObjectSpec {
        f0_hz: patch.tuning.f0_hz(57),
        ..patch.object
    };
    let mut modes = [Mode::SILENT; MAX_MODES];
    let n = object_modes(&spec, patch.object_radiating_size_m(), &mut modes);
    modes[..n].to_vec()
}

/// |Σ x[n]·e^(−iωn)| over `x` with a Hann window (one DFT bin at any frequency).
fn magnitude_at(x: &[f32], freq_hz: f64) -> f64 {
    let n = x.len() as f64;
    let (mut re, mut im) = (0.0, 0.0);
    for (i, &s) in x.iter().enumerate() {
        let w = 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n).cos();
        let phase = std::f64::consts::TAU * freq_hz * i as f64 / FS;
        re += f64::from(s) * w * phase.cos();
        im -= f64::from(s) * w * phase.sin();
    }
    re.hypot(im)
}

fn patch(kind: ObjectKind) -> Patch {
    let mut patch = Patch::default();
    patch.object = ObjectSpec {
        kind,
        num_modes: 6,
        t60_s: 2.0,
        damping_slope: 0.5,
        strike_position: 0.13,
        pickup_position: 0.07,
        ..patch.object
    };
    patch.tuning = Tuning {
        key_tracking: true,
        a4_hz: 440.0,
        fixed_f0_hz: 440.0,
    };
    patch
}

#[test]
fn spectral_peaks_sit_at_the_table_frequencies() {
    for kind in [
        ObjectKind::MarimbaBar,
        ObjectKind::Membrane,
        ObjectKind::Bell,
    ] {
        let patch = patch(kind);
        let out = strike(&patch, 3.0);
        // Zero-padded spectrum: 2^20 points at 48 kHz is 0.046 Hz per bin.
        let size = 1 << 20;
        let n = out.len();
        let mut buffer: Vec<Complex<f64>> = (0..size)
            .map(|i| {
                let s = out.get(i).map_or(0.0, |&s| f64::from(s));
                let w = if i < n {
                    0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n as f64).cos()
                } else {
                    0.0
                };
                Complex::new(s * w, 0.0)
            })
            .collect();
        FftPlanner::new()
            .plan_fft_forward(size)
            .process(&mut buffer);
        let bin_hz = FS / size as f64;
        for mode in table(&patch)
            .iter()
            .filter(|m| m.strike_shape.abs() > 0.05 && m.pickup_shape.abs() > 0.05)
        {
            // The strongest bin within ±3% of the table frequency.
            let lo = ((mode.freq_hz * 0.97) / bin_hz) as usize;
            let hi = ((mode.freq_hz * 1.03) / bin_hz) as usize;
            let k = (lo..=hi)
                .max_by(|&a, &b| buffer[a].norm().total_cmp(&buffer[b].norm()))
                .unwrap_or(lo);
            let peak_hz = k as f64 * bin_hz;
            let error = (peak_hz / mode.freq_hz - 1.0).abs();
            assert!(
                error < 0.005,
                "{kind:?}: peak {peak_hz:.2} Hz for mode at {:.2} Hz",
                mode.freq_hz
            );
        }
    }
}

#[test]
fn modes_decay_at_their_table_t60() {
    let patch = patch(ObjectKind::MarimbaBar);
    let out = strike(&patch, 4.0);
    for mode in table(&patch).iter().take(3) {
        // Two windows a third of a T60 apart (20 dB of decay), starting after the strike.
        let window = 4096;
        let t1 = 0.2;
        let gap = mode.t60_s / 3.0;
        let at = |t: f64| {
            let start = (t * FS) as usize;
            magnitude_at(&out[start..start + window], mode.freq_hz)
        };
        let decay_db = 20.0 * (at(t1) / at(t1 + gap)).log10();
        let t60 = 60.0 * gap / decay_db;
        assert!(
            (t60 / mode.t60_s - 1.0).abs() < 0.05,
            "mode {:.1} Hz: T60 {t60:.3} s, table {:.3} s",
            mode.freq_hz,
            mode.t60_s
        );
    }
}
