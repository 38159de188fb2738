//! Embeds the factory presets (`presets/*.json`) into the plugin as `FACTORY` (see presets.rs).

use std::path::Path;

fn main() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../presets");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("the presets folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut code = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().unwrap().to_string_lossy();
        let full = path.canonicalize().expect("a preset path");
        code += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            full.display().to_string()
        );
    }
    code += "]\n";
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("factory_presets.rs");
    std::fs::write(out, code).expect("writing factory_presets.rs");
}
