//! Presets: one JSON file per preset, physical parameter names and units, a format version;
//! factory presets built into the plugin, user presets in the per-user data folder.

mod old_roll;

use crate::params::{Kind, PresetKey, UrtoParams};
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What the `format` field of every preset file says.
pub const FORMAT: &str = "urto-preset";
/// The preset format this Urto writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 2;
/// The persisted field holding the name of the preset last loaded (or saved).
pub const PRESET_NAME_FIELD: &str = "preset-name";

/// The factory presets, embedded from `presets/*.json` at build time: (file name, contents).
pub const FACTORY: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/factory_presets.rs"));

/// Every parameter's preset key (see [`UrtoParams::preset_keys`]).
fn keys() -> Vec<PresetKey> {
    UrtoParams::preset_keys()
}

/// A preset file as stored.
#[derive(Serialize, Deserialize)]
struct PresetFile {
    format: String,
    version: u32,
    name: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    description: String,
    parameters: BTreeMap<String, serde_json::Value>,
}

/// Why a preset could not be read. Nothing is changed when this happens.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetError {
    Unreadable(String),
    Malformed(String),
    NotAPreset,
    Newer {
        version: u32,
    },
    UnknownParameter(String),
    BadValue {
        key: String,
        expected: &'static str,
    },
    OutOfRange {
        key: String,
        value: f64,
        min: f64,
        max: f64,
    },
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::Unreadable(e) => write!(f, "cannot read the preset file: {e}"),
            PresetError::Malformed(e) => write!(f, "not a valid preset file: {e}"),
            PresetError::NotAPreset => write!(f, "not an Urto preset (no \"format\": \"{FORMAT}\")"),
            PresetError::Newer { version } => write!(
                f,
                "made by a newer Urto (preset format {version}; this one reads up to {FORMAT_VERSION})"
            ),
            PresetError::UnknownParameter(key) => write!(f, "unknown parameter \"{key}\""),
            PresetError::BadValue { key, expected } => {
                write!(f, "\"{key}\" should be {expected}")
            }
            PresetError::OutOfRange {
                key,
                value,
                min,
                max,
            } => write!(f, "\"{key}\" = {value} is outside {min} … {max}"),
        }
    }
}

/// A validated preset: plain parameter values (as the parameters store them) by parameter id.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub name: String,
    pub category: String,
    pub description: String,
    plain: BTreeMap<&'static str, f32>,
}

impl Preset {
    /// Read and validate a preset from its JSON text.
    pub fn parse(text: &str) -> Result<Preset, PresetError> {
        let mut file: PresetFile =
            serde_json::from_str(text).map_err(|e| PresetError::Malformed(e.to_string()))?;
        if file.format != FORMAT {
            return Err(PresetError::NotAPreset);
        }
        if file.version > FORMAT_VERSION {
            return Err(PresetError::Newer {
                version: file.version,
            });
        }
        if file.version < 2 {
            old_roll::upgrade_preset(&mut file.parameters)?;
        }
        let reference = UrtoParams::default();
        let keys = keys();
        let mut plain = BTreeMap::new();
        for (name, value) in &file.parameters {
            let key = keys
                .iter()
                .find(|k| k.name == name)
                .ok_or_else(|| PresetError::UnknownParameter(name.clone()))?;
            let bad = |expected| PresetError::BadValue {
                key: name.clone(),
                expected,
            };
            let (stored, shown) = match key.kind {
                Kind::Float | Kind::Log10 | Kind::Int => {
                    let x = value.as_f64().ok_or(bad("a number"))?;
                    match key.kind {
                        Kind::Log10 if x > 0.0 => (x.log10(), x),
                        Kind::Log10 => return Err(bad("a positive number")),
                        Kind::Int if x.fract() != 0.0 => return Err(bad("a whole number")),
                        _ => (x, x),
                    }
                }
                Kind::Bool => (
                    f64::from(u8::from(value.as_bool().ok_or(bad("true or false"))?)),
                    0.0,
                ),
                Kind::Enum(variants) => {
                    let id = value.as_str().ok_or(bad("a text"))?;
                    let index = variants
                        .iter()
                        .position(|v| *v == id)
                        .ok_or(bad("one of the listed choices"))?;
                    (index as f64, 0.0)
                }
            };
            if matches!(key.kind, Kind::Float | Kind::Log10 | Kind::Int) {
                let ptr = &reference.ptr(key.id).ok_or(bad("a known parameter"))?;
                // SAFETY: `ptr` points into `reference`, alive for this whole function.
                let (back, lo, hi) = unsafe {
                    (
                        f64::from(ptr.preview_plain(ptr.preview_normalized(stored as f32))),
                        f64::from(ptr.preview_plain(0.0)),
                        f64::from(ptr.preview_plain(1.0)),
                    )
                };
                if !stored.is_finite() || (back - stored).abs() > 1e-4 * stored.abs().max(1.0) {
                    let physical = |x: f64| match key.kind {
                        Kind::Log10 => 10f64.powf(x),
                        _ => x,
                    };
                    return Err(PresetError::OutOfRange {
                        key: name.clone(),
                        value: shown,
                        min: physical(lo),
                        max: physical(hi),
                    });
                }
            }
            plain.insert(key.id, stored as f32);
        }
        Ok(Preset {
            name: file.name,
            category: file.category,
            description: file.description,
            plain,
        })
    }

