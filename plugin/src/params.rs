//! Urto's host-visible parameters, in physical units, with text conversions that round-trip.

use nice_plug::prelude::*;
use std::sync::{Arc, RwLock};
use urto_dsp::body::{StrikerKind, StrikerSpec};
use urto_dsp::contact::HuntCrossley;
use urto_dsp::integrate::Method;
use urto_dsp::interaction::{ContactSetup, Damping, Gravity};
use urto_dsp::material::{Material, MATERIALS};
use urto_dsp::resonator::{ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::rigid::drop::DropBody;
use urto_dsp::roll::RollSettings;
use urto_dsp::voice::{
    Bounce, Change, DropSettings, Level, Patch, PlayMode, Roll, Stereo, Tuning, VelocityCurve,
    DEFAULT_POLYPHONY, MAX_ALPHA, MAX_MU_S_PER_M, MAX_STIFFNESS, MAX_VOICES, MIN_ALPHA,
    MIN_STIFFNESS,
};

/// The struck object, as the host lists it. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectChoice {
    #[id = "marimba"]
    #[name = "Marimba bar"]
    Marimba,
    #[id = "bar"]
    #[name = "Free bar"]
    Bar,
    #[id = "circular-plate"]
    #[name = "Circular plate"]
    CircularPlate,
    #[id = "rectangular-plate"]
    #[name = "Rectangular plate"]
    RectangularPlate,
    #[id = "membrane"]
    #[name = "Membrane"]
    Membrane,
    #[id = "bell"]
    #[name = "Bell"]
    Bell,
    #[id = "glass"]
    #[name = "Glass"]
    Glass,
    #[id = "plank"]
    #[name = "Wooden plank"]
    Plank,
    #[id = "string"]
    #[name = "String"]
    String,
}

impl ObjectChoice {
    fn kind(self) -> ObjectKind {
        match self {
            ObjectChoice::Marimba => ObjectKind::MarimbaBar,
            ObjectChoice::Bar => ObjectKind::FreeBar,
            ObjectChoice::CircularPlate => ObjectKind::CircularPlate,
            ObjectChoice::RectangularPlate => ObjectKind::RectangularPlate,
            ObjectChoice::Membrane => ObjectKind::Membrane,
            ObjectChoice::Bell => ObjectKind::Bell,
            ObjectChoice::Glass => ObjectKind::Glass,
            ObjectChoice::Plank => ObjectKind::Plank,
            ObjectChoice::String => ObjectKind::String,
        }
    }
}

/// What strikes the object. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrikerChoice {
    #[id = "point-mass"]
    #[name = "Point mass"]
    PointMass,
    #[id = "ball"]
    #[name = "Ball"]
    Ball,
    #[id = "mallet"]
    #[name = "Mallet"]
    Mallet,
    #[id = "rod"]
    #[name = "Rod or spoon end"]
    Rod,
    #[id = "coin"]
    #[name = "Coin edge"]
    Coin,
}

impl StrikerChoice {
    fn kind(self) -> StrikerKind {
        match self {
            StrikerChoice::PointMass => StrikerKind::PointMass,
            StrikerChoice::Ball => StrikerKind::Ball,
            StrikerChoice::Mallet => StrikerKind::Mallet,
            StrikerChoice::Rod => StrikerKind::Rod,
            StrikerChoice::Coin => StrikerKind::Coin,
        }
    }
}

/// A material of [`MATERIALS`], in its order. Variant IDs are the table's stable ids.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialChoice {
    #[id = "steel"]
    #[name = "Steel"]
    Steel,
    #[id = "brass"]
    #[name = "Brass"]
    Brass,
    #[id = "aluminium"]
    #[name = "Aluminium"]
    Aluminium,
    #[id = "bronze"]
    #[name = "Bronze"]
    Bronze,
    #[id = "copper"]
    #[name = "Copper"]
    Copper,
    #[id = "glass"]
    #[name = "Glass"]
    Glass,
    #[id = "ceramic"]
    #[name = "Ceramic"]
    Ceramic,
    #[id = "granite"]
    #[name = "Granite"]
    Granite,
    #[id = "oak"]
    #[name = "Oak"]
    Oak,
    #[id = "maple"]
    #[name = "Maple"]
    Maple,
    #[id = "pine"]
    #[name = "Pine"]
    Pine,
    #[id = "abs"]
    #[name = "ABS plastic"]
    Abs,
    #[id = "acrylic"]
    #[name = "Acrylic"]
    Acrylic,
    #[id = "hard-rubber"]
    #[name = "Hard rubber"]
    HardRubber,
    #[id = "soft-rubber"]
    #[name = "Soft rubber"]
    SoftRubber,
}

