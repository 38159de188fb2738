//! A render job — what `cargo xtask render` is asked for, from its flags or a TOML/JSON job file — checked whole before anything renders.

use super::loudness::PeakControl;
use super::sound::{Channels, SampleFormat};
use serde::Deserialize;
use std::path::Path;
use urto::presets::{factory, Preset};
use urto_dsp::material::MATERIALS;

/// What the job file may hold: every field optional; the command's flags win over it.
#[derive(Debug, Default, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    /// A factory preset's name or a preset file (.json); repeat for more.
    #[arg(long = "preset")]
    #[serde(default)]
    pub presets: Vec<String>,
    /// Every factory preset of a category (e.g. Drop); repeat for more.
    #[arg(long = "category")]
    #[serde(default)]
    pub categories: Vec<String>,
    /// MIDI notes to play, each a sound of its own (default 60).
    #[arg(long = "note")]
    pub notes: Option<Vec<u8>>,
    /// MIDI velocities, 1…127, each a sound of its own (default 127).
    #[arg(long = "velocity")]
    pub velocities: Option<Vec<u8>>,
    /// Files per sound (per preset, note and velocity), 1…999.
    #[arg(long)]
    pub variations: Option<u32>,
    /// The seed every draw of the job comes from.
    #[arg(long)]
    pub seed: Option<u64>,
    /// 48000 or 96000.
    #[arg(long)]
    pub sample_rate_hz: Option<u32>,
    /// pcm24 or float32.
    #[arg(long, value_enum)]
    pub format: Option<SampleFormat>,
    /// mono or stereo.
    #[arg(long, value_enum)]
    pub channels: Option<Channels>,
    /// Normalise each file's integrated loudness (EBU R 128) to this, LUFS; left out, the level
    /// stays the plugin's.
    #[arg(long, allow_negative_numbers = true)]
    pub loudness_lufs: Option<f64>,
    /// The true-peak ceiling a normalised file never crosses, dBTP (default −1).
    #[arg(long, allow_negative_numbers = true)]
    pub true_peak_dbtp: Option<f64>,
    /// How a true peak above the ceiling is kept under it: limit (default) or gain.
    #[arg(long, value_enum)]
    pub peak_control: Option<PeakControl>,
    /// How long the key is held in the steady modes (roll, slide, crumple), s (default 2).
    #[arg(long)]
    pub hold_s: Option<f64>,
    /// The longest a file may be, s (default 20).
    #[arg(long)]
    pub max_seconds: Option<f64>,
    /// Each variation's velocity within ± this many steps of the sound's (default 6).
    #[arg(long)]
    pub velocity_spread: Option<u8>,
    /// Each variation's strike position within ± this of the preset's (0…0.5, default 0.03).
    #[arg(long)]
    pub strike_position_spread: Option<f64>,
    /// Each variation's object scaled by a factor within 1 ± this (0…0.3, default 0.02).
    #[arg(long)]
    pub size_tolerance: Option<f64>,
    /// Striker materials each variation draws one of (default: the preset's); repeat for more.
    #[arg(long = "striker-material")]
    pub striker_materials: Option<Vec<String>>,
    /// The library's name, written into each file's BWF description (default "Urto").
    #[arg(long)]
    pub library: Option<String>,
    /// The BWF origination date, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    pub origination_date: Option<String>,
}

/// The ranges each variation draws within.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranges {
    pub velocity_spread: u8,
    pub strike_position_spread: f64,
    pub size_tolerance: f64,
    /// Material ids; empty: the preset's striker.
    pub striker_materials: Vec<&'static str>,
}

/// A job checked whole: every preset found, every value in range.
#[derive(Debug, Clone)]
pub struct Job {
    pub presets: Vec<Preset>,
    pub notes: Vec<u8>,
    pub velocities: Vec<u8>,
    pub variations: u32,
    pub seed: u64,
    pub sample_rate_hz: u32,
    pub format: SampleFormat,
    pub channels: Channels,
    pub loudness_lufs: Option<f64>,
    pub true_peak_dbtp: f64,
    pub peak_control: PeakControl,
    pub hold_s: f64,
    pub max_seconds: f64,
    pub ranges: Ranges,
    pub library: String,
    pub origination_date: String,
}

