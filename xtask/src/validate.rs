//! `cargo xtask validate`: free-audio's clap-validator and Steinberg's VST3 validator, built once
//! from their sources into `target/validators/`, run on the release bundles.

use crate::apt::ensure_packages;
use crate::{cargo, run};
use anyhow::{bail, Context, Result};
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the validators are built and their full reports kept.
const OUT_DIR: &str = "target/validators";
/// The folder holding `clap-validator/` (a Cargo workspace) and the cut VST3 SDK tarball, when
/// `URTO_VALIDATOR_SOURCES` does not name one: the project's CI lays it beside the checkout.
const DEFAULT_SOURCES: &str = "../shared/vendor";
const VST3_SDK_TARBALL: &str = "vst3sdk-3.7.14-validator-min.tar.gz";
const HOW_TO_GET: &str = "set URTO_VALIDATOR_SOURCES to a folder holding `clap-validator/` \
(free-audio/clap-validator 0.4.1's source) and `vst3sdk-3.7.14-validator-min.tar.gz` (Steinberg's \
VST3 SDK 3.7.14 cut to its `validator` target), or put `clap-validator` and Steinberg's \
`validator` on PATH";

/// What one validator said.
struct Outcome {
    tool: String,
    passed: u32,
    failed: u32,
    warnings: u32,
    skipped: u32,
    report: PathBuf,
}

impl Outcome {
    fn line(&self) -> String {
        format!(
            "{}: {} passed, {} failed, {} warnings, {} skipped (report: {})",
            self.tool,
            self.passed,
            self.failed,
            self.warnings,
            self.skipped,
            self.report.display()
        )
    }
}

