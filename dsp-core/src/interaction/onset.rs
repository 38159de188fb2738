//! A contact's life in the hammer: its onset between samples, the damping that restitutes a target e, the sub-steps that resolve it, its end and the paper's exit correction.

use super::{
    potential_j, scaled_stiffness, Contact, ContactSetup, Damping, Hammer, Settle,
    LAID_ON_SPEED_M_PER_S, MAX_SUBSTEPS, MAX_WELL_FRACTION_OF_FS, MIN_STEPS_PER_CONTACT,
    RESTING_STEPS_PER_HALF_PERIOD,
};
use crate::analytic::Impact;
use crate::integrate::Method;
use crate::resonator::{ModalBank, Slot};
use crate::restitution::{c_opt_n_s_per_m, mu_for_restitution};

impl Hammer {
    /// A contact begins within this sample: onset at θ·dt, where the compression, interpolated
    /// linearly from `x` now to `x_end` (free motion), crosses zero; free flight up to it, then the
    /// rest of the sample in sub-steps.
    pub(super) fn begin_contact(
        &mut self,
        setup: &ContactSetup,
        bank: &mut ModalBank,
        x: f64,
        x_end: f64,
        dt_s: f64,
    ) {
        self.setup = *setup;
        self.setup.law.stiffness = scaled_stiffness(setup.law.stiffness, self.stiffness_scale);
        if self.irregularity > 0.0 {
            let xi = 2.0 * self.rng.f64() - 1.0;
            self.setup.law.stiffness *= (1.0 + self.irregularity * xi).max(0.0).sqrt().max(1e-3);
        }
        self.free_prediction = None;
        let theta = if x < 0.0 {
            (x / (x - x_end)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        if theta > 0.0 {
            let t = theta * dt_s;
            bank.prepare(Slot::OneOff, t);
            self.striker.prepare(Slot::OneOff, t);
            let g = self.pull_m_per_s2();
            self.position_m += t * (self.velocity_m_per_s + 0.5 * g * t);
            self.velocity_m_per_s += g * t;
            bank.advance(Slot::OneOff, 0.0);
            self.striker.advance(Slot::OneOff, 0.0);
        }
        // The interpolated onset may overshoot by a hair (the surfaces move on curves): start the
        // contact at x = 0 rather than create potential energy no force has paid for. A body laid
        // in contact (x > 0 before the sample: `place`) keeps its compression.
        self.surface = bank.surface();
        self.striker_surface = self.striker.surface();
        let (w, w_dot) = self.contact_point();
        let overshoot_m = self.position_m - w;
        if x < 0.0 && overshoot_m > 0.0 {
            self.position_m -= overshoot_m;
        }
        let v_in = (self.velocity_m_per_s - w_dot).max(1e-9);
        let damping_speed_m_per_s = if self.laid_on {
            LAID_ON_SPEED_M_PER_S
        } else {
            v_in
        };
        self.damp_for(bank, damping_speed_m_per_s);
        let (sub_steps, resolved, settle) = self.sub_steps_for(bank, v_in, dt_s);
        if !resolved {
            // Stepped coarser than its ringing (ω·h up to π/16 at the cap, far beyond it
            // above), a contact takes the A-stable trapezoid rule: Verlet diverges once
            // ω·h > 2, RK4 beyond 2.83, and Heun grows at any ω·h.
            self.setup.method = Method::Am1;
        }
        bank.prepare(Slot::Sub, dt_s / sub_steps as f64);
        self.striker.prepare(Slot::Sub, dt_s / sub_steps as f64);
        let capture = v_in < self.gravity.capture_m_per_s;
        // Gravity is suspended only where the paper's exact exit correction then applies (a rigid
        // object, Hunt–Crossley): on a vibrating object the ball leaves from another height than
        // it arrived at, and a contact without gravity's work would pump energy into the rattle.
        let suspend = !self.gravity.in_contact
            && self.setup.exit_correction
            && self.setup.damping == Damping::HuntCrossley
            && self.is_rigid_pair(bank);
        let gravity_m_per_s2 = if suspend {
            0.0
        } else {
            self.gravity.accel_m_per_s2
        };
        self.contact = Some(Contact {
            sub_steps,
            settle,
            energy_j: 0.0,
            v_in_m_per_s: v_in,
            gravity_m_per_s2,
            capture,
            elapsed_s: 0.0,
        });
        if self.tracing {
            let onset_s = (self.samples_since_strike as f64 - 1.0 + theta) * dt_s;
            self.trace.onset(onset_s);
            if self.contacts == 0 {
                self.trace.begin(self.setup.law, self.mass_kg, v_in, dt_s);
            }
        }
        self.rebase_energy(bank);
        self.stats.substeps = self.stats.substeps.max(sub_steps);
        self.stats.onsets += 1;
        self.stats.last_onset_fraction = theta;
        self.stats.last_v_in_m_per_s = v_in;
        if self.rest_of_sample(bank, theta, sub_steps, capture, dt_s) {
            return;
        }
        self.end_contact_if_separated(bank);
    }

    /// With a target restitution, the damping that restitutes it at `v_in` (the contact's own, or
    /// [`LAID_ON_SPEED_M_PER_S`] for a body laid on): μ by
    /// eq. (6) inverted (from the prepared table when it is for this e), or the linear damper's
    /// c_opt (restitution paper, eq. 49) at the reduced mass.
    fn damp_for(&mut self, bank: &ModalBank, v_in: f64) {
        let Some(e) = self.setup.restitution else {
            return;
        };
        let law = self.setup.law;
        match self.setup.damping {
            Damping::HuntCrossley => self.setup.law.mu_s_per_m = self.mu_for(e, v_in),
            Damping::Linear { .. } => {
                let mass_kg = self.reduced_mass_kg(bank);
                let n_s_per_m = c_opt_n_s_per_m(e, law.stiffness, law.alpha, mass_kg, v_in);
                self.setup.damping = Damping::Linear { n_s_per_m };
            }
        }
    }

    /// Hunt–Crossley μ (s/m) restituting `e` at `v_in` (eq. 6 inverted: μ·v_in depends on e
    /// alone; from the prepared table when it is for this e, else from the last e met, else
    /// searched and kept).
    pub(super) fn mu_for(&mut self, e: f64, v_in: f64) -> f64 {
        let (prepared_e, mu_v_in) = self.prep.restitution;
        if e == prepared_e {
            return mu_v_in / v_in;
        }
        if e != self.restituted.0 {
            self.restituted = (e, mu_for_restitution(e, 1.0));
        }
        self.restituted.1 / v_in
    }

    /// The rest of the onset's sample after θ·dt, in the contact's sub-steps; whether the ball
    /// was captured on the way (it then rests and the contact is over).
    fn rest_of_sample(
        &mut self,
        bank: &mut ModalBank,
        theta: f64,
        sub_steps: usize,
        capture: bool,
        dt_s: f64,
    ) -> bool {
        // The rest of this sample, (1 − θ)·dt, in the same number of (shorter) steps.
        // With the onset on the sample (θ = 0, every strike) those steps are the sub-steps.
        let h_first = (1.0 - theta) * dt_s / sub_steps as f64;
        let first_slot = if theta == 0.0 {
            Slot::Sub
        } else {
            Slot::OneOff
        };
        if h_first > 0.0 {
            if first_slot == Slot::OneOff {
                bank.prepare(Slot::OneOff, h_first);
                self.striker.prepare(Slot::OneOff, h_first);
            }
            for _ in 0..sub_steps {
                self.contact_step(bank, first_slot, h_first);
                if capture && self.settle_if_captured(bank) {
                    return true;
                }
            }
        }
        false
    }

    /// Sub-steps per sample so the contact predicted by eq. (9) for a rigid wall, with the reduced
    /// mass of hammer and object, spans at least the prepared steps per contact
    /// ([`MIN_STEPS_PER_CONTACT`] unless the play mode sets its own; always for a body laid on
    /// the object); and whether the
    /// contact is resolved. A body held in the contact's potential well (resting, rolling,
    /// pressed: gravity in contact) rings there at ω² = k·α·x̄^(α−1)/m, which a stiff light body
    /// puts in the megahertz: nothing of it is heard but its mean force and what it makes of the
    /// sound below half the sample rate, so the well is resolved up to [`MAX_WELL_FRACTION_OF_FS`]
    /// of the sample rate and no finer (at most 15 sub-steps, not 256 for as long as it lies
    /// there), with the A-stable trapezoid rule; so are its landings after a hop. A landing
    /// stepped finer than its well also gets the well's count, for once it is over ([`Settle`]).
    fn sub_steps_for(
        &self,
        bank: &ModalBank,
        v_in_m_per_s: f64,
        dt_s: f64,
    ) -> (usize, bool, Option<Settle>) {
        let m = self.mass_kg;
        let law = self.setup.law;
        let steps = |per: f64, contact_s: f64| {
            let n = (per * dt_s / contact_s).ceil();
            if n.is_finite() {
                (n as usize).clamp(1, MAX_SUBSTEPS)
            } else {
                MAX_SUBSTEPS
            }
        };
        // The count that resolves ringing up to MAX_WELL_FRACTION_OF_FS, for a body held in a
        // well that rings above it; (count, resolved) with it applied.
        let mut cap = None;
        let limited = |count: usize, cap: Option<usize>| match cap {
            Some(most) => (count.min(most), false),
            None => (count, true),
        };
        let mut well_s = f64::INFINITY;
        if self.gravity.in_contact && self.gravity.accel_m_per_s2 > 0.0 {
            // A contact under gravity may never end (resting, rolling): resolve half a period of
            // the ball bouncing in the contact's potential well at its static compression x̄,
            // π/ω with ω² = k·α·x̄^(α−1)/m. An impact no faster than that bouncing (v_in ≤ ω·x̄)
            // stays in the well, so eq. (9) is not needed. A well ringing above the cap caps its
            // landings too: for α ≥ 1 a faster impact is a stiffer, shorter one.
            let x_eq = (m * self.gravity.accel_m_per_s2 / law.stiffness).powf(1.0 / law.alpha);
            let omega = (law.stiffness * law.alpha * law.x_pow_alpha_minus_one(x_eq) / m).sqrt();
            let audible_omega = 2.0 * std::f64::consts::PI * MAX_WELL_FRACTION_OF_FS / dt_s;
            well_s = std::f64::consts::PI / omega;
            if omega > audible_omega {
                let audible_s = std::f64::consts::PI / audible_omega;
                cap = Some(steps(RESTING_STEPS_PER_HALF_PERIOD, audible_s));
            }
            if v_in_m_per_s <= omega * x_eq {
                let (count, resolved) = limited(steps(RESTING_STEPS_PER_HALF_PERIOD, well_s), cap);
                return (count, resolved, None);
            }
        }
        // A linear damper is timed as the undamped Hertz contact.
        let mu_s_per_m = match self.setup.damping {
            Damping::HuntCrossley => law.mu_s_per_m,
            Damping::Linear { .. } => 0.0,
        };
        let impact = Impact {
            stiffness: law.stiffness,
            mu_s_per_m,
            alpha: law.alpha,
            mass_kg: self.reduced_mass_kg(bank),
            v_in_m_per_s,
        };
        let contact_s = self.prep.times.contact_time_s(&impact);
        // A sustained contact: the trapezoid rule's phase error is (ωh)²/12, 0.4% with
        // RESTING_STEPS_PER_HALF_PERIOD steps.
        let (in_well, resolved) = limited(steps(RESTING_STEPS_PER_HALF_PERIOD, well_s), cap);
        if well_s < contact_s {
            return (in_well, resolved, None);
        }
        // Under the same cap as the well's count, so resolved alike. A body laid on the object
        // (a drop's lasting contact) has no trials to fit its landings: the default count.
        let per_contact = if self.laid_on {
            MIN_STEPS_PER_CONTACT
        } else {
            self.prep.steps_per_contact
        };
        let (count, resolved) = limited(steps(per_contact, contact_s), cap);
        let settle = (well_s.is_finite() && in_well < count).then_some(Settle {
            after_s: contact_s,
            sub_steps: in_well,
        });
        (count, resolved, settle)
    }

    /// A landing still in contact after its predicted length and bound in its well ([`Settle`])
    /// rests or rolls there: from the next sample it is stepped at the well's count, not the
    /// landing's.
    pub(super) fn settle_into_the_well(&mut self, bank: &mut ModalBank, dt_s: f64) {
        let Some(contact) = self.contact else {
            return;
        };
        let Some(settle) = contact.settle else {
            return;
        };
        if !(contact.elapsed_s >= settle.after_s && self.is_bound()) {
            return;
        }
        self.contact = Some(Contact {
            settle: None,
            sub_steps: settle.sub_steps,
            ..contact
        });
        let h = dt_s / settle.sub_steps as f64;
        bank.prepare(Slot::Sub, h);
        self.striker.prepare(Slot::Sub, h);
        self.free_prediction = None;
        self.force_before_n = [self.force_n; 2];
    }

    /// Whether the body cannot reach x = 0 under its load as it is: ½m·v² + V(x) − m·(g + a)·x < 0
    /// (V the contact's potential, g gravity in contact, a the track's press), so without the
    /// object's motion it no longer leaves, and it sinks no deeper than (α + 1)^(1/α)·x̄.
    fn is_bound(&self) -> bool {
        let (w, w_dot) = self.contact_point();
        let (x, v) = (self.position_m - w, self.velocity_m_per_s - w_dot);
        let load_m_per_s2 = self.pull_m_per_s2();
        let energy_j = 0.5 * self.mass_kg * v * v + potential_j(&self.setup.law, x)
            - self.mass_kg * load_m_per_s2 * x;
        energy_j < 0.0
    }

    /// Whether neither body has modes: the paper's mass–wall impact, where eq. (6) holds.
    fn is_rigid_pair(&self, bank: &ModalBank) -> bool {
        bank.num_modes() == 0 && self.striker.num_modes() == 0
    }

    /// Reduced mass of hammer and object, kg.
    fn reduced_mass_kg(&self, bank: &ModalBank) -> f64 {
        let (m, object_kg) = (self.mass_kg, bank.mass_kg());
        m * object_kg / (m + object_kg)
    }

    pub(super) fn end_contact_if_separated(&mut self, bank: &ModalBank) {
        let (w, w_dot) = self.contact_point();
        let x = self.position_m - w;
        let mut v = self.velocity_m_per_s - w_dot;
        if self.contacts == 0 {
            self.stats.contact_samples += 1;
        }
        if x <= 0.0 && v < 0.0 {
            if let Some(contact) = self.contact {
                if self.setup.exit_correction
                    && self.setup.damping == Damping::HuntCrossley
                    && self.is_rigid_pair(bank)
                    && contact.gravity_m_per_s2 == 0.0
                {
                    v = self.correct_exit(&contact, x, v);
                }
            }
            if self.contacts == 0 {
                self.stats.v_out_m_per_s = v;
                if self.tracing {
                    let (samples, substeps) = (self.stats.contact_samples, self.stats.substeps);
                    self.trace.end(v, samples, substeps);
                }
            }
            self.contacts += 1;
            self.contact = None;
            self.force_n = 0.0;
            self.force_before_n = [0.0; 2];
            self.take_reach(bank);
        }
    }

    /// The paper's exit correction (Section IV-A2) for a rigid pair: the contact ends with the
    /// exact v_out of eq. (6) for its v_in, at the instant the compression crossed zero, found by
    /// linear interpolation within the last step (compression `x` ≤ 0, velocity `v` < 0 now);
    /// the ball then flies on from x = 0. Returns the corrected exit velocity.
    fn correct_exit(&mut self, contact: &Contact, x: f64, v: f64) -> f64 {
        let law = self.setup.law;
        let v_out = Impact {
            stiffness: law.stiffness,
            mu_s_per_m: law.mu_s_per_m,
            alpha: law.alpha,
            mass_kg: self.mass_kg,
            v_in_m_per_s: contact.v_in_m_per_s,
        }
        .v_out_exact_m_per_s();
        let (t, g) = (x / v, self.pull_m_per_s2());
        let (w, w_dot) = self.contact_point();
        self.position_m = w + t * (v_out + 0.5 * g * t);
        self.velocity_m_per_s = w_dot + v_out + g * t;
        v_out
    }
}
