//! `cargo xtask paper | impact | bounce | restitution`: the contact engine against the paper.

use anyhow::{bail, Result};
use clap::Parser;
use serde_json::json;
use urto_dsp::analytic::Impact;
use urto_dsp::body::{StrikerKind, StrikerSpec, MAX_STRIKER_MODES};
use urto_dsp::contact::HuntCrossley;
use urto_dsp::correct::{approx_error_pct, ApproxRange, Correction, ExitVelocity};
use urto_dsp::impact::paper::{self, PrintedBounceTable, PrintedImpactTable};
use urto_dsp::impact::{
    run_contact, simulate_bounces, simulate_impact, simulate_object_impact, Discretization,
    ImpactReport, ObjectImpact,
};
use urto_dsp::integrate::Method;
use urto_dsp::material::{by_id, Material, MATERIALS};
use urto_dsp::resonator::{Mode, ObjectKind, ObjectSpec};
use urto_dsp::restitution::mu_for_restitution;

/// One mass–wall impact as in Papetti et al. (start at x = 0, v = v_in on a sample): the
/// simulated exit velocity (m/s), contact time (s), peak compression (m) and force (N) beside the
/// closed forms (eqs. 4, 6, 9), and the paper's error metrics (%err v_out, %dev x, %dev H).
/// With --engine product the plugin's own hammer strikes a modal object (or the wall); with
/// --object-material the contact follows from the two materials (Hertz).
#[derive(Parser, Debug)]
#[command(name = "cargo xtask impact")]
pub struct ImpactArgs {
    /// Stiffness k in N/m^α (not with --object-material, which derives it).
    #[arg(
        long,
        required_unless_present = "object_material",
        conflicts_with = "object_material"
    )]
    k: Option<f64>,
    /// Dissipation μ in s/m (not with --object-material, which derives it).
    #[arg(
        long,
        required_unless_present = "object_material",
        conflicts_with = "object_material"
    )]
    mu: Option<f64>,
    /// Contact-shape exponent α (not with --object-material: Hertz's 3/2).
    #[arg(
        long,
        required_unless_present = "object_material",
        conflicts_with = "object_material"
    )]
    alpha: Option<f64>,
    /// Mass in kg.
    #[arg(long, default_value_t = 0.01)]
    mass: f64,
    /// Impact velocity in m/s.
    #[arg(long)]
    vin: f64,
    /// Sample rate in Hz.
    #[arg(long, default_value_t = 44_100.0)]
    fs: f64,
    /// am1 | verlet | heun | rk4
    #[arg(long, default_value = "verlet")]
    method: String,
    /// none | hybrid | exit | both (the product engine maps any correction to its energy guard)
    #[arg(long, default_value = "none")]
    correction: String,
    /// paper (the mass–wall experiment) | product (the plugin's voice path)
    #[arg(long, default_value = "paper")]
    engine: String,
    /// wall, or an object of the library: bar, marimba, circular-plate, rectangular-plate,
    /// membrane, bell, glass, plank, string
    #[arg(long, default_value = "wall")]
    object: String,
    /// Fundamental of the object in Hz.
    #[arg(long, default_value_t = 440.0)]
    f0: f64,
    /// Modes of the object.
    #[arg(long, default_value_t = 16)]
    modes: usize,
    /// Modal mass of the object in kg.
    #[arg(long, default_value_t = 0.1)]
    object_mass: f64,
    /// A striker body (product engine): point-mass, ball, mallet, rod, coin. Its rigid mass
    /// replaces --mass and its own modes ring.
    #[arg(long)]
    striker: Option<String>,
    /// The striker's material (an id of the material table, e.g. steel, glass, hard-rubber).
    #[arg(long, default_value = "steel")]
    striker_material: String,
    /// The striker's size, m: the ball's, mallet head's or coin's radius, the rod's length.
    #[arg(
        long = "striker-size-m",
        alias = "striker-radius-m",
        default_value_t = 0.01
    )]
    striker_size_m: f64,
    /// The object's material: k and α become Hertz's for the two materials (the object flat at
    /// the contact) and μ restitutes the pair's coefficient at --vin (eq. 6 inverted), replacing
    /// --k, --alpha and --mu.
    #[arg(long)]
    object_material: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

impl ImpactArgs {
    fn discretization(&self) -> Result<Discretization> {
        let Some(method) = Method::from_name(&self.method) else {
            bail!("unknown --method {}", self.method)
        };
        let Some(correction) = Correction::from_name(&self.correction) else {
            bail!("unknown --correction {}", self.correction)
        };
        Ok(Discretization {
            sample_rate_hz: self.fs,
            method,
            correction,
            exit_velocity: ExitVelocity::Exact,
        })
    }
}

