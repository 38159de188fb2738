//! The bounce scene's group: the ball's out-of-roundness.

use super::{float, linear, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::voice::{Bounce, Patch};

/// The bounce scene: the bouncing ball. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct BounceParams {
    #[id = "irregularity"]
    pub irregularity: FloatParam,
}

impl Default for BounceParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            irregularity: float(
                "Irregularity",
                d.bounce.irregularity,
                linear(0.0, 1.0),
                "",
                2,
            ),
        }
    }
}

impl BounceParams {
    /// Set the patch's bounce.
    pub fn apply(&self, patch: &mut Patch) {
        patch.bounce = Bounce {
            irregularity: v(&self.irregularity),
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![PresetKey::new("irregularity", "irregularity", Kind::Float)]
    }
}
