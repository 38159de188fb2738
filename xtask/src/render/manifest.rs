//! The library's manifest: one row per file — its name, what it plays, every value its variation drew, its loudness, peak and length — as CSV and as JSON.

use super::whole::write_whole;
use anyhow::Result;
use serde::Serialize;
use std::path::Path;

/// One file of the library.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub file: String,
    pub preset: String,
    pub category: String,
    pub cat_id: String,
    pub note: u8,
    /// The sound's velocity before the variation's spread.
    pub sound_velocity: u8,
    pub variation: u32,
    /// The job's seed (every draw comes from it).
    pub seed: u64,
    pub velocity: u8,
    pub notes_before: u64,
    pub strike_position: f64,
    pub size_scale: f64,
    /// Empty where the striker's material is not heard.
    pub striker_material: Option<String>,
    /// The impact speed the velocity gave (strike and bounce); empty in the other modes.
    pub impact_speed_m_per_s: Option<f64>,
    pub integrated_lufs: f64,
    pub range_lu: f64,
    pub true_peak_dbtp: f64,
    pub sample_peak_dbfs: f64,
    /// The gain normalisation applied, dB (0 when the level is left physical).
    pub gain_db: f64,
    /// The true-peak limiter's largest reduction, dB (0: it did nothing).
    pub limiter_reduction_db: f64,
    /// Whether the true-peak ceiling kept the file below the loudness target.
    pub ceiling_limited: bool,
    pub length_s: f64,
    /// Whether the file's longest length cut the sound before it ended.
    pub cut_short: bool,
}

/// Write `rows` as `manifest.csv` and `manifest.json` in `dir`, each whole or not at all.
pub fn write(dir: &Path, rows: &[Row]) -> Result<()> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in rows {
        csv.serialize(row)?;
    }
    write_whole(&dir.join("manifest.csv"), &csv.into_inner()?)?;
    write_whole(
        &dir.join("manifest.json"),
        serde_json::to_string_pretty(rows)?.as_bytes(),
    )
}