/// The rebound sequence of Papetti et al.'s Table III: a mass bouncing on a rigid wall, each
/// impact starting at x = 0 with the last one's exit speed; per impact the simulated and exact
/// exit velocities (m/s), their accumulated %err and the worst %dev of the energy H.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask bounce")]
pub struct BounceArgs {
    #[command(flatten)]
    impact: ImpactArgs,
    /// Number of rebounds.
    #[arg(long, default_value_t = 100)]
    impacts: usize,
}

/// The Hunt–Crossley dissipation μ (s/m) that gives a target coefficient of restitution e at an
/// impact speed (eq. 6 inverted), and the e a simulated mass–wall impact with it measures.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask restitution")]
pub struct RestitutionArgs {
    /// Target coefficient of restitution, 0 < e ≤ 1.
    #[arg(long)]
    e: f64,
    /// Impact velocity in m/s.
    #[arg(long)]
    vin: f64,
    /// Stiffness k in N/m^α.
    #[arg(long, default_value_t = 1e7)]
    k: f64,
    /// Contact-shape exponent α.
    #[arg(long, default_value_t = 1.5)]
    alpha: f64,
    /// Mass in kg.
    #[arg(long, default_value_t = 0.01)]
    mass: f64,
    /// Sample rate in Hz.
    #[arg(long, default_value_t = 44_100.0)]
    fs: f64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The material with id `id`, or an error listing the table.
fn material(id: &str) -> Result<&'static Material> {
    by_id(id).ok_or_else(|| {
        let ids: Vec<_> = MATERIALS.iter().map(|m| m.id).collect();
        anyhow::anyhow!("unknown material {id}; one of {}", ids.join(", "))
    })
}

impl ImpactArgs {
    /// The striker body asked for, if any.
    fn striker(&self) -> Result<Option<StrikerSpec>> {
        let Some(name) = &self.striker else {
            return Ok(None);
        };
        let Some(kind) = StrikerKind::from_name(name) else {
            bail!("unknown --striker {name}")
        };
        if !(self.striker_size_m.is_finite() && self.striker_size_m > 0.0) {
            bail!("--striker-size-m must be positive");
        }
        Ok(Some(StrikerSpec {
            kind,
            material: material(&self.striker_material)?,
            size_m: self.striker_size_m,
        }))
    }

    /// The contact law (k in N/m^α, μ in s/m, α): the flags', or Hertz's between the striker's
    /// and the object's materials (the object flat), μ restituting the pair's e at --vin (eq. 6
    /// inverted).
    fn law(&self, striker: Option<StrikerSpec>) -> Result<(f64, f64, f64)> {
        let Some(id) = &self.object_material else {
            return match (self.k, self.mu, self.alpha) {
                (Some(k), Some(mu), Some(alpha)) => Ok((k, mu, alpha)),
                _ => bail!("give --k, --mu and --alpha, or --object-material"),
            };
        };
        let striker = match striker {
            Some(striker) => striker,
            None => StrikerSpec {
                kind: StrikerKind::PointMass,
                material: material(&self.striker_material)?,
                size_m: self.striker_size_m,
            },
        };
        let (stiffness, e) = striker.hertz_contact(material(id)?);
        Ok((stiffness, mu_for_restitution(e, self.vin), 1.5))
    }

    /// The impact: the striker's rigid mass (a point mass: --mass) and the contact law.
    fn resolved_impact(&self) -> Result<(Impact, Option<StrikerSpec>)> {
        let striker = self.striker()?;
        let (k, mu, alpha) = self.law(striker)?;
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !(ok(k) && ok(self.mass) && ok(self.vin) && ok(self.fs) && ok(alpha) && mu >= 0.0) {
            bail!("k, mass, vin, fs and alpha must be positive and finite, mu non-negative");
        }
        let mass_kg = striker.map_or(self.mass, |s| s.rigid_mass_kg(self.mass));
        let impact = Impact {
            stiffness: k,
            mu_s_per_m: mu,
            alpha,
            mass_kg,
            v_in_m_per_s: self.vin,
        };
        Ok((impact, striker))
    }
}

