//! The freepats fixtures: every wave of the tuned-percussion patches and the claves and wood blocks of the drum set.

use super::pat::{self, Patch};
use super::{missing, nearest_key, spectral_facts, Fixture, Instrument, Source};
use std::path::Path;

/// The Debian package of these patches.
const PACKAGE: &str = "freepats";

/// What a wave's note really is.
#[derive(Clone, Copy, Debug)]
enum Note {
    /// The header's root frequency is the sounding note (measured within a quarter tone).
    Header,
    /// The header's root is not the sounding note (a drum patch's placeholder): the note
    /// measured, Hz (the strongest mode, or the lower of two of equal strength).
    Measured(f64),
}

/// One wave of a patch as the set takes it.
struct WavePlan {
    id: &'static str,
    instrument: Instrument,
    note: Note,
    copy_of: Option<&'static str>,
    notes: &'static str,
}

/// One patch file and every wave it holds, in order.
struct PatchPlan {
    file: &'static str,
    waves: &'static [WavePlan],
}

const fn wave(id: &'static str, instrument: Instrument, notes: &'static str) -> WavePlan {
    WavePlan {
        id,
        instrument,
        note: Note::Header,
        copy_of: None,
        notes,
    }
}

/// The patches, their waves in file order, and what each wave is (ratios measured on the
/// unlooped part, to the strongest peak).
const PATCHES: &[PatchPlan] = &[
    PatchPlan {
        file: "Tone_000/009_Glockenspiel.pat",
        waves: &[
            wave(
                "glockenspiel-gs5",
                Instrument::Glockenspiel,
                "fundamental at the header's root (stored at sounding pitch, two octaves above \
                 the written note); next modes 2.71×, 5.25×",
            ),
            wave(
                "glockenspiel-c6",
                Instrument::Glockenspiel,
                "next modes 2.76×, 4.73×; band-limited before storage: nothing above 8 kHz but \
                 rounding noise (the noise between partials falls 30 dB there)",
            ),
            wave(
                "glockenspiel-a6",
                Instrument::Glockenspiel,
                "next modes 2.72×, 5.15×",
            ),
            wave(
                "glockenspiel-e7",
                Instrument::Glockenspiel,
                "next modes 2.66×, 4.61×",
            ),
            wave(
                "glockenspiel-b7",
                Instrument::Glockenspiel,
                "next mode 2.62×",
            ),
        ],
    },
    PatchPlan {
        file: "Tone_000/013_Xylophone.pat",
        waves: &[
            wave(
                "marimba-cs3",
                Instrument::Marimba,
                "marimba, not xylophone (wave `Cs3Mmba`): partials 1 : 4.01 : 9.98 (and 2.99×); \
                 the patch's marimba waves play keys up to 65 (F4)",
            ),
            wave(
                "marimba-fs3",
                Instrument::Marimba,
                "marimba: partials 1 : 4.01 : 10.0 (and 3.0×)",
            ),
            wave(
                "marimba-gs3",
                Instrument::Marimba,
                "marimba: partials 1 : 4.01 : 10.0 (and 2.99×)",
            ),
            wave(
                "marimba-c4",
                Instrument::Marimba,
                "marimba: partials 1 : 4.01 : 9.9 (and 2.99×); played up to 369.957 Hz, just \
                 below key 66 (F#4)",
            ),
            wave(
                "xylophone-c5",
                Instrument::Xylophone,
                "xylophone from key 66 up: 2nd partial 3.01× (a tuned twelfth), none at 4×; \
                 wave named `Xylo C3` sounds C5, as its header says",
            ),
            wave(
                "xylophone-e5",
                Instrument::Xylophone,
                "2nd partial 2.99×; sounds 28 cents sharp of its root; wave named `Xylo E4`",
            ),
            wave(
                "xylophone-gs5",
                Instrument::Xylophone,
                "2nd partial 2.81× (upper bars are not tuned to 3); 17 cents sharp of its root",
            ),
            wave(
                "xylophone-d6",
                Instrument::Xylophone,
                "2nd partial 2.73×; wave named `Xylo D4` sounds D6",
            ),
            wave(
                "xylophone-e6",
                Instrument::Xylophone,
                "2nd partial 2.70×; wave named `Xylo E5` sounds E6",
            ),
            wave(
                "xylophone-a6",
                Instrument::Xylophone,
                "2nd partial 2.56×; wave named `Xylo A4` sounds A6",
            ),
            wave(
                "xylophone-e7",
                Instrument::Xylophone,
                "weak partial at 3.0× (−50 dB); wave named `Yylo E5` sounds E7",
            ),
            wave(
                "xylophone-c8",
                Instrument::Xylophone,
                "66 ms, one partial below the 10 kHz Nyquist; wave named `Xylo C7` sounds C8",
            ),
        ],
    },
    PatchPlan {
        file: "Tone_000/014_Tubular_Bells.pat",
        waves: &[wave(
            "tubular-bell-f5",
            Instrument::TubularBell,
            "free–free tube, modes 1–7 at 160, 443, 863, 1402, 2043, 2768, 3444 Hz; the strike \
             tone (the header's root) is an octave below mode 4, the strongest (modes 4–6 ≈ \
             2 : 3 : 4 of it); the one wave of the patch",
        )],
    },
    PatchPlan {
        file: "Tone_000/015_Dulcimer.pat",
        waves: &[
            wave(
                "dulcimer-d3",
                Instrument::HammeredDulcimer,
                "struck strings, harmonic partials; the 3rd harmonic is the strongest",
            ),
            wave(
                "dulcimer-a3",
                Instrument::HammeredDulcimer,
                "harmonic partials; the 2nd is the strongest",
            ),
            wave(
                "dulcimer-d4",
                Instrument::HammeredDulcimer,
                "harmonic partials; the fundamental is the strongest",
            ),
            wave(
                "dulcimer-g4",
                Instrument::HammeredDulcimer,
                "harmonic partials; the fundamental is the strongest",
            ),
            wave(
                "dulcimer-c5",
                Instrument::HammeredDulcimer,
                "harmonic partials; the fundamental is the strongest",
            ),
            wave(
                "dulcimer-g5",
                Instrument::HammeredDulcimer,
                "harmonic partials; the 2nd is the strongest; other courses ring at 454 Hz",
            ),
            wave(
                "dulcimer-c6",
                Instrument::HammeredDulcimer,
                "harmonic partials; the fundamental is the strongest",
            ),
        ],
    },
    PatchPlan {
        file: "Tone_000/047_Timpani.pat",
        waves: &[wave(
            "timpani-c3",
            Instrument::Timpani,
            "the (1,1) mode, strongest, at 130.7 Hz: 16 cents above the header's root; (2,1) at \
             1.50×, (3,1) at 1.97× (the air load's tuning)",
        )],
    },
    PatchPlan {
        file: "Drum_000/075_Claves.pat",
        waves: &[WavePlan {
            id: "claves",
            instrument: Instrument::Claves,
            note: Note::Measured(CLAVES_HZ),
            copy_of: None,
            notes: "mislabelled root: the header's C4 is a drum patch's placeholder; it sounds \
                    one bending mode at 2422 Hz; faded out after 35 ms",
        }],
    },
    PatchPlan {
        file: "Drum_000/076_Wood_Block_1_High.pat",
        waves: &[WavePlan {
            id: "wood-block-high",
            instrument: Instrument::WoodBlock,
            note: Note::Measured(WOOD_BLOCK_HIGH_HZ),
            copy_of: Some("wood-block-low"),
            notes: "not a second block: the low block resampled a fourth up (×4/3; partial \
                    ratios equal to 3 digits, correlation 0.99); root mislabelled (placeholder)",
        }],
    },
    PatchPlan {
        file: "Drum_000/077_Wood_Block_2_Low.pat",
        waves: &[WavePlan {
            id: "wood-block-low",
            instrument: Instrument::WoodBlock,
            note: Note::Measured(WOOD_BLOCK_LOW_HZ),
            copy_of: None,
            notes: "two modes of equal strength, 558 and 625 Hz (1 : 1.12), then 2.20× and \
                    2.44×; the header's root (265 Hz) is a placeholder",
        }],
    },
];

