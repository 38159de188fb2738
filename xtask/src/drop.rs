//! `cargo xtask drop`: a die, coin, rod, spoon, brick, ring or sphere falls on the floor — its contacts, rest time and final pose as JSON, its sound as a WAV.

use crate::media::{self, FS};
use anyhow::{anyhow, bail, Result};
use clap::Parser;
use glam::DMat3;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use urto_dsp::body::DropBody;
use urto_dsp::material::{self, Material};
use urto_dsp::resonator::{ObjectKind, ObjectSpec};
use urto_dsp::rigid::drop::{ContactEvent, ContactKind};
use urto_dsp::voice::{
    drop_scene, note_seed, DropSettings, Engine, Level, Patch, PlayMode, MACRO_STEP_S,
};

/// Drop a body on the floor and report what touches the floor, when and how hard (the drop
/// mode's macro scene, exactly as a drop note of the engine runs it); `--wav` renders the note.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask drop")]
pub struct DropArgs {
    /// die | coin | rod | spoon | brick | ring | sphere
    #[arg(long, default_value = "die")]
    body: String,
    /// The body's material (a material id: steel, brass, glass, oak, abs, …); default: the
    /// body's usual one.
    #[arg(long)]
    material: Option<String>,
    /// The floor: plank (oak), plate (steel), glass, tile (ceramic), stone (granite).
    #[arg(long, default_value = "plank")]
    floor: String,
    /// Drop height of the body's lowest point, m.
    #[arg(long, default_value_t = 0.2)]
    height: f64,
    /// Which drop: the engine's `seed`-th note on middle C (its pose and spin; same seed, same
    /// drop).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Coulomb friction between body and floor.
    #[arg(long, default_value_t = 0.3)]
    mu: f64,
    /// Longest simulated time, s.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Print JSON instead of a summary.
    #[arg(long)]
    json: bool,
    /// Also render the drop's sound (mono, 48 kHz, normalised to −1 dBFS) to this WAV file.
    #[arg(long)]
    wav: Option<PathBuf>,
}

/// Slides and rolls closer than this are reported as one stretch.
const STRETCH_S: f64 = 0.005;

/// The floor: its object, material and size (m).
fn floor(kind: &str) -> Result<(ObjectKind, &'static str, f64)> {
    Ok(match kind {
        "plank" => (ObjectKind::Plank, "oak", 1.2),
        "plate" => (ObjectKind::CircularPlate, "steel", 0.2),
        "glass" => (ObjectKind::RectangularPlate, "glass", 0.4),
        "tile" => (ObjectKind::RectangularPlate, "ceramic", 0.3),
        "stone" => (ObjectKind::RectangularPlate, "granite", 0.6),
        _ => bail!("unknown floor {kind:?}: plank, plate, glass, tile, stone"),
    })
}

fn material(id: &str) -> Result<&'static Material> {
    material::by_id(id).ok_or_else(|| anyhow!("unknown material {id:?}"))
}

/// The drop-mode patch the arguments describe: the body (of its material) falls on the floor
/// object, tuned by its material and size, at the physical level.
pub fn drop_patch(
    body: DropBody,
    body_material: &'static Material,
    floor_kind: &str,
    height_m: f64,
    mu: f64,
) -> Result<Patch> {
    let (kind, floor_material, size_m) = floor(floor_kind)?;
    let mut patch = Patch {
        mode: PlayMode::Drop,
        drop: DropSettings {
            body,
            size_m: body.usual_size_m(),
            mu,
            ..DropSettings::default()
        },
        ..Patch::default()
    };
    patch.striker.material = body_material;
    patch.object = ObjectSpec {
        kind,
        num_modes: 48,
        t60_s: 0.8,
        strike_position: 0.3,
        ..patch.object
    };
    patch.object_material = material(floor_material)?;
    patch.object_size_m = size_m;
    patch.object_mass_kg = 3.0;
    patch.physical_tuning = true;
    patch.fall.height_m = height_m;
    patch.level = Level::Physical;
    Ok(patch.resolved())
}

/// Render the drop of `patch` as the engine's `seed`-th note on middle C, mono at 48 kHz,
/// for `seconds`.
pub fn render(patch: &Patch, seed: u64, seconds: f64) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    engine.set_notes_struck(seed.saturating_sub(1));
    engine.note_on(patch, 60, 1.0);
    let mut audio = vec![0.0f32; (seconds * FS) as usize];
    for block in audio.chunks_mut(256) {
        engine.process(patch, block);
    }
    audio
}

