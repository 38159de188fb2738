//! Friction experiments on the engine's own law and solve: a mode dragged by a belt (stick–slip) and steady sliding over a rigid surface.

use super::law::FrictionLaw;
use super::step::{Bristle, Slip};
use crate::radiation::Radiator;
use crate::resonator::{ModalBank, Mode, Slot};

/// A sample slips when the relative speed along the belt exceeds this fraction of the belt's (the
/// bristle's ringing as the mass sticks again swings it back and forth below that).
const SLIP_THRESHOLD: f64 = 0.002;
/// Slip onsets left out of a stick–slip's statistics while it settles (the first stick starts
/// from the spring at rest, not from the end of a slip).
const SETTLING_ONSETS: usize = 2;

/// One undamped mode (an object) pressed against a belt that moves at a constant speed, the
/// object at first carried along by it (stuck): an undamped mode started sliding instead would
/// slide on forever about its spring's kinetic balance whenever V > ω·µk·N/k, never sticking;
/// started stuck, it follows the stick–slip cycle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Belt {
    /// Modal mass, kg.
    pub mass_kg: f64,
    /// The mode's frequency, Hz.
    pub freq_hz: f64,
    pub normal_n: f64,
    pub law: FrictionLaw,
    pub belt_m_per_s: f64,
    pub sample_rate_hz: f64,
    pub seconds: f64,
}

/// What a stick–slip run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StickSlip {
    /// Mean period over the settled cycles, s (NaN: fewer than two settled slips).
    pub period_s: f64,
    /// Fraction of the settled cycles' time spent slipping.
    pub slip_fraction: f64,
    /// Settled cycles measured.
    pub cycles: usize,
    /// Mean and largest Newton iterations per step.
    pub newton_mean: f64,
    pub newton_max: u32,
    /// Samples run.
    pub samples: usize,
}

/// The push that sets the object going with the belt lasts this long, s (its displacement over
/// it, V·t/2, is nothing beside any spring's deflection).
const PUSH_S: f64 = 1e-9;

/// A bank of the one mode `belt` describes, undamped, its strike point its coordinate, moving
/// with the belt: pushed by an impulse M·V over [`PUSH_S`].
fn one_mode(belt: &Belt) -> Box<ModalBank> {
    let mut bank = ModalBank::new(belt.mass_kg);
    let mode = Mode {
        freq_hz: belt.freq_hz,
        t60_s: 1e12,
        strike_shape: 1.0,
        pickup_shape: 0.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::SILENT,
    };
    bank.set_modes(&[mode], belt.sample_rate_hz);
    bank.prepare(Slot::OneOff, PUSH_S);
    bank.advance(Slot::OneOff, belt.mass_kg * belt.belt_m_per_s / PUSH_S);
    bank
}

/// One step of an object `bank` dragged by a slider that travels `drive_m` over the step: the
/// friction force held on the object's contact point over the step. Returns the step.
pub fn drag_step(
    bristle: &mut Bristle,
    law: &FrictionLaw,
    normal_n: f64,
    bank: &mut ModalBank,
    drive_m: f64,
    dt_s: f64,
) -> super::step::FrictionStep {
    let free_m = bank.predict_free(Slot::Full);
    let slip = Slip {
        free_m: drive_m - (free_m - bank.strike_displacement_m()),
        compliance_m_per_n: bank.compliance(Slot::Full).0,
    };
    let step = bristle.step(law, normal_n, slip, dt_s);
    bank.advance(Slot::Full, step.force_n);
    step
}

/// Drag the mode with the belt for `belt.seconds` and measure the stick–slip cycles: a slip
/// begins when the relative speed along the belt rises past 0.2 % of the belt's. `each` sees every sample's
/// relative speed (m/s) and friction force (N).
pub fn stick_slip(belt: &Belt, mut each: impl FnMut(f64, f64)) -> StickSlip {
    let law = belt.law.clamped();
    let mut bank = one_mode(belt);
    let mut bristle = Bristle::new();
    let dt = 1.0 / belt.sample_rate_hz;
    let samples = (belt.seconds * belt.sample_rate_hz).max(0.0) as usize;
    let mut slipping = false;
    let (mut onsets, mut first_onset, mut last_onset) = (0usize, 0usize, 0usize);
    let (mut slip_samples, mut slip_at_last_onset) = (0usize, 0usize);
    for n in 0..samples {
        let step = drag_step(
            &mut bristle,
            &law,
            belt.normal_n,
            &mut bank,
            belt.belt_m_per_s * dt,
            dt,
        );
        each(step.slip_m_per_s, step.force_n);
        let now = step.slip_m_per_s * belt.belt_m_per_s.signum()
            > SLIP_THRESHOLD * belt.belt_m_per_s.abs();
        if now && !slipping {
            onsets += 1;
            if onsets == SETTLING_ONSETS + 1 {
                first_onset = n;
                slip_samples = 0;
            }
            last_onset = n;
            slip_at_last_onset = slip_samples;
        }
        slipping = now;
        slip_samples += usize::from(now);
    }
    let cycles = onsets.saturating_sub(SETTLING_ONSETS + 1);
    let span = (last_onset - first_onset) as f64;
    StickSlip {
        period_s: if cycles > 0 {
            span * dt / cycles as f64
        } else {
            f64::NAN
        },
        slip_fraction: if cycles > 0 {
            slip_at_last_onset as f64 / span
        } else {
            f64::NAN
        },
        cycles,
        newton_mean: bristle.iterations_sum as f64 / bristle.steps.max(1) as f64,
        newton_max: bristle.iterations_max,
        samples,
    }
}

/// The force of steady sliding at `v_m_per_s` over a rigid surface, N, found by sliding from a
/// relaxed bristle at the sample rate until the force has settled to a relative 10⁻⁸; `None` if
/// it has not within `max_samples`. Once sliding, the bristle's remaining deflection
/// z_ss − z shrinks each step by at least a·(z_ss − z)/z_ss (a = |v|·dt: 1 − α(w)·w ≥ 1 − w), so
/// the force still to come is at most its last change times z_ss/a.
pub fn steady_sliding(
    law: &FrictionLaw,
    normal_n: f64,
    v_m_per_s: f64,
    sample_rate_hz: f64,
    max_samples: usize,
) -> Option<f64> {
    let law = law.clamped();
    let dt = 1.0 / sample_rate_hz;
    let slip = Slip {
        free_m: v_m_per_s * dt,
        compliance_m_per_n: 0.0,
    };
    let z_ss = law.stribeck_n(normal_n, v_m_per_s) / law.bristle_stiffness_n_per_m;
    let steps_per_e_fold = z_ss / (v_m_per_s.abs() * dt);
    let mut bristle = Bristle::new();
    let mut force = 0.0f64;
    for _ in 0..max_samples {
        let next = bristle.step(&law, normal_n, slip, dt).force_n;
        let change = (next - force).abs();
        force = next;
        if change * steps_per_e_fold <= 1e-8 * force.abs() {
            return Some(force);
        }
    }
    None
}
