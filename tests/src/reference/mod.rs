//! The reference set: real recordings of the object families Urto models, read from Debian's `freepats` and `hydrogen-drumkits` at test time.
//!
//! Nothing here is committed audio: [`reference_set`] reads the installed packages (`cargo xtask
//! reference` or `cargo xtask test` installs them) and names the package to install when one is
//! missing. Each [`Fixture`] says what the recording really is (the freepats "Xylophone" patch
//! plays marimba samples up to key 66), where it comes from, its real note where the patch's
//! header is wrong about it, and only its unlooped part: what the instrument played, not a
//! sampler's loop. docs/reference-set.md lists the set.

#[cfg(test)]
mod agreement;
mod freepats;
mod kits;
pub mod pat;
mod spectrum;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

pub use pat::key_of_hz;
pub use spectrum::content_bandwidth_hz;

/// Where Debian's `freepats` installs its GUS patches.
pub const FREEPATS_DIR: &str = "/usr/share/midi/freepats";
/// Where Debian's `hydrogen-drumkits` installs its kits.
pub const HYDROGEN_DRUMKITS_DIR: &str = "/usr/share/hydrogen/data/drumkits";
/// The Debian packages the set is read from.
pub const PACKAGES: [&str; 2] = ["freepats", "hydrogen-drumkits"];
/// An unlooped part shorter than this is flagged [`Fixture::short`]: too short for decays.
pub const SHORT_S: f64 = 0.05;

/// What a recording really is (not what its patch or file is called).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instrument {
    /// Steel bars, free–free, untuned overtones (second mode ≈ 2.7×).
    Glockenspiel,
    /// Undercut rosewood bars tuned 1 : 4 : 10, with tube resonators.
    Marimba,
    /// Rosewood bars tuned 1 : 3 (the twelfth) in the lower range, with tube resonators.
    Xylophone,
    /// A brass tube, free–free: the strike tone is an octave below its fourth mode.
    TubularBell,
    /// Struck strings: harmonic partials.
    HammeredDulcimer,
    /// A kettledrum: a membrane whose air load tunes its modes near 1 : 1.5 : 2.
    Timpani,
    /// A pair of hardwood sticks: one strong bending mode.
    Claves,
    /// A hollowed wooden block: two strong modes close together.
    WoodBlock,
    /// A thin bronze plate struck hard: wave turbulence, no modal tone.
    CrashCymbal,
    /// A drum with snare wires rattling on its lower head.
    SnareDrum,
}

impl Instrument {
    /// Lower-case name, as the tables print it.
    pub fn name(self) -> &'static str {
        match self {
            Instrument::Glockenspiel => "glockenspiel",
            Instrument::Marimba => "marimba",
            Instrument::Xylophone => "xylophone",
            Instrument::TubularBell => "tubular bell",
            Instrument::HammeredDulcimer => "hammered dulcimer",
            Instrument::Timpani => "timpani",
            Instrument::Claves => "claves",
            Instrument::WoodBlock => "wood block",
            Instrument::CrashCymbal => "crash cymbal",
            Instrument::SnareDrum => "snare drum",
        }
    }

    /// Whether a bank of linear modes can model it, or its sound is nonlinear (reported, not
    /// judged).
    pub fn kind(self) -> Kind {
        match self {
            Instrument::CrashCymbal | Instrument::SnareDrum => Kind::Nonlinear,
            _ => Kind::Modal,
        }
    }
}

/// How a comparison may treat a fixture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Linear modes: partials, decays and centroids can be held against a modal model.
    Modal,
    /// Nonlinear (a crash's wave turbulence, a snare's wires): reported, not judged.
    Nonlinear,
}

impl Kind {
    /// Lower-case name, as the tables print it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Modal => "modal",
            Kind::Nonlinear => "nonlinear",
        }
    }
}

/// Where a fixture's samples come from.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The Debian package that installs the file.
    pub package: &'static str,
    /// The file, absolute.
    pub path: PathBuf,
    /// The wave's index in a `.pat` patch (none for a kit's WAV or FLAC file).
    pub sample_index: Option<usize>,
    /// The wave's name in the patch (none for a kit's file).
    pub wave_name: Option<String>,
}