impl MaterialChoice {
    fn material(self) -> &'static Material {
        // The variants are the table's rows in order (checked in the tests).
        &MATERIALS[(self as usize).min(MATERIALS.len() - 1)]
    }
}

/// The contact law. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LawChoice {
    #[id = "hunt-crossley"]
    #[name = "Hunt–Crossley"]
    HuntCrossley,
    #[id = "hertz-damper"]
    #[name = "Hertz + linear damper"]
    HertzDamper,
}

/// Where the contact's damping comes from. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DampingFromChoice {
    #[id = "dissipation"]
    #[name = "Dissipation (μ or c)"]
    Dissipation,
    #[id = "restitution"]
    #[name = "Target restitution e"]
    Restitution,
}

/// What a note does. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeChoice {
    #[id = "strike"]
    #[name = "Single strike"]
    Strike,
    #[id = "bounce"]
    #[name = "Bounce"]
    Bounce,
    #[id = "roll"]
    #[name = "Roll"]
    Roll,
    #[id = "drop"]
    #[name = "Drop"]
    Drop,
}

impl ModeChoice {
    fn mode(self) -> PlayMode {
        match self {
            ModeChoice::Strike => PlayMode::Strike,
            ModeChoice::Bounce => PlayMode::Bounce,
            ModeChoice::Roll => PlayMode::Roll,
            ModeChoice::Drop => PlayMode::Drop,
        }
    }
}

/// The body a drop note drops. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropBodyChoice {
    #[id = "die"]
    #[name = "Die"]
    Die,
    #[id = "coin"]
    #[name = "Coin"]
    Coin,
    #[id = "rod"]
    #[name = "Rod or pencil"]
    Rod,
    #[id = "spoon"]
    #[name = "Spoon or fork"]
    Spoon,
    #[id = "brick"]
    #[name = "Brick"]
    Brick,
    #[id = "ring"]
    #[name = "Ring"]
    Ring,
    #[id = "sphere"]
    #[name = "Ball"]
    Sphere,
}

impl DropBodyChoice {
    fn body(self) -> DropBody {
        match self {
            DropBodyChoice::Die => DropBody::Die,
            DropBodyChoice::Coin => DropBody::Coin,
            DropBodyChoice::Rod => DropBody::Rod,
            DropBodyChoice::Spoon => DropBody::Spoon,
            DropBodyChoice::Brick => DropBody::Brick,
            DropBodyChoice::Ring => DropBody::Ring,
            DropBodyChoice::Sphere => DropBody::Sphere,
        }
    }
}

/// How loud a note is. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelChoice {
    #[id = "calibrated"]
    #[name = "Calibrated"]
    Calibrated,
    #[id = "physical"]
    #[name = "Physical (pickup velocity)"]
    Physical,
}

/// What sets the rolling speed (a fraction of "Roll speed"). Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedSourceChoice {
    #[id = "fixed"]
    #[name = "Fixed"]
    Fixed,
    #[id = "mod-wheel"]
    #[name = "Mod wheel (CC 1)"]
    ModWheel,
    #[id = "pressure"]
    #[name = "Channel pressure"]
    Pressure,
    #[id = "expression"]
    #[name = "Expression (CC 11)"]
    Expression,
}

/// The latest values (0…1) of the MIDI controllers a rolling speed can follow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Controllers {
    pub mod_wheel: f32,
    pub pressure: f32,
    pub expression: f32,
}

impl Default for Controllers {
    /// Full scale until a controller message arrives: the ball rolls at "Roll speed" until the
    /// chosen controller is moved.
    fn default() -> Self {
        Self {
            mod_wheel: 1.0,
            pressure: 1.0,
            expression: 1.0,
        }
    }
}

/// The hammer's integrator (Papetti et al., Section III-A). Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegratorChoice {
    #[id = "am1"]
    #[name = "AM1 (trapezoid, energy-consistent)"]
    Am1,
    #[id = "verlet"]
    #[name = "Verlet"]
    Verlet,
    #[id = "heun"]
    #[name = "Heun"]
    Heun,
    #[id = "rk4"]
    #[name = "RK4"]
    Rk4,
}

