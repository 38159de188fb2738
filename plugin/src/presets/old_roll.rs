//! Before the roll's track was the surface group (preset format 1, Urto 0.3 and older): its "Roughness" and "Roughness slope" become the fractal surface they describe.

use super::PresetError;
use nice_plug::plugin::{ParamValue, PluginState};
use serde_json::Value;
use std::collections::BTreeMap;
use urto_dsp::roll::{RollSettings, MARBLE_ROUGHNESS_M, MARBLE_SLOPE};

/// The surface group's values a format-1 preset or an old project meant when it did not name
/// them (the slide's defaults then): kind, height (m), slope β.
const OLD_SURFACE: (&str, f64, f64) = ("smooth", 1e-6, 2.0);
/// The surface group's height range, m.
const HEIGHT_RANGE_M: (f64, f64) = (1e-8, 1e-3);

/// The surface of an old roll of `roughness_m` and `slope`: the fractal of
/// [`RollSettings::fractal_track`] (its height held within the surface group's range), as
/// kind, height (m), slope β.
fn surface_of_old_roll(roughness_m: f64, slope: f64) -> (&'static str, f64, f64) {
    let track = RollSettings::fractal_track(roughness_m, slope, 0);
    let (lo, hi) = HEIGHT_RANGE_M;
    ("fractal", track.height_m.clamp(lo, hi), track.slope)
}

/// Bring a format-1 preset's `parameters` up to format 2: a roll's surface is the one its
/// roughness and slope describe; any other mode keeps the surface it named, and the old
/// defaults for what it did not.
pub(super) fn upgrade_preset(parameters: &mut BTreeMap<String, Value>) -> Result<(), PresetError> {
    let mut take = |key: &str, default: f64, positive: bool| match parameters.remove(key) {
        None => Ok(default),
        Some(value) => value
            .as_f64()
            .filter(|x| x.is_finite() && (!positive || *x > 0.0))
            .ok_or(PresetError::BadValue {
                key: key.to_string(),
                expected: if positive {
                    "a positive number"
                } else {
                    "a number"
                },
            }),
    };
    let roughness_m = take("roughness_m", MARBLE_ROUGHNESS_M, true)?;
    let slope = take("roughness_slope", MARBLE_SLOPE, false)?;
    let is_roll = parameters.get("mode").and_then(Value::as_str) == Some("roll");
    let (kind, height_m, beta) = if is_roll {
        surface_of_old_roll(roughness_m, slope)
    } else {
        OLD_SURFACE
    };
    for (key, value) in [
        ("surface", Value::from(kind)),
        ("surface_height_m", Value::from(height_m)),
        ("surface_slope", Value::from(beta)),
    ] {
        if is_roll {
            parameters.insert(key.to_string(), value);
        } else {
            parameters.entry(key.to_string()).or_insert(value);
        }
    }
    Ok(())
}

