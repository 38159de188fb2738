//! The striker group: what strikes, its material, size, mass, level and grip.

use super::choices::{GripChoice, MaterialChoice, StrikerChoice};
use super::{float, ids, log_float, pow10, skewed, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::body::StrikerSpec;
use urto_dsp::voice::Patch;

/// What strikes the object: a point mass or a body that rings too, its material and size. IDs are
/// stable once released: never rename them.
#[derive(Params)]
pub struct StrikerParams {
    #[id = "hammer-mass"]
    pub hammer_mass_kg: FloatParam,
    #[id = "striker"]
    pub striker: EnumParam<StrikerChoice>,
    #[id = "striker-material"]
    pub striker_material: EnumParam<MaterialChoice>,
    /// The ball's or mallet head's radius, the rod's length, the coin's radius, m.
    #[id = "striker-size"]
    pub striker_size_m: FloatParam,
    /// The striker's own ringing in the mix, a trim on what it radiates (1: physical, 0: only
    /// the object).
    #[id = "striker-level"]
    pub striker_level: FloatParam,
    /// How a hand holds the striker: its fingers damp the striker's modes where they hold it.
    #[id = "grip"]
    pub grip: EnumParam<GripChoice>,
    /// k, α and the restitution from the two materials (Hertz) instead of the raw knobs.
    #[id = "contact-from-materials"]
    pub contact_from_materials: BoolParam,
}

impl Default for StrikerParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            hammer_mass_kg: log_float("Hammer mass", d.hammer_mass_kg, 1e-4, 10.0, " kg"),
            striker: EnumParam::new("Striker", StrikerChoice::PointMass),
            striker_material: EnumParam::new("Striker material", MaterialChoice::Steel),
            striker_size_m: float(
                "Striker size",
                d.striker.size_m,
                skewed(0.001, 0.5, -1.5),
                " m",
                4,
            ),
            striker_level: float(
                "Striker level",
                d.striker_level,
                // 1 (physical) mid-travel.
                skewed(0.0, 4.0, -1.0),
                "",
                2,
            ),
            grip: EnumParam::new("Grip", GripChoice::Free),
            contact_from_materials: BoolParam::new(
                "Contact from materials",
                d.contact_from_materials,
            ),
        }
    }
}

impl StrikerParams {
    /// Set the patch's striker.
    pub fn apply(&self, patch: &mut Patch) {
        patch.hammer_mass_kg = pow10(&self.hammer_mass_kg);
        patch.striker = StrikerSpec {
            kind: self.striker.value().kind(),
            material: self.striker_material.value().material(),
            size_m: v(&self.striker_size_m),
        };
        patch.striker_level = v(&self.striker_level);
        patch.grip = self.grip.value().grip();
        patch.contact_from_materials = self.contact_from_materials.value();
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("hammer_mass_kg", "hammer-mass", Kind::Log10),
            PresetKey::new("striker", "striker", Kind::Enum(ids::<StrikerChoice>())),
            PresetKey::new(
                "striker_material",
                "striker-material",
                Kind::Enum(ids::<MaterialChoice>()),
            ),
            PresetKey::new("striker_size_m", "striker-size", Kind::Float),
            PresetKey::new("striker_level", "striker-level", Kind::Float),
            PresetKey::new("grip", "grip", Kind::Enum(ids::<GripChoice>())),
            PresetKey::new(
                "contact_from_materials",
                "contact-from-materials",
                Kind::Bool,
            ),
        ]
    }
}
