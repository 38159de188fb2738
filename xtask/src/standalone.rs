//! `cargo xtask standalone` and the editor screenshot: the Debian packages they need (installed
//! with apt-get, or named exactly if that is not possible), the standalone build, and a capture
//! of its editor running under Xvfb.

use crate::apt::ensure_packages;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::Duration;
use urto::editor::WINDOW_SIZE;

/// Packages the standalone build needs: ALSA's and JACK's headers (cpal, jack), found through
/// pkg-config.
const BUILD_PACKAGES: &[&str] = &["libasound2-dev", "libjack-jackd2-dev", "pkg-config"];
/// Packages the screenshot needs: a virtual X server, Mesa's software OpenGL for the editor, a
/// screen grabber, a pointer driver (to press the tabs and Strike) and xrdb (to set the scale).
const SCREENSHOT_PACKAGES: &[&str] = &[
    "xvfb",
    "libgl1-mesa-dri",
    "libglx-mesa0",
    "imagemagick",
    "xdotool",
    "x11-xserver-utils",
];
/// Where the editor's Strike button and its tabs' row are at scale 1, and the tabs' centres
/// along it (in `PlayMode::ALL`'s order), as the editor's layout puts them (read off its test
/// harness; the screenshots show whether a tab and Strike were hit).
const STRIKE_BUTTON: (f32, f32) = (86.0, 20.0);
const TABS_Y: f32 = 61.0;
const TABS_X: [f32; urto_dsp::voice::PlayMode::ALL.len()] =
    [59.0, 164.0, 266.0, 368.0, 470.0, 572.0, 674.0];
/// The scale of the HiDPI screenshot.
const HIDPI_SCALE: f32 = 1.5;

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

/// The editor on a virtual screen of its size at `scale`: the standalone under Xvfb.
struct Screen {
    display: String,
    scale: f32,
    _urto: Running,
    _xvfb: Running,
}

impl Screen {
    fn open(standalone: &Path, display: &str, scale: f32) -> Result<Self> {
        let size = format!(
            "{}x{}x24",
            (WINDOW_SIZE.0 as f32 * scale).round(),
            (WINDOW_SIZE.1 as f32 * scale).round()
        );
        let xvfb = spawn(Command::new("Xvfb").args([
            display,
            "-screen",
            "0",
            &size,
            "-nolisten",
            "tcp",
            "-noreset",
        ]))?;
        sleep(Duration::from_secs(2));
        set_scale(display, scale)?;
        let urto = spawn(
            Command::new(standalone)
                .args(["--backend", "dummy", "--dpi-scale", &scale.to_string()])
                .env("DISPLAY", display),
        )?;
        sleep(Duration::from_secs(6));
        Ok(Self {
            display: display.to_string(),
            scale,
            _urto: urto,
            _xvfb: xvfb,
        })
    }

    /// Press the mouse at `at` (logical pixels at scale 1) for `hold_s`.
    fn press(&self, at: (f32, f32), hold_s: f32) -> Result<()> {
        let (x, y) = (at.0 * self.scale, at.1 * self.scale);
        let status = Command::new("xdotool")
            .args([
                "mousemove",
                &format!("{x:.0}"),
                &format!("{y:.0}"),
                "mousedown",
                "1",
            ])
            .args(["sleep", &hold_s.to_string(), "mouseup", "1"])
            .env("DISPLAY", &self.display)
            .status()?;
        if !status.success() {
            bail!("xdotool could not press at {at:?}");
        }
        sleep(Duration::from_millis(800));
        Ok(())
    }

    /// Press Strike, wait for the live view, and save the screen as `png`.
    fn strike_and_grab(&self, png: &Path) -> Result<()> {
        self.press(STRIKE_BUTTON, 0.6)?;
        sleep(Duration::from_secs(2));
        let grab = Command::new("import")
            .args(["-display", &self.display, "-window", "root"])
            .arg(png)
            .status()?;
        if !grab.success() {
            bail!("import could not capture the screen");
        }
        Ok(())
    }
}

/// Set the display's scale as a desktop does, by its X resource `Xft.dpi` (96 is 1×), which
/// baseview reads on X11. The server keeps it because it runs with `-noreset`.
fn set_scale(display: &str, scale: f32) -> Result<()> {
    let mut xrdb = Command::new("xrdb")
        .args(["-nocpp", "-merge"])
        .env("DISPLAY", display)
        .stdin(Stdio::piped())
        .spawn()
        .context("starting xrdb")?;
    let resources = format!("Xft.dpi: {:.0}\n", 96.0 * scale);
    xrdb.stdin
        .take()
        .context("xrdb's input")?
        .write_all(resources.as_bytes())?;
    if !xrdb.wait()?.success() {
        bail!("xrdb could not set the display's scale");
    }
    Ok(())
}

/// Run the standalone under Xvfb and photograph its editor into `dir`: each play mode's tab
/// (chosen by clicking it) with Strike pressed, `editor-<mode>.png`, and the first tab at 1.5×
/// scale, `editor-strike-1.5x.png`. Returns the files written.
pub fn screenshots(dir: &Path) -> Result<Vec<PathBuf>> {
    let standalone = build()?;
    ensure_packages(SCREENSHOT_PACKAGES)?;
    let mut written = vec![];
    {
        let screen = Screen::open(&standalone, ":97", 1.0)?;
        for (mode, x) in urto_dsp::voice::PlayMode::ALL.iter().zip(TABS_X) {
            screen.press((x, TABS_Y), 0.1)?;
            let png = dir.join(format!("editor-{}.png", mode.id()));
            screen.strike_and_grab(&png)?;
            written.push(png);
        }
    }
    let screen = Screen::open(&standalone, ":98", HIDPI_SCALE)?;
    let png = dir.join("editor-strike-1.5x.png");
    screen.strike_and_grab(&png)?;
    written.push(png);
    Ok(written)
}