impl JobSpec {
    /// Read a job file: TOML, or JSON when its name ends in `.json`.
    pub fn load(path: &Path) -> Result<JobSpec, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the job file {}: {e}", path.display()))?;
        let parsed = if path.extension().is_some_and(|e| e == "json") {
            serde_json::from_str(&text).map_err(|e| e.to_string())
        } else {
            toml::from_str(&text).map_err(|e| e.to_string())
        };
        parsed.map_err(|e| format!("the job file {} is malformed: {e}", path.display()))
    }

    /// This spec with every field `flags` sets taken from them.
    pub fn overridden_by(self, flags: JobSpec) -> JobSpec {
        let list = |flag: Vec<String>, file: Vec<String>| if flag.is_empty() { file } else { flag };
        JobSpec {
            presets: list(flags.presets, self.presets),
            categories: list(flags.categories, self.categories),
            notes: flags.notes.or(self.notes),
            velocities: flags.velocities.or(self.velocities),
            variations: flags.variations.or(self.variations),
            seed: flags.seed.or(self.seed),
            sample_rate_hz: flags.sample_rate_hz.or(self.sample_rate_hz),
            format: flags.format.or(self.format),
            channels: flags.channels.or(self.channels),
            loudness_lufs: flags.loudness_lufs.or(self.loudness_lufs),
            true_peak_dbtp: flags.true_peak_dbtp.or(self.true_peak_dbtp),
            peak_control: flags.peak_control.or(self.peak_control),
            hold_s: flags.hold_s.or(self.hold_s),
            max_seconds: flags.max_seconds.or(self.max_seconds),
            velocity_spread: flags.velocity_spread.or(self.velocity_spread),
            strike_position_spread: flags.strike_position_spread.or(self.strike_position_spread),
            size_tolerance: flags.size_tolerance.or(self.size_tolerance),
            striker_materials: flags.striker_materials.or(self.striker_materials),
            library: flags.library.or(self.library),
            origination_date: flags.origination_date.or(self.origination_date),
        }
    }

    /// The job this spec asks for, or the first thing wrong with it, named.
    pub fn checked(self, today: &str) -> Result<Job, String> {
        let presets = self.selected_presets()?;
        let notes = self.notes.unwrap_or_else(|| vec![60]);
        let velocities = self.velocities.unwrap_or_else(|| vec![127]);
        if notes.is_empty() || notes.iter().any(|&n| n > 127) {
            return Err(format!("notes must be MIDI notes 0…127, not {notes:?}"));
        }
        if velocities.is_empty() || velocities.iter().any(|&v| !(1..=127).contains(&v)) {
            return Err(format!("velocities must lie in 1…127, not {velocities:?}"));
        }
        if has_repeats(&notes) || has_repeats(&velocities) {
            return Err(format!(
                "a note or a velocity is given twice (notes {notes:?}, velocities {velocities:?})"
            ));
        }
        let variations = self.variations.unwrap_or(1);
        within("variations", f64::from(variations), 1.0, 999.0)?;
        let sample_rate_hz = self.sample_rate_hz.unwrap_or(48_000);
        if ![48_000, 96_000].contains(&sample_rate_hz) {
            return Err(format!(
                "the sample rate must be 48000 or 96000 Hz, not {sample_rate_hz}"
            ));
        }
        if let Some(lufs) = self.loudness_lufs {
            within("the loudness target (LUFS)", lufs, -70.0, 0.0)?;
        }
        let true_peak_dbtp = self.true_peak_dbtp.unwrap_or(-1.0);
        within("the true-peak ceiling (dBTP)", true_peak_dbtp, -20.0, 0.0)?;
        let hold_s = self.hold_s.unwrap_or(2.0);
        within("the hold (s)", hold_s, 0.05, 60.0)?;
        let max_seconds = self.max_seconds.unwrap_or(20.0);
        within("the longest file (s)", max_seconds, 0.5, 120.0)?;
        let velocity_spread = self.velocity_spread.unwrap_or(6);
        within(
            "the velocity spread",
            f64::from(velocity_spread),
            0.0,
            126.0,
        )?;
        let ranges = Ranges {
            velocity_spread,
            strike_position_spread: self.strike_position_spread.unwrap_or(0.03),
            size_tolerance: self.size_tolerance.unwrap_or(0.02),
            striker_materials: materials(self.striker_materials.unwrap_or_default())?,
        };
        within(
            "the strike position spread",
            ranges.strike_position_spread,
            0.0,
            0.5,
        )?;
        within("the size tolerance", ranges.size_tolerance, 0.0, 0.3)?;
        let library = self.library.unwrap_or_else(|| "Urto".into());
        if library.is_empty() || library.len() > 64 || !library.is_ascii() {
            return Err("the library's name must be 1…64 ASCII characters".into());
        }
        let origination_date = self.origination_date.unwrap_or_else(|| today.into());
        if !is_date(&origination_date) {
            return Err(format!(
                "the origination date must read YYYY-MM-DD, not {origination_date:?}"
            ));
        }
        Ok(Job {
            presets,
            notes,
            velocities,
            variations,
            seed: self.seed.unwrap_or(1),
            sample_rate_hz,
            format: self.format.unwrap_or(SampleFormat::Pcm24),
            channels: self.channels.unwrap_or(Channels::Stereo),
            loudness_lufs: self.loudness_lufs,
            true_peak_dbtp,
            peak_control: self.peak_control.unwrap_or(PeakControl::Limit),
            hold_s,
            max_seconds,
            ranges,
            library,
            origination_date,
        })
    }

    /// The presets named and those of the categories named, each once, in that order.
    fn selected_presets(&self) -> Result<Vec<Preset>, String> {
        let factory = factory();
        let mut chosen: Vec<Preset> = Vec::new();
        for name in &self.presets {
            let preset = if name.ends_with(".json") {
                Preset::load(Path::new(name)).map_err(|e| format!("the preset {name}: {e}"))?
            } else {
                factory
                    .iter()
                    .find(|p| p.name.eq_ignore_ascii_case(name))
                    .cloned()
                    .ok_or_else(|| {
                        format!(
                            "no factory preset is named {name:?} (cargo xtask presets lists them)"
                        )
                    })?
            };
            chosen.push(preset);
        }
        for category in &self.categories {
            let members: Vec<&Preset> = factory
                .iter()
                .filter(|p| p.category.eq_ignore_ascii_case(category))
                .collect();
            if members.is_empty() {
                let mut known: Vec<&str> = factory.iter().map(|p| p.category.as_str()).collect();
                known.sort_unstable();
                known.dedup();
                return Err(format!(
                    "no factory preset is in a category {category:?} (categories: {})",
                    known.join(", ")
                ));
            }
            chosen.extend(members.into_iter().cloned());
        }
        let mut seen = std::collections::HashSet::new();
        chosen.retain(|p| seen.insert(p.name.clone()));
        if chosen.is_empty() {
            return Err("the job names no preset: give --preset or --category".into());
        }
        Ok(chosen)
    }
}

