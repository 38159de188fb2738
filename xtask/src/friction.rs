//! `cargo xtask friction stick-slip|steady`: the engine's friction law and solve on a mode dragged by a belt, and in steady sliding, as JSON.

use anyhow::Result;
use clap::{Parser, Subcommand};
use serde_json::{json, Value};
use urto_dsp::friction::{steady_sliding, stick_slip, Belt, FrictionLaw};

#[derive(Parser, Debug)]
#[command(name = "cargo xtask friction")]
pub struct FrictionArgs {
    #[command(subcommand)]
    experiment: Experiment,
}

/// The law's parameters every experiment takes.
#[derive(clap::Args, Debug)]
struct LawArgs {
    /// Normal force pressing the bodies together, N.
    #[arg(long)]
    normal_force_n: f64,
    /// Static coefficient µs (≥ 0, any size).
    #[arg(long)]
    mu_static: f64,
    /// Kinetic coefficient µk (0 ≤ µk ≤ µs).
    #[arg(long)]
    mu_kinetic: f64,
    /// Stribeck velocity vs, m/s.
    #[arg(long, default_value_t = 1e-3)]
    stribeck_m_per_s: f64,
    /// Bristle stiffness σ₀, N/m.
    #[arg(long, default_value_t = 1e7)]
    bristle_stiffness_n_per_m: f64,
    /// Bristle damping σ₁, N·s/m (stick–slip: default √(σ₀·M), half critical with the mass).
    #[arg(long)]
    bristle_damping_n_s_per_m: Option<f64>,
    /// Viscous friction σ₂, N·s/m.
    #[arg(long, default_value_t = 0.0)]
    viscous_n_s_per_m: f64,
    /// Break-away deflection as a fraction of the steady one, z_ba/z_ss.
    #[arg(long, default_value_t = 0.7)]
    breakaway: f64,
    /// Sample rate, Hz.
    #[arg(long, default_value_t = 44_100.0)]
    sample_rate_hz: f64,
}

#[derive(Subcommand, Debug)]
enum Experiment {
    /// One undamped mode of mass M at F (the object) dragged by a belt at V through the friction
    /// law; starts stuck to the belt. Measures the stick–slip cycles after two have settled.
    #[command(allow_negative_numbers = true)]
    StickSlip {
        /// The mode's modal mass, kg.
        #[arg(long)]
        mass_kg: f64,
        /// The mode's frequency, Hz.
        #[arg(long)]
        frequency_hz: f64,
        /// Belt speed, m/s (not zero).
        #[arg(long)]
        belt_speed_m_per_s: f64,
        /// Simulated time, s.
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        #[command(flatten)]
        law: LawArgs,
        #[arg(long)]
        json: bool,
    },
    /// The force of steady sliding at V over a rigid surface, reached by sliding from a relaxed
    /// bristle.
    #[command(allow_negative_numbers = true)]
    Steady {
        /// Sliding velocity, m/s.
        #[arg(long)]
        velocity_m_per_s: f64,
        #[command(flatten)]
        law: LawArgs,
        #[arg(long)]
        json: bool,
    },
}

/// A bad value, named: refused with exit code 2 (clap's own code for a bad command).
type Refusal = String;

/// The law the arguments describe, or a refusal naming the first bad value.
fn law(args: &LawArgs, mass_kg: Option<f64>) -> Result<FrictionLaw, Refusal> {
    let finite_non_negative = [
        ("--normal-force-n", args.normal_force_n),
        ("--mu-static", args.mu_static),
        ("--mu-kinetic", args.mu_kinetic),
        ("--viscous-n-s-per-m", args.viscous_n_s_per_m),
        ("--breakaway", args.breakaway),
    ];
    for (name, value) in finite_non_negative {
        if !(value >= 0.0 && value.is_finite()) {
            return Err(format!("{name} must be finite and ≥ 0, not {value}"));
        }
    }
    if args.mu_kinetic > args.mu_static {
        return Err(format!(
            "--mu-kinetic {} exceeds --mu-static {}: sliding cannot hold more than sticking",
            args.mu_kinetic, args.mu_static
        ));
    }
    if args.stribeck_m_per_s.is_nan() || args.stribeck_m_per_s <= 0.0 {
        return Err("--stribeck-m-per-s must be positive".into());
    }
    if !(args.bristle_stiffness_n_per_m > 0.0 && args.bristle_stiffness_n_per_m <= 1e9) {
        return Err("--bristle-stiffness-n-per-m must lie in (0, 1e9]".into());
    }
    if args.breakaway >= 1.0 {
        return Err("--breakaway must be below 1 (z_ba < z_ss)".into());
    }
    if !(args.sample_rate_hz >= 8_000.0 && args.sample_rate_hz <= 768_000.0) {
        return Err("--sample-rate-hz must lie in [8000, 768000]".into());
    }
    let damping = args
        .bristle_damping_n_s_per_m
        .unwrap_or_else(|| mass_kg.map_or(0.0, |m| (args.bristle_stiffness_n_per_m * m).sqrt()));
    if damping.is_nan() || damping < 0.0 {
        return Err("--bristle-damping-n-s-per-m must be ≥ 0".into());
    }
    Ok(FrictionLaw {
        mu_static: args.mu_static,
        mu_kinetic: args.mu_kinetic,
        stribeck_m_per_s: args.stribeck_m_per_s,
        bristle_stiffness_n_per_m: args.bristle_stiffness_n_per_m,
        bristle_damping_n_s_per_m: damping,
        viscous_n_s_per_m: args.viscous_n_s_per_m,
        breakaway: args.breakaway,
        // The experiments compare with noiseless closed forms.
        roughness_per_sqrt_hz: 0.0,
    })
}

