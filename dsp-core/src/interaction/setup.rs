//! How contacts are computed (law, integrator, guard, damping, restitution), gravity on the striker, and what a patch prepares for its contacts.

use crate::analytic::ContactTimes;
use crate::contact::{ContactLaw, HertzDamper, HuntCrossley};
use crate::integrate::Method;
use crate::restitution::mu_for_restitution;

use super::MIN_STEPS_PER_CONTACT;

/// How contacts are computed; latched when a contact begins, so changes never reach a contact
/// under way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSetup {
    pub law: HuntCrossley,
    pub method: Method,
    /// The energy guard: no contact step may raise the total energy (striker, object, contact).
    pub guard: bool,
    /// The paper's exit correction (Section IV-A2) with the exact v_out of eq. (6): applied where
    /// eq. (6) holds, on a rigid object (no modes) with gravity suspended during contact.
    pub exit_correction: bool,
    /// How the contact dissipates.
    pub damping: Damping,
    /// A target coefficient of restitution: when set, each contact derives its damping from it and
    /// its own v_in (Hunt–Crossley μ by inverting eq. 6; the linear damper's c_opt, restitution
    /// paper eq. 49), replacing `law.mu_s_per_m` or the linear coefficient.
    pub restitution: Option<f64>,
}

/// How a contact dissipates energy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Damping {
    /// Hunt–Crossley, f = k·x^α·(1 + μ·v) with μ = `law.mu_s_per_m` (eq. 1).
    HuntCrossley,
    /// A Hertz spring and a linear damper, f = k·x^α + c·v, separating at zero force
    /// (restitution paper, eqs. 7 and 20); `law.mu_s_per_m` is not used.
    Linear { n_s_per_m: f64 },
}

impl ContactSetup {
    /// Hunt–Crossley contact with `law` and `method`, the guard and the exit correction on.
    pub fn hunt_crossley(law: HuntCrossley, method: Method) -> Self {
        Self {
            law,
            method,
            guard: true,
            exit_correction: true,
            damping: Damping::HuntCrossley,
            restitution: None,
        }
    }

    /// This contact made Hertz's between two materials: k·x^(3/2) with `stiffness` (N/m^1.5),
    /// Hunt–Crossley damping restituting `restitution` at each contact's own speed (eq. 6
    /// inverted); integrator, guard and correction kept.
    pub fn hertz(self, stiffness: f64, restitution: f64) -> Self {
        Self {
            law: HuntCrossley {
                stiffness,
                mu_s_per_m: 0.0,
                alpha: 1.5,
            },
            damping: Damping::HuntCrossley,
            restitution: Some(restitution),
            ..self
        }
    }

    /// The contact force in N at compression `x_m` and compression velocity `v_m_per_s`.
    #[inline]
    pub fn force_n(&self, x_m: f64, v_m_per_s: f64) -> f64 {
        match self.damping {
            Damping::HuntCrossley => self.law.force_n(x_m, v_m_per_s),
            Damping::Linear { n_s_per_m } => HertzDamper {
                stiffness: self.law.stiffness,
                damping_n_s_per_m: n_s_per_m,
                exponent: self.law.alpha,
            }
            .force_n(x_m, v_m_per_s),
        }
    }
}

/// Gravity on the hammer: the bouncing and the rolling ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gravity {
    /// Acceleration towards the object in m/s² (0: none, the plain strike).
    pub accel_m_per_s2: f64,
    /// Whether gravity also acts during contact (eq. 21, where no correction applies) or is
    /// suspended there, as the paper's corrections assume. Suspension applies only where the exact
    /// exit correction does (a rigid object, Hunt–Crossley, correction on); on a modal object
    /// gravity always acts in contact, since suspending it there is not passive.
    pub in_contact: bool,
    /// Impacts closing slower than this (m/s) do not separate: at the deepest compression the
    /// ball settles on the object (the capture velocity of the PLUS model, its Figure 2, below
    /// which the coefficient of restitution vanishes). 0 disables capture.
    pub capture_m_per_s: f64,
}

impl Gravity {
    /// No gravity: the hammer flies straight.
    pub const NONE: Gravity = Gravity {
        accel_m_per_s2: 0.0,
        in_contact: false,
        capture_m_per_s: 0.0,
    };
}

/// What a hammer's contacts need that depends only on the patch: computed once per patch, off
/// the audio thread, and handed to each note's hammer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPrep {
    /// Eq. (9) tabulated for the patch's contact shape α.
    pub times: ContactTimes,
    /// The patch's target restitution e and the μ·v_in that restitutes it (eq. 6 inverted: μ·v_in
    /// depends on e alone), or NaN for none.
    pub restitution: (f64, f64),
    /// Steps a struck hammer's predicted contact (eq. 9) is integrated with at least: its play
    /// mode's (see [`MIN_STEPS_PER_CONTACT`], which a body laid on the object keeps).
    pub steps_per_contact: f64,
}

impl Default for ContactPrep {
    /// Nothing prepared: every contact computes what it needs.
    fn default() -> Self {
        Self {
            times: ContactTimes::default(),
            restitution: (f64::NAN, f64::NAN),
            steps_per_contact: MIN_STEPS_PER_CONTACT,
        }
    }
}

impl ContactPrep {
    /// Become the preparation for `setup`, its impacts integrated with at least
    /// `steps_per_contact` steps, redoing only what its change needs: the table (a quadrature
    /// per point) when α changed, the root search when e changed.
    pub fn update(&mut self, setup: &ContactSetup, steps_per_contact: f64) {
        self.steps_per_contact = steps_per_contact;
        if self.times.alpha() != setup.law.alpha {
            self.times = ContactTimes::new(setup.law.alpha);
        }
        self.restitution = match (setup.restitution, setup.damping) {
            (Some(e), Damping::HuntCrossley) if e == self.restitution.0 => self.restitution,
            (Some(e), Damping::HuntCrossley) => (e, mu_for_restitution(e, 1.0)),
            _ => (f64::NAN, f64::NAN),
        };
    }
}