/// One recording of the reference set.
#[derive(Clone, Debug, PartialEq)]
pub struct Fixture {
    /// Stable kebab-case name, e.g. `marimba-cs3`.
    pub id: &'static str,
    /// What it really is.
    pub instrument: Instrument,
    /// Which package and file, and which wave of a patch.
    pub source: Source,
    /// Only the unlooped part (start to loop start where the wave loops), mono, full scale ±1.
    pub samples: Vec<f64>,
    /// The rate the samples were stored at, Hz.
    pub sample_rate_hz: f64,
    /// The Nyquist frequency, fs/2.
    pub bandwidth_hz: f64,
    /// Measured: the highest frequency where the recording holds more than its quantization
    /// noise ([`content_bandwidth_hz`]); lower than the Nyquist when the sample was band-limited
    /// before it was stored, or when the instrument radiates nothing higher above the noise.
    pub content_bandwidth_hz: f64,
    /// The root frequency the patch's header states (none for a kit's file).
    pub header_root_hz: Option<f64>,
    /// The nearest MIDI key of [`Fixture::note_hz`] (none when unpitched).
    pub root_key: Option<u8>,
    /// The real note: the header's root where it is right, the measured one where it is not
    /// (see [`Fixture::notes`]); none for an unpitched recording.
    pub note_hz: Option<f64>,
    /// The frequencies a patch's wave plays, low to high (none for a kit's file).
    pub played_range_hz: Option<(f64, f64)>,
    /// Modal or nonlinear: its instrument's [`Instrument::kind`].
    pub kind: Kind,
    /// The patch loops this wave: [`Fixture::samples`] stops at the loop start.
    pub looped: bool,
    /// Where the loop starts, samples from the wave's start.
    pub loop_start_samples: Option<usize>,
    /// The unlooped part is shorter than [`SHORT_S`].
    pub short: bool,
    /// The recording was published with reverb added (its decays are the room's too).
    pub reverb_added: bool,
    /// Not an independent recording: this fixture's id is another fixture transposed.
    pub copy_of: Option<&'static str>,
    /// What was measured about it, and why its labels are what they are.
    pub notes: &'static str,
}

impl Fixture {
    /// Length of the unlooped part, s.
    pub fn unlooped_s(&self) -> f64 {
        self.samples.len() as f64 / self.sample_rate_hz
    }
}

/// Every fixture of the reference set, freepats' patches first, then the Hydrogen kits' files.
/// Fails, naming the Debian package to install, when a file is not there.
pub fn reference_set() -> Result<Vec<Fixture>, String> {
    let mut set = freepats::fixtures(Path::new(FREEPATS_DIR))?;
    set.extend(kits::fixtures(Path::new(HYDROGEN_DRUMKITS_DIR))?);
    Ok(set)
}

/// The error for a file of `package` that is not installed.
fn missing(package: &str, path: &Path) -> String {
    format!(
        "{} is not there: install the Debian package {package} (`sudo apt-get install {package}`, \
         or `cargo xtask reference`, which installs it)",
        path.display()
    )
}

/// The fields every fixture measures the same way: its Nyquist frequency, its content
/// bandwidth and whether it is [`Fixture::short`].
fn spectral_facts(samples: &[f64], sample_rate_hz: f64) -> (f64, f64, bool) {
    let nyquist_hz = sample_rate_hz / 2.0;
    let content_hz = content_bandwidth_hz(samples, sample_rate_hz);
    let short = (samples.len() as f64) < SHORT_S * sample_rate_hz;
    (nyquist_hz, content_hz, short)
}

/// The nearest MIDI key of a frequency, when it lies on the keyboard.
fn nearest_key(freq_hz: f64) -> Option<u8> {
    let key = key_of_hz(freq_hz).round();
    (0.0..=127.0).contains(&key).then_some(key as u8)
}