fn law_json(law: &FrictionLaw, normal_n: f64, rate_hz: f64) -> Value {
    json!({
        "normal_force_n": normal_n,
        "mu_static": law.mu_static,
        "mu_kinetic": law.mu_kinetic,
        "stribeck_m_per_s": law.stribeck_m_per_s,
        "bristle_stiffness_n_per_m": law.bristle_stiffness_n_per_m,
        "bristle_damping_n_s_per_m": law.bristle_damping_n_s_per_m,
        "viscous_n_s_per_m": law.viscous_n_s_per_m,
        "breakaway": law.breakaway,
        "sample_rate_hz": rate_hz,
    })
}

/// Most samples a steady-sliding run may take (~100 s of sliding at 44.1 kHz).
const STEADY_MAX_SAMPLES: usize = 1 << 22;

pub fn friction(args: &FrictionArgs) -> Result<()> {
    match report(args) {
        Ok((report, true)) => println!("{}", serde_json::to_string_pretty(&report)?),
        Ok((report, false)) => {
            for (key, value) in report.as_object().into_iter().flatten() {
                println!("{key:>26}  {value}");
            }
        }
        Err(reason) => {
            eprintln!("error: {reason}");
            std::process::exit(2)
        }
    }
    Ok(())
}

/// The experiment's report and whether JSON was asked, or the refusal of a bad value.
fn report(args: &FrictionArgs) -> Result<(Value, bool), Refusal> {
    Ok(match &args.experiment {
        Experiment::StickSlip {
            mass_kg,
            frequency_hz,
            belt_speed_m_per_s,
            seconds,
            law: law_args,
            json,
        } => {
            if !(*mass_kg > 0.0 && mass_kg.is_finite()) {
                return Err(format!("--mass-kg must be positive, not {mass_kg}"));
            }
            if !(*frequency_hz > 0.0 && *frequency_hz < 0.5 * law_args.sample_rate_hz) {
                return Err("--frequency-hz must lie between 0 and half the sample rate".into());
            }
            if !(belt_speed_m_per_s.abs() > 0.0 && belt_speed_m_per_s.is_finite()) {
                return Err(
                    "--belt-speed-m-per-s must not be zero: a still belt has no period".into(),
                );
            }
            if !(*seconds > 0.0 && *seconds <= 600.0) {
                return Err("--seconds must lie in (0, 600]".into());
            }
            let law = law(law_args, Some(*mass_kg))?;
            let belt = Belt {
                mass_kg: *mass_kg,
                freq_hz: *frequency_hz,
                normal_n: law_args.normal_force_n,
                law,
                belt_m_per_s: *belt_speed_m_per_s,
                sample_rate_hz: law_args.sample_rate_hz,
                seconds: *seconds,
            };
            let run = stick_slip(&belt, |_, _| {});
            let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
            let report = json!({
                "period_s": finite(run.period_s),
                "slip_fraction": finite(run.slip_fraction),
                "cycles": run.cycles,
                "newton_iterations_mean": run.newton_mean,
                "newton_iterations_max": run.newton_max,
                "mass_kg": mass_kg,
                "frequency_hz": frequency_hz,
                "belt_speed_m_per_s": belt_speed_m_per_s,
                "seconds": seconds,
                "law": law_json(&law, law_args.normal_force_n, law_args.sample_rate_hz),
            });
            (report, *json)
        }
        Experiment::Steady {
            velocity_m_per_s,
            law: law_args,
            json,
        } => {
            if !velocity_m_per_s.is_finite() {
                return Err("--velocity-m-per-s must be finite".into());
            }
            let law = law(law_args, None)?;
            let force = if *velocity_m_per_s == 0.0 {
                Some(0.0)
            } else {
                steady_sliding(
                    &law,
                    law_args.normal_force_n,
                    *velocity_m_per_s,
                    law_args.sample_rate_hz,
                    STEADY_MAX_SAMPLES,
                )
            };
            let Some(force) = force else {
                return Err("the bristle did not settle within 2²² samples: at this speed a bristle this soft under this load needs metres of sliding (raise --bristle-stiffness-n-per-m or the speed)".into());
            };
            let report = json!({
                "force_n": force,
                "velocity_m_per_s": velocity_m_per_s,
                "law": law_json(&law, law_args.normal_force_n, law_args.sample_rate_hz),
            });
            (report, *json)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(line: &str) -> String {
        let args = FrictionArgs::try_parse_from(line.split_whitespace()).unwrap();
        report(&args).unwrap_err()
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        let belt = "friction stick-slip --frequency-hz 50 --normal-force-n 0.01 --mu-static 0.6";
        let mass = refusal(&format!(
            "{belt} --mu-kinetic 0.3 --belt-speed-m-per-s 0.01 --mass-kg -1"
        ));
        assert!(mass.contains("--mass-kg"), "{mass}");
        let mu = refusal(&format!(
            "{belt} --mu-kinetic 0.7 --belt-speed-m-per-s 0.01 --mass-kg 1"
        ));
        assert!(
            mu.contains("--mu-kinetic 0.7 exceeds --mu-static 0.6"),
            "{mu}"
        );
        let still = refusal(&format!(
            "{belt} --mu-kinetic 0.3 --belt-speed-m-per-s 0 --mass-kg 1"
        ));
        assert!(still.contains("--belt-speed-m-per-s"), "{still}");
    }
}
