//! `cargo xtask rigid plus`: PLUS simultaneous frictional impacts on a problem file or the paper's examples.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use glam::{DMat3, DQuat, DVec3};
use serde::Deserialize;
use serde_json::{json, Value};
use urto_dsp::rigid::plus::examples::{self, Scenario};
use urto_dsp::rigid::plus::{Contact, Outcome, Plus, Restitution, Settings, MAX_CONTACTS};
use urto_dsp::rigid::RigidBody;

/// Resolve one impact of rigid bodies with PLUS (Poisson restitution, Coulomb friction).
///
/// Either name one of the paper's examples (brick, flat-brick, cradle) or pass
/// --problem FILE.json with one body against the ground plane z = 0 (normal +z).
#[derive(Parser, Debug)]
#[command(name = "cargo xtask rigid plus")]
struct Args {
    /// brick | flat-brick | cradle
    example: Option<String>,
    /// A problem file (JSON) instead of an example.
    #[arg(long)]
    problem: Option<PathBuf>,
    /// brick: the friction coefficient, one of Table A1's 0.125, 0.225, 0.325.
    #[arg(long, default_value_t = 0.325)]
    mu: f64,
    /// brick: the largest turn of the sliding direction per interval, rad (Table A1: 0.01).
    #[arg(long, default_value_t = 0.01)]
    theta_max: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// The problem file of `--problem`: one rigid body against the static ground plane.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct ProblemFile {
    mass: f64,
    inertia: [f64; 3],
    /// Body → world rotation matrix, rows.
    orientation: [[f64; 3]; 3],
    v: [f64; 3],
    /// World frame.
    omega: [f64; 3],
    /// Contact points relative to the centre of mass, world frame.
    contacts: Vec<[f64; 3]>,
    mu: f64,
    e_min: f64,
    v_capture: f64,
    v_plastic: f64,
    v_transition: f64,
    theta_max: f64,
}

/// Entry point; `args[0]` is "plus".
pub fn run(args: &[String]) -> Result<()> {
    let args = Args::parse_from(args);
    let scenario = match (&args.example, &args.problem) {
        (Some(_), Some(_)) => bail!("give either an example name or --problem FILE, not both"),
        (None, None) => bail!("give an example (brick, flat-brick, cradle) or --problem FILE"),
        (Some(name), None) => example(name, &args)?,
        (None, Some(path)) => read_problem(path)?,
    };
    let (outcome, bodies) = scenario
        .solve(&mut Plus::new())
        .map_err(|e| anyhow!("PLUS: {e}"))?;
    let mut report = report(&scenario, &outcome, &bodies[..scenario.body_count]);
    if let (Some(name), Some(object)) = (&args.example, report.as_object_mut()) {
        object.insert("example".into(), json!(name));
        object.insert("printed".into(), printed(name, &args));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&report);
    }
    Ok(())
}

/// The paper's examples.
fn example(name: &str, args: &Args) -> Result<Scenario> {
    Ok(match name {
        "brick" => {
            let e_min = examples::table_a1_e_min(args.mu).ok_or_else(|| {
                anyhow!(
                    "--mu {} is not one of Table A1's 0.125, 0.225, 0.325",
                    args.mu
                )
            })?;
            if !(args.theta_max > 0.0 && args.theta_max < std::f64::consts::FRAC_PI_2) {
                bail!("--theta-max must lie in (0, π/2), got {}", args.theta_max);
            }
            examples::corner_brick(args.mu, e_min, args.theta_max)
        }
        "flat-brick" => examples::flat_brick(DVec3::from(examples::FLAT_BRICK_VELOCITY_M_PER_S)),
        "cradle" => examples::cradle(),
        _ => bail!("unknown example {name:?}: brick, flat-brick, cradle"),
    })
}

/// What the paper prints about each example.
fn printed(name: &str, args: &Args) -> Value {
    match name {
        "brick" => {
            let behaviour = match examples::TABLE_A1_MU_E_MIN
                .iter()
                .position(|(m, _)| (m - args.mu).abs() < 1e-9)
            {
                Some(0) => "never",
                Some(1) => "expansion",
                _ => "compression",
            };
            let intervals = examples::FIGURE_10_INTERVALS
                .iter()
                .find(|(theta, _)| (theta - args.theta_max).abs() < 1e-12 && args.mu == 0.325)
                .map(|(_, n)| *n);
            json!({
                "source": "Table A1, Figures 8-10 (μ = 0.325 for Figure 10's counts)",
                "rolling_from": [behaviour],
                "intervals_total": intervals,
            })
        }
        "flat-brick" => json!({
            "source": "Figures 11-12",
            "rolling_from": ["expansion", "expansion", "expansion", "expansion"],
        }),
        _ => json!({
            "source": "Table 2, Figure 14 (frictionless, e = 1)",
            "rounds": [
                ["compressing", "observing", "observing", "observing"],
                ["expanding", "compressing", "observing", "observing"],
                ["observing", "expanding", "compressing", "observing"],
                ["observing", "observing", "expanding", "compressing"],
                ["observing", "observing", "observing", "expanding"],
            ],
            "v_after": [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [-2.0, 0.0, 0.0]],
        }),
    }
}

