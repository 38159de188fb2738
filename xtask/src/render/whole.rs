//! A file written whole or not at all: under a temporary name, renamed when complete.

use anyhow::{Context, Result};
use std::path::Path;

/// Write `bytes` to `path` by way of `path` + `.part`, renamed when whole: an interrupted write
/// leaves no file under the final name.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    std::fs::write(&part, bytes).with_context(|| format!("writing {}", path.display()))?;
    std::fs::rename(&part, path).with_context(|| format!("naming {}", path.display()))
}
