//! `cargo xtask`: the project's commands (test, demo, install); anything else goes to nice-plug-xtask.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

mod analyse;
mod apt;
mod audition;
mod bench;
mod breaking;
mod compare;
mod crumple;
mod demo;
mod drop;
mod factory;
mod friction;
mod media;
mod paper;
mod reference;
mod render;
mod rigid;
mod scenes;
mod scrape;
mod soak;
mod standalone;
mod validate;
mod vstpreset;

use clap::Parser;

const USAGE: &str = "usage: cargo xtask <command>
  test      check formatting and clippy (warnings are errors), bundle, then run every test: both
            validators, cargo tests, CLAP host tests, the no-allocation host test, a soak, the
            VST3 (pedalboard) host test and a render through Ardour
  demo      bundle, then render demo WAVs (through the real CLAP, and the bounce and roll scenes)
            and plots into target/demo/, and the editor's screenshots (standalone under Xvfb)
  validate  bundle, then run free-audio's clap-validator and Steinberg's VST3 validator (-e) on
            the bundles (built once into target/validators/ from their sources); fails on any failure
  install   bundle, then copy Urto.clap to ~/.clap and Urto.vst3 to ~/.vst3, and write every
            factory preset as a .vstpreset in ~/.vst3/presets/Urto/Urto/<category>/
  soak [--minutes M] [--seed S] [--json]   M minutes of random dense MIDI, mode switches and
            automation through the CLAP beside a twin of its engine: real-time factor, NaNs,
            voices (peak, mean, left after the tails), quarantined resets
  standalone  install ALSA's and JACK's headers if missing, build
            target/standalone/release/urto-standalone
  screenshot  the editor of the standalone under Xvfb, each tab with Strike pressed and one at
              1.5× scale: target/demo/editor-<mode>.png, editor-strike-1.5x.png
  bench [--json]         criterion benchmarks of the dsp-core: integrators, modal bank, voices,
                         64-voice real-time factor, note-on and 64-note burst; the editor's frame
                         (JSON: headline figures)
  presets [--json]       the factory presets by category, with their descriptions
  audition PRESET [--velocity V] [--hold-s H] [--seconds S] [--out DIR] [--json]
                         bundle, then play a preset (file or factory name) on middle C through
                         the CLAP: its WAV and spectrogram, peak, held RMS, strongest peak
  vst3        bundle, then only the VST3 test in pedalboard (level table, host behaviour)
  paper [--json]         Tables I–III and the Fig. 3 thresholds beside the paper's
  impact (--k --mu --alpha | --object-material M) --vin [--mass --fs --method --correction
         --engine --object --striker --json]
                         one impact and its error metrics (--help: every flag and unit)
  bounce (impact's flags) [--impacts N]   the rebound sequence of Table III
  restitution --e --vin [--k --alpha --mass --fs --json]   μ for a target e, and e measured
  rigid jia-wang --problem FILE.json [--method exact|algorithm1-fs|algorithm1-vs|brute] [--json]
  rigid jia-wang icosa|pin-ball|frictionless [--method …] [--json]
                         Jia & Wang's 3D frictional impact, beside the paper's printed values
  rigid plus --problem FILE.json [--json]
  rigid plus brick --mu 0.125|0.225|0.325 [--theta-max T] | cradle | flat-brick [--json]
                         PLUS simultaneous frictional impacts, beside the paper's printed values
  drop --body die|coin|rod|spoon|brick|ring|sphere [--material M] --floor plank|plate|glass|tile|stone
       --height H --seed S [--mu 0.3] [--json] [--wav PATH]
                         a drop note: every contact with the floor, rest time, final pose; its sound
  crumple --rate-per-s R (--energy-exponent A --min-energy-j E0 [--max-energy-j E1] |
          --sdt-energy-j E) --seconds S --seed N [--sample-rate-hz SR] [--json] [--wav PATH]
                         a crumpling stream's events (time, energy, size), the same at every
                         sample rate; --wav: the crumple note that plays them
  break --object glass|plate|bottle|twig|ice [--stored-energy-j ES] --seed N [--json]
        [--wav PATH]
                         a break preset's plan as the N-th note draws it: crack events and
                         fragment landings, the fragments, the energy ledger; --wav: its sound
  render (--preset NAME | --category CAT)… --out DIR [--note N]… [--velocity V]…
         [--variations N] [--seed S] [--loudness-lufs L] [--true-peak-dbtp C]
         [--sample-rate-hz 48000|96000] [--format pcm24|float32] [--channels mono|stereo]
         [--job FILE.toml|.json] [--threads T] (--help: every flag)
                         a sound library on the engine: variations drawn within physical
                         ranges, loudness-normalised, BWF-tagged, UCS-named, with a manifest
  friction stick-slip --mass-kg M --frequency-hz F --normal-force-n N --mu-static S
           --mu-kinetic K --belt-speed-m-per-s V [--stribeck-m-per-s VS]
           [--bristle-stiffness-n-per-m S0] [--sample-rate-hz R] [--seconds T] [--json]
                         a mode dragged by a belt through the friction law: period, slip fraction
  friction steady --normal-force-n N --mu-static S --mu-kinetic K --stribeck-m-per-s VS
           --velocity-m-per-s V [--json]
                         the force of steady sliding
  analyse REC [--max-modes N] [--min-level-db L] [--json] [--spectrogram PNG]
                         the damped modes of a recorded strike (WAV or FLAC): frequency, T60,
                         level, phase; the noise floor and the residual (subband ESPRIT)
  compare A B [--max-partials N] [--json]
                         two recordings (WAV/FLAC) onset-aligned and RMS-normalised, compared
                         independently of the subspace analysis: partials (STFT peaks) and their
                         T60, Schroeder T60, centroids at 20/100 ms, log-mel distance
  reference [--json | --markdown] [--wav DIR]
                         the reference set of real recordings (installs Debian's freepats and
                         hydrogen-drumkits if missing): every fixture with its real instrument,
                         note, rates, unlooped length and kind; --wav: each as DIR/<id>.wav
  scrape --surface ridges|fractal|grain --ridge-spacing-m D --speed-m-per-s V [--ridge-shape
         rounded|saw|teeth] [--height-m H] [--sample-rate-hz R] [--json]
                         a stylus drawn over a surface: pulse rate, force centroid, alias
  bundle    (nice-plug-xtask) e.g. `cargo xtask bundle urto --release`";

fn main() -> Result<()> {
    nice_plug_xtask::chdir_workspace_root()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("demo") => {
            bundle_release()?;
            demo::render_all(Path::new(CLAP_BUNDLE), Path::new("target/demo"))
        }
        Some("install") => install(),
        Some("validate") => {
            bundle_release()?;
            validate::validate(Path::new(CLAP_BUNDLE), Path::new(VST3_BUNDLE))
        }
        Some("soak") => {
            let args = SoakArgs::parse_from(&args);
            bundle_release()?;
            soak::run(
                &PathBuf::from(CLAP_BUNDLE).canonicalize()?,
                args.minutes,
                args.seed,
                args.json,
            )
        }
        Some("standalone") => standalone::build().map(|path| println!("{}", path.display())),
        Some("screenshot") => {
            let dir = Path::new("target/demo");
            std::fs::create_dir_all(dir)?;
            standalone::screenshots(dir).map(|_| ())
        }
        Some("bench") => bench::bench(args.iter().any(|a| a == "--json")),
        Some("presets") => factory::list(args.iter().any(|a| a == "--json")),
        Some("audition") => {
            bundle_release()?;
            audition::audition(&audition::AuditionArgs::parse_from(&args))
        }
        Some("vst3") => {
            bundle_release()?;
            vst3_test()
        }
        Some("paper") => paper::paper(args.iter().any(|a| a == "--json")),
        Some("impact") => paper::impact(&paper::ImpactArgs::parse_from(&args)),
        Some("bounce") => paper::bounce(&paper::BounceArgs::parse_from(&args)),
        Some("rigid") => rigid::rigid(&args[1..]),
        Some("drop") => drop::drop(&drop::DropArgs::parse_from(&args)),
        Some("crumple") => crumple::crumple(&crumple::CrumpleArgs::parse_from(&args)),
        Some("break") => breaking::fracture(&breaking::BreakArgs::parse_from(&args)),
        Some("render") => render::render(render::RenderArgs::parse_from(&args)),
        Some("friction") => friction::friction(&friction::FrictionArgs::parse_from(&args)),
        Some("scrape") => scrape::run(&scrape::ScrapeArgs::parse_from(&args)),
        Some("analyse") => analyse::analyse(&analyse::AnalyseArgs::parse_from(&args)),
        Some("compare") => compare::compare(&compare::CompareArgs::parse_from(&args)),
        Some("reference") => reference::reference(&reference::ReferenceArgs::parse_from(&args)),
        Some("restitution") => paper::restitution(&paper::RestitutionArgs::parse_from(&args)),
        Some("help" | "--help" | "-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some(_) => nice_plug_xtask::main_with_args("cargo xtask", args),
    }
}

/// The release bundles `bundle_release` writes.
const CLAP_BUNDLE: &str = "target/bundled/Urto.clap";
const VST3_BUNDLE: &str = "target/bundled/Urto.vst3";

/// `cargo xtask bundle urto --release`.
fn bundle_release() -> Result<()> {
    nice_plug_xtask::main_with_args(
        "cargo xtask",
        ["bundle", "urto", "--release"].map(String::from),
    )
}

/// Run `cargo` with `args` (and extra environment), failing on a non-zero exit.
pub(crate) fn cargo(args: &[&str], env: &[(&str, &Path)]) -> Result<()> {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    let status = command
        .status()
        .with_context(|| format!("running cargo {args:?}"))?;
    if !status.success() {
        bail!("cargo {} failed", args.join(" "));
    }
    Ok(())
}

fn test() -> Result<()> {
    // Habits first: formatting, then every lint of every target (tests, benches, tools) as an
    // error; a lint allowed in the code says why where it is allowed.
    cargo(&["fmt", "--all", "--check"], &[])?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    )?;
    bundle_release()?;
    validate::validate(Path::new(CLAP_BUNDLE), Path::new(VST3_BUNDLE))?;

    // The no-allocation variant: a debug build with nice-plug's assert_process_allocs, set aside
    // before `cargo test` rebuilds the plain debug library in the same place.
    cargo(
        &["build", "-p", "urto", "--features", "assert_process_allocs"],
        &[],
    )?;
    let no_alloc = PathBuf::from("target/no-alloc/liburto.so");
    std::fs::create_dir_all("target/no-alloc")?;
    std::fs::copy("target/debug/liburto.so", &no_alloc).context("copying the no-alloc build")?;
    let no_alloc = no_alloc.canonicalize()?;
    let clap = PathBuf::from(CLAP_BUNDLE).canonicalize()?;

    // The reference set's recordings are read from Debian's packages, never committed.
    apt::ensure_packages(&urto_host_tests::reference::PACKAGES)?;
    cargo(
        &["test", "--workspace"],
        &[("URTO_CLAP", &clap), ("URTO_CLAP_NO_ALLOC", &no_alloc)],
    )?;
    // A short soak: a minute of random play through the release CLAP.
    soak::run(&clap, 1.0, 1, false)?;
    render_test()?;
    vst3_test()?;
    ardour_test()
}

