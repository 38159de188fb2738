//! `cargo xtask drop`: the drop mode's macro scene alone — a die, coin, rod, spoon, brick, ring or sphere falls on the floor; its contacts, rest time and final pose as JSON.

use anyhow::{anyhow, bail, Result};
use clap::Parser;
use glam::{DMat3, DQuat, DVec3};
use serde_json::{json, Value};
use urto_dsp::material::{self, Material};
use urto_dsp::rigid::drop::{ContactEvent, ContactKind, DropScene};
use urto_dsp::rigid::plus::Settings;
use urto_dsp::rigid::shape::Shape;
use urto_dsp::rigid::RigidBody;

/// Drop a body on the floor and report what touches the floor, when and how hard.
///
/// The sound of the drop (the micro scale) is not wired yet: this is the mechanics alone.
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
    /// Seed of the orientation and spin (same seed, same drop).
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
}

/// Macro time step: 0.25 ms (gravity's velocity per step, 2.5 mm/s, stays below the capture
/// velocity, so a resting body's micro-impacts are captured).
const DT_S: f64 = 1.0 / 4000.0;
/// Slides and rolls closer than this are reported as one stretch.
const STRETCH_S: f64 = 0.005;

/// A body kind: its shape and its usual material.
fn body(kind: &str) -> Result<(Shape, &'static str)> {
    let v = DVec3::new;
    Ok(match kind {
        // A 16 mm die with 1 mm rounded corners.
        "die" => (
            Shape::RoundedBox {
                half_extents_m: v(0.007, 0.007, 0.007),
                corner_m: 0.001,
            },
            "abs",
        ),
        // A 24 mm coin, 2 mm thick.
        "coin" => (
            Shape::Cylinder {
                radius_m: 0.012,
                half_length_m: 0.001,
                edge_m: 0.0003,
            },
            "brass",
        ),
        // A pencil: 7 mm across, 175 mm long.
        "rod" => (
            Shape::Cylinder {
                radius_m: 0.0035,
                half_length_m: 0.0875,
                edge_m: 0.0005,
            },
            "pine",
        ),
        // A spoon or fork as a bar: 150 × 20 × 3 mm.
        "spoon" => (
            Shape::RoundedBox {
                half_extents_m: v(0.074, 0.009, 0.0005),
                corner_m: 0.001,
            },
            "steel",
        ),
        // A brick: 200 × 100 × 60 mm.
        "brick" => (
            Shape::RoundedBox {
                half_extents_m: v(0.098, 0.048, 0.028),
                corner_m: 0.002,
            },
            "ceramic",
        ),
        // A finger ring: 9 mm radius, 1.5 mm tube.
        "ring" => (
            Shape::Ring {
                radius_m: 0.009,
                tube_m: 0.0015,
            },
            "brass",
        ),
        // A 20 mm ball.
        "sphere" => (Shape::Sphere { radius_m: 0.01 }, "steel"),
        _ => bail!("unknown body {kind:?}: die, coin, rod, spoon, brick, ring, sphere"),
    })
}

/// The floor's material.
fn floor(kind: &str) -> Result<&'static str> {
    Ok(match kind {
        "plank" => "oak",
        "plate" => "steel",
        "glass" => "glass",
        "tile" => "ceramic",
        "stone" => "granite",
        _ => bail!("unknown floor {kind:?}: plank, plate, glass, tile, stone"),
    })
}

fn material(id: &str) -> Result<&'static Material> {
    material::by_id(id).ok_or_else(|| anyhow!("unknown material {id:?}"))
}

/// Run one drop and print its report.
pub fn drop(args: &DropArgs) -> Result<()> {
    if !(args.height >= 0.0 && args.height <= 10.0) {
        bail!("--height must lie in [0, 10] m");
    }
    if !(args.mu >= 0.0 && args.mu <= 2.0) {
        bail!("--mu must lie in [0, 2]");
    }
    if !(args.seconds > 0.0 && args.seconds <= 60.0) {
        bail!("--seconds must lie in (0, 60]");
    }
    let (shape, usual) = body(&args.body)?;
    let body_material = material(args.material.as_deref().unwrap_or(usual))?;
    let floor_material = material(floor(&args.floor)?)?;
    let mass_kg = shape.volume_m3() * body_material.density_kg_per_m3;
    let mut rigid = RigidBody::at_rest(mass_kg, shape.inertia_kg_m2(mass_kg));
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut unit = || 2.0 * rng.f64() - 1.0;
    let axis = DVec3::new(unit(), unit(), unit())
        .try_normalize()
        .unwrap_or(DVec3::X);
    rigid.orientation = DQuat::from_axis_angle(axis, std::f64::consts::PI * unit());
    rigid.angular_velocity_rad_per_s = DVec3::new(unit(), unit(), unit()) * 20.0;
    rigid.velocity_m_per_s = DVec3::new(unit(), unit(), 0.0) * 0.2;
    // The pair's restitution: the lower of the two materials' (the softer one yields).
    let e_min = body_material.restitution.min(floor_material.restitution);
    let mut scene = DropScene::new(rigid, shape, args.mu, Settings::paper(e_min));
    scene.body.position_m.z = args.height - scene.clearance_m();
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
    while !scene.at_rest && scene.time_s < args.seconds {
        scene
            .step(DT_S, &mut record)
            .map_err(|e| anyhow!("PLUS: {e}"))?;
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