/// Read and check a problem file; every violation is named.
fn read_problem(path: &PathBuf) -> Result<Scenario> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let p: ProblemFile =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let finite = |name: &str, values: &[f64]| {
        if values.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(anyhow!("{name}: every number must be finite"))
        }
    };
    finite("mass", &[p.mass])?;
    finite("inertia", &p.inertia)?;
    finite("orientation", p.orientation.as_flattened())?;
    finite("v", &p.v)?;
    finite("omega", &p.omega)?;
    finite("contacts", p.contacts.as_flattened())?;
    let scalars = [
        p.mu,
        p.e_min,
        p.v_capture,
        p.v_plastic,
        p.v_transition,
        p.theta_max,
    ];
    finite(
        "mu, e_min, v_capture, v_plastic, v_transition, theta_max",
        &scalars,
    )?;
    if p.mass <= 0.0 || p.inertia.iter().any(|i| *i <= 0.0) {
        bail!("mass and inertia must be positive");
    }
    let [a, b, c] = p.inertia;
    if a + b < c || a + c < b || b + c < a {
        bail!(
            "inertia {:?}: principal moments must satisfy the triangle inequality",
            p.inertia
        );
    }
    let rotation = DMat3::from_cols_array_2d(&p.orientation).transpose();
    let orthonormal = (rotation.transpose() * rotation - DMat3::IDENTITY)
        .to_cols_array()
        .iter()
        .all(|d| d.abs() < 1e-6);
    if !orthonormal || (rotation.determinant() - 1.0).abs() > 1e-6 {
        bail!("orientation must be a rotation matrix (orthonormal, determinant 1)");
    }
    if p.contacts.is_empty() || p.contacts.len() > MAX_CONTACTS {
        bail!(
            "contacts: between 1 and {MAX_CONTACTS} points, got {}",
            p.contacts.len()
        );
    }
    if p.mu < 0.0 {
        bail!("mu must not be negative");
    }
    if !(0.0..=1.0).contains(&p.e_min) {
        bail!("e_min must lie in [0, 1]");
    }
    if !(p.v_capture >= 0.0 && p.v_plastic > p.v_capture) {
        bail!("need 0 ≤ v_capture < v_plastic");
    }
    if p.v_transition <= 0.0 || !(p.theta_max > 0.0 && p.theta_max < std::f64::consts::FRAC_PI_2) {
        bail!("need v_transition > 0 and 0 < theta_max < π/2");
    }
    let mut body = RigidBody::at_rest(p.mass, DVec3::from(p.inertia));
    body.orientation = DQuat::from_mat3(&rotation).normalize();
    body.velocity_m_per_s = DVec3::from(p.v);
    body.angular_velocity_rad_per_s = DVec3::from(p.omega);
    let settings = Settings {
        restitution: Restitution {
            e_min: p.e_min,
            v_capture_m_per_s: p.v_capture,
            v_plastic_m_per_s: p.v_plastic,
        },
        v_transition_m_per_s: p.v_transition,
        theta_max_rad: p.theta_max,
        ..Settings::paper(p.e_min)
    };
    let mut scenario = Scenario::new(settings);
    scenario.bodies[0] = body;
    scenario.body_count = 1;
    for (slot, point) in scenario.contacts.iter_mut().zip(&p.contacts) {
        *slot = Contact {
            body: 0,
            other: None,
            point_m: DVec3::from(*point),
            normal: DVec3::Z,
            mu: p.mu,
        };
    }
    scenario.contact_count = p.contacts.len();
    Ok(scenario)
}

/// The fixed keys of the issue, plus the rounds' phases and the energy balance.
fn report(scenario: &Scenario, outcome: &Outcome, bodies: &[RigidBody]) -> Value {
    let contacts = outcome.contact_count;
    let velocities = |f: fn(&RigidBody) -> DVec3| -> Value {
        if bodies.len() == 1 {
            json!(f(&bodies[0]).to_array())
        } else {
            json!(bodies.iter().map(|b| f(b).to_array()).collect::<Vec<_>>())
        }
    };
    let rounds: Vec<Vec<&str>> = outcome.phases[..outcome.rounds.min(outcome.phases.len())]
        .iter()
        .map(|round| round[..contacts].iter().map(|p| p.name()).collect())
        .collect();
    let energy = |bodies: &[RigidBody]| bodies.iter().map(RigidBody::kinetic_energy_j).sum::<f64>();
    json!({
        "impulses": outcome.impulses_n_s[..contacts].iter().map(|p| p.to_array()).collect::<Vec<_>>(),
        "v_after": velocities(|b| b.velocity_m_per_s),
        "omega_after": velocities(|b| b.angular_velocity_rad_per_s),
        "intervals": {
            "compression": outcome.compression_intervals,
            "expansion": outcome.expansion_intervals,
        },
        "rolling_from": outcome.rolling_from[..contacts].iter().map(|r| r.name()).collect::<Vec<_>>(),
        "rounds": rounds,
        "kinetic_energy_j": { "before": energy(scenario.bodies()), "after": energy(bodies) },
        "energy_capped": outcome.energy_capped,
    })
}