/// Run both validators on the bundles; a one-line summary each; fail if either reports a failure.
/// A validator that is neither on PATH nor buildable from sources is skipped, saying what is missing.
pub fn validate(clap: &Path, vst3: &Path) -> Result<()> {
    std::fs::create_dir_all(OUT_DIR)?;
    let sources = std::env::var_os("URTO_VALIDATOR_SOURCES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_SOURCES));
    let outcomes = [
        clap_validator(&sources)?
            .map(|exe| run_clap_validator(&exe, clap))
            .transpose()?,
        vst3_validator(&sources)?
            .map(|exe| run_vst3_validator(&exe, vst3))
            .transpose()?,
    ];
    println!("validators:");
    let mut failures = 0;
    for (name, outcome) in ["clap-validator", "VST3 validator"].iter().zip(&outcomes) {
        match outcome {
            Some(outcome) => {
                println!("  {}", outcome.line());
                failures += outcome.failed;
            }
            None => println!("  {name}: SKIPPED (see above for what is missing)"),
        }
    }
    if failures > 0 {
        bail!("the validators report {failures} failure(s); see the reports in {OUT_DIR}/");
    }
    Ok(())
}

/// The clap-validator executable: on PATH, or built from `sources/clap-validator` (cargo keeps
/// the build while the sources are unchanged).
fn clap_validator(sources: &Path) -> Result<Option<PathBuf>> {
    if let Some(exe) = on_path("clap-validator") {
        return Ok(Some(exe));
    }
    let manifest = sources.join("clap-validator/Cargo.toml");
    if !manifest.is_file() {
        println!(
            "clap-validator: SKIPPED: not on PATH and no source at {}; {HOW_TO_GET}",
            manifest.display()
        );
        return Ok(None);
    }
    let target = Path::new(OUT_DIR).join("clap-validator");
    cargo(
        &[
            "build",
            "--release",
            "--locked",
            "--manifest-path",
            &manifest.to_string_lossy(),
            "--target-dir",
            &target.to_string_lossy(),
        ],
        &[],
    )
    .context(
        "building clap-validator 0.4.1 from its source (it needs rustc 1.95 or newer); or put a \
         clap-validator on PATH",
    )?;
    Ok(Some(target.join("release/clap-validator")))
}

/// Steinberg's validator: on PATH (as `vst3-validator` or `validator`), or built with cmake from
/// the SDK tarball, unpacked again only when the tarball changes.
fn vst3_validator(sources: &Path) -> Result<Option<PathBuf>> {
    // "validator" is a common name: only Steinberg's says what it is.
    let steinbergs = |exe: &PathBuf| {
        capture(Command::new(exe).arg("-version"))
            .is_ok_and(|(text, _)| text.contains("Plug-in Validator"))
    };
    if let Some(exe) = on_path("vst3-validator")
        .or_else(|| on_path("validator"))
        .filter(steinbergs)
    {
        return Ok(Some(exe));
    }
    let tarball = sources.join(VST3_SDK_TARBALL);
    if !tarball.is_file() {
        println!(
            "VST3 validator: SKIPPED: not on PATH and no source at {}; {HOW_TO_GET}",
            tarball.display()
        );
        return Ok(None);
    }
    ensure_packages(&["cmake", "g++", "make"])?;
    let out = Path::new(OUT_DIR).canonicalize()?;
    let sdk = out.join("vst3sdk");
    let build = out.join("vst3-build");
    let stamp = out.join("vst3sdk.stamp");
    let fingerprint = fingerprint(&tarball)?;
    let configured = build.join("CMakeCache.txt").is_file();
    if !configured || std::fs::read_to_string(&stamp).ok().as_deref() != Some(fingerprint.as_str())
    {
        for stale in [&sdk, &build] {
            if stale.exists() {
                std::fs::remove_dir_all(stale)?;
            }
        }
        run(Command::new("tar")
            .arg("-xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&out))?;
        run(Command::new("cmake")
            .arg("-S")
            .arg(&sdk)
            .arg("-B")
            .arg(&build)
            .args([
                "-DCMAKE_BUILD_TYPE=Release",
                "-DSMTG_ENABLE_VSTGUI_SUPPORT=OFF",
                "-DSMTG_ENABLE_VST3_PLUGIN_EXAMPLES=OFF",
                "-DSMTG_ENABLE_VST3_HOSTING_EXAMPLES=OFF",
                "-DSMTG_ADD_VST3_UTILITIES=OFF",
                "-DSMTG_RUN_VST_VALIDATOR=OFF",
                "-DSMTG_CREATE_PLUGIN_LINK=OFF",
            ]))?;
        std::fs::write(&stamp, &fingerprint)?;
    }
    run(Command::new("cmake")
        .arg("--build")
        .arg(&build)
        .args(["--target", "validator", "-j2"]))?;
    Ok(Some(build.join("bin/Release/validator")))
}

/// `clap-validator validate --json` on the bundle: the report, its counts, and each failed
/// test's name and details printed.
fn run_clap_validator(exe: &Path, clap: &Path) -> Result<Outcome> {
    let version = capture(Command::new(exe).arg("--version"))?.0;
    let output = Command::new(exe)
        .args(["validate", "--json"])
        .arg(clap)
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    let report = Path::new(OUT_DIR).join("clap-validator.json");
    std::fs::write(&report, &output.stdout)?;
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).with_context(|| {
        format!(
            "clap-validator printed no JSON report: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    let results = json["results"]
        .as_array()
        .context("no results in clap-validator's report")?;
    let (mut passed, mut failed, mut warnings, mut skipped) = (0, 0, 0, 0);
    for result in results {
        let status = &result["status"];
        match status["code"].as_str() {
            Some("success") => passed += 1,
            Some("skipped") => skipped += 1,
            // "warning", "failed", "crashed": each is printed; all but a warning fail.
            code => {
                if code == Some("warning") {
                    warnings += 1;
                } else {
                    failed += 1;
                }
                let test = result["test"]
                    .as_object()
                    .and_then(|kind| kind.values().next())
                    .and_then(|t| t["test"].as_str())
                    .unwrap_or("?");
                println!(
                    "clap-validator: {test} {}: {}",
                    code.unwrap_or("?"),
                    status["details"].as_str().unwrap_or("")
                );
            }
        }
    }
    Ok(Outcome {
        tool: version.trim().to_string(),
        passed,
        failed: if output.status.success() {
            failed
        } else {
            failed.max(1)
        },
        warnings,
        skipped,
        report,
    })
}

/// Steinberg's `validator -e` (extensive) on the bundle; the report and the counts of its
/// closing "Result:" line.
fn run_vst3_validator(exe: &Path, vst3: &Path) -> Result<Outcome> {
    let (text, success) = capture(Command::new(exe).arg("-e").arg(vst3))?;
    let report = Path::new(OUT_DIR).join("vst3-validator.txt");
    std::fs::write(&report, &text)?;
    // "Result: 537 tests passed, 0 tests failed"
    let summary = text
        .lines()
        .rev()
        .find(|line| line.contains("tests passed"))
        .with_context(|| {
            format!(
                "no summary in the VST3 validator's output: {}",
                report.display()
            )
        })?;
    // "VST 3.7.14 Plug-in Validator"
    let version = capture(Command::new(exe).arg("-version"))?.0;
    let version = version
        .lines()
        .next()
        .unwrap_or("VST3 validator")
        .trim()
        .to_string();
    let failed = count_before(summary, "tests failed")?;
    Ok(Outcome {
        tool: version,
        passed: count_before(summary, "tests passed")?,
        // A non-zero exit with no failed test counted is still a failure.
        failed: if success { failed } else { failed.max(1) },
        warnings: 0,
        skipped: 0,
        report,
    })
}

/// The number just before `word` in `line` ("36 passed" → 36).
fn count_before(line: &str, word: &str) -> Result<u32> {
    let at = line
        .find(word)
        .with_context(|| format!("no '{word}' in '{line}'"))?;
    line[..at]
        .split(|c: char| !c.is_ascii_digit())
        .rev()
        .find(|s| !s.is_empty())
        .with_context(|| format!("no count before '{word}' in '{line}'"))?
        .parse()
        .with_context(|| format!("reading the count before '{word}' in '{line}'"))
}

/// `name` if an executable of that name is on PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|exe| exe.is_file())
}

/// A cheap fingerprint of a file's bytes, to notice a changed tarball. (`DefaultHasher` may
/// change between Rust releases: then the SDK is unpacked and configured once more, no harm.)
fn fingerprint(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut hasher = DefaultHasher::new();
    hasher.write(&bytes);
    Ok(format!(
        "{} bytes, hash {:016x}\n",
        bytes.len(),
        hasher.finish()
    ))
}

/// Run `command`; its stdout and stderr together, and whether it exited with 0.
fn capture(command: &mut Command) -> Result<(String, bool)> {
    let output = command
        .output()
        .with_context(|| format!("running {command:?}"))?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Ok((text, output.status.success()))
}
