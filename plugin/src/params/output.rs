//! The output group: velocity curve, level, stereo image, release damping, voices and gain.

use super::choices::LevelChoice;
use super::{float, ids, linear, skewed, v, Kind, PresetKey, MAX_GAIN_DB, MIN_GAIN_DB, POLY_GAIN};
use nice_plug::prelude::*;
use urto_dsp::voice::{Level, Patch, Stereo, VelocityCurve, DEFAULT_POLYPHONY, MAX_VOICES};

/// How notes become sound: the velocity curve, the level, the stereo image, release damping, voices
/// and output gain. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct OutputParams {
    #[id = "v-min"]
    pub v_min_m_per_s: FloatParam,
    #[id = "v-max"]
    pub v_max_m_per_s: FloatParam,
    /// Level of velocity 1 below velocity 127, dB.
    #[id = "dynamic-range"]
    pub dynamic_range_db: FloatParam,
    /// Shape γ of the velocity curve, level = −range·(1 − x)^γ.
    #[id = "velocity-curve"]
    pub velocity_curve: FloatParam,
    /// Calibrated level (a make-up gain from the patch's physics) or the pressure at the listener,
    /// 1 m away, in pascals.
    #[id = "level"]
    pub level: EnumParam<LevelChoice>,
    /// Share of the pickups' difference in the output.
    #[id = "width"]
    pub stereo_width: FloatParam,
    #[id = "pan-by-key"]
    pub pan_by_key: FloatParam,
    #[id = "release"]
    pub release_fraction: FloatParam,
    #[id = "polyphony"]
    pub polyphony: IntParam,
    #[id = "gain"]
    pub gain_db: FloatParam,
}

impl Default for OutputParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            v_min_m_per_s: float(
                "Softest strike",
                d.velocity.min_m_per_s,
                skewed(0.001, 50.0, -2.5),
                " m/s",
                3,
            ),
            v_max_m_per_s: float(
                "Hardest strike",
                d.velocity.max_m_per_s,
                skewed(0.001, 50.0, -2.5),
                " m/s",
                3,
            ),
            dynamic_range_db: float(
                "Dynamic range",
                d.velocity.range_db,
                linear(0.0, 60.0),
                " dB",
                1,
            ),
            velocity_curve: float("Velocity curve", d.velocity.shape, linear(0.5, 3.0), "", 2),
            level: EnumParam::new("Level", LevelChoice::Calibrated),
            stereo_width: float("Stereo width", d.stereo.width, linear(0.0, 1.0), "", 2),
            pan_by_key: float("Pan by key", d.stereo.pan_by_key, linear(0.0, 1.0), "", 2),
            release_fraction: float(
                "Release damping",
                d.release_fraction,
                linear(0.0, 1.0),
                "",
                2,
            ),
            polyphony: IntParam::new(
                "Polyphony",
                DEFAULT_POLYPHONY as i32,
                IntRange::Linear {
                    min: 1,
                    max: MAX_VOICES as i32,
                },
            ),
            // Smoothed per sample by the plugin's output stage, so automation never clicks.
            gain_db: float(
                "Output gain",
                0.0,
                linear(MIN_GAIN_DB, MAX_GAIN_DB),
                " dB",
                1,
            )
            .with_smoother(SmoothingStyle::Linear(20.0))
            .with_poly_modulation_id(POLY_GAIN),
        }
    }
}

impl OutputParams {
    /// Set the patch's velocity curve, level, stereo image and release damping (the voices and
    /// the output gain are the plugin's).
    pub fn apply(&self, patch: &mut Patch) {
        patch.velocity = VelocityCurve {
            min_m_per_s: v(&self.v_min_m_per_s),
            max_m_per_s: v(&self.v_max_m_per_s),
            range_db: v(&self.dynamic_range_db),
            shape: v(&self.velocity_curve),
        };
        patch.stereo = Stereo {
            width: v(&self.stereo_width),
            pan_by_key: v(&self.pan_by_key),
        };
        patch.level = match self.level.value() {
            LevelChoice::Calibrated => Level::Calibrated,
            LevelChoice::Physical => Level::Physical,
        };
        patch.release_fraction = v(&self.release_fraction);
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("softest_strike_m_per_s", "v-min", Kind::Float),
            PresetKey::new("hardest_strike_m_per_s", "v-max", Kind::Float),
            PresetKey::new("dynamic_range_db", "dynamic-range", Kind::Float),
            PresetKey::new("velocity_curve", "velocity-curve", Kind::Float),
            PresetKey::new("level", "level", Kind::Enum(ids::<LevelChoice>())),
            PresetKey::new("stereo_width", "width", Kind::Float),
            PresetKey::new("pan_by_key", "pan-by-key", Kind::Float),
            PresetKey::new("release_damping", "release", Kind::Float),
            PresetKey::new("polyphony", "polyphony", Kind::Int),
            PresetKey::new("output_gain_db", "gain", Kind::Float),
        ]
    }
}
