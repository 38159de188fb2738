//! The factory presets as VST3 preset files (`.vstpreset`, Steinberg's PresetFile format): a header with the plugin's class id, the component state Urto's VST3 saves, a metadata chunk and the chunk list.

use anyhow::{Context, Result};
use nice_plug::prelude::{Plugin, Vst3Plugin};
use std::path::{Path, PathBuf};
use urto::presets::{factory, file_stem, Preset};
use urto::{Urto, UrtoParams};

/// The format's version, and the bytes of its header: 'VST3', the version, the class id as 32
/// hexadecimal characters, the chunk list's offset.
const VERSION: i32 = 1;
const HEADER_BYTES: usize = 4 + 4 + 32 + 8;

/// The plugin's class id as the file spells it: its 16 bytes in hexadecimal, in order (the
/// SDK's FUID::toString where COM compatibility is off, as on Linux and macOS).
pub fn class_id_string() -> String {
    Urto::VST3_CLASS_ID
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect()
}

/// The component state Urto's VST3 writes for `preset` (its `getState`: the state's JSON).
fn component_state(preset: &Preset) -> Result<Vec<u8>> {
    Ok(serde_json::to_vec(
        &preset.to_state(&UrtoParams::default()),
    )?)
}

/// The metadata a host's preset browser shows: the plugin, its category, the preset's category
/// as the instrument (the SDK's PresetAttributes).
fn meta_info(preset: &Preset) -> String {
    let attribute = |id: &str, value: &str, flags: &str| {
        format!(
            "\t<Attr id=\"{id}\" value=\"{}\" type=\"string\" flags=\"{flags}\"/>\n",
            escape(value)
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MetaInfo>\n{}{}{}{}</MetaInfo>\n",
        attribute("MediaType", "VstPreset", "writeProtected"),
        attribute("PlugInCategory", "Instrument|Synth", "writeProtected"),
        attribute("PlugInName", Urto::NAME, "writeProtected"),
        attribute("MusicalInstrument", &preset.category, ""),
    )
}

/// `text` with XML's five special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// The `.vstpreset` file of `preset`.
pub fn preset_file(preset: &Preset) -> Result<Vec<u8>> {
    let chunks: [(&[u8; 4], Vec<u8>); 2] = [
        (b"Comp", component_state(preset)?),
        (b"Info", meta_info(preset).into_bytes()),
    ];
    let mut file = Vec::new();
    file.extend_from_slice(b"VST3");
    file.extend_from_slice(&VERSION.to_le_bytes());
    file.extend_from_slice(class_id_string().as_bytes());
    let list_offset = HEADER_BYTES + chunks.iter().map(|(_, data)| data.len()).sum::<usize>();
    file.extend_from_slice(&(list_offset as i64).to_le_bytes());
    let mut entries = Vec::new();
    for (id, data) in &chunks {
        entries.push((*id, file.len() as i64, data.len() as i64));
        file.extend_from_slice(data);
    }
    file.extend_from_slice(b"List");
    file.extend_from_slice(&(entries.len() as i32).to_le_bytes());
    for (id, offset, size) in entries {
        file.extend_from_slice(id);
        file.extend_from_slice(&offset.to_le_bytes());
        file.extend_from_slice(&size.to_le_bytes());
    }
    Ok(file)
}

/// Where `preset`'s file goes under a VST3 presets folder: `<vendor>/<plugin>/<category>/`.
pub fn relative_path(preset: &Preset) -> PathBuf {
    Path::new(Urto::VENDOR)
        .join(Urto::NAME)
        .join(file_stem(&preset.category))
        .join(format!("{}.vstpreset", file_stem(&preset.name)))
}

/// Write every factory preset's file under `root` (a VST3 presets folder); their paths, in the
/// factory's order.
pub fn write_factory(root: &Path) -> Result<Vec<PathBuf>> {
    factory()
        .iter()
        .map(|preset| {
            let path = root.join(relative_path(preset));
            std::fs::create_dir_all(path.parent().context("a preset path has no folder")?)?;
            std::fs::write(&path, preset_file(preset)?)
                .with_context(|| format!("writing {}", path.display()))?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk list entry: id, offset, size.
    type Entry = ([u8; 4], usize, usize);

    /// The header's version and class id, and the chunk list's entries, read as the SDK's
    /// PresetFile::readChunkList reads them.
    fn read(file: &[u8]) -> (i32, String, Vec<Entry>) {
        let i32_at = |at: usize| i32::from_le_bytes(file[at..at + 4].try_into().unwrap());
        let i64_at = |at: usize| i64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
        assert_eq!(&file[..4], b"VST3");
        let class_id = String::from_utf8(file[8..40].to_vec()).unwrap();
        let list = i64_at(40);
        assert_eq!(&file[list..list + 4], b"List");
        let count = i32_at(list + 4) as usize;
        let entries: Vec<_> = (0..count)
            .map(|k| {
                let at = list + 8 + 20 * k;
                (
                    file[at..at + 4].try_into().unwrap(),
                    i64_at(at + 4),
                    i64_at(at + 12),
                )
            })
            .collect();
        assert_eq!(list + 8 + 20 * count, file.len());
        (i32_at(4), class_id, entries)
    }

    #[test]
    fn a_preset_file_holds_the_class_id_and_the_component_state() {
        let preset = factory()
            .into_iter()
            .find(|p| p.name == "Wine glass")
            .unwrap();
        let file = preset_file(&preset).unwrap();
        let (version, class_id, entries) = read(&file);
        assert_eq!(version, 1);
        // b"UrtoImpactSynth1", byte by byte.
        assert_eq!(class_id, "5572746F496D7061637453796E746831");
        let (id, offset, size) = entries[0];
        assert_eq!(&id, b"Comp");
        assert_eq!(offset, 48);
        let state: serde_json::Value =
            serde_json::from_slice(&file[offset..offset + size]).unwrap();
        assert!(state["params"].is_object(), "{state}");
        assert_eq!(&entries[1].0, b"Info");
        let info = std::str::from_utf8(&file[entries[1].1..entries[1].1 + entries[1].2]).unwrap();
        assert!(info.contains("value=\"Glass\""), "{info}");
    }

    #[test]
    fn every_factory_preset_has_a_path_of_its_own() {
        let presets = factory();
        let mut paths: Vec<PathBuf> = presets.iter().map(relative_path).collect();
        assert!(paths.iter().all(|p| p.starts_with("Urto/Urto")));
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), presets.len());
    }
}