pub fn impact(args: &ImpactArgs) -> Result<()> {
    let (impact, striker) = args.resolved_impact()?;
    let d = args.discretization()?;
    let r = match (args.engine.as_str(), args.object.as_str()) {
        ("paper", "wall") if striker.is_none() => simulate_impact(&impact, &d),
        ("paper", _) if striker.is_some() => {
            bail!("the paper's engine strikes with a point mass; use --engine product for strikers")
        }
        ("product", "wall") if striker.is_none() => simulate_impact(&impact, &d),
        ("product", name) => {
            // A wall is an object without modes.
            let (kind, num_modes) = match name {
                "wall" => (ObjectKind::FreeBar, 0),
                _ => match ObjectKind::from_name(name) {
                    Some(kind) => (kind, args.modes),
                    None => bail!("unknown --object {name}"),
                },
            };
            let object = ObjectSpec {
                kind,
                f0_hz: args.f0,
                num_modes,
                ..ObjectSpec::marimba(args.f0)
            };
            simulate_object_impact(&ObjectImpact {
                object,
                object_mass_kg: args.object_mass,
                hammer_mass_kg: impact.mass_kg,
                striker,
                law: HuntCrossley {
                    stiffness: impact.stiffness,
                    mu_s_per_m: impact.mu_s_per_m,
                    alpha: impact.alpha,
                },
                method: d.method,
                guard: d.correction != Correction::None,
                v_in_m_per_s: impact.v_in_m_per_s,
                sample_rate_hz: d.sample_rate_hz,
            })
        }
        ("paper", _) => {
            bail!("the paper's engine strikes a wall; use --engine product for objects")
        }
        (engine, _) => bail!("unknown --engine {engine}"),
    };
    let mut value = report_json(&r);
    let mut striker_modes = [Mode::SILENT; MAX_STRIKER_MODES];
    let body = striker.map(|s| s.body(impact.mass_kg, &mut striker_modes));
    let extra = json!({
        "k_n_per_m_alpha": impact.stiffness,
        "alpha": impact.alpha,
        "mu_s_per_m": impact.mu_s_per_m,
        "striker_mass_kg": impact.mass_kg,
        "object_mass_kg": args.object_mass,
        "striker_modes_hz": striker_modes[..body.map_or(0, |b| b.num_modes)]
            .iter()
            .map(|m| m.freq_hz)
            .collect::<Vec<_>>(),
    });
    if let (Some(map), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
        map.extend(extra);
    }
    if args.json {
        println!("{value}");
    } else {
        println!("{}", serde_json::to_string_pretty(&value)?);
    }
    Ok(())
}

fn report_json(r: &ImpactReport) -> serde_json::Value {
    json!({
        "n_contact": r.n_contact,
        "v_out_sim": r.v_out_sim,
        "v_out_exact": r.v_out_exact,
        "v_out_approx": r.v_out_approx,
        "err_v_out_pct": r.err_v_out_pct,
        "dev_x_pct": r.dev_x_pct,
        "dev_h_pct": r.dev_h_pct,
        "x_max_m": r.x_max_m,
        "contact_time_s": r.contact_time_s,
        "newton_iterations_max": r.newton_iterations_max,
        "substeps": r.substeps,
        "energy_rise_max_j": r.energy_rise_max_j,
    })
}

pub fn bounce(args: &BounceArgs) -> Result<()> {
    let (impact, striker) = args.impact.resolved_impact()?;
    if striker.is_some() {
        bail!("the bounce sequence is the paper's mass on a wall: no --striker");
    }
    let r = simulate_bounces(&impact, &args.impact.discretization()?, args.impacts);
    let value = json!({
        "impacts": r.impacts,
        "accum_err_pct": r.accum_err_pct,
        "max_dev_h_pct": r.max_dev_h_pct,
        "v_out_last_sim": r.v_out_last_sim,
        "v_out_last_exact": r.v_out_last_exact,
    });
    if args.impact.json {
        println!("{value}");
    } else {
        println!("{}", serde_json::to_string_pretty(&value)?);
    }
    Ok(())
}

pub fn restitution(args: &RestitutionArgs) -> Result<()> {
    if !(args.e > 0.0
        && args.e <= 1.0
        && args.vin > 0.0
        && args.k > 0.0
        && args.mass > 0.0
        && args.fs > 0.0)
    {
        bail!("need 0 < e ≤ 1 and positive vin, k, mass, fs");
    }
    let mu = mu_for_restitution(args.e, args.vin);
    let law = HuntCrossley {
        stiffness: args.k,
        mu_s_per_m: mu,
        alpha: args.alpha,
    };
    let run = run_contact(
        &law,
        args.mass,
        args.vin,
        0.0,
        1.0 / args.fs,
        Method::Rk4,
        None,
        |_, _| {},
    );
    let value = json!({ "mu_s_per_m": mu, "e_target": args.e, "e_measured": -run.v_out_m_per_s / args.vin });
    if args.json {
        println!("{value}");
    } else {
        println!("{}", serde_json::to_string_pretty(&value)?);
    }
    Ok(())
}

const METHODS: [&str; 4] = ["AM1", "Verlet", "Heun", "RK4"];

