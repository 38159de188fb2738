//! `cargo xtask rigid jia-wang`: Jia & Wang's 3D frictional impact on a problem file or the paper's examples.

use anyhow::Result;

pub fn run(_args: &[String]) -> Result<()> {
    anyhow::bail!("not yet")
}