impl IntegratorChoice {
    fn method(self) -> Method {
        match self {
            IntegratorChoice::Am1 => Method::Am1,
            IntegratorChoice::Verlet => Method::Verlet,
            IntegratorChoice::Heun => Method::Heun,
            IntegratorChoice::Rk4 => Method::Rk4,
        }
    }
}

/// The parameters. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct UrtoParams {
    /// Contact stiffness k, stored as log₁₀(k / (N/m^α)) so the knob is logarithmic; text shows k.
    #[id = "k"]
    pub stiffness_log10: FloatParam,
    /// Contact dissipation μ in s/m.
    #[id = "mu"]
    pub mu_s_per_m: FloatParam,
    /// Contact-shape exponent α.
    #[id = "alpha"]
    pub alpha: FloatParam,
    #[id = "integrator"]
    pub integrator: EnumParam<IntegratorChoice>,
    #[id = "law"]
    pub law: EnumParam<LawChoice>,
    #[id = "damping-from"]
    pub damping_from: EnumParam<DampingFromChoice>,
    /// Target coefficient of restitution e (with "damping from" = restitution).
    #[id = "restitution"]
    pub restitution: FloatParam,
    /// Linear damping c of the Hertz + damper law, stored as log₁₀(N·s/m).
    #[id = "linear-damping"]
    pub linear_damping_log10: FloatParam,
    /// The paper's exit correction with the exact v_out (rigid objects).
    #[id = "corrections"]
    pub corrections: BoolParam,
    /// The energy guard on contact steps (the corrections for a modal object).
    #[id = "guard"]
    pub guard: BoolParam,
    #[id = "hammer-mass"]
    pub hammer_mass_kg: FloatParam,
    #[id = "striker"]
    pub striker: EnumParam<StrikerChoice>,
    #[id = "striker-material"]
    pub striker_material: EnumParam<MaterialChoice>,
    /// The ball's or mallet head's radius, the rod's length, the coin's radius, m.
    #[id = "striker-size"]
    pub striker_size_m: FloatParam,
    /// The striker's own ringing in the mix (0: only the object).
    #[id = "striker-level"]
    pub striker_level: FloatParam,
    #[id = "object-material"]
    pub object_material: EnumParam<MaterialChoice>,
    /// k, α and the restitution from the two materials (Hertz) instead of the raw knobs.
    #[id = "contact-from-materials"]
    pub contact_from_materials: BoolParam,
    /// Tune the object by its material and size instead of key tracking or the fixed pitch.
    #[id = "physical-tuning"]
    pub physical_tuning: BoolParam,
    /// The object's size for physical tuning, m.
    #[id = "object-size"]
    pub object_size_m: FloatParam,
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
    /// Calibrated level (a make-up gain from the patch's physics) or raw pickup velocity.
    #[id = "level"]
    pub level: EnumParam<LevelChoice>,
    #[id = "object"]
    pub object: EnumParam<ObjectChoice>,
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
    /// Share of the pickups' difference in the output.
    #[id = "width"]
    pub stereo_width: FloatParam,
    #[id = "pan-by-key"]
    pub pan_by_key: FloatParam,
    #[id = "modes"]
    pub num_modes: IntParam,
    #[id = "object-mass"]
    pub object_mass_kg: FloatParam,
    #[id = "release"]
    pub release_fraction: FloatParam,
    #[id = "polyphony"]
    pub polyphony: IntParam,
    #[id = "gain"]
    pub gain_db: FloatParam,
    #[id = "mode"]
    pub mode: EnumParam<ModeChoice>,
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
    #[id = "irregularity"]
    pub irregularity: FloatParam,
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
    /// Name of the preset last loaded or saved, kept with the project.
    #[persist = "preset-name"]
    pub preset_name: Arc<RwLock<String>>,
}

/// A float parameter shown with `decimals` decimals and `unit`, parsed with or without the unit.
fn float(
    name: &str,
    default: f64,
    range: FloatRange,
    unit: &'static str,
    decimals: usize,
) -> FloatParam {
    FloatParam::new(name, default as f32, range)
        .with_unit(unit)
        .with_value_to_string(Arc::new(move |x| format!("{x:.decimals$}")))
        .with_string_to_value(Arc::new(move |s| parse_number(s, unit)))
}

