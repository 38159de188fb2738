//! The expression group: how pressure presses, pitch bend ranges, MPE.

use super::{
    float, linear, v, Kind, PresetKey, DEFAULT_BEND_RANGE_SEMITONES,
    DEFAULT_MPE_BEND_RANGE_SEMITONES,
};
use nice_plug::prelude::*;
use urto_dsp::voice::Patch;

/// Per-note expression: pressure, pitch bend, MPE. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct ExpressionParams {
    /// The force a note's full pressure presses its ball with, in its weights.
    #[id = "press-depth"]
    pub press_depth: FloatParam,
    /// MIDI pitch bend range, semitones (every channel; MPE's master channel).
    #[id = "bend-range"]
    pub bend_range_semitones: FloatParam,
    /// MPE: each MIDI channel but the first is one note (lower zone, master channel 1).
    #[id = "mpe"]
    pub mpe: BoolParam,
    /// Pitch bend range of MPE's member channels, semitones.
    #[id = "mpe-bend-range"]
    pub mpe_bend_range_semitones: FloatParam,
}

impl Default for ExpressionParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            press_depth: float(
                "Pressure press",
                d.press_depth,
                linear(0.0, 10.0),
                " × weight",
                2,
            ),
            bend_range_semitones: float(
                "Pitch bend range",
                DEFAULT_BEND_RANGE_SEMITONES,
                linear(0.0, 96.0),
                " st",
                1,
            ),
            mpe: BoolParam::new("MPE", false),
            mpe_bend_range_semitones: float(
                "MPE pitch bend range",
                DEFAULT_MPE_BEND_RANGE_SEMITONES,
                linear(0.0, 96.0),
                " st",
                1,
            ),
        }
    }
}

impl ExpressionParams {
    /// Set how far a note's pressure presses its ball (the bend ranges and MPE are the
    /// plugin's MIDI handling).
    pub fn apply(&self, patch: &mut Patch) {
        patch.press_depth = v(&self.press_depth);
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("pressure_press_weights", "press-depth", Kind::Float),
            PresetKey::new("pitch_bend_range_semitones", "bend-range", Kind::Float),
            PresetKey::new("mpe", "mpe", Kind::Bool),
            PresetKey::new(
                "mpe_pitch_bend_range_semitones",
                "mpe-bend-range",
                Kind::Float,
            ),
        ]
    }
}
