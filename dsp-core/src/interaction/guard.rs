//! The energy guard of the explicit schemes: no contact step may raise the total energy.

use super::{potential_j, Hammer};
use crate::integrate::Method;
use crate::resonator::ModalBank;

impl Hammer {
    /// Whether the guard watches this contact: asked for, and the scheme an explicit one.
    pub(super) fn guards(&self) -> bool {
        self.setup.guard && self.setup.method != Method::Am1
    }

    /// The energy guard: if the step raised the total energy, take the excess out of the striker's
    /// kinetic energy, then out of the compression, then out of both bodies' vibration.
    ///
    /// AM1 here is energy-consistent by construction, so the guard watches the explicit schemes.
    pub(super) fn guard_energy(&mut self, bank: &mut ModalBank) {
        if !self.guards() {
            return;
        }
        let Some(reference_j) = self.contact.map(|c| c.energy_j) else {
            return;
        };
        let setup = self.setup;
        let law = setup.law;
        let x = self.compression_m(bank);
        let mut energy = self.contact_energy_j(bank);
        let mut excess = energy - reference_j;
        if excess > 0.0 {
            let kinetic = self.energy_j();
            if excess <= kinetic {
                self.velocity_m_per_s *= ((kinetic - excess) / kinetic).sqrt();
            } else {
                self.velocity_m_per_s = 0.0;
                excess -= kinetic;
                let potential = potential_j(&law, x);
                let kept = (potential - excess).max(0.0);
                excess -= potential - kept;
                let x_kept = if x > 0.0 {
                    ((law.alpha + 1.0) * kept / law.stiffness).powf(1.0 / (law.alpha + 1.0))
                } else {
                    x
                };
                self.scale_vibrations(bank, excess);
                // The surfaces may have moved with the vibration: keep the reduced compression.
                self.position_m += x_kept - self.compression_m(bank);
            }
            // Whatever rounding left over comes out of the vibration, the compression held.
            for _ in 0..3 {
                let x1 = self.compression_m(bank);
                energy = self.contact_energy_j(bank);
                let left_j = energy - reference_j;
                if left_j <= 0.0 || !self.scale_vibrations(bank, left_j) {
                    break;
                }
                self.position_m += x1 - self.compression_m(bank);
            }
            self.surface = bank.surface();
            self.striker_surface = self.striker.surface();
            let (x1, v1) = self.relative(bank);
            self.force_n = setup.force_n(x1, v1);
            energy = self.contact_energy_j(bank);
        }
        if let Some(contact) = self.contact.as_mut() {
            contact.energy_j = energy;
        }
    }

    /// Take `excess_j` (J) out of both bodies' vibration, each scaled by the same factor (as far
    /// as they hold it). Returns whether there was vibration to take it from.
    fn scale_vibrations(&mut self, bank: &mut ModalBank, excess_j: f64) -> bool {
        let vibration = bank.energy_j() + self.striker.energy_j();
        if !(excess_j > 0.0 && vibration > 0.0) {
            return false;
        }
        let factor = ((vibration - excess_j).max(0.0) / vibration).sqrt();
        bank.scale_vibration(factor);
        self.striker.scale_vibration(factor);
        true
    }
}