/// A logarithmic float parameter: the plain value is log₁₀ of the quantity, the text the quantity.
fn log_float(name: &str, default: f64, min: f64, max: f64, unit: &'static str) -> FloatParam {
    FloatParam::new(
        name,
        default.log10() as f32,
        FloatRange::Linear {
            min: min.log10() as f32,
            max: max.log10() as f32,
        },
    )
    .with_unit(unit)
    .with_value_to_string(Arc::new(|log10| format_scientific(log10)))
    .with_string_to_value(Arc::new(move |s| {
        parse_number(s, unit).filter(|x| *x > 0.0).map(f32::log10)
    }))
}

fn skewed(min: f64, max: f64, skew: f32) -> FloatRange {
    FloatRange::Skewed {
        min: min as f32,
        max: max as f32,
        factor: FloatRange::skew_factor(skew),
    }
}

/// Polyphonic modulation ids (CLAP): the stiffness and the output gain take a per-note offset.
pub const POLY_STIFFNESS: u32 = 0;
pub const POLY_GAIN: u32 = 1;
/// Range of the output gain, dB.
pub const MIN_GAIN_DB: f64 = -48.0;
pub const MAX_GAIN_DB: f64 = 12.0;
/// Pitch bend ranges (semitones): MIDI's customary ±2, and MPE's member-channel default ±48.
pub const DEFAULT_BEND_RANGE_SEMITONES: f64 = 2.0;
pub const DEFAULT_MPE_BEND_RANGE_SEMITONES: f64 = 48.0;

/// A polyphonic modulation of `id` by `normalized_offset` as a change of a note's expression,
/// in the parameter's own units: both parameters are linear in their normalized value (the
/// stiffness in decades, the gain in dB), so the offset is the same wherever the knob stands.
pub fn poly_modulation(id: u32, normalized_offset: f32) -> Option<Change> {
    let offset = f64::from(normalized_offset);
    match id {
        POLY_STIFFNESS => Some(Change::StiffnessDecades(
            offset * (MAX_STIFFNESS / MIN_STIFFNESS).log10(),
        )),
        POLY_GAIN => Some(Change::GainDb(offset * (MAX_GAIN_DB - MIN_GAIN_DB))),
        _ => None,
    }
}

fn linear(min: f64, max: f64) -> FloatRange {
    FloatRange::Linear {
        min: min as f32,
        max: max as f32,
    }
}

impl Default for UrtoParams {
    fn default() -> Self {
        let d = Patch::default();
        let law = d.contact.law;
        Self {
            stiffness_log10: log_float(
                "Stiffness",
                law.stiffness,
                MIN_STIFFNESS,
                MAX_STIFFNESS,
                " N/m^α",
            )
            .with_poly_modulation_id(POLY_STIFFNESS),
            mu_s_per_m: float(
                "Dissipation",
                law.mu_s_per_m,
                skewed(0.0, MAX_MU_S_PER_M, -2.0),
                " s/m",
                3,
            ),
            alpha: float(
                "Contact shape",
                law.alpha,
                linear(MIN_ALPHA, MAX_ALPHA),
                "",
                2,
            ),
            integrator: EnumParam::new("Integrator", IntegratorChoice::Am1),
            law: EnumParam::new("Contact law", LawChoice::HuntCrossley),
            damping_from: EnumParam::new("Damping from", DampingFromChoice::Dissipation),
            restitution: float("Restitution", 0.7, linear(0.01, 0.999), "", 3),
            linear_damping_log10: log_float("Linear damping", 1.0, 1e-3, 1e4, " N·s/m"),
            corrections: BoolParam::new("Exit correction", d.contact.exit_correction),
            guard: BoolParam::new("Energy guard", d.contact.guard),
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
            striker_level: float("Striker level", d.striker_level, linear(0.0, 1.0), "", 2),
            object_material: EnumParam::new("Object material", MaterialChoice::Steel),
            contact_from_materials: BoolParam::new(
                "Contact from materials",
                d.contact_from_materials,
            ),
            physical_tuning: BoolParam::new("Physical tuning", d.physical_tuning),
            object_size_m: float(
                "Object size",
                d.object_size_m,
                skewed(0.01, 5.0, -1.5),
                " m",
                3,
            ),
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
            object: EnumParam::new("Object", ObjectChoice::Marimba),
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
            stereo_width: float("Stereo width", d.stereo.width, linear(0.0, 1.0), "", 2),
            pan_by_key: float("Pan by key", d.stereo.pan_by_key, linear(0.0, 1.0), "", 2),
            num_modes: IntParam::new(
                "Modes",
                d.object.num_modes as i32,
                IntRange::Linear {
                    min: 1,
                    max: MAX_MODES as i32,
                },
            ),
            object_mass_kg: log_float("Object mass", d.object_mass_kg, 1e-3, 100.0, " kg"),
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
            mode: EnumParam::new("Mode", ModeChoice::Strike),
            height_m: float(
                "Drop height",
                d.bounce.height_m,
                skewed(0.0, 3.0, -1.5),
                " m",
                3,
            ),
            gravity_m_per_s2: float(
                "Gravity",
                d.bounce.gravity.accel_m_per_s2,
                skewed(0.1, 30.0, -1.0),
                " m/s²",
                2,
            ),
            gravity_in_contact: BoolParam::new("Gravity in contact", d.bounce.gravity.in_contact),
            capture_m_per_s: float(
                "Capture velocity",
                d.bounce.gravity.capture_m_per_s,
                skewed(0.0, 1.0, -2.5),
                " m/s",
                4,
            ),
            irregularity: float(
                "Irregularity",
                d.bounce.irregularity,
                linear(0.0, 1.0),
                "",
                2,
            ),
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
            preset_name: Arc::new(RwLock::new("Init".to_string())),
        }
    }
}

