//! Urto's host-visible parameters, in physical units, with text conversions that round-trip.

use nice_plug::prelude::*;
use std::sync::{Arc, RwLock};
use urto_dsp::contact::{MAX_STIFFNESS, MIN_STIFFNESS};
use urto_dsp::voice::{Change, Patch, PlayMode};

mod choices;
mod contact;
mod expression;
mod fall;
mod object;
mod output;
mod scenes;
mod slide;
mod striker;
mod surface;
mod usage;

pub use choices::{
    DampingFromChoice, DropBodyChoice, IntegratorChoice, LawChoice, LevelChoice, MaterialChoice,
    ModeChoice, ObjectChoice, SpeedSourceChoice, StrikerChoice,
};
pub use contact::ContactParams;
pub use expression::ExpressionParams;
pub use fall::FallParams;
pub use object::ObjectParams;
pub use output::OutputParams;
pub use scenes::{BounceParams, DropParams, RollParams, SceneParams};
pub use slide::SlideParams;
pub use striker::StrikerParams;
pub use surface::SURFACE_HEIGHT_RANGE_M;
pub use usage::acts_in;

/// How a preset stores one parameter.
#[derive(Clone, Copy)]
pub enum Kind {
    /// The plain value, as the parameter shows it.
    Float,
    /// The physical quantity of a parameter stored as its log₁₀.
    Log10,
    Int,
    Bool,
    /// A variant id of the parameter's enum.
    Enum(&'static [&'static str]),
}

/// A preset key (physical name with unit), the parameter it sets, and how.
pub struct PresetKey {
    pub name: &'static str,
    pub id: &'static str,
    pub kind: Kind,
}

impl PresetKey {
    pub const fn new(name: &'static str, id: &'static str, kind: Kind) -> Self {
        Self { name, id, kind }
    }
}

/// The stable variant ids of a choice, for its preset key.
fn ids<E: Enum>() -> &'static [&'static str] {
    E::ids().unwrap_or(&[])
}

/// A float parameter's value, f64.
fn v(p: &FloatParam) -> f64 {
    f64::from(p.value())
}

/// The quantity of a parameter stored as its log₁₀.
fn pow10(p: &FloatParam) -> f64 {
    10f64.powf(v(p))
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

/// The parameters, in nested groups by concern (one per scene); each group maps itself onto the
/// patch and owns its preset keys. IDs are stable once released: never rename them (a group
/// adds no prefix).
#[derive(Params)]
pub struct UrtoParams {
    #[id = "mode"]
    pub mode: EnumParam<ModeChoice>,
    #[nested(group = "Contact")]
    pub contact: ContactParams,
    #[nested(group = "Striker")]
    pub striker: StrikerParams,
    #[nested(group = "Object")]
    pub object: ObjectParams,
    #[nested(group = "Output")]
    pub output: OutputParams,
    #[nested(group = "Fall")]
    pub fall: FallParams,
    /// One group per scene (Bounce, Roll, Drop).
    #[nested]
    pub scenes: SceneParams,
    #[nested(group = "Expression")]
    pub expression: ExpressionParams,
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
    .with_value_to_string(Arc::new(format_scientific))
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
        Self {
            mode: EnumParam::new("Mode", ModeChoice(PlayMode::Strike)),
            contact: ContactParams::default(),
            striker: StrikerParams::default(),
            object: ObjectParams::default(),
            output: OutputParams::default(),
            fall: FallParams::default(),
            scenes: SceneParams::default(),
            expression: ExpressionParams::default(),
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

    /// Every parameter's stable id, in the host's order.
    pub fn ids(&self) -> Vec<String> {
        self.param_map().into_iter().map(|(id, _, _)| id).collect()
    }

    /// Set the play mode at once, as a host's automation does, without a host: for the editor's
    /// tests and its benchmark.
    #[doc(hidden)]
    pub fn set_mode_directly(&self, mode: PlayMode) {
        let normalized = self.mode.preview_normalized(ModeChoice(mode));
        // SAFETY: the pointer is into `self`, alive for the call.
        unsafe {
            self.mode
                .as_ptr()
                ._internal_set_normalized_value(normalized)
        };
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
        let mut patch = Patch {
            mode: self.mode.value().0,
            // The output gain is applied, smoothed, by the plugin after the engine.
            gain: 1.0,
            ..Patch::default()
        };
        self.contact.apply(&mut patch);
        self.striker.apply(&mut patch);
        self.object.apply(&mut patch);
        self.output.apply(&mut patch);
        self.fall.apply(&mut patch);
        self.scenes.apply(&mut patch, controllers);
        self.expression.apply(&mut patch);
        patch.resolved()
    }

    /// Every parameter's preset key, group by group (the mode's first).
    pub fn preset_keys() -> Vec<PresetKey> {
        let mut keys = vec![PresetKey::new(
            "mode",
            "mode",
            Kind::Enum(ids::<ModeChoice>()),
        )];
        for group in [
            ContactParams::preset_keys,
            StrikerParams::preset_keys,
            ObjectParams::preset_keys,
            OutputParams::preset_keys,
            FallParams::preset_keys,
            SceneParams::preset_keys,
            ExpressionParams::preset_keys,
        ] {
            keys.extend(group());
        }
        keys
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

/// Assert that the table whose ids are `listed` names every parameter once, and nothing else.
#[cfg(test)]
pub(crate) fn assert_lists_every_parameter_once<'a>(listed: impl Iterator<Item = &'a str> + Clone) {
    let ids = UrtoParams::default().ids();
    for id in &ids {
        let count = listed.clone().filter(|known| known == id).count();
        assert_eq!(count, 1, "{id} is listed {count} times");
    }
    for id in listed {
        assert!(ids.iter().any(|known| known == id), "{id} is no parameter");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urto_dsp::material::MATERIALS;

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
        assert_eq!(checked, 101 * params.param_map().len());
    }

    /// The Mode parameter offers every play mode, in [`PlayMode::ALL`]'s order, under its id:
    /// the soak, the tests and the exports address modes by that index.
    #[test]
    fn mode_choices_are_every_play_mode_in_order() {
        let ids = ModeChoice::ids().expect("the modes have ids");
        assert_eq!(ModeChoice::variants().len(), PlayMode::ALL.len());
        for (index, mode) in PlayMode::ALL.into_iter().enumerate() {
            assert_eq!(mode.index(), index);
            assert_eq!(ModeChoice::from_index(index), ModeChoice(mode));
            assert_eq!(ids[index], mode.id());
        }
        // The ids saved projects and presets hold (a new mode adds its own at the end).
        let saved = [
            "strike", "bounce", "roll", "drop", "slide", "crumple", "break",
        ];
        assert_eq!(ids, saved);
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
