//! `cargo xtask presets [--json]`: the factory presets by category, and every preset's parameter
//! values as a host sees them (normalised, in the plugin's parameter order) for the VST3 test.

use anyhow::Result;
use nice_plug::prelude::Params;
use serde_json::json;
use std::path::Path;
use urto::presets::factory;
use urto::UrtoParams;
use urto_dsp::voice::PlayMode;

/// Print the factory presets: category, name, play mode and description (or all of it as JSON).
pub fn list(json_output: bool) -> Result<()> {
    let mut presets = factory();
    presets.sort_by(|a, b| (&a.category, &a.name).cmp(&(&b.category, &b.name)));
    if json_output {
        let list: Vec<_> = presets
            .iter()
            .map(|p| json!({"name": p.name, "category": p.category, "description": p.description}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    println!("{} factory presets", presets.len());
    for p in &presets {
        println!("  {:<10} {:<40} {}", p.category, p.name, p.description);
    }
    Ok(())
}

/// Write every factory preset's normalised parameter values, in the order the plugin declares
/// its parameters (the order a VST3 host lists them), to `path` as JSON:
/// `[{"name", "mode", "steady", "crest", "vstpreset", "normalized": [..]}]`, `mode` being the
/// play mode's id, `steady` whether its level is calibrated as a steady sound's RMS
/// ([`PlayMode::is_steady`]) and `vstpreset` its `.vstpreset` file's path under a presets folder.
pub fn write_normalized(path: &Path) -> Result<()> {
    let params = UrtoParams::default();
    let map = params.param_map();
    let presets: Vec<_> = factory()
        .iter()
        .map(|preset| {
            let normalized: Vec<f32> = map
                .iter()
                .map(|(id, ptr, _)| {
                    // SAFETY: `ptr` points into `params`, alive for this whole function.
                    unsafe {
                        let plain = preset
                            .plain_value(id)
                            .unwrap_or_else(|| ptr.default_plain_value());
                        ptr.preview_normalized(plain)
                    }
                })
                .collect();
            let mode = preset.plain_value("mode").unwrap_or(0.0) as usize;
            let mode = PlayMode::ALL.get(mode);
            json!({
                "name": preset.name,
                "mode": mode.map(|m| m.id()),
                "steady": mode.is_some_and(|m| m.is_steady()),
                "crest": mode.map_or(1.0, |m| m.crest()),
                "vstpreset": crate::vstpreset::relative_path(preset),
                "normalized": normalized,
            })
        })
        .collect();
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, serde_json::to_string(&presets)?)?;
    Ok(())
}
