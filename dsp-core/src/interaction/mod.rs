//! The hammer: a point mass striking the modal object through the contact law, velocity Verlet.

use crate::analytic::x_max_m;
use crate::contact::{ContactLaw, HuntCrossley};
use crate::resonator::ModalBank;

/// Upper bound on sub-steps per sample during a contact.
pub const MAX_SUBSTEPS: usize = 256;

/// Phase advance in radians of the linearised contact oscillation per (sub-)step. 0.25 rad puts
/// about π/0.25 ≈ 12 steps in a contact, where velocity Verlet's exit-velocity error is a few
/// per cent at most (Papetti et al., Table II).
const CONTACT_PHASE_PER_STEP_RAD: f64 = 0.25;

/// Once the hammer has left the surface and is this far away (m) and still receding, it can no
/// longer touch the object and is no longer integrated.
const RETIRE_GAP_M: f64 = 0.01;

/// A point-mass hammer that strikes a [`ModalBank`] through Hunt–Crossley (eq. 1).
///
/// Positions are along the strike axis, positive towards the object. The compression is
/// x = hammer position − object surface displacement at the strike point. The contact law is
/// latched when a contact begins, so parameter changes never inject energy into a contact under way.
pub struct Hammer {
    mass_kg: f64,
    position_m: f64,
    velocity_m_per_s: f64,
    /// Contact force of the last step, reused by the next Verlet step (Papetti et al., eq. 24).
    force_n: f64,
    law: HuntCrossley,
    /// Sub-steps per sample of the contact under way; `None` while free.
    contact_sub_steps: Option<usize>,
    retired: bool,
}

impl Hammer {
    /// A hammer of `mass_kg` at rest, out of reach of the object.
    pub fn new(mass_kg: f64, law: HuntCrossley) -> Self {
        Self {
            mass_kg,
            position_m: 0.0,
            velocity_m_per_s: 0.0,
            force_n: 0.0,
            law,
            contact_sub_steps: None,
            retired: true,
        }
    }

    /// Launch the hammer from the object's surface (x = 0) with closing speed `v_in_m_per_s`,
    /// as the paper starts an impact (Section II-A: x(0) = 0, ẋ(0) = v_in).
    pub fn strike(&mut self, bank: &ModalBank, v_in_m_per_s: f64) {
        self.position_m = bank.strike_displacement_m();
        self.velocity_m_per_s = v_in_m_per_s + bank.strike_velocity_m_per_s();
        self.force_n = 0.0;
        self.contact_sub_steps = None;
        self.retired = false;
    }

    /// Stop the hammer where it is (the voice is being reset).
    pub fn retire(&mut self) {
        self.retired = true;
        self.force_n = 0.0;
        self.contact_sub_steps = None;
    }

    /// Advance hammer and object by one sample of `dt_s`; `law` is the contact law to latch if a
    /// contact begins during this sample. Not for a retired hammer (see [`Hammer::is_retired`]).
    #[inline]
    pub fn step(&mut self, law: &HuntCrossley, bank: &mut ModalBank, dt_s: f64) {
        debug_assert!(
            !self.retired,
            "a retired hammer is not stepped; ring the bank instead"
        );
        let x = self.position_m - bank.strike_displacement_m();
        let v = self.velocity_m_per_s - bank.strike_velocity_m_per_s();
        if self.contact_sub_steps.is_none() && x + dt_s * v > 0.0 {
            self.law = *law;
            let n = self.sub_steps_for(bank, v, dt_s);
            bank.prepare_sub_steps(n, dt_s);
            self.contact_sub_steps = Some(n);
        }
        match self.contact_sub_steps {
            Some(n) => {
                let h = dt_s / n as f64;
                for _ in 0..n {
                    self.verlet_step(bank, h, ModalBank::sub_step);
                }
                let x = self.position_m - bank.strike_displacement_m();
                let v = self.velocity_m_per_s - bank.strike_velocity_m_per_s();
                if x <= 0.0 && v < 0.0 {
                    self.contact_sub_steps = None;
                }
            }
            None => {
                self.verlet_step(bank, dt_s, ModalBank::step);
                if x < -RETIRE_GAP_M && v < 0.0 {
                    self.retire();
                }
            }
        }
    }

    /// One velocity-Verlet step of length `h` (Papetti et al., eq. 24, with m·a = −f): the hammer
    /// moves under the cached force f_n, the object advances under its reaction, then the force at
    /// the new compression corrects the velocity.
    ///
    /// The corrector is solved for v_{n+1} rather than evaluated at the predicted velocity: at
    /// fixed x the force k·x^α·(1 + μ·v) is affine in v, so v_{n+1} = v½ − h/(2m)·f(x, v_{n+1})
    /// has a closed-form solution. This keeps the damper stable for any μ (the explicit predictor
    /// of eq. 24 diverges once h·k·μ·x^α/m exceeds about 2) at no extra cost.
    #[inline]
    fn verlet_step(&mut self, bank: &mut ModalBank, h: f64, advance: fn(&mut ModalBank, f64)) {
        let half_h_over_m = 0.5 * h / self.mass_kg;
        let v_half = self.velocity_m_per_s - half_h_over_m * self.force_n;
        self.position_m += h * v_half;
        advance(bank, self.force_n);
        let x = self.position_m - bank.strike_displacement_m();
        let surface_v = bank.strike_velocity_m_per_s();
        // Relative velocity after the step: v = v½ − s − g·(1 + μ·v) with g = h/(2m)·k·x^α.
        let g = half_h_over_m * self.law.force_n(x, 0.0);
        let v_rel = (v_half - surface_v - g) / (1.0 + g * self.law.mu_s_per_m);
        self.force_n = self.law.force_n(x, v_rel);
        self.velocity_m_per_s = v_half - half_h_over_m * self.force_n;
    }

    /// Sub-steps per sample for a contact beginning at closing speed `v_m_per_s`: the elastic
    /// slope at the rigid-wall maximum compression (eq. 4) and the reduced mass of hammer and
    /// object give a contact frequency ω; enough steps keep ω·h at [`CONTACT_PHASE_PER_STEP_RAD`].
    fn sub_steps_for(&self, bank: &ModalBank, v_m_per_s: f64, dt_s: f64) -> usize {
        let m = self.mass_kg;
        let reduced_mass_kg = m * bank.mass_kg() / (m + bank.mass_kg());
        let law = &self.law;
        let x_max = x_max_m(
            law.stiffness,
            law.mu_s_per_m,
            law.alpha,
            m,
            v_m_per_s.abs().max(1e-6),
        );
        let omega = (law.elastic_slope_n_per_m(x_max) / reduced_mass_kg).sqrt();
        let n = (omega * dt_s / CONTACT_PHASE_PER_STEP_RAD).ceil();
        if n.is_finite() {
            (n as usize).clamp(1, MAX_SUBSTEPS)
        } else {
            MAX_SUBSTEPS
        }
    }

    /// Kinetic energy in joules.
    pub fn energy_j(&self) -> f64 {
        0.5 * self.mass_kg * self.velocity_m_per_s * self.velocity_m_per_s
    }

    /// Whether the hammer is in a contact.
    pub fn in_contact(&self) -> bool {
        self.contact_sub_steps.is_some()
    }

    /// Whether the hammer is out of reach and no longer integrated.
    pub fn is_retired(&self) -> bool {
        self.retired
    }

    /// Whether every state variable is finite.
    pub fn is_finite(&self) -> bool {
        self.position_m.is_finite() && self.velocity_m_per_s.is_finite() && self.force_n.is_finite()
    }
}
