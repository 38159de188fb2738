//! The scenes' parameter groups, one per play mode that has settings of its own (Bounce, Roll, Drop, Crumple, Break; Slide in its own file), and their aggregate: a new mode's group goes here.

use super::choices::{DropBodyChoice, GestureChoice, SpeedSourceChoice};
use super::slide::SlideParams;
use super::surface::SurfaceParams;
use super::{float, ids, linear, skewed, v, Controllers, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::roll::RollSettings;
use urto_dsp::stream::MAX_FRAGMENTS;
use urto_dsp::voice::{Bounce, Crumple, DropSettings, Fracture, Patch, Roll};

/// Every scene's group, each under its own name in the host.
#[derive(Params, Default)]
pub struct SceneParams {
    #[nested(group = "Bounce")]
    pub bounce: BounceParams,
    #[nested(group = "Roll")]
    pub roll: RollParams,
    #[nested(group = "Drop")]
    pub drop: DropParams,
    #[nested(group = "Slide")]
    pub slide: SlideParams,
    #[nested(group = "Surface")]
    pub surface: SurfaceParams,
    #[nested(group = "Crumple")]
    pub crumple: CrumpleParams,
    #[nested(group = "Break")]
    pub fracture: BreakParams,
}

impl SceneParams {
    /// Set every scene's settings in the patch.
    pub fn apply(&self, patch: &mut Patch, controllers: &Controllers) {
        self.bounce.apply(patch);
        self.roll.apply(patch, controllers);
        self.drop.apply(patch);
        self.slide.apply(patch, controllers);
        self.surface.apply(patch);
        self.crumple.apply(patch, controllers);
        self.fracture.apply(patch);
    }

    /// Every scene's preset keys.
    pub fn preset_keys() -> Vec<PresetKey> {
        let mut keys = BounceParams::preset_keys();
        keys.extend(RollParams::preset_keys());
        keys.extend(DropParams::preset_keys());
        keys.extend(SlideParams::preset_keys());
        keys.extend(SurfaceParams::preset_keys());
        keys.extend(CrumpleParams::preset_keys());
        keys.extend(BreakParams::preset_keys());
        keys
    }
}

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

/// The roll scene: the rolling ball and its speed (its track is the surface group's). IDs are stable once released: never
/// rename them.
#[derive(Params)]
pub struct RollParams {
    #[id = "ball-radius"]
    pub ball_radius_m: FloatParam,
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
                out_of_round: v(&self.out_of_round),
                ..patch.roll.settings
            },
            speed_m_per_s: v(&self.roll_speed_m_per_s),
            speed_fraction: self.roll_source.value().fraction(controllers),
            lift_on_release: self.roll_lift.value(),
            ..patch.roll
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("ball_radius_m", "ball-radius", Kind::Float),
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
            ..patch.drop
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

/// The crumple scene: the stream of impacts, its rate and its gesture, the energies of its
/// events (its fragments are the striker's body, of its material). IDs are stable once
/// released: never rename them.
#[derive(Params)]
pub struct CrumpleParams {
    #[id = "crumple-rate"]
    pub rate_per_s: FloatParam,
    #[id = "crumple-source"]
    pub source: EnumParam<SpeedSourceChoice>,
    #[id = "crumple-gesture"]
    pub gesture: EnumParam<GestureChoice>,
    #[id = "crumple-gesture-time"]
    pub gesture_s: FloatParam,
    #[id = "crumple-exponent"]
    pub exponent: FloatParam,
    #[id = "crumple-min-energy"]
    pub min_energy_j: FloatParam,
    #[id = "crumple-span"]
    pub span_decades: FloatParam,
}

impl Default for CrumpleParams {
    fn default() -> Self {
        let d = Patch::default().crumple;
        Self {
            rate_per_s: float(
                "Event rate",
                d.rate_per_s,
                skewed(1.0, 5000.0, -2.0),
                " /s",
                1,
            ),
            source: EnumParam::new("Event rate source", SpeedSourceChoice::Fixed),
            gesture: EnumParam::new("Gesture", GestureChoice::Steady),
            gesture_s: float(
                "Gesture time",
                d.gesture_s,
                skewed(0.05, 10.0, -1.0),
                " s",
                2,
            ),
            exponent: float(
                "Energy exponent",
                d.energy_exponent,
                linear(1.0, 2.5),
                "",
                2,
            ),
            min_energy_j: float(
                "Smallest energy",
                d.min_energy_j,
                skewed(1e-10, 1e-3, -3.0),
                " J",
                10,
            ),
            span_decades: float(
                "Energy range",
                d.energy_span.log10(),
                linear(0.5, 4.0),
                " decades",
                1,
            ),
        }
    }
}

impl CrumpleParams {
    /// Set the patch's crumple, its rate's share from the controller the source names.
    pub fn apply(&self, patch: &mut Patch, controllers: &Controllers) {
        patch.crumple = Crumple {
            rate_per_s: v(&self.rate_per_s),
            rate_fraction: self.source.value().fraction(controllers),
            energy_exponent: v(&self.exponent),
            min_energy_j: v(&self.min_energy_j),
            energy_span: 10f64.powf(v(&self.span_decades)),
            gesture: self.gesture.value().gesture(),
            gesture_s: v(&self.gesture_s),
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("crumple_rate_per_s", "crumple-rate", Kind::Float),
            PresetKey::new(
                "crumple_rate_source",
                "crumple-source",
                Kind::Enum(ids::<SpeedSourceChoice>()),
            ),
            PresetKey::new(
                "crumple_gesture",
                "crumple-gesture",
                Kind::Enum(ids::<GestureChoice>()),
            ),
            PresetKey::new("crumple_gesture_s", "crumple-gesture-time", Kind::Float),
            PresetKey::new("crumple_energy_exponent", "crumple-exponent", Kind::Float),
            PresetKey::new("crumple_min_energy_j", "crumple-min-energy", Kind::Float),
            PresetKey::new("crumple_energy_decades", "crumple-span", Kind::Float),
        ]
    }
}

/// The break scene: the energy the striker's body holds when it breaks on the object, the
/// crack's share and length, its fragments and their masses' law. IDs are stable once released:
/// never rename them.
#[derive(Params)]
pub struct BreakParams {
    #[id = "break-energy"]
    pub stored_energy_j: FloatParam,
    #[id = "break-crack-share"]
    pub crack_share: FloatParam,
    #[id = "break-crack-time"]
    pub crack_s: FloatParam,
    #[id = "break-fragments"]
    pub fragments: IntParam,
    #[id = "break-mass-exponent"]
    pub mass_exponent: FloatParam,
}

impl Default for BreakParams {
    fn default() -> Self {
        let d = Patch::default().fracture;
        Self {
            stored_energy_j: float(
                "Stored energy",
                d.stored_energy_j,
                skewed(1e-4, 10.0, -3.0),
                " J",
                4,
            ),
            crack_share: float("Crack share", d.crack_share, linear(0.0, 1.0), "", 2),
            crack_s: float("Crack time", d.crack_s, skewed(1e-3, 3.0, -2.0), " s", 3),
            fragments: IntParam::new(
                "Fragments",
                d.fragments as i32,
                IntRange::Linear {
                    min: 1,
                    max: MAX_FRAGMENTS as i32,
                },
            ),
            mass_exponent: float(
                "Fragment mass exponent",
                d.mass_exponent,
                linear(1.0, 2.5),
                "",
                2,
            ),
        }
    }
}

impl BreakParams {
    /// Set the patch's break.
    pub fn apply(&self, patch: &mut Patch) {
        patch.fracture = Fracture {
            stored_energy_j: v(&self.stored_energy_j),
            crack_share: v(&self.crack_share),
            crack_s: v(&self.crack_s),
            fragments: self.fragments.value().clamp(1, MAX_FRAGMENTS as i32) as usize,
            mass_exponent: v(&self.mass_exponent),
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("break_stored_energy_j", "break-energy", Kind::Float),
            PresetKey::new("break_crack_share", "break-crack-share", Kind::Float),
            PresetKey::new("break_crack_s", "break-crack-time", Kind::Float),
            PresetKey::new("break_fragments", "break-fragments", Kind::Int),
            PresetKey::new("break_mass_exponent", "break-mass-exponent", Kind::Float),
        ]
    }
}
