//! `cargo xtask rigid jia-wang`: Jia & Wang's 3D frictional impact on a problem file or the paper's examples.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::Parser;
use serde_json::{json, Map, Value};
use urto_dsp::rigid::jia_wang::examples::{self, Example};
use urto_dsp::rigid::jia_wang::{self, Error, Method, Problem, Solution};

/// Solve one single-point frictional impact (Jia & Wang, Stronge restitution).
///
/// Either name one of the paper's examples (icosa, pin-ball, frictionless) or pass
/// --problem FILE.json holding {"W": [[3×3]], "v_minus": [x, y, z], "mu": μ, "e": e} in the
/// contact frame (z along the contact normal, v_z < 0 approaching).
#[derive(Parser, Debug)]
#[command(name = "cargo xtask rigid jia-wang")]
struct Args {
    /// icosa | pin-ball | frictionless
    example: Option<String>,
    /// A problem file (JSON) instead of an example.
    #[arg(long)]
    problem: Option<PathBuf>,
    /// exact | algorithm1-fs | algorithm1-vs | brute
    #[arg(long, default_value = "exact")]
    method: String,
    /// Normal-impulse step in N·s for algorithm1-fs (default: Table 1's, 0.001 for a file) and
    /// brute (default: the frictionless normal impulse / 10⁵).
    #[arg(long)]
    step: Option<f64>,
    /// ε of eq. 36 (algorithm1-vs).
    #[arg(long, default_value_t = 0.5)]
    eps: f64,
    /// h1 of eq. 36, hodograph arc length per step in m/s (algorithm1-vs).
    #[arg(long, default_value_t = 0.01)]
    h1: f64,
    /// h2 of eq. 36, turning angle per step in rad (algorithm1-vs).
    #[arg(long, default_value_t = 0.01)]
    h2: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Entry point; `args[0]` is "jia-wang".
pub fn run(args: &[String]) -> Result<()> {
    let args = Args::parse_from(args);
    let (problem, example) = match (&args.example, &args.problem) {
        (Some(_), Some(_)) => bail!("give either an example name or --problem FILE, not both"),
        (None, None) => bail!("give an example (icosa, pin-ball, frictionless) or --problem FILE"),
        (Some(name), None) => {
            let ex = examples::by_name(name).ok_or_else(|| {
                anyhow!("unknown example {name:?}: icosa, pin-ball, frictionless")
            })?;
            (ex.problem, Some(ex))
        }
        (None, Some(path)) => (read_problem(path)?, None),
    };
    let method = method(&args, &problem, example.as_ref())?;
    let solution = jia_wang::solve(&problem, method)
        .map_err(|e| anyhow!("{}", explain(e, &problem)))
        .with_context(|| format!("solving with {}", args.method))?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report(&args, &problem, &solution, example.as_ref()))?
        );
    } else {
        print_table(&args, &problem, &solution, example.as_ref());
    }
    Ok(())
}

/// The method from the flags, with Table 1's step for an example's fixed-step run.
fn method(args: &Args, problem: &Problem, example: Option<&Example>) -> Result<Method> {
    let check = |name: &str, x: f64| {
        if x.is_finite() && x > 0.0 {
            Ok(x)
        } else {
            Err(anyhow!("--{name} must be a positive number, got {x}"))
        }
    };
    Ok(match args.method.as_str() {
        "exact" => Method::Exact,
        "algorithm1-fs" => {
            let table = example
                .and_then(|e| e.printed.table1)
                .map(|t| t.fs_step_n_s);
            Method::Algorithm1Fixed {
                step_n_s: check("step", args.step.or(table).unwrap_or(0.001))?,
            }
        }
        "algorithm1-vs" => {
            let eps = check("eps", args.eps)?;
            if eps >= 1.0 {
                bail!("--eps must lie in (0, 1), got {eps}");
            }
            Method::Algorithm1Variable {
                eps,
                h1_m_per_s: check("h1", args.h1)?,
                h2_rad: check("h2", args.h2)?,
            }
        }
        "brute" => {
            let default = problem.frictionless_iz_n_s() / 1e5;
            Method::Brute {
                step_n_s: check("step", args.step.unwrap_or(default))?,
            }
        }
        other => bail!("unknown method {other:?}: exact, algorithm1-fs, algorithm1-vs, brute"),
    })
}

