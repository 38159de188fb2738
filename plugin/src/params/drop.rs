//! The drop scene's group: the dropped body, its scale, spin, drift and friction.

use super::choices::DropBodyChoice;
use super::{float, ids, linear, skewed, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::voice::{DropSettings, Patch};

/// The drop scene: the dropped body, its size, spin, drift and friction. IDs are stable once
/// released: never rename them.
#[derive(Params)]
pub struct DropParams {
    /// The dropped body (drop mode); its material is the striker's.
    #[id = "drop-body"]
    pub drop_body: EnumParam<DropBodyChoice>,
    /// Its size as a factor of its usual one (a 16 mm die, a 24 mm coin, a 20 cm brick…).
    #[id = "drop-scale"]
    pub drop_scale: FloatParam,
    /// Largest spin at the drop about each axis, rad/s.
    #[id = "drop-spin"]
    pub drop_spin_rad_per_s: FloatParam,
    /// Largest horizontal drift at the drop, m/s.
    #[id = "drop-drift"]
    pub drop_drift_m_per_s: FloatParam,
    /// Coulomb friction between body and floor.
    #[id = "drop-friction"]
    pub drop_mu: FloatParam,
    /// At note-off, lift the body (no contact after the one under way) instead of letting it
    /// settle.
    #[id = "drop-lift"]
    pub drop_lift: BoolParam,
}

impl Default for DropParams {
    fn default() -> Self {
        let d = Patch::default();
        Self {
            drop_body: EnumParam::new("Dropped body", DropBodyChoice::Die),
            drop_scale: float("Body scale", 1.0, skewed(0.25, 4.0, -1.0), " ×", 2),
            drop_spin_rad_per_s: float(
                "Spin",
                d.drop.spin_rad_per_s,
                skewed(0.0, 200.0, -1.0),
                " rad/s",
                1,
            ),
            drop_drift_m_per_s: float(
                "Drift",
                d.drop.drift_m_per_s,
                skewed(0.0, 2.0, -1.0),
                " m/s",
                3,
            ),
            drop_mu: float("Friction", d.drop.mu, linear(0.0, 1.5), "", 2),
            drop_lift: BoolParam::new("Lift body at release", d.drop.lift_on_release),
        }
    }
}

impl DropParams {
    /// Set the patch's drop (the body's material is the striker's).
    pub fn apply(&self, patch: &mut Patch) {
        let body = self.drop_body.value().body();
        patch.drop = DropSettings {
            body,
            size_m: body.usual_size_m() * v(&self.drop_scale),
            spin_rad_per_s: v(&self.drop_spin_rad_per_s),
            drift_m_per_s: v(&self.drop_drift_m_per_s),
            mu: v(&self.drop_mu),
            lift_on_release: self.drop_lift.value(),
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new(
                "drop_body",
                "drop-body",
                Kind::Enum(ids::<DropBodyChoice>()),
            ),
            PresetKey::new("drop_body_scale", "drop-scale", Kind::Float),
            PresetKey::new("drop_spin_rad_per_s", "drop-spin", Kind::Float),
            PresetKey::new("drop_drift_m_per_s", "drop-drift", Kind::Float),
            PresetKey::new("drop_friction", "drop-friction", Kind::Float),
            PresetKey::new("drop_lift_at_release", "drop-lift", Kind::Bool),
        ]
    }
}
