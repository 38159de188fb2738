//! `cargo xtask rigid plus`: PLUS simultaneous frictional impacts on a problem file or the paper's examples.

use anyhow::Result;

pub fn run(_args: &[String]) -> Result<()> {
    anyhow::bail!("not yet")
}
