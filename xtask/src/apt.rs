//! Debian packages the project's commands need: find the missing ones and install them with
//! apt-get (as root, or through sudo), or name exactly what to install.

use anyhow::{bail, Result};
use std::process::Command;

/// Debian packages of `wanted` that are not installed.
fn missing(wanted: &[&str]) -> Vec<String> {
    wanted
        .iter()
        .filter(|package| {
            let status = Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", package])
                .output();
            !status
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        })
        .map(|p| p.to_string())
        .collect()
}

/// Install the packages of `wanted` that are missing, with apt-get (through sudo unless root).
pub(crate) fn ensure_packages(wanted: &[&str]) -> Result<()> {
    let missing = missing(wanted);
    if missing.is_empty() {
        return Ok(());
    }
    println!("installing {}", missing.join(" "));
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let apt = |args: &[&str]| -> Result<bool> {
        let mut command = if root {
            Command::new("apt-get")
        } else {
            let mut sudo = Command::new("sudo");
            sudo.arg("apt-get");
            sudo
        };
        Ok(command
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false))
    };
    let mut install = vec!["install", "-y", "-qq"];
    install.extend(missing.iter().map(String::as_str));
    if !(apt(&["update", "-qq"])? && apt(&install)?) {
        bail!(
            "could not install with apt-get; install these Debian packages and try again: {}",
            missing.join(" ")
        );
    }
    Ok(())
}