    /// Read a preset file.
    pub fn load(path: &Path) -> Result<Preset, PresetError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| PresetError::Unreadable(e.to_string()))?;
        Preset::parse(&text)
    }

    /// The current values of `params` as a preset named `name`.
    pub fn capture(params: &UrtoParams, name: &str) -> Preset {
        let plain = params
            .param_map()
            .into_iter()
            .filter_map(|(id, ptr, _)| {
                let key = keys().into_iter().find(|k| k.id == id)?;
                // SAFETY: `ptr` points into `params`, borrowed for this call.
                Some((key.id, unsafe { ptr.unmodulated_plain_value() }))
            })
            .collect();
        Preset {
            name: name.to_string(),
            category: "User".to_string(),
            description: String::new(),
            plain,
        }
    }

    /// The preset as JSON text, physical quantities by name.
    pub fn to_json(&self) -> String {
        let parameters = keys()
            .iter()
            .filter_map(|key| {
                let x = f64::from(*self.plain.get(key.id)?);
                let value = match key.kind {
                    Kind::Float => serde_json::json!(round_sig(x)),
                    Kind::Log10 => serde_json::json!(round_sig(10f64.powf(x))),
                    Kind::Int => serde_json::json!(x.round() as i64),
                    Kind::Bool => serde_json::json!(x > 0.5),
                    Kind::Enum(variants) => serde_json::json!(variants.get(x as usize)?),
                };
                Some((key.name.to_string(), value))
            })
            .collect();
        let file = PresetFile {
            format: FORMAT.to_string(),
            version: FORMAT_VERSION,
            name: self.name.clone(),
            category: self.category.clone(),
            description: self.description.clone(),
            parameters,
        };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// The plain value the preset gives parameter `id` (an enum's variant index), if it sets it.
    pub fn plain_value(&self, id: &str) -> Option<f32> {
        self.plain.get(id).copied()
    }

    /// The plain value of parameter `id`: the preset's, else the parameter's default.
    fn plain_or_default(&self, id: &str, ptr: &ParamPtr) -> f32 {
        self.plain
            .get(id)
            .copied()
            // SAFETY: callers pass a pointer into live parameters.
            .unwrap_or_else(|| unsafe { ptr.default_plain_value() })
    }

    /// Set every parameter through the host (as a user gesture each): the preset's value, or the
    /// default for parameters the preset leaves out.
    pub fn apply(&self, params: &UrtoParams, setter: &ParamSetter) {
        for (id, ptr, _) in params.param_map() {
            // SAFETY: `ptr` points into `params`, borrowed for this call.
            let normalized = unsafe { ptr.preview_normalized(self.plain_or_default(&id, &ptr)) };
            let context = setter.raw_context;
            // SAFETY: as above; the context belongs to the editor that owns `params`.
            unsafe {
                context.raw_begin_set_parameter(ptr);
                context.raw_set_parameter_normalized(ptr, normalized);
                context.raw_end_set_parameter(ptr);
            }
        }
        params.set_preset_name(&self.name);
    }

    /// Fresh parameters holding this preset's values, set directly, without a host: for tools
    /// that play a preset through the engine (`cargo xtask break`).
    #[doc(hidden)]
    pub fn to_params(&self) -> UrtoParams {
        let params = UrtoParams::default();
        for (id, ptr, _) in params.param_map() {
            // SAFETY: `ptr` points into `params`, alive for the call.
            unsafe {
                let normalized = ptr.preview_normalized(self.plain_or_default(&id, &ptr));
                ptr._internal_set_normalized_value(normalized);
            }
        }
        params
    }

    /// Whether `params` hold this preset's values (the defaults of the keys it leaves out), within
    /// a ten-thousandth of each parameter's range: what the browser marks as modified when not.
    pub fn matches(&self, params: &UrtoParams) -> bool {
        params.param_map().into_iter().all(|(id, ptr, _)| {
            // SAFETY: `ptr` points into `params`, borrowed for this call.
            let (want, have) = unsafe {
                (
                    ptr.preview_normalized(self.plain_or_default(&id, &ptr)),
                    ptr.unmodulated_normalized_value(),
                )
            };
            (want - have).abs() <= 1e-4
        })
    }

    /// The plugin state that loads this preset (every parameter, and the preset's name).
    pub fn to_state(&self, params: &UrtoParams) -> PluginState {
        let mut state_params = BTreeMap::new();
        for key in keys() {
            let Some(ptr) = params.ptr(key.id) else {
                continue;
            };
            let x = self.plain_or_default(key.id, &ptr);
            let value = match key.kind {
                Kind::Float | Kind::Log10 => ParamValue::F32(x),
                Kind::Int => ParamValue::I32(x.round() as i32),
                Kind::Bool => ParamValue::Bool(x > 0.5),
                Kind::Enum(variants) => {
                    ParamValue::String(variants.get(x as usize).unwrap_or(&"").to_string())
                }
            };
            state_params.insert(key.id.to_string(), value);
        }
        let mut fields = BTreeMap::new();
        fields.insert(
            PRESET_NAME_FIELD.to_string(),
            serde_json::to_string(&self.name).unwrap_or_default(),
        );
        PluginState {
            version: env!("CARGO_PKG_VERSION").to_string(),
            params: state_params,
            fields,
        }
    }
}

