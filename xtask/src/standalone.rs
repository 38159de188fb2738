//! `cargo xtask standalone` and the editor screenshot: the Debian packages they need (installed
//! with apt-get, or named exactly if that is not possible), the standalone build, and a capture
//! of its editor running under Xvfb.

use crate::apt::ensure_packages;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

/// Packages the standalone build needs: ALSA's and JACK's headers (cpal, jack), found through
/// pkg-config.
const BUILD_PACKAGES: &[&str] = &["libasound2-dev", "libjack-jackd2-dev", "pkg-config"];
/// Packages the screenshot needs: a virtual X server, Mesa's software OpenGL for the editor, a
/// screen grabber and a pointer driver (to press the Strike button).
const SCREENSHOT_PACKAGES: &[&str] = &[
    "xvfb",
    "libgl1-mesa-dri",
    "libglx-mesa0",
    "imagemagick",
    "xdotool",
];
/// The virtual display, its size, and where the Strike button is on it (the editor's top bar).
const DISPLAY: &str = ":97";
const SCREEN: &str = "1040x800x24";
const STRIKE_BUTTON: (u32, u32) = (557, 34);

/// Build `target/standalone/release/urto-standalone`, in a target folder of its own so the
/// plugin bundles (built without the feature) are not rebuilt each time.
pub fn build() -> Result<PathBuf> {
    ensure_packages(BUILD_PACKAGES)?;
    let target = Path::new("target/standalone");
    crate::cargo(
        &[
            "build",
            "--release",
            "-p",
            "urto",
            "--features",
            "standalone",
            "--bin",
            "urto-standalone",
        ],
        &[("CARGO_TARGET_DIR", target)],
    )?;
    Ok(target.join("release/urto-standalone"))
}

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(command: &mut Command) -> Result<Running> {
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {command:?}"))?;
    Ok(Running(child))
}

/// Run the standalone under Xvfb, press Strike, and save the screen as `png`.
pub fn screenshot(png: &Path) -> Result<()> {
    let standalone = build()?;
    ensure_packages(SCREENSHOT_PACKAGES)?;
    let _xvfb =
        spawn(Command::new("Xvfb").args([DISPLAY, "-screen", "0", SCREEN, "-nolisten", "tcp"]))?;
    sleep(Duration::from_secs(2));
    let _urto = spawn(
        Command::new(&standalone)
            .args(["--backend", "dummy"])
            .env("DISPLAY", DISPLAY),
    )?;
    sleep(Duration::from_secs(6));
    let (x, y) = STRIKE_BUTTON;
    let press = Command::new("xdotool")
        .args([
            "mousemove",
            &x.to_string(),
            &y.to_string(),
            "mousedown",
            "1",
            "sleep",
            "0.6",
            "mouseup",
            "1",
        ])
        .env("DISPLAY", DISPLAY)
        .status()?;
    if !press.success() {
        bail!("xdotool could not press the Strike button");
    }
    sleep(Duration::from_secs(2));
    let grab = Command::new("import")
        .args(["-display", DISPLAY, "-window", "root"])
        .arg(png)
        .status()?;
    if !grab.success() {
        bail!("import could not capture the screen");
    }
    Ok(())
}
