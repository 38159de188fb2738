//! The strike: one blow of the hammer, which then flies away.

use super::{NoteStart, Scene};
use crate::interaction::Gravity;
use crate::voice::bodies::Bodies;

/// A strike keeps no state of its own: the hammer flies off after its contact.
pub(in crate::voice) struct StrikeScene;

impl Scene for StrikeScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let hammer = &mut bodies.hammer;
        hammer.set_gravity(Gravity::NONE);
        hammer.set_irregularity(0.0, note.seed);
        hammer.strike(
            &bodies.bank,
            note.strike.v_in_m_per_s,
            0.0,
            note.patch.hammer_mass_kg,
        );
        bodies.input_energy_j += bodies.hammer.energy_j();
    }

    /// A hammer that struck does not keep its voice (it may drift away for a long time after a
    /// very lossy contact).
    fn in_play(&self, _bodies: &Bodies) -> bool {
        false
    }
}