/// The sound-library renderer as its issue asks: every Drop preset, 20 variations at −23 LUFS,
/// on one thread and on every core; tests/render_library.py reads both (the same bits, the
/// loudness by pyloudnorm, the names, the bext chunks, no two files alike).
fn render_test() -> Result<()> {
    let dir = Path::new("target/render-test");
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    let presets = urto::presets::factory()
        .iter()
        .filter(|p| p.category == "Drop")
        .count();
    for threads in ["1", "0"] {
        let out = dir.join(format!("threads-{threads}"));
        render::render(render::RenderArgs::parse_from([
            "render",
            "--category",
            "Drop",
            "--variations",
            "20",
            "--loudness-lufs",
            "-23",
            "--origination-date",
            "2026-11-29",
            "--threads",
            threads,
            "--out",
            out.to_str().context("a non-UTF-8 path")?,
        ]))?;
    }
    run(Command::new(python_venv()?)
        .arg("tests/render_library.py")
        .arg(dir.join("threads-1"))
        .arg(dir.join("threads-0"))
        .args(["-23", "-1", "20", &presets.to_string()]))
}

/// Random dense MIDI (notes, all notes off, all sound off), mode switches and contact automation
/// through the release CLAP beside a bit-exact twin of its engine: the real-time factor, NaNs,
/// voices (peak, mean, left after the tails), quarantined resets and samples that differ.
#[derive(clap::Parser)]
#[command(name = "cargo xtask soak")]
struct SoakArgs {
    /// Minutes of audio to play.
    #[arg(long, default_value_t = 1.0)]
    minutes: f64,
    /// Seed of the random play.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The Python of the virtual environment the host tests share (pedalboard, numpy, mido), created
/// on first use and updated when `tests/requirements.txt` changes.
fn python_venv() -> Result<PathBuf> {
    let venv = Path::new(".venv");
    let python = venv.join("bin/python");
    let stamp = venv.join(".requirements-installed");
    let requirements = Path::new("tests/requirements.txt");
    if !python.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(venv))?;
    }
    let stale = match (std::fs::metadata(&stamp), std::fs::metadata(requirements)) {
        (Ok(s), Ok(r)) => s.modified()? < r.modified()?,
        _ => true,
    };
    if stale {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "-r"])
            .arg(requirements))?;
        std::fs::write(&stamp, b"")?;
    }
    Ok(python)
}