/// Bring a state saved by an older Urto up to date before it loads. Parameters the old version
/// did not have are missing from its state, and a missing parameter would keep whatever value the
/// instance had; so each gets the value that reproduces the old version's sound, which for every
/// parameter added since 0.1 is its default (single strike, Hunt–Crossley, damping from μ, …).
pub fn migrate_state(state: &mut PluginState) {
    old_roll::upgrade_state(state);
    let current = env!("CARGO_PKG_VERSION");
    if state.version == current {
        return;
    }
    if !state.params.contains_key("level") {
        keep_the_sound_of_0_2(state);
    }
    let defaults = Preset {
        name: String::new(),
        category: String::new(),
        description: String::new(),
        plain: BTreeMap::new(),
    }
    .to_state(&UrtoParams::default());
    for (id, value) in defaults.params {
        state.params.entry(id).or_insert(value);
    }
    state
        .fields
        .entry(PRESET_NAME_FIELD.to_string())
        .or_insert_with(|| {
            serde_json::to_string(&format!("Project from Urto {}", state.version))
                .unwrap_or_default()
        });
    state.version = current.to_string();
}

/// A project from before the calibrated level and the stereo pickups (Urto 0.2 and older) keeps
/// its sound: the right pickup where the left one is (mono, as before), the physical level, and
/// velocity spanning
/// the strike speeds evenly in dB: the old map, v = v_min·(v_max/v_min)^velocity, moves the level
/// by 20·log₁₀(v_max/v_min) dB over the keyboard where the output is proportional to the speed
/// (an impulse on linear modes), which a straight curve of that range reproduces.
fn keep_the_sound_of_0_2(state: &mut PluginState) {
    let plain = |id: &str, default: f64| match state.params.get(id) {
        Some(ParamValue::F32(x)) => f64::from(*x),
        _ => default,
    };
    let defaults = UrtoParams::default();
    let v_min = plain(
        "v-min",
        f64::from(defaults.output.v_min_m_per_s.default_plain_value()),
    );
    let v_max = plain(
        "v-max",
        f64::from(defaults.output.v_max_m_per_s.default_plain_value()),
    );
    let pickup = plain(
        "pickup-pos",
        f64::from(defaults.object.pickup_position.default_plain_value()),
    );
    let range_db = (20.0 * (v_max / v_min).log10()).clamp(0.0, 60.0);
    let range_db = if range_db.is_finite() { range_db } else { 0.0 };
    let params = &mut state.params;
    params.insert("level".into(), ParamValue::String("physical".into()));
    params.insert("velocity-curve".into(), ParamValue::F32(1.0));
    params.insert("dynamic-range".into(), ParamValue::F32(range_db as f32));
    params.insert("pickup-right".into(), ParamValue::F32(pickup as f32));
}