/// Read and validate a problem file.
fn read_problem(path: &PathBuf) -> Result<Problem> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: Value = serde_json::from_str(&text)
        .with_context(|| format!("parsing {} as JSON", path.display()))?;
    let number = |v: &Value, what: &str| -> Result<f64> {
        let x = v
            .as_f64()
            .ok_or_else(|| anyhow!("{what} must be a number, got {v}"))?;
        if !x.is_finite() {
            bail!("{what} must be finite, got {x}");
        }
        Ok(x)
    };
    let field = |key: &str| value.get(key).ok_or_else(|| anyhow!("missing key {key:?}"));
    let vec3 = |v: &Value, what: &str| -> Result<[f64; 3]> {
        let a = v
            .as_array()
            .filter(|a| a.len() == 3)
            .ok_or_else(|| anyhow!("{what} must be an array of 3 numbers, got {v}"))?;
        let mut out = [0.0; 3];
        for (i, (x, o)) in a.iter().zip(&mut out).enumerate() {
            *o = number(x, &format!("{what}[{i}]"))?;
        }
        Ok(out)
    };
    let rows = field("W")?
        .as_array()
        .filter(|r| r.len() == 3)
        .ok_or_else(|| anyhow!("W must be 3 rows of 3 numbers"))?;
    let w = [
        vec3(&rows[0], "W[0]")?,
        vec3(&rows[1], "W[1]")?,
        vec3(&rows[2], "W[2]")?,
    ];
    let problem = Problem::from_rows(
        w,
        vec3(field("v_minus")?, "v_minus")?,
        number(field("mu")?, "mu")?,
        number(field("e")?, "e")?,
    );
    problem.validate().map_err(|e| {
        anyhow!(
            "invalid problem in {}: {}",
            path.display(),
            explain(e, &problem)
        )
    })?;
    Ok(problem)
}

/// An error with the numbers that caused it.
fn explain(error: Error, p: &Problem) -> String {
    let w = p.w.transpose().to_cols_array_2d();
    match error {
        Error::NotSymmetric => format!(
            "W is not symmetric (W[0][1]={}, W[1][0]={}; W[0][2]={}, W[2][0]={}; W[1][2]={}, W[2][1]={})",
            w[0][1], w[1][0], w[0][2], w[2][0], w[1][2], w[2][1]
        ),
        Error::NotPositiveDefinite => format!(
            "W is not positive definite (leading minors {}, {}, {})",
            w[0][0],
            w[0][0] * w[1][1] - w[0][1] * w[1][0],
            p.w.determinant()
        ),
        Error::NotApproaching => format!("v_minus z = {} must be negative (approaching)", p.v_minus.z),
        Error::NegativeFriction => format!("mu = {} must be non-negative", p.mu),
        Error::RestitutionOutOfRange => format!("e = {} must lie in [0, 1]", p.e),
        other => other.to_string(),
    }
}

/// The events as {name: I_z}.
fn events(s: &Solution) -> Value {
    let mut map = Map::new();
    for e in s.events.iter() {
        map.insert(e.name.to_string(), json!(e.iz_n_s));
    }
    Value::Object(map)
}

