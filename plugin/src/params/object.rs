//! The object group: the struck object, its material, size, modes, decay, pickups and pitch.

use super::choices::{MaterialChoice, ObjectChoice};
use super::{float, ids, linear, log_float, pow10, skewed, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::resonator::{ObjectSpec, MAX_MODES};
use urto_dsp::voice::{Patch, Tuning};

/// The struck object: its kind, material, size, modes, decay, pickups and pitch. IDs are stable
/// once released: never rename them.
#[derive(Params)]
pub struct ObjectParams {
    #[id = "object"]
    pub object: EnumParam<ObjectChoice>,
    #[id = "object-material"]
    pub object_material: EnumParam<MaterialChoice>,
    /// Tune the object by its material and size instead of key tracking or the fixed pitch.
    #[id = "physical-tuning"]
    pub physical_tuning: BoolParam,
    /// The object's size for physical tuning, m.
    #[id = "object-size"]
    pub object_size_m: FloatParam,
    #[id = "key-tracking"]
    pub key_tracking: BoolParam,
    #[id = "fixed-f0"]
    pub fixed_f0_hz: FloatParam,
    #[id = "a4"]
    pub a4_hz: FloatParam,
    #[id = "decay"]
    pub t60_s: FloatParam,
    #[id = "material"]
    pub damping_slope: FloatParam,
    #[id = "stretch"]
    pub stretch: FloatParam,
    #[id = "strike-pos"]
    pub strike_position: FloatParam,
    #[id = "pickup-pos"]
    pub pickup_position: FloatParam,
    /// Where the right pickup is ("Pickup position" is the left one's).
    #[id = "pickup-right"]
    pub right_pickup_position: FloatParam,
    #[id = "modes"]
    pub num_modes: IntParam,
    #[id = "object-mass"]
    pub object_mass_kg: FloatParam,
}

impl Default for ObjectParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            object: EnumParam::new("Object", ObjectChoice::Marimba),
            object_material: EnumParam::new("Object material", MaterialChoice::Steel),
            physical_tuning: BoolParam::new("Physical tuning", d.physical_tuning),
            object_size_m: float(
                "Object size",
                d.object_size_m,
                skewed(0.01, 5.0, -1.5),
                " m",
                3,
            ),
            key_tracking: BoolParam::new("Key tracking", d.tuning.key_tracking),
            fixed_f0_hz: float(
                "Fixed pitch",
                d.tuning.fixed_f0_hz,
                skewed(20.0, 8000.0, -2.0),
                " Hz",
                1,
            ),
            a4_hz: float("Tuning A4", d.tuning.a4_hz, linear(400.0, 480.0), " Hz", 1),
            t60_s: float(
                "Decay T60",
                d.object.t60_s,
                skewed(0.02, 30.0, -2.0),
                " s",
                3,
            ),
            damping_slope: float("Material", d.object.damping_slope, linear(0.0, 1.0), "", 2),
            stretch: float("Inharmonicity", d.object.stretch, linear(-0.1, 0.1), "", 3),
            strike_position: float(
                "Strike position",
                d.object.strike_position,
                linear(0.0, 1.0),
                "",
                3,
            ),
            pickup_position: float(
                "Pickup position",
                d.object.pickup_position,
                linear(0.0, 1.0),
                "",
                3,
            ),
            right_pickup_position: float(
                "Right pickup position",
                d.object.right_pickup_position,
                linear(0.0, 1.0),
                "",
                3,
            ),
            num_modes: IntParam::new(
                "Modes",
                d.object.num_modes as i32,
                IntRange::Linear {
                    min: 1,
                    max: MAX_MODES as i32,
                },
            ),
            object_mass_kg: log_float("Object mass", d.object_mass_kg, 1e-3, 100.0, " kg"),
        }
    }
}

impl ObjectParams {
    /// Set the patch's object and its tuning.
    pub fn apply(&self, patch: &mut Patch) {
        patch.object_material = self.object_material.value().material();
        patch.physical_tuning = self.physical_tuning.value();
        patch.object_size_m = v(&self.object_size_m);
        patch.object = ObjectSpec {
            kind: self.object.value().kind(),
            f0_hz: v(&self.fixed_f0_hz),
            num_modes: self.num_modes.value().max(1) as usize,
            t60_s: v(&self.t60_s),
            damping_slope: v(&self.damping_slope),
            stretch: v(&self.stretch),
            strike_position: v(&self.strike_position),
            pickup_position: v(&self.pickup_position),
            right_pickup_position: v(&self.right_pickup_position),
        };
        patch.object_mass_kg = pow10(&self.object_mass_kg);
        patch.tuning = Tuning {
            key_tracking: self.key_tracking.value(),
            a4_hz: v(&self.a4_hz),
            fixed_f0_hz: v(&self.fixed_f0_hz),
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("object", "object", Kind::Enum(ids::<ObjectChoice>())),
            PresetKey::new(
                "object_material",
                "object-material",
                Kind::Enum(ids::<MaterialChoice>()),
            ),
            PresetKey::new("physical_tuning", "physical-tuning", Kind::Bool),
            PresetKey::new("object_size_m", "object-size", Kind::Float),
            PresetKey::new("key_tracking", "key-tracking", Kind::Bool),
            PresetKey::new("fixed_pitch_hz", "fixed-f0", Kind::Float),
            PresetKey::new("tuning_a4_hz", "a4", Kind::Float),
            PresetKey::new("decay_t60_s", "decay", Kind::Float),
            PresetKey::new("material", "material", Kind::Float),
            PresetKey::new("inharmonicity", "stretch", Kind::Float),
            PresetKey::new("strike_position", "strike-pos", Kind::Float),
            PresetKey::new("pickup_position", "pickup-pos", Kind::Float),
            PresetKey::new("right_pickup_position", "pickup-right", Kind::Float),
            PresetKey::new("modes", "modes", Kind::Int),
            PresetKey::new("object_mass_kg", "object-mass", Kind::Log10),
        ]
    }
}
