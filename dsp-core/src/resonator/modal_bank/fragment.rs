//! A fragment's few modes (a grain's, a shard's): the modal bank's exact transitions for at most four modes in a few hundred bytes, so that a pool of strikers fits in a voice.

use super::lanes::{snap_node, ModeStep};
use super::{Mode, Pickup, Surface};

/// Modes a fragment keeps at most (its lowest).
pub const FRAGMENT_MODES: usize = 4;

/// One step length's transitions of a fragment's modes, and the strike point's compliance.
#[derive(Clone, Copy, Debug, Default)]
struct Transitions {
    step: [ModeStep; FRAGMENT_MODES],
    /// Each mode's zero-order-hold input per newton held: (b0, b1) = (φ/M)·(held/ω₀², a01).
    b0: [f64; FRAGMENT_MODES],
    b1: [f64; FRAGMENT_MODES],
    compliance_m_per_n: f64,
}

/// A body's lowest modes, driven at its strike point and heard at its pickups exactly as
/// [`super::ModalBank`] drives and hears them (its transitions are the bank's,
/// [`ModeStep::exact`]), for the modes a small struck body needs.
#[derive(Clone, Debug, Default)]
pub struct FragmentModes {
    num_modes: usize,
    mass_kg: f64,
    sigma: [f64; FRAGMENT_MODES],
    omega0_sq: [f64; FRAGMENT_MODES],
    strike: [f64; FRAGMENT_MODES],
    pickup: [f64; FRAGMENT_MODES],
    side: [f64; FRAGMENT_MODES],
    q: [f64; FRAGMENT_MODES],
    p: [f64; FRAGMENT_MODES],
    full: Transitions,
    sub: Transitions,
}

impl FragmentModes {
    /// The first [`FRAGMENT_MODES`] of `modes` below Nyquist at `sample_rate_hz`, their modal
    /// mass `mass_kg`, at rest, stepped a sample at a time; and steps of `sub_dt_s`.
    pub fn set(&mut self, modes: &[Mode], mass_kg: f64, sample_rate_hz: f64, sub_dt_s: f64) {
        self.mass_kg = mass_kg.max(1e-12);
        let nyquist_hz = 0.5 * sample_rate_hz;
        let heard = modes
            .iter()
            .filter(|m| m.freq_hz > 0.0 && m.freq_hz < nyquist_hz);
        self.num_modes = 0;
        for (i, mode) in heard.take(FRAGMENT_MODES).enumerate() {
            let omega_d = std::f64::consts::TAU * mode.freq_hz;
            self.sigma[i] = 1000f64.ln() / mode.t60_s.max(1e-4);
            self.omega0_sq[i] = omega_d * omega_d + self.sigma[i] * self.sigma[i];
            self.strike[i] = snap_node(mode.strike_shape);
            let pressure = mode.radiator.pressure_per_velocity(mode.freq_hz);
            self.pickup[i] = snap_node(pressure * mode.pickup_shape);
            self.side[i] = snap_node(pressure * mode.side_shape);
            self.num_modes = i + 1;
        }
        self.q = [0.0; FRAGMENT_MODES];
        self.p = [0.0; FRAGMENT_MODES];
        self.full = self.transitions(1.0 / sample_rate_hz);
        self.sub = self.transitions(sub_dt_s);
    }

    fn transitions(&self, dt_s: f64) -> Transitions {
        let mut t = Transitions::default();
        for i in 0..self.num_modes {
            let step = ModeStep::exact(self.sigma[i], self.omega0_sq[i], dt_s);
            let gain = self.strike[i] / self.mass_kg;
            t.b0[i] = gain * step.held / self.omega0_sq[i];
            t.b1[i] = gain * step.a01;
            t.compliance_m_per_n += self.strike[i] * t.b0[i];
            t.step[i] = step;
        }
        t
    }

    fn step_for(&self, sub_step: bool) -> &Transitions {
        if sub_step {
            &self.sub
        } else {
            &self.full
        }
    }

    /// Advance one step (a sub-step, or a sample) under `force_n` held on the strike point: the
    /// strike point and the pickups after it (no prediction: `next_free_displacement_m` is NaN).
    pub fn advance(&mut self, sub_step: bool, force_n: f64) -> Surface {
        let t = *self.step_for(sub_step);
        let mut surface = Surface {
            next_free_displacement_m: f64::NAN,
            ..Surface::default()
        };
        for i in 0..self.num_modes {
            let (q, p, s) = (self.q[i], self.p[i], &t.step[i]);
            self.q[i] = s.a00 * q + s.a01 * p + t.b0[i] * force_n;
            self.p[i] = s.a10 * q + s.a11 * p + t.b1[i] * force_n;
            surface.displacement_m += self.strike[i] * self.q[i];
            surface.velocity_m_per_s += self.strike[i] * self.p[i];
            surface.pickup.mid_pa += self.pickup[i] * self.p[i];
            surface.pickup.side_pa += self.side[i] * self.p[i];
        }
        surface
    }

    /// One force-free sample: what the pickups hear after it.
    pub fn ring(&mut self) -> Pickup {
        self.advance(false, 0.0).pickup
    }

