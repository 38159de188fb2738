//! The bounce: a ball let fall (or thrown down) onto the object, bouncing under gravity until it rests.

use super::{LevelReference, NoteStart, Scene};
use crate::voice::bodies::Bodies;
use crate::voice::patch::Patch;
use crate::voice::prepared::Strike;

/// The bouncing ball keeps no state of its own: the hammer under gravity is the ball.
pub(in crate::voice) struct BounceScene;

/// A bounce's hardest note is the ball thrown down at the hardest speed from the drop height:
/// its impact speed adds the fall's, √(v² + 2·g·h).
pub(super) fn level_reference(patch: &Patch, hardest_m_per_s: f64) -> LevelReference {
    LevelReference::Ladder {
        hardest_m_per_s: (hardest_m_per_s * hardest_m_per_s + patch.fall.fall_speed_sq()).sqrt(),
    }
}

/// A bounce meeting the object at `impact_m_per_s`: thrown down from the drop height, or let
/// fall from lower for an impact slower than the fall from there gives (h = v²/2g).
pub(super) fn strike(patch: &Patch, impact_m_per_s: f64, gain: f64) -> Strike {
    let throw_sq = impact_m_per_s * impact_m_per_s - patch.fall.fall_speed_sq();
    let g = patch.fall.gravity.accel_m_per_s2.max(0.0);
    Strike {
        v_in_m_per_s: throw_sq.max(0.0).sqrt(),
        drop_height_m: if throw_sq >= 0.0 || g == 0.0 {
            patch.fall.height_m.max(0.0)
        } else {
            0.5 * impact_m_per_s * impact_m_per_s / g
        },
        gain,
        pan: 0.0,
        press_fraction: 1.0,
    }
}

impl Scene for BounceScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let patch = note.patch;
        let hammer = &mut bodies.hammer;
        hammer.set_gravity(patch.fall.gravity);
        hammer.set_irregularity(patch.bounce.irregularity, note.seed);
        let height_m = note.strike.drop_height_m;
        hammer.strike(
            &bodies.bank,
            note.strike.v_in_m_per_s,
            height_m,
            patch.hammer_mass_kg,
        );
        // (Gravity's and a press's work are added as they are done: `Bodies::render_free`.)
        bodies.input_energy_j += bodies.hammer.energy_j();
    }

    /// A ball still bouncing keeps its voice, however quiet for now.
    fn in_play(&self, bodies: &Bodies) -> bool {
        !bodies.hammer.is_retired()
    }
}