/// The JSON report: our solution, and for an example the printed values beside it.
fn report(args: &Args, p: &Problem, s: &Solution, example: Option<&Example>) -> Value {
    let mut out = json!({
        "method": args.method,
        "v_minus": p.v_minus.to_array(),
        "mu": p.mu,
        "e": p.e,
        "impulse": s.impulse_n_s.to_array(),
        "v_plus": s.v_plus_m_per_s.to_array(),
        "sequence": s.sequence(),
        "events": events(s),
        "iterations": s.iterations,
        "energy_change": p.energy_change_j(s.impulse_n_s),
    });
    if let (Some(ex), Some(obj)) = (example, out.as_object_mut()) {
        obj.insert("example".into(), json!(ex.name));
        let mut printed =
            json!({ "impulse": ex.printed.impulse_n_s, "sequence": ex.printed.sequence });
        if let (Some(t), Some(pr)) = (ex.printed.table1, printed.as_object_mut()) {
            pr.insert(
                "table1".into(),
                json!({
                    "truth_iterations": t.truth_iterations,
                    "ni": { "step": t.ni_step_n_s, "iterations": t.ni_iterations, "error": t.ni_error_n_s },
                    "fs": { "step": t.fs_step_n_s, "iterations": t.fs_iterations, "error": t.fs_error_n_s },
                    "vs": { "iterations": t.vs_iterations, "error": t.vs_error_n_s },
                }),
            );
        }
        obj.insert("printed".into(), printed);
    }
    out
}

/// The human-readable table: ours beside the printed values for an example.
fn print_table(args: &Args, p: &Problem, s: &Solution, example: Option<&Example>) {
    let v3 = |v: [f64; 3]| format!("({:>12.7}, {:>12.7}, {:>12.7})", v[0], v[1], v[2]);
    if let Some(ex) = example {
        println!("Jia–Wang example {} ({})", ex.name, args.method);
    } else {
        println!("Jia–Wang impact ({})", args.method);
    }
    println!("  W        {}", v3(p.w.row(0).to_array()));
    println!("           {}", v3(p.w.row(1).to_array()));
    println!("           {}", v3(p.w.row(2).to_array()));
    println!(
        "  v_minus  {}   mu {}   e {}",
        v3(p.v_minus.to_array()),
        p.mu,
        p.e
    );
    println!();
    println!(
        "  {:<11} {:<42} {}",
        "",
        "ours",
        if example.is_some() { "printed" } else { "" }
    );
    let printed = example.map(|e| e.printed);
    println!(
        "  {:<11} {:<42} {}",
        "impulse",
        v3(s.impulse_n_s.to_array()),
        printed.map(|p| v3(p.impulse_n_s)).unwrap_or_default()
    );
    println!("  {:<11} {}", "v_plus", v3(s.v_plus_m_per_s.to_array()));
    println!(
        "  {:<11} {:<42} {}",
        "sequence",
        s.sequence(),
        printed
            .and_then(|p| p.sequence)
            .unwrap_or(if example.is_some() {
                "(not printed)"
            } else {
                ""
            })
    );
    let ev: Vec<String> = s
        .events
        .iter()
        .map(|e| format!("{}@{:.7}", e.name, e.iz_n_s))
        .collect();
    println!("  {:<11} {}", "events I_z", ev.join("  "));
    let table = printed.and_then(|p| p.table1);
    let printed_iterations = table.map(|t| match args.method.as_str() {
        "algorithm1-fs" => format!("{} (FS, step {})", t.fs_iterations, t.fs_step_n_s),
        "algorithm1-vs" => format!("{} (VS)", t.vs_iterations),
        _ => format!(
            "FS {} (step {}), VS {}, NI {} (step {})",
            t.fs_iterations, t.fs_step_n_s, t.vs_iterations, t.ni_iterations, t.ni_step_n_s
        ),
    });
    println!(
        "  {:<11} {:<42} {}",
        "iterations",
        s.iterations,
        printed_iterations.unwrap_or_default()
    );
    println!("  {:<11} {:.3e} J", "ΔKE", p.energy_change_j(s.impulse_n_s));
    if example.is_some() {
        println!();
        println!("  The printed v⁻ depends on body rotations the paper does not print: the");
        println!("  icosahedron's are recovered from its printed W and ω⁺, the pin–ball uses");
        println!("  R_i = identity (dsp-core/src/rigid/jia_wang/examples.rs).");
    }
}