/// The claves' one strong mode, Hz (measured: the header's root is C4).
pub(super) const CLAVES_HZ: f64 = 2422.0;
/// The low wood block's lower strong mode, Hz (its twin at 1.12× is as strong).
pub(super) const WOOD_BLOCK_LOW_HZ: f64 = 557.7;
/// The high wood block's lower strong mode: the low block's ×4/3, Hz.
pub(super) const WOOD_BLOCK_HIGH_HZ: f64 = 743.9;
/// The ratio of a wood block's two strong modes (both blocks, measured).
#[cfg(test)]
pub(super) const WOOD_BLOCK_TWIN_RATIO: f64 = 1.121;

/// Every planned wave of every patch under `dir`.
pub(super) fn fixtures(dir: &Path) -> Result<Vec<Fixture>, String> {
    let mut set = vec![];
    for plan in PATCHES {
        let path = dir.join(plan.file);
        if !path.is_file() {
            return Err(missing(PACKAGE, &path));
        }
        let patch = pat::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if patch.waves.len() != plan.waves.len() {
            return Err(format!(
                "{}: {} waves, the reference set expects {} (another freepats version?)",
                path.display(),
                patch.waves.len(),
                plan.waves.len()
            ));
        }
        for (index, wave_plan) in plan.waves.iter().enumerate() {
            set.push(fixture(&path, &patch, index, wave_plan));
        }
    }
    Ok(set)
}

/// The fixture of wave `index` of `patch`.
fn fixture(path: &Path, patch: &Patch, index: usize, plan: &WavePlan) -> Fixture {
    let wave = &patch.waves[index];
    let samples = wave.unlooped().to_vec();
    let (bandwidth_hz, content_bandwidth_hz, short) = spectral_facts(&samples, wave.sample_rate_hz);
    let note_hz = match plan.note {
        Note::Header => wave.root_hz,
        Note::Measured(hz) => hz,
    };
    Fixture {
        id: plan.id,
        instrument: plan.instrument,
        source: Source {
            package: PACKAGE,
            path: path.to_path_buf(),
            sample_index: Some(index),
            wave_name: Some(wave.name.clone()),
        },
        samples,
        sample_rate_hz: wave.sample_rate_hz,
        bandwidth_hz,
        content_bandwidth_hz,
        header_root_hz: Some(wave.root_hz),
        root_key: nearest_key(note_hz),
        note_hz: Some(note_hz),
        played_range_hz: Some((wave.low_hz, wave.high_hz)),
        kind: plan.instrument.kind(),
        looped: wave.looping,
        loop_start_samples: wave
            .looping
            .then(|| wave.loop_start_samples.floor() as usize),
        short,
        reverb_added: false,
        copy_of: plan.copy_of,
        notes: plan.notes,
    }
}