fn impact_table_json(
    title: &str,
    impact: &Impact,
    printed: &PrintedImpactTable,
) -> serde_json::Value {
    let reports = paper::impact_table(impact);
    let row = |name: &str, ours: [f64; 4], theirs: [f64; 4]| json!({ "metric": name, "ours": ours, "paper": theirs });
    json!({
        "table": title,
        "methods": METHODS,
        "n_contact": reports.map(|r| r.n_contact),
        "newton_iterations_max": reports[0].newton_iterations_max,
        "rows": [
            row("dev_x_pct", reports.map(|r| r.dev_x_pct), printed.dev_x_pct),
            row("err_v_out_pct", reports.map(|r| r.err_v_out_pct), printed.err_v_out_pct),
            row("err_v_out_vs_approx_pct", reports.map(|r| 100.0 * (r.v_out_sim / r.v_out_approx - 1.0)), printed.err_v_out_pct),
            row("dev_h_pct", reports.map(|r| r.dev_h_pct), printed.dev_h_pct),
        ],
        "approx_err_pct": approx_error_pct(impact.mu_s_per_m * impact.v_in_m_per_s),
    })
}

fn bounce_table_json(
    title: &str,
    first: &Impact,
    printed: &PrintedBounceTable,
) -> serde_json::Value {
    let (plain, as_printed, exact) = paper::bounce_table(first);
    json!({
        "table": title,
        "methods": METHODS,
        "rows": [
            { "metric": "accum_err_pct", "ours": plain.map(|r| r.accum_err_pct), "paper": printed.accum_err_pct },
            { "metric": "max_dev_pct", "ours": plain.map(|r| r.max_dev_h_pct), "paper": printed.max_dev_pct },
        ],
        "corrected_as_printed": { "accum_err_pct": as_printed.accum_err_pct, "max_dev_pct": as_printed.max_dev_h_pct },
        "corrected_exact_v_out": { "accum_err_pct": exact.accum_err_pct, "max_dev_pct": exact.max_dev_h_pct },
        "paper_corrected": { "accum_err_pct": printed.corrected_accum_err_pct, "max_dev_pct": printed.corrected_max_dev_pct },
    })
}

/// Tables I, II(a), II(b), III(a), III(b) and the Fig. 3 thresholds, each beside the paper's.
pub fn paper(json_output: bool) -> Result<()> {
    let fig3 = |threshold: f64| {
        let r = ApproxRange::for_threshold(threshold);
        json!({ "threshold_pct": threshold, "mu_vin_below": r.below, "mu_vin_above": r.above })
    };
    let value = json!({
        "tables": [
            impact_table_json("I", &paper::TABLE_I, &paper::PRINTED_TABLE_I),
            impact_table_json("II(a)", &paper::CASE_1, &paper::PRINTED_TABLE_II_A),
            impact_table_json("II(b)", &paper::CASE_2, &paper::PRINTED_TABLE_II_B),
            bounce_table_json("III(a)", &paper::CASE_1, &paper::PRINTED_TABLE_III_A),
            bounce_table_json("III(b)", &paper::CASE_2, &paper::PRINTED_TABLE_III_B),
        ],
        "fig3": [fig3(1.0), fig3(0.1)],
    });
    if json_output {
        println!("{value}");
        return Ok(());
    }
    for table in value["tables"].as_array().into_iter().flatten() {
        println!(
            "\nTable {}   (ours | paper)",
            table["table"].as_str().unwrap_or("")
        );
        println!("{:<26}{}", "", METHODS.map(|m| format!("{m:>24}")).join(""));
        for row in table["rows"].as_array().into_iter().flatten() {
            let cells: Vec<String> = (0..4)
                .map(|i| {
                    format!(
                        "{:>12.4e} |{:>9.3e}",
                        row["ours"][i].as_f64().unwrap_or(f64::NAN),
                        row["paper"][i].as_f64().unwrap_or(f64::NAN)
                    )
                })
                .collect();
            println!(
                "{:<26}{}",
                row["metric"].as_str().unwrap_or(""),
                cells.join("")
            );
        }
        for key in [
            "n_contact",
            "newton_iterations_max",
            "approx_err_pct",
            "corrected_as_printed",
            "corrected_exact_v_out",
            "paper_corrected",
        ] {
            if !table[key].is_null() {
                println!("  {key}: {}", table[key]);
            }
        }
    }
    println!("\nFig. 3: ṽ_out within the threshold for μ·v_in below / above (the paper gives these graphically)");
    for f in value["fig3"].as_array().into_iter().flatten() {
        println!(
            "  {}%: μ·v_in < {:.4} or μ·v_in > {:.4}",
            f["threshold_pct"],
            f["mu_vin_below"].as_f64().unwrap_or(f64::NAN),
            f["mu_vin_above"].as_f64().unwrap_or(f64::NAN)
        );
    }
    Ok(())
}
