//! Before the roll's track and the drop's floor were the surface group (preset format 1, Urto 0.3.0 and older): a roll's "Roughness" and "Roughness slope" become the fractal surface they describe, a drop's floor the fixed one it had.

use super::PresetError;
use crate::params::SURFACE_HEIGHT_RANGE_M;
use nice_plug::plugin::{ParamValue, PluginState};
use serde_json::Value;
use std::collections::BTreeMap;
use urto_dsp::roll::RollSettings;

/// The surface group's values a format-1 preset or an old project meant when it did not name
/// them (the slide's defaults then): kind, height (m), slope β.
const OLD_SURFACE: (&str, f64, f64) = ("smooth", 1e-6, 2.0);
/// The old roll's Roughness (m) and Roughness slope: their defaults, which were also the drop's
/// fixed floor, and their ranges.
const OLD_ROUGHNESS_M: f64 = 2e-6;
const OLD_SLOPE: f64 = 1.0;
const OLD_ROUGHNESS_RANGE_M: (f64, f64) = (1e-8, 1e-4);
const OLD_SLOPE_RANGE: (f64, f64) = (0.0, 2.0);

/// The surface of an old roll of `roughness_m` and `slope`: the fractal of
/// [`RollSettings::fractal_track`] (its height held within the surface group's range), as
/// kind, height (m), slope β.
fn surface_of_old_roll(roughness_m: f64, slope: f64) -> (&'static str, f64, f64) {
    let track = RollSettings::fractal_track(roughness_m, slope, 0);
    let (lo, hi) = SURFACE_HEIGHT_RANGE_M;
    ("fractal", track.height_m.clamp(lo, hi), track.slope)
}

/// What an old preset or project in `mode` heard as its surface, and whether that replaces
/// the surface it named: a roll's track from its roughness and slope, a drop's floor (the
/// marble's track, fixed then); in another mode the surface group was the slide's, kept, with
/// [`OLD_SURFACE`] for what it did not name.
fn old_surface(
    mode: Option<&str>,
    roughness_m: f64,
    slope: f64,
) -> (bool, (&'static str, f64, f64)) {
    match mode {
        Some("roll") => (true, surface_of_old_roll(roughness_m, slope)),
        Some("drop") => (true, surface_of_old_roll(OLD_ROUGHNESS_M, OLD_SLOPE)),
        _ => (false, OLD_SURFACE),
    }
}

/// Bring a format-1 preset's `parameters` up to format 2 ([`old_surface`]).
pub(super) fn upgrade_preset(parameters: &mut BTreeMap<String, Value>) -> Result<(), PresetError> {
    let mut take = |key: &str, default: f64, (min, max): (f64, f64)| match parameters.remove(key) {
        None => Ok(default),
        Some(value) => {
            let x = value.as_f64().ok_or(PresetError::BadValue {
                key: key.to_string(),
                expected: "a number",
            })?;
            if (min..=max).contains(&x) {
                Ok(x)
            } else {
                Err(PresetError::OutOfRange {
                    key: key.to_string(),
                    value: x,
                    min,
                    max,
                })
            }
        }
    };
    let roughness_m = take("roughness_m", OLD_ROUGHNESS_M, OLD_ROUGHNESS_RANGE_M)?;
    let slope = take("roughness_slope", OLD_SLOPE, OLD_SLOPE_RANGE)?;
    let mode = parameters.get("mode").and_then(Value::as_str);
    let (replace, (kind, height_m, beta)) = old_surface(mode, roughness_m, slope);
    for (key, value) in [
        ("surface", Value::from(kind)),
        ("surface_height_m", Value::from(height_m)),
        ("surface_slope", Value::from(beta)),
    ] {
        if replace {
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
    let mode = match params.get("mode") {
        Some(ParamValue::String(m)) => Some(m.as_str()),
        _ => None,
    };
    let (replace, (kind, height_m, beta)) = old_surface(
        mode,
        10f64.powf(plain(roughness, OLD_ROUGHNESS_M.log10())),
        plain(slope, OLD_SLOPE),
    );
    for (id, value) in [
        ("surface", ParamValue::String(kind.to_string())),
        ("surface-height", ParamValue::F32(height_m.log10() as f32)),
        ("surface-slope", ParamValue::F32(beta as f32)),
    ] {
        if replace {
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
        for bad in [
            r#", "roughness_m": -1"#,
            r#", "roughness_slope": 2.5"#,
            r#", "roughness_m": "x""#,
        ] {
            let error = Preset::parse(&format_1("roll", bad))
                .unwrap_err()
                .to_string();
            let key = if bad.contains("slope") {
                "roughness_slope"
            } else {
                "roughness_m"
            };
            assert!(error.contains(key), "{error}");
        }
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

    #[test]
    fn an_old_drop_lands_on_the_floor_it_had() {
        // The drop's floor was the marble's track whatever the (slide's) surface said.
        let preset = Preset::parse(&format_1("drop", r#", "surface": "ridges""#)).unwrap();
        let floor = urto_dsp::voice::Patch::default().drop.surface;
        let plain = |id| f64::from(preset.plain_value(id).unwrap());
        assert_eq!(plain("surface"), 1.0, "fractal");
        assert!((10f64.powf(plain("surface-height")) / floor.height_m - 1.0).abs() < 1e-5);
        assert!((plain("surface-slope") - floor.slope).abs() < 1e-6);
    }
}