/// Round to 6 significant digits, so saved presets read well and load back the same.
fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(5 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

/// The factory presets, parsed (the build checks they all parse; see the tests).
pub fn factory() -> Vec<Preset> {
    FACTORY
        .iter()
        .filter_map(|(_, text)| Preset::parse(text).ok())
        .collect()
}

/// The per-user preset folder: `$XDG_DATA_HOME/urto/presets` on Linux, the platform's
/// equivalent elsewhere.
pub fn user_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Urto", "Urto").map(|d| d.data_dir().join("presets"))
}

/// The user's presets, sorted by name, with the errors of the files that would not load.
pub fn user_presets() -> (Vec<Preset>, Vec<String>) {
    let (mut presets, mut errors) = (vec![], vec![]);
    let Some(folder) = user_folder() else {
        return (presets, errors);
    };
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return (presets, errors);
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.extension().is_some_and(|x| x == "json") {
            match Preset::load(&path) {
                Ok(preset) => presets.push(preset),
                Err(e) => errors.push(format!("{}: {e}", path.display())),
            }
        }
    }
    presets.sort_by(|a, b| a.name.cmp(&b.name));
    (presets, errors)
}

/// `preset`'s file name: [`file_stem`], then `.json`.
fn file_name(preset: &Preset) -> String {
    format!("{}.json", file_stem(&preset.name))
}

/// A file name's stem for a preset named `name` (its preset file's, its `.vstpreset`'s): every
/// character other than letters, digits, spaces and `-` made `_`.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    stem.trim().to_string()
}

