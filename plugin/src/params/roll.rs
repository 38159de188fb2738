//! The roll scene's group: the rolling ball, its track and its speed.

use super::choices::SpeedSourceChoice;
use super::{float, ids, linear, log_float, pow10, skewed, v, Controllers, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::roll::RollSettings;
use urto_dsp::voice::{Patch, Roll};

/// The roll scene: the rolling ball, its track and speed. IDs are stable once released: never
/// rename them.
#[derive(Params)]
pub struct RollParams {
    #[id = "ball-radius"]
    pub ball_radius_m: FloatParam,
    /// RMS roughness of the rolling track, stored as log₁₀(m).
    #[id = "roughness"]
    pub roughness_log10: FloatParam,
    #[id = "roughness-slope"]
    pub roughness_slope: FloatParam,
    #[id = "out-of-round"]
    pub out_of_round: FloatParam,
    #[id = "roll-speed"]
    pub roll_speed_m_per_s: FloatParam,
    #[id = "roll-source"]
    pub roll_source: EnumParam<SpeedSourceChoice>,
    /// At note-off, lift the rolling ball off instead of letting it roll to a stop.
    #[id = "roll-lift"]
    pub roll_lift: BoolParam,
}

impl Default for RollParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            ball_radius_m: float(
                "Ball radius",
                d.roll.settings.radius_m,
                skewed(0.001, 0.1, -2.0),
                " m",
                4,
            ),
            roughness_log10: log_float("Roughness", d.roll.settings.roughness_m, 1e-8, 1e-4, " m"),
            roughness_slope: float(
                "Roughness slope",
                d.roll.settings.slope,
                linear(0.0, 2.0),
                "",
                2,
            ),
            out_of_round: float(
                "Out of round",
                d.roll.settings.out_of_round,
                linear(0.0, 0.01),
                "",
                4,
            ),
            roll_speed_m_per_s: float(
                "Roll speed",
                d.roll.speed_m_per_s,
                skewed(0.0, 5.0, -1.0),
                " m/s",
                3,
            ),
            roll_source: EnumParam::new("Roll speed source", SpeedSourceChoice::ModWheel),
            roll_lift: BoolParam::new("Lift at release", d.roll.lift_on_release),
        }
    }
}

impl RollParams {
    /// Set the patch's roll, its speed's share from the controller the source names.
    pub fn apply(&self, patch: &mut Patch, controllers: &Controllers) {
        patch.roll = Roll {
            settings: RollSettings {
                radius_m: v(&self.ball_radius_m),
                roughness_m: pow10(&self.roughness_log10),
                slope: v(&self.roughness_slope),
                out_of_round: v(&self.out_of_round),
                seed: 0,
            },
            speed_m_per_s: v(&self.roll_speed_m_per_s),
            speed_fraction: f64::from(match self.roll_source.value() {
                SpeedSourceChoice::Fixed => 1.0,
                SpeedSourceChoice::ModWheel => controllers.mod_wheel,
                SpeedSourceChoice::Pressure => controllers.pressure,
                SpeedSourceChoice::Expression => controllers.expression,
            }),
            lift_on_release: self.roll_lift.value(),
            ..patch.roll
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("ball_radius_m", "ball-radius", Kind::Float),
            PresetKey::new("roughness_m", "roughness", Kind::Log10),
            PresetKey::new("roughness_slope", "roughness-slope", Kind::Float),
            PresetKey::new("out_of_round", "out-of-round", Kind::Float),
            PresetKey::new("roll_speed_m_per_s", "roll-speed", Kind::Float),
            PresetKey::new(
                "roll_speed_source",
                "roll-source",
                Kind::Enum(ids::<SpeedSourceChoice>()),
            ),
            PresetKey::new("lift_at_release", "roll-lift", Kind::Bool),
        ]
    }
}