/// The VST3 host test: pedalboard, with the factory presets' parameter values for the level
/// table, and their `.vstpreset` files to load.
fn vst3_test() -> Result<()> {
    let presets = Path::new("target/vst3-test/presets.json");
    factory::write_normalized(presets)?;
    let files = Path::new("target/vst3-test/vstpresets");
    vstpreset::write_factory(files)?;
    run(Command::new(python_venv()?)
        .arg("tests/vst3_host.py")
        .arg(VST3_BUNDLE)
        .arg(presets)
        .arg(files))
}

/// The DAW test: Debian's Ardour 7 (installed here if missing) renders a session with Urto on a
/// MIDI track; every Ardour file stays under target/ardour/.
fn ardour_test() -> Result<()> {
    apt::ensure_packages(&["ardour"])?;
    run(Command::new(python_venv()?)
        .arg("tests/ardour_host.py")
        .arg(VST3_BUNDLE)
        .arg("target/ardour"))
}

fn run(command: &mut Command) -> Result<()> {
    let status = command
        .status()
        .with_context(|| format!("running {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed");
    }
    Ok(())
}

/// Copy the release bundles into the per-user plugin folders.
fn install() -> Result<()> {
    bundle_release()?;
    let home = PathBuf::from(std::env::var_os("HOME").context("$HOME is not set")?);
    for (bundle, folder) in [("Urto.clap", ".clap"), ("Urto.vst3", ".vst3")] {
        let from = Path::new("target/bundled").join(bundle);
        let to = home.join(folder).join(bundle);
        std::fs::create_dir_all(home.join(folder))?;
        if to.is_dir() {
            std::fs::remove_dir_all(&to)?;
        }
        run(Command::new("cp").arg("-r").arg(&from).arg(&to))?;
        println!("installed {}", to.display());
    }
    let presets = home.join(".vst3/presets");
    let written = vstpreset::write_factory(&presets)?;
    println!(
        "installed {} factory presets as .vstpreset files under {}",
        written.len(),
        presets.display()
    );
    Ok(())
}