/// A readable summary of the report.
fn print_table(report: &Value) {
    let line = |key: &str| println!("{key:>16}: {}", report[key]);
    for key in [
        "example",
        "impulses",
        "v_after",
        "omega_after",
        "intervals",
        "rolling_from",
    ] {
        if !report[key].is_null() {
            line(key);
        }
    }
    if let Some(rounds) = report["rounds"].as_array() {
        for (i, round) in rounds.iter().enumerate() {
            println!("{:>16}: {round}", format!("round {}", i + 1));
        }
    }
    line("kinetic_energy_j");
    line("energy_capped");
    if !report["printed"].is_null() {
        println!("{:>16}: {}", "paper", report["printed"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corner brick written as a problem file resolves exactly as the built-in example:
    /// the file's orientation rows, world-frame spin and contact points are read the right way.
    #[test]
    fn a_problem_file_reads_as_the_example_it_describes() {
        let (mu, e_min) = examples::TABLE_A1_MU_E_MIN[1];
        let scenario = examples::corner_brick(mu, e_min, 0.05);
        let body = scenario.bodies[0];
        let rotation = DMat3::from_quat(body.orientation)
            .transpose()
            .to_cols_array_2d();
        let s = scenario.settings;
        let file = json!({
            "mass": body.mass_kg,
            "inertia": body.inertia_kg_m2.to_array(),
            "orientation": rotation,
            "v": body.velocity_m_per_s.to_array(),
            "omega": [0.3, -0.2, 0.1],
            "contacts": [scenario.contacts[0].point_m.to_array()],
            "mu": mu,
            "e_min": e_min,
            "v_capture": s.restitution.v_capture_m_per_s,
            "v_plastic": s.restitution.v_plastic_m_per_s,
            "v_transition": s.v_transition_m_per_s,
            "theta_max": s.theta_max_rad,
        });
        let path = std::env::temp_dir().join(format!("urto-plus-{}.json", std::process::id()));
        std::fs::write(&path, file.to_string()).unwrap();
        let from_file = read_problem(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut expected = scenario.clone();
        expected.bodies[0].angular_velocity_rad_per_s = DVec3::new(0.3, -0.2, 0.1);
        let (a, bodies_a) = from_file.solve(&mut Plus::new()).unwrap();
        let (b, bodies_b) = expected.solve(&mut Plus::new()).unwrap();
        assert!(
            (a.impulses_n_s[0] - b.impulses_n_s[0]).length() < 1e-9 * b.impulses_n_s[0].length()
        );
        assert!(
            (bodies_a[0].angular_velocity_rad_per_s - bodies_b[0].angular_velocity_rad_per_s)
                .length()
                < 1e-9
        );
    }

    /// Bad files get a clear error naming what is wrong.
    #[test]
    fn bad_problem_files_are_refused_with_a_reason() {
        let good = json!({
            "mass": 1.0, "inertia": [0.1, 0.1, 0.1],
            "orientation": [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            "v": [0.0, 0.0, -1.0], "omega": [0.0, 0.0, 0.0], "contacts": [[0.0, 0.0, -0.1]],
            "mu": 0.3, "e_min": 0.5, "v_capture": 0.01, "v_plastic": 0.1,
            "v_transition": 0.1, "theta_max": 0.1,
        });
        let cases = [
            ("mass", json!(-1.0), "positive"),
            ("inertia", json!([0.1, 0.1, 0.5]), "triangle"),
            (
                "orientation",
                json!([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
                "rotation",
            ),
            ("contacts", json!([]), "contacts"),
            ("e_min", json!(1.5), "e_min"),
            ("theta_max", json!(2.0), "theta_max"),
        ];
        for (key, value, reason) in cases {
            let mut file = good.clone();
            file[key] = value;
            let path = std::env::temp_dir()
                .join(format!("urto-plus-bad-{}-{key}.json", std::process::id()));
            std::fs::write(&path, file.to_string()).unwrap();
            let error = read_problem(&path).err().map(|e| format!("{e:#}"));
            std::fs::remove_file(&path).unwrap();
            assert!(
                error.as_deref().is_some_and(|e| e.contains(reason)),
                "{key}: {error:?}"
            );
        }
    }
}
