//! Universal Category System names: each sound's CatID (from its mode, materials and preset) and the file name `CatID_FXName_Urto_NN.wav`.

use urto::presets::Preset;
use urto_dsp::body::DropBody;
use urto_dsp::resonator::ObjectKind;
use urto_dsp::voice::{Gesture, Patch, PlayMode};

/// Factory presets whose sound the rule below would file wrongly (paper and leaves are not
/// materials of Urto's: the crumple plays them with plastic and oak).
const BY_PRESET: [(&str, &str); 2] = [("Crumpled paper", "PAPRHndl"), ("Dry leaves", "VEGELeaf")];

/// The UCS category prefix of a material (UCS v8 lists these categories).
fn material_category(material_id: &str) -> &'static str {
    match material_id {
        "steel" | "brass" | "aluminium" | "bronze" | "copper" => "METL",
        "glass" => "GLAS",
        "ceramic" => "CERM",
        "granite" => "ROCK",
        "oak" | "maple" | "pine" => "WOOD",
        "abs" | "acrylic" => "PLAS",
        "ice" => "ICE",
        _ => "RUBR",
    }
}

/// What the object is made of, as a UCS category: its material where the contact is derived
/// from it (elsewhere the material parameter may be left at its default, unheard), else the
/// preset's category where that names a material, else what objects of its kind are mostly
/// made of.
fn object_category(preset: &Preset, patch: &Patch) -> &'static str {
    if patch.contact_from_materials {
        return material_category(patch.object_material.id);
    }
    match (preset.category.as_str(), patch.object.kind) {
        ("Metal", _) => "METL",
        ("Glass", _) | (_, ObjectKind::Glass) => "GLAS",
        ("Wood", _)
        | (
            _,
            ObjectKind::Plank
            | ObjectKind::FreeBar
            | ObjectKind::MarimbaBar
            | ObjectKind::XylophoneBar,
        ) => "WOOD",
        _ => "METL",
    }
}

/// `category` + `sub`, or the category's Misc where UCS lists no such subcategory (rubber has no
/// Break).
fn cat(category: &str, sub: &str) -> String {
    if category == "RUBR" && sub == "Brk" {
        "RUBRMisc".into()
    } else {
        format!("{category}{sub}")
    }
}

/// The CatID a sound of `preset` played as `patch` files under: musical presets as percussion or
/// strings, then by what a note does to what — an object struck, bounced on or rolled over by
/// its material (bells and drum heads as such), a slide as friction, a dropped body by its own
/// material (coins as coins, dice as board games), a crumple as crash and debris (footsteps as
/// human footsteps), a break as its body's material breaking.
pub fn cat_id(preset: &Preset, patch: &Patch) -> String {
    if let Some((_, id)) = BY_PRESET.iter().find(|(name, _)| *name == preset.name) {
        return (*id).into();
    }
    match preset.category.as_str() {
        "Mallet percussion" | "Drums" => return "MUSCPerc".into(),
        "Strings" => return "MUSCStr".into(),
        _ => {}
    }
    let object = object_category(preset, patch);
    let striker = material_category(patch.striker.material.id);
    match patch.mode {
        PlayMode::Strike | PlayMode::Bounce => match patch.object.kind {
            ObjectKind::Bell => "BELLMisc".into(),
            ObjectKind::Membrane | ObjectKind::Kettledrum => "MUSCPerc".into(),
            _ => cat(object, "Impt"),
        },
        PlayMode::Roll => cat(object, "Mvmt"),
        PlayMode::Slide => cat(object, "Fric"),
        PlayMode::Drop => match patch.drop.body {
            DropBody::Coin => "OBJCoin".into(),
            DropBody::Die => "GAMEBoard".into(),
            _ => cat(striker, "Impt"),
        },
        PlayMode::Crumple if patch.crumple.gesture == Gesture::Steps => "FEETHmn".into(),
        PlayMode::Crumple => cat(striker, "Crsh"),
        PlayMode::Break => cat(striker, "Brk"),
    }
}

/// The FXName block: `description` with what UCS reserves (the underscore) and what file systems
/// refuse made spaces, and runs of spaces made one.
pub fn fx_name(description: &str) -> String {
    description
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ",.-()'".contains(c) {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `CatID_FXName_Urto_NN.wav`, NN the variation's number zero-padded to `digits`.
pub fn file_name(cat_id: &str, fx_name: &str, number: u32, digits: usize) -> String {
    format!("{cat_id}_{fx_name}_Urto_{number:0digits$}.wav")
}

/// A MIDI note's name, middle C (60) as C4.
pub fn note_name(note: u8) -> String {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    format!(
        "{}{}",
        NAMES[usize::from(note % 12)],
        i32::from(note / 12) - 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_has_the_four_blocks_and_no_stray_underscore() {
        let name = file_name("GLASBrk", &fx_name("Wine glass_on/tiles: C4"), 7, 2);
        assert_eq!(name, "GLASBrk_Wine glass on tiles C4_Urto_07.wav");
        assert_eq!(name.trim_end_matches(".wav").split('_').count(), 4);
    }

    #[test]
    fn notes_are_named_from_middle_c_as_c4() {
        assert_eq!(note_name(60), "C4");
        assert_eq!(note_name(69), "A4");
        assert_eq!(note_name(0), "C-1");
        assert_eq!(note_name(127), "G9");
    }

    #[test]
    fn every_factory_preset_files_under_a_listed_cat_id() {
        // The CatIDs of UCS v8 the rule can give (an independent list, typed from UCS's table).
        const LISTED: [&str; 40] = [
            "METLImpt", "METLMvmt", "METLFric", "METLCrsh", "METLBrk", "GLASImpt", "GLASMvmt",
            "GLASFric", "GLASCrsh", "GLASBrk", "CERMImpt", "CERMMvmt", "CERMFric", "CERMCrsh",
            "CERMBrk", "ROCKImpt", "ROCKMvmt", "ROCKFric", "ROCKCrsh", "ROCKBrk", "WOODImpt",
            "WOODMvmt", "WOODFric", "WOODCrsh", "WOODBrk", "PLASImpt", "PLASMvmt", "PLASFric",
            "PLASCrsh", "PLASBrk", "ICEImpt", "ICEMvmt", "ICEFric", "ICECrsh", "ICEBrk",
            "RUBRImpt", "RUBRMvmt", "RUBRFric", "RUBRCrsh", "RUBRMisc",
        ];
        const OTHERS: [&str; 8] = [
            "MUSCPerc",
            "MUSCStr",
            "BELLMisc",
            "OBJCoin",
            "GAMEBoard",
            "FEETHmn",
            "PAPRHndl",
            "VEGELeaf",
        ];
        for preset in urto::presets::factory() {
            let patch = preset
                .to_params()
                .patch(&urto::params::Controllers::default());
            let id = cat_id(&preset, &patch);
            assert!(
                LISTED.contains(&id.as_str()) || OTHERS.contains(&id.as_str()),
                "{}: {id}",
                preset.name
            );
        }
    }
}