/// Bring a project saved before the roll's track was the surface group up to date (it has the
/// "roughness" parameters): as [`upgrade_preset`], on the plain values of the state.
pub(super) fn upgrade_state(state: &mut PluginState) {
    let params = &mut state.params;
    let (roughness, slope) = (params.remove("roughness"), params.remove("roughness-slope"));
    if roughness.is_none() && slope.is_none() {
        return;
    }
    let plain = |value: Option<ParamValue>, default: f64| match value {
        Some(ParamValue::F32(x)) if x.is_finite() => f64::from(x),
        _ => default,
    };
    let is_roll = matches!(params.get("mode"), Some(ParamValue::String(m)) if m == "roll");
    let (kind, height_m, beta) = if is_roll {
        surface_of_old_roll(
            10f64.powf(plain(roughness, MARBLE_ROUGHNESS_M.log10())),
            plain(slope, MARBLE_SLOPE),
        )
    } else {
        OLD_SURFACE
    };
    for (id, value) in [
        ("surface", ParamValue::String(kind.to_string())),
        ("surface-height", ParamValue::F32(height_m.log10() as f32)),
        ("surface-slope", ParamValue::F32(beta as f32)),
    ] {
        if is_roll {
            params.insert(id.to_string(), value);
        } else {
            params.entry(id.to_string()).or_insert(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{migrate_state, Preset, FORMAT};
    use super::*;
    use crate::params::UrtoParams;

    /// A format-1 preset text of `mode` with `parameters` besides.
    fn format_1(mode: &str, parameters: &str) -> String {
        format!(
            r#"{{"format": "{FORMAT}", "version": 1, "name": "old",
                "parameters": {{"mode": "{mode}"{parameters}}}}}"#
        )
    }

    #[test]
    fn an_old_roll_preset_rolls_on_the_fractal_its_roughness_describes() {
        let preset = Preset::parse(&format_1(
            "roll",
            r#", "roughness_m": 1e-5, "roughness_slope": 0.8, "surface": "ridges""#,
        ))
        .unwrap();
        // β = 1 + 2·0.8, and the height whose partials up to 8 mm are 10 µm RMS: the share of
        // the octaves j (of powers 2^(j(1 − β))) whose partials are that fine, summed here.
        let ratios = [1.0, 1.12, 1.27, 1.41, 1.59, 1.78];
        let (mut below, mut all) = (0.0, 0.0);
        for j in 0..14 {
            for r in ratios {
                let power = 2f64.powf(j as f64 * (1.0 - 2.6));
                all += power;
                if 0.05 / 2f64.powi(j) / r <= 8e-3 {
                    below += power;
                }
            }
        }
        let height_m = 1e-5 / (below / all).sqrt();
        let plain = |id| f64::from(preset.plain_value(id).unwrap());
        assert_eq!(plain("surface"), 1.0, "fractal");
        assert!((plain("surface-slope") - 2.6).abs() < 1e-6);
        assert!((10f64.powf(plain("surface-height")) / height_m - 1.0).abs() < 1e-5);
        assert_eq!(preset.plain_value("roughness"), None);
    }

    #[test]
    fn an_old_slide_preset_keeps_its_surface_and_the_old_defaults() {
        let preset = Preset::parse(&format_1(
            "slide",
            r#", "roughness_m": 1e-5, "surface_slope": 1.5"#,
        ))
        .unwrap();
        let plain = |id| preset.plain_value(id).unwrap();
        assert_eq!(plain("surface"), 0.0, "smooth, the old default");
        assert_eq!(plain("surface-height"), -6.0);
        assert_eq!(plain("surface-slope"), 1.5);
    }

    #[test]
    fn a_bad_old_roughness_is_refused_by_name() {
        let error = Preset::parse(&format_1("roll", r#", "roughness_m": -1"#)).unwrap_err();
        assert!(error.to_string().contains("roughness_m"), "{error}");
    }

    #[test]
    fn an_old_roll_project_gets_the_same_surface_as_its_preset() {
        let params = UrtoParams::default();
        let preset = Preset::parse(&format_1(
            "roll",
            r#", "roughness_m": 3e-7, "roughness_slope": 1.2"#,
        ))
        .unwrap();
        let mut state = preset.to_state(&params);
        state.params.insert(
            "roughness".into(),
            ParamValue::F32((3e-7f64).log10() as f32),
        );
        state
            .params
            .insert("roughness-slope".into(), ParamValue::F32(1.2));
        state
            .params
            .insert("surface".into(), ParamValue::String("smooth".into()));
        migrate_state(&mut state);
        assert!(!state.params.contains_key("roughness"));
        assert!(matches!(&state.params["surface"], ParamValue::String(s) if s == "fractal"));
        let f32_of = |id: &str| match &state.params[id] {
            ParamValue::F32(x) => *x,
            other => panic!("{id}: {other:?}"),
        };
        let expected = |id| preset.plain_value(id).unwrap();
        assert!((f32_of("surface-height") - expected("surface-height")).abs() < 1e-5);
        assert!((f32_of("surface-slope") - expected("surface-slope")).abs() < 1e-6);
    }
}