/// Run one drop and print its report; with `--wav`, render its sound too.
pub fn drop(args: &DropArgs) -> Result<()> {
    if !(args.height >= 0.0 && args.height <= 10.0) {
        bail!("--height must lie in [0, 10] m");
    }
    if !(args.mu >= 0.0 && args.mu <= 1.5) {
        bail!("--mu must lie in [0, 1.5]");
    }
    if !(args.seconds > 0.0 && args.seconds <= 60.0) {
        bail!("--seconds must lie in (0, 60]");
    }
    if args.seed == 0 {
        bail!("--seed counts notes from 1");
    }
    let body = DropBody::from_name(&args.body).ok_or_else(|| {
        anyhow!(
            "unknown body {:?}: die, coin, rod, spoon, brick, ring, sphere",
            args.body
        )
    })?;
    let body_material = material(args.material.as_deref().unwrap_or(body.usual_material()))?;
    let patch = drop_patch(body, body_material, &args.floor, args.height, args.mu)?;
    let floor_material = patch.object_material;
    // The engine's drop of the same note: let fall from the height.
    let mut scene = drop_scene(&patch, args.height, 0.0, note_seed(args.seed, 60));
    let mass_kg = scene.body.mass_kg;
    let e_min = scene.settings.restitution.e_min;
    let mut events: Vec<ContactEvent> = Vec::new();
    let mut record = |e: ContactEvent| match events.last_mut() {
        Some(last)
            if last.kind == e.kind
                && matches!(e.kind, ContactKind::Slide | ContactKind::Roll)
                && e.time_s - last.time_s < STRETCH_S =>
        {
            last.normal_impulse_n_s += e.normal_impulse_n_s;
        }
        _ => events.push(e),
    };
    let step_s = (MACRO_STEP_S * FS).round() / FS;
    while !scene.at_rest && scene.time_s < args.seconds {
        scene
            .step(step_s, &mut record)
            .map_err(|e| anyhow!("PLUS: {e}"))?;
    }
    if let Some(path) = &args.wav {
        let audio = render(&patch, args.seed, args.seconds.min(scene.time_s + 2.0));
        media::write_normalised_wav(path, &audio)?;
        eprintln!("wrote {}", path.display());
    }
    let rotation = DMat3::from_quat(scene.body.orientation)
        .transpose()
        .to_cols_array_2d();
    let report = json!({
        "body": args.body,
        "material": body_material.id,
        "floor": args.floor,
        "floor_material": floor_material.id,
        "mass_kg": mass_kg,
        "e_min": e_min,
        "mu": args.mu,
        "impacts": events.iter().map(|e| json!({
            "time_s": e.time_s,
            "point_m": e.point_m.to_array(),
            "normal_speed_m_per_s": e.normal_speed_m_per_s,
            "normal_impulse_n_s": e.normal_impulse_n_s,
            "kind": e.kind.name(),
        })).collect::<Vec<Value>>(),
        "rest_time_s": scene.at_rest.then_some(scene.time_s),
        "final_pose": {
            "position_m": scene.body.position_m.to_array(),
            "orientation": rotation,
        },
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let count = |kind: ContactKind| events.iter().filter(|e| e.kind == kind).count();
        println!(
            "{} ({}, {:.1} g) on the {} ({}), dropped from {} m: {} impacts, {} slides, {} rolls; {}",
            args.body,
            body_material.id,
            mass_kg * 1e3,
            args.floor,
            floor_material.id,
            args.height,
            count(ContactKind::Impact),
            count(ContactKind::Slide),
            count(ContactKind::Roll),
            match scene.at_rest {
                true => format!("at rest after {:.3} s", scene.time_s),
                false => format!("still moving after {} s", args.seconds),
            }
        );
    }
    Ok(())
}

/// The drop demo scenes: (file name, title, body, its material, floor, height m, seed).
const DEMOS: [(&str, &str, DropBody, &str, &str, f64, u64); 4] = [
    (
        "drop-die-on-a-wooden-table",
        "ABS die dropped 20 cm on an oak table",
        DropBody::Die,
        "abs",
        "plank",
        0.2,
        1,
    ),
    (
        "drop-coin-on-a-glass-plate",
        "Brass coin dropped 15 cm on a glass plate",
        DropBody::Coin,
        "brass",
        "glass",
        0.15,
        2,
    ),
    (
        "drop-spoon-on-a-ceramic-floor",
        "Steel spoon dropped 50 cm on ceramic tiles",
        DropBody::Spoon,
        "steel",
        "tile",
        0.5,
        3,
    ),
    (
        "drop-brick-on-a-plank",
        "Ceramic brick dropped 10 cm on an oak plank",
        DropBody::Brick,
        "ceramic",
        "plank",
        0.1,
        1,
    ),
];

/// Render the drop demos into `out_dir`: a WAV each, a plot of the body's lowest point above
/// the floor with every micro-impact marked, and a spectrogram. Returns the lines to print.
pub fn render_demos(out_dir: &Path) -> Result<Vec<String>> {
    let mut written = vec![];
    for (name, title, body, body_material, floor_kind, height_m, seed) in DEMOS {
        let patch = drop_patch(body, material(body_material)?, floor_kind, height_m, 0.3)?;
        let mut engine = Engine::new(FS);
        engine.set_notes_struck(seed - 1);
        engine.note_on(&patch, 60, 1.0);
        let seconds = 3.0;
        let mut audio = vec![0.0f32; (seconds * FS) as usize];
        let (mut heights, mut impacts) = (vec![], vec![]);
        let block = (MACRO_STEP_S * FS).round() as usize;
        for (i, piece) in audio.chunks_mut(block).enumerate() {
            let struck = engine.drop_impacts();
            engine.process(&patch, piece);
            let t = (i * block) as f64 / FS;
            if let Some(scene) = engine.drop_scene() {
                heights.push((t, 1e3 * scene.clearance_m()));
            }
            if engine.drop_impacts() > struck {
                impacts.push(t);
            }
        }
        let wav = out_dir.join(format!("{name}.wav"));
        media::write_normalised_wav(&wav, &audio)?;
        let png = out_dir.join(format!("{name}-height.png"));
        media::plot_with_marks(
            &png,
            title,
            "time (s)",
            "lowest point above the floor (mm); red: micro-impacts",
            &heights,
            &impacts,
        )?;
        let spectrogram = out_dir.join(format!("{name}-spectrogram.png"));
        media::spectrogram(&spectrogram, title, &audio, &[], "")?;
        for path in [wav, png, spectrogram] {
            written.push(format!("  {}", path.display()));
        }
    }
    Ok(written)
}