/// Save `preset` as `<folder>/<name>.json`, replacing a user preset of the same name.
pub fn save_user_preset(preset: &Preset) -> Result<PathBuf, String> {
    let folder = user_folder().ok_or("no per-user data folder on this system")?;
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let path = folder.join(file_name(preset));
    std::fs::write(&path, preset.to_json()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The factory presets as files, for hosts' preset browsers (CLAP preset discovery):
/// `$XDG_DATA_HOME/urto/factory-presets` on Linux, the platform's equivalent elsewhere.
pub fn factory_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Urto", "Urto")
        .map(|d| d.data_dir().join("factory-presets"))
}

/// The mark of the factory presets a folder holds: FNV-1a over every preset's text.
fn factory_mark() -> String {
    let hash = FACTORY
        .iter()
        .flat_map(|(_, text)| text.bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{hash:016x}")
}

/// Write every factory preset into [`factory_folder`] unless it holds these presets already
/// (its `.factory-mark` says which), then remove the `.json` files of older ones. Each file is
/// written under a name of this process's and thread's and renamed, so a host crawling the
/// folder, or another scanner writing it at the same time, never sees half a file. Returns the
/// folder.
pub fn write_factory_files() -> Result<PathBuf, String> {
    let folder = factory_folder().ok_or("no per-user data folder on this system")?;
    let fail = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    let mark_path = folder.join(".factory-mark");
    let mark = factory_mark();
    if std::fs::read_to_string(&mark_path).is_ok_and(|m| m == mark) {
        return Ok(folder);
    }
    std::fs::create_dir_all(&folder).map_err(|e| fail(&folder, e))?;
    let writer = format!("{}-{:?}", std::process::id(), std::thread::current().id());
    let write_whole = |path: &Path, text: &str| {
        let part = folder.join(format!(".{writer}.part"));
        std::fs::write(&part, text).map_err(|e| fail(&part, e))?;
        std::fs::rename(&part, path).map_err(|e| fail(path, e))
    };
    let presets = factory();
    let names: Vec<String> = presets.iter().map(file_name).collect();
    for (preset, name) in presets.iter().zip(&names) {
        write_whole(&folder.join(name), &preset.to_json())?;
    }
    for entry in std::fs::read_dir(&folder)
        .map_err(|e| fail(&folder, e))?
        .flatten()
    {
        let path = entry.path();
        let stale = path.extension().is_some_and(|x| x == "json")
            && !names
                .iter()
                .any(|n| path.file_name().is_some_and(|f| f == n.as_str()));
        if stale {
            // Another scanner may have removed it already.
            let _ = std::fs::remove_file(&path);
        }
    }
    write_whole(&mark_path, &mark)?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_exactly_one_preset_key() {
        let params = UrtoParams::default();
        let ids: Vec<String> = params
            .param_map()
            .into_iter()
            .map(|(id, _, _)| id)
            .collect();
        let keys = keys();
        assert_eq!(keys.len(), ids.len());
        for id in &ids {
            assert_eq!(keys.iter().filter(|k| k.id == id).count(), 1, "{id}");
        }
    }

    #[test]
    fn there_are_at_least_24_factory_presets_and_all_parse() {
        assert!(FACTORY.len() >= 24, "{} factory presets", FACTORY.len());
        for (file, text) in FACTORY {
            let preset = Preset::parse(text).unwrap_or_else(|e| panic!("{file}: {e}"));
            // Saved and read back, a preset is the same preset.
            assert_eq!(
                Preset::parse(&preset.to_json()),
                Ok(preset.clone()),
                "{file}"
            );
        }
    }

    #[test]
    fn bad_presets_are_refused_with_a_reason() {
        let good: serde_json::Value = serde_json::from_str(FACTORY[0].1).unwrap();
        let with = |field: &str, value: serde_json::Value| {
            let mut preset = good.clone();
            preset[field] = value;
            preset.to_string()
        };
        let with_parameter = |key: &str, value: serde_json::Value| {
            let mut preset = good.clone();
            preset["parameters"][key] = value;
            preset.to_string()
        };
        let cases = [
            ("{ not json".to_string(), "not a valid preset file"),
            (
                with("format", "something-else".into()),
                "not an Urto preset",
            ),
            (with("version", (FORMAT_VERSION + 1).into()), "newer Urto"),
            (with_parameter("warp_drive", 1.into()), "unknown parameter"),
            (with_parameter("modes", 1000.into()), "outside"),
            (with_parameter("modes", 2.5.into()), "whole number"),
            (with_parameter("object", "teapot".into()), "listed choices"),
            (with_parameter("hammer_mass_kg", (-1.0).into()), "positive"),
            (
                with_parameter("key_tracking", "yes".into()),
                "true or false",
            ),
        ];
        for (text, reason) in cases {
            let error = Preset::parse(&text).expect_err(reason).to_string();
            assert!(error.contains(reason), "{error} (wanted {reason})");
        }
    }
}