impl UrtoParams {
    /// The parameter with stable id `id`.
    pub fn ptr(&self, id: &str) -> Option<ParamPtr> {
        self.param_map()
            .into_iter()
            .find(|(param_id, _, _)| param_id == id)
            .map(|(_, ptr, _)| ptr)
    }

    /// Name of the preset last loaded or saved.
    pub fn preset_name(&self) -> String {
        self.preset_name
            .read()
            .map(|name| name.clone())
            .unwrap_or_default()
    }

    pub fn set_preset_name(&self, name: &str) {
        if let Ok(mut current) = self.preset_name.write() {
            *current = name.to_string();
        }
    }

    /// The engine settings for the current parameter values and MIDI controllers, with the
    /// striker's mass and (when asked) the contact derived from the materials
    /// ([`Patch::resolved`]).
    pub fn patch(&self, controllers: &Controllers) -> Patch {
        let defaults = Patch::default();
        let v = |p: &FloatParam| f64::from(p.value());
        let pow10 = |p: &FloatParam| 10f64.powf(v(p));
        Patch {
            contact: ContactSetup {
                law: HuntCrossley {
                    stiffness: pow10(&self.stiffness_log10),
                    mu_s_per_m: v(&self.mu_s_per_m),
                    alpha: v(&self.alpha),
                },
                method: self.integrator.value().method(),
                guard: self.guard.value(),
                exit_correction: self.corrections.value(),
                damping: match self.law.value() {
                    LawChoice::HuntCrossley => Damping::HuntCrossley,
                    LawChoice::HertzDamper => Damping::Linear {
                        n_s_per_m: pow10(&self.linear_damping_log10),
                    },
                },
                restitution: match self.damping_from.value() {
                    DampingFromChoice::Dissipation => None,
                    DampingFromChoice::Restitution => Some(v(&self.restitution)),
                },
            },
            hammer_mass_kg: pow10(&self.hammer_mass_kg),
            striker: StrikerSpec {
                kind: self.striker.value().kind(),
                material: self.striker_material.value().material(),
                size_m: v(&self.striker_size_m),
            },
            striker_level: v(&self.striker_level),
            object_material: self.object_material.value().material(),
            contact_from_materials: self.contact_from_materials.value(),
            physical_tuning: self.physical_tuning.value(),
            object_size_m: v(&self.object_size_m),
            object: ObjectSpec {
                kind: self.object.value().kind(),
                f0_hz: v(&self.fixed_f0_hz),
                num_modes: self.num_modes.value().max(1) as usize,
                t60_s: v(&self.t60_s),
                damping_slope: v(&self.damping_slope),
                stretch: v(&self.stretch),
                strike_position: v(&self.strike_position),
                pickup_position: v(&self.pickup_position),
                right_pickup_position: v(&self.right_pickup_position),
            },
            object_mass_kg: pow10(&self.object_mass_kg),
            tuning: Tuning {
                key_tracking: self.key_tracking.value(),
                a4_hz: v(&self.a4_hz),
                fixed_f0_hz: v(&self.fixed_f0_hz),
            },
            velocity: VelocityCurve {
                min_m_per_s: v(&self.v_min_m_per_s),
                max_m_per_s: v(&self.v_max_m_per_s),
                range_db: v(&self.dynamic_range_db),
                shape: v(&self.velocity_curve),
            },
            stereo: Stereo {
                width: v(&self.stereo_width),
                pan_by_key: v(&self.pan_by_key),
            },
            level: match self.level.value() {
                LevelChoice::Calibrated => Level::Calibrated,
                LevelChoice::Physical => Level::Physical,
            },
            release_fraction: v(&self.release_fraction),
            // The output gain is applied, smoothed, by the plugin after the engine.
            gain: 1.0,
            mode: self.mode.value().mode(),
            bounce: Bounce {
                height_m: v(&self.height_m),
                gravity: Gravity {
                    accel_m_per_s2: v(&self.gravity_m_per_s2),
                    in_contact: self.gravity_in_contact.value(),
                    capture_m_per_s: v(&self.capture_m_per_s),
                },
                irregularity: v(&self.irregularity),
            },
            roll: Roll {
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
                ..defaults.roll
            },
            drop: DropSettings {
                body: self.drop_body.value().body(),
                size_m: self.drop_body.value().body().usual_size_m() * v(&self.drop_scale),
                spin_rad_per_s: v(&self.drop_spin_rad_per_s),
                drift_m_per_s: v(&self.drop_drift_m_per_s),
                mu: v(&self.drop_mu),
                lift_on_release: self.drop_lift.value(),
            },
            press_depth: v(&self.press_depth),
        }
        .resolved()
    }
}