    /// The strike point's displacement after a force-free step, m, without taking it; a held
    /// force F adds F times [`FragmentModes::compliance_m_per_n`].
    pub fn predict_free(&self, sub_step: bool) -> f64 {
        let t = self.step_for(sub_step);
        (0..self.num_modes)
            .map(|i| self.strike[i] * (t.step[i].a00 * self.q[i] + t.step[i].a01 * self.p[i]))
            .sum()
    }

    /// The strike point's displacement per newton held over a step, m/N.
    pub fn compliance_m_per_n(&self, sub_step: bool) -> f64 {
        self.step_for(sub_step).compliance_m_per_n
    }

    /// The strike point's displacement now, m.
    pub fn strike_displacement_m(&self) -> f64 {
        (0..self.num_modes)
            .map(|i| self.strike[i] * self.q[i])
            .sum()
    }

    /// The energy of the vibration, ½M·Σ(q̇ᵢ² + ω₀ᵢ²·qᵢ²), J.
    pub fn energy_j(&self) -> f64 {
        let sum: f64 = (0..self.num_modes)
            .map(|i| self.p[i] * self.p[i] + self.omega0_sq[i] * self.q[i] * self.q[i])
            .sum();
        0.5 * self.mass_kg * sum
    }

    /// The farthest the strike point can swing with the energy held, m: by Cauchy–Schwarz,
    /// |Σφᵢqᵢ| ≤ √(2E/M · Σφᵢ²/ω₀ᵢ²) (as [`super::ModalBank::max_excursion_m`]).
    pub fn max_excursion_m(&self) -> f64 {
        let compliance: f64 = (0..self.num_modes)
            .map(|i| self.strike[i] * self.strike[i] / self.omega0_sq[i])
            .sum();
        (2.0 * self.energy_j() / self.mass_kg * compliance).sqrt()
    }

    /// Σ(|ψᵢ| + |sideᵢ|) of the pickup gains: either channel's pressure per unit of modal
    /// velocity, at most (as [`super::ModalBank::pickup_abs_sum`]).
    pub fn pickup_abs_sum(&self) -> f64 {
        (0..self.num_modes)
            .map(|i| self.pickup[i].abs() + self.side[i].abs())
            .sum()
    }

    /// Modal mass of the modes, kg.
    pub fn mass_kg(&self) -> f64 {
        self.mass_kg
    }

    /// Multiply the vibration by `factor` (its energy by factor²).
    #[cfg(test)]
    pub fn scale_vibration(&mut self, factor: f64) {
        self.q
            .iter_mut()
            .chain(self.p.iter_mut())
            .for_each(|x| *x *= factor);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ModalBank, Slot};
    use super::*;
    use crate::radiation::Radiator;

    #[test]
    fn a_fragment_rings_and_yields_as_a_modal_bank_of_its_modes() {
        // The same three modes (one above Nyquist, skipped by both) struck by the same forces.
        let fs = 48_000.0;
        let modes: Vec<Mode> = [
            (700.0, 0.4, 1.0),
            (2900.0, 0.1, -0.6),
            (30_000.0, 0.1, 1.0),
            (5100.0, 0.05, 0.8),
        ]
        .map(|(freq_hz, t60_s, strike_shape)| Mode {
            freq_hz,
            t60_s,
            strike_shape,
            pickup_shape: 0.7,
            side_shape: 0.2,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .to_vec();
        let sub_dt = 1.0 / fs / 8.0;
        let mut fragment = FragmentModes::default();
        fragment.set(&modes, 0.02, fs, sub_dt);
        let mut bank = ModalBank::new(0.02);
        bank.set_modes(&modes, fs);
        bank.prepare(Slot::Sub, sub_dt);
        assert_eq!(fragment.num_modes, 3);
        let close = |a: f64, b: f64, scale: f64| (a - b).abs() <= 1e-12 * scale;
        for n in 0..2000 {
            let sub_step = n % 3 == 0;
            let slot = if sub_step { Slot::Sub } else { Slot::Full };
            let force_n = if n < 40 {
                (n as f64 * 0.37).sin() * 5.0
            } else {
                0.0
            };
            let scale = 1e-9_f64.max(bank.max_excursion_m());
            assert!(close(
                fragment.predict_free(sub_step),
                bank.predict_free(slot),
                scale
            ));
            let compliance = bank.compliance(slot).0;
            assert!(close(
                fragment.compliance_m_per_n(sub_step),
                compliance,
                compliance
            ));
            let (ours, theirs) = (
                fragment.advance(sub_step, force_n),
                bank.advance(slot, force_n),
            );
            assert!(
                close(ours.displacement_m, theirs.displacement_m, scale),
                "step {n}"
            );
            let heard = theirs.pickup.mid_pa.abs().max(1e-9);
            assert!(
                close(ours.pickup.mid_pa, theirs.pickup.mid_pa, 1e3 * heard),
                "step {n}"
            );
            assert!(
                close(ours.pickup.side_pa, theirs.pickup.side_pa, 1e3 * heard),
                "step {n}"
            );
            let energy = bank.energy_j();
            assert!(
                close(fragment.energy_j(), energy, energy.max(1e-30)),
                "step {n}"
            );
        }
        assert!(close(
            fragment.max_excursion_m(),
            bank.max_excursion_m(),
            bank.max_excursion_m()
        ));
    }
}
