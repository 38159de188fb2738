//! `cargo xtask rigid jia-wang|plus …`: the two multibody papers' impact solvers, reproduced with JSON output.

mod jia_wang;
mod plus;

use anyhow::{bail, Result};

/// Dispatch `cargo xtask rigid <paper> …`; `args` starts at the paper's name.
pub fn rigid(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("jia-wang") => jia_wang::run(args),
        Some("plus") => plus::run(args),
        _ => bail!(
            "usage: cargo xtask rigid jia-wang|plus …  (see `cargo xtask rigid jia-wang --help`)"
        ),
    }
}