/// A quantity in scientific notation with three significant digits, e.g. "1.00e8".
fn format_scientific(log10: f32) -> String {
    format!("{:.2e}", 10f64.powf(f64::from(log10)))
}

/// Parse a number, with or without its unit suffix.
fn parse_number(text: &str, unit: &str) -> Option<f32> {
    let text = text.trim();
    let text = text.strip_suffix(unit.trim()).unwrap_or(text).trim();
    text.parse::<f32>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every float parameter's text survives value → text → value → text unchanged.
    #[test]
    fn text_conversions_round_trip() {
        let params = UrtoParams::default();
        let mut checked = 0;
        for (id, ptr, _) in params.param_map() {
            for i in 0..=100 {
                let normalized = i as f32 / 100.0;
                // SAFETY: the pointers come from `params`, which outlives this loop.
                let (text, back) = unsafe {
                    let text = ptr.normalized_value_to_string(normalized, true);
                    (text.clone(), ptr.string_to_normalized_value(&text))
                };
                let back = back.unwrap_or_else(|| panic!("{id} cannot parse {text:?}"));
                let again = unsafe { ptr.normalized_value_to_string(back, true) };
                assert_eq!(again, text, "{id}");
                checked += 1;
            }
        }
        assert_eq!(checked, 101 * 64);
    }

    /// The Mode parameter offers every play mode, in [`PlayMode::ALL`]'s order, under its id:
    /// the soak, the tests and the exports address modes by that index.
    #[test]
    fn mode_choices_are_every_play_mode_in_order() {
        let ids = ModeChoice::ids().expect("the modes have ids");
        assert_eq!(ModeChoice::variants().len(), PlayMode::ALL.len());
        for (index, mode) in PlayMode::ALL.into_iter().enumerate() {
            assert_eq!(ModeChoice::from_index(index).mode(), mode);
            assert_eq!(ids[index], mode.id());
        }
    }

    #[test]
    fn material_choices_are_the_table_in_order() {
        let ids = MaterialChoice::ids().unwrap_or(&[]);
        assert_eq!(ids.len(), MATERIALS.len());
        for (i, (id, material)) in ids.iter().zip(MATERIALS.iter()).enumerate() {
            assert_eq!(*id, material.id);
            assert_eq!(MaterialChoice::from_index(i).material().id, material.id);
        }
    }

    #[test]
    fn scientific_text_is_the_quantity_itself() {
        assert_eq!(format_scientific(8.0), "1.00e8");
        assert_eq!(parse_number("2.5e9 N/m^α", " N/m^α"), Some(2.5e9));
        assert_eq!(parse_number("0.25 s/m", " s/m"), Some(0.25));
        assert_eq!(parse_number("abc", ""), None);
    }
}
