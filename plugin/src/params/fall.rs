//! The fall group, shared by the scenes that let bodies fall or rest: height and gravity.

use super::{float, skewed, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::interaction::Gravity;
use urto_dsp::voice::{Fall, Patch};

/// How bodies fall onto the object, for every scene that lets one fall or rest: height and gravity.
/// IDs are stable once released: never rename them.
#[derive(Params)]
pub struct FallParams {
    /// Drop height of the bouncing ball or the dropped body, m.
    #[id = "height"]
    pub height_m: FloatParam,
    #[id = "gravity"]
    pub gravity_m_per_s2: FloatParam,
    /// Gravity during contact (eq. 21, uncorrected) instead of suspended.
    #[id = "gravity-in-contact"]
    pub gravity_in_contact: BoolParam,
    #[id = "capture"]
    pub capture_m_per_s: FloatParam,
}

impl Default for FallParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            height_m: float(
                "Drop height",
                d.fall.height_m,
                skewed(0.0, 3.0, -1.5),
                " m",
                3,
            ),
            gravity_m_per_s2: float(
                "Gravity",
                d.fall.gravity.accel_m_per_s2,
                skewed(0.1, 30.0, -1.0),
                " m/s²",
                2,
            ),
            gravity_in_contact: BoolParam::new("Gravity in contact", d.fall.gravity.in_contact),
            capture_m_per_s: float(
                "Capture velocity",
                d.fall.gravity.capture_m_per_s,
                skewed(0.0, 1.0, -2.5),
                " m/s",
                4,
            ),
        }
    }
}

impl FallParams {
    /// Set the patch's fall: height and gravity.
    pub fn apply(&self, patch: &mut Patch) {
        patch.fall = Fall {
            height_m: v(&self.height_m),
            gravity: Gravity {
                accel_m_per_s2: v(&self.gravity_m_per_s2),
                in_contact: self.gravity_in_contact.value(),
                capture_m_per_s: v(&self.capture_m_per_s),
            },
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("drop_height_m", "height", Kind::Float),
            PresetKey::new("gravity_m_per_s2", "gravity", Kind::Float),
            PresetKey::new("gravity_in_contact", "gravity-in-contact", Kind::Bool),
            PresetKey::new("capture_velocity_m_per_s", "capture", Kind::Float),
        ]
    }
}