/// `value` if it lies in `[low, high]`, else the reason naming `what`.
fn within(what: &str, value: f64, low: f64, high: f64) -> Result<(), String> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(format!("{what} must lie in {low}…{high}, not {value}"))
    }
}

/// The materials these ids name, or the first unknown one.
fn materials(ids: Vec<String>) -> Result<Vec<&'static str>, String> {
    ids.iter()
        .map(|id| {
            MATERIALS
                .iter()
                .find(|m| m.id.eq_ignore_ascii_case(id))
                .map(|m| m.id)
                .ok_or_else(|| {
                    let known: Vec<&str> = MATERIALS.iter().map(|m| m.id).collect();
                    format!("no material {id:?} (materials: {})", known.join(", "))
                })
        })
        .collect()
}

/// Whether `values` holds one value twice.
fn has_repeats(values: &[u8]) -> bool {
    let mut seen = std::collections::HashSet::new();
    !values.iter().all(|v| seen.insert(v))
}

/// Whether `text` is a calendar date written YYYY-MM-DD.
fn is_date(text: &str) -> bool {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    text.len() == 10 && time::Date::parse(text, &format).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec of `toml`, checked.
    fn check(toml: &str) -> Result<Job, String> {
        toml::from_str::<JobSpec>(toml)
            .map_err(|e| e.to_string())?
            .checked("2026-11-29")
    }

    #[test]
    fn a_job_file_gives_a_whole_job_and_the_flags_override_it() {
        let job = check(
            "categories = [\"Drop\"]\nvariations = 20\nloudness_lufs = -23.0\n\
             striker_materials = [\"steel\", \"Oak\"]\nformat = \"float32\"",
        )
        .unwrap();
        assert_eq!(job.presets.len(), 9);
        assert!(job.presets.iter().all(|p| p.category == "Drop"));
        assert_eq!((job.variations, job.loudness_lufs), (20, Some(-23.0)));
        assert_eq!(job.ranges.striker_materials, ["steel", "oak"]);
        assert_eq!(job.format, SampleFormat::Float32);
        assert_eq!(job.origination_date, "2026-11-29");
        let file: JobSpec = toml::from_str("presets = [\"Bell\"]\nvariations = 3").unwrap();
        let flags = JobSpec {
            variations: Some(5),
            ..JobSpec::default()
        };
        let job = file.overridden_by(flags).checked("2026-11-29").unwrap();
        assert_eq!((job.presets[0].name.as_str(), job.variations), ("Bell", 5));
    }

    #[test]
    fn a_bad_job_is_refused_with_the_reason_named() {
        for (toml, reason) in [
            (
                "presets = [\"Glass harmonica\"]",
                "no factory preset is named \"Glass harmonica\"",
            ),
            (
                "categories = [\"Drops\"]",
                "no factory preset is in a category \"Drops\"",
            ),
            ("variations = 3", "the job names no preset"),
            (
                "presets = [\"Bell\"]\nloudness_lufs = 1.0",
                "the loudness target (LUFS) must lie in",
            ),
            (
                "presets = [\"Bell\"]\nvariations = 0",
                "variations must lie in 1…999, not 0",
            ),
            (
                "presets = [\"Bell\"]\nvelocities = [0]",
                "velocities must lie in 1…127",
            ),
            (
                "presets = [\"Bell\"]\nsample_rate_hz = 44100",
                "must be 48000 or 96000 Hz",
            ),
            (
                "presets = [\"Bell\"]\nstriker_materials = [\"gold\"]",
                "no material \"gold\"",
            ),
            (
                "presets = [\"Bell\"]\norigination_date = \"29/11/2026\"",
                "YYYY-MM-DD",
            ),
            (
                "presets = [\"Bell\"]\nvariatons = 3",
                "unknown field `variatons`",
            ),
        ] {
            let refused = check(toml).expect_err(toml);
            assert!(refused.contains(reason), "{toml}: {refused}");
        }
    }
}
