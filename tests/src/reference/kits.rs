//! The Hydrogen fixtures: acoustic crashes and snares from three kits, read as WAV or FLAC.

use super::{missing, spectral_facts, Fixture, Instrument, Source};
use std::path::Path;
use urto_dsp::analysis::recording;

/// The Debian package of these kits.
const PACKAGE: &str = "hydrogen-drumkits";

/// One file of a kit as the set takes it.
struct FilePlan {
    id: &'static str,
    kit: &'static str,
    file: &'static str,
    instrument: Instrument,
    reverb_added: bool,
    notes: &'static str,
}

/// Colombo's README: reverb was added to every sample but the hi-hats, rides and one snare.
const COLOMBO: &str = "ColomboAcousticDrumkit";
const FORZEE: &str = "ForzeeStereo";
const BLACK_PEARL: &str = "The Black Pearl 1.0";

/// The files, acoustic recordings only (no 8-bit or electronic kits).
const FILES: &[FilePlan] = &[
    FilePlan {
        id: "crash-colombo-16in",
        kit: COLOMBO,
        file: "crash16i__crash1.flac",
        instrument: Instrument::CrashCymbal,
        reverb_added: true,
        notes: "Sabian B8 Pro thin crash 16\"; stereo mid; reverb added (the kit's README)",
    },
    FilePlan {
        id: "crash-colombo-20in",
        kit: COLOMBO,
        file: "crash20i__crash.flac",
        instrument: Instrument::CrashCymbal,
        reverb_added: true,
        notes: "Paiste 1000 Power Crash 20\"; stereo mid; reverb added (the kit's README)",
    },
    FilePlan {
        id: "snare-colombo-dry",
        kit: COLOMBO,
        file: "snare-opaque-2mics_normal-shot1.flac",
        instrument: Instrument::SnareDrum,
        reverb_added: false,
        notes: "piccolo snare 14×4\", two microphones; the kit's one snare without added reverb",
    },
    FilePlan {
        id: "snare-colombo-reverb",
        kit: COLOMBO,
        file: "snare-opaque-normal-mic-normal_shot2.flac",
        instrument: Instrument::SnareDrum,
        reverb_added: true,
        notes: "piccolo snare 14×4\", one microphone; reverb added (the kit's README)",
    },
    FilePlan {
        id: "crash-forzee-18in-soft",
        kit: FORZEE,
        file: "Crash18-0.wav",
        instrument: Instrument::CrashCymbal,
        reverb_added: false,
        notes: "Paiste Rude Thin 18\", softest velocity layer (0–0.25); 24-bit stereo mid; its \
                strongest peak lies at 88 Hz, below the cymbal's band",
    },
    FilePlan {
        id: "crash-forzee-18in-hard",
        kit: FORZEE,
        file: "Crash18-3.wav",
        instrument: Instrument::CrashCymbal,
        reverb_added: false,
        notes: "Paiste Rude Thin 18\", hardest velocity layer; 24-bit stereo mid; strongest peak \
                at 43 Hz, below the cymbal's band",
    },
    FilePlan {
        id: "snare-forzee-soft",
        kit: FORZEE,
        file: "Snare-0.wav",
        instrument: Instrument::SnareDrum,
        reverb_added: false,
        notes:
            "Pearl Free Floating Maple 14×3.5\", softest velocity layer (0–0.2); 24-bit stereo mid",
    },
    FilePlan {
        id: "snare-forzee-hard",
        kit: FORZEE,
        file: "Snare-4.wav",
        instrument: Instrument::SnareDrum,
        reverb_added: false,
        notes: "Pearl Free Floating Maple 14×3.5\", hardest velocity layer; 24-bit stereo mid",
    },
    FilePlan {
        id: "crash-black-pearl-hard",
        kit: BLACK_PEARL,
        file: "SabianCrash-Hard.wav",
        instrument: Instrument::CrashCymbal,
        reverb_added: false,
        notes: "Sabian crash of a Pearl DX kit, \"Hard\" layer; 16-bit mono",
    },
    FilePlan {
        id: "snare-black-pearl-hard",
        kit: BLACK_PEARL,
        file: "PearlSnare-Hard.wav",
        instrument: Instrument::SnareDrum,
        reverb_added: false,
        notes: "Pearl DX snare, \"Hard\" layer; 16-bit mono",
    },
];

/// Every planned file of the kits under `dir`.
pub(super) fn fixtures(dir: &Path) -> Result<Vec<Fixture>, String> {
    FILES.iter().map(|plan| fixture(dir, plan)).collect()
}

/// The fixture of one file: the whole recording (nothing loops), mixed to mono.
fn fixture(dir: &Path, plan: &FilePlan) -> Result<Fixture, String> {
    let path = dir.join(plan.kit).join(plan.file);
    if !path.is_file() {
        return Err(missing(PACKAGE, &path));
    }
    let recording = recording::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (bandwidth_hz, content_bandwidth_hz, short) =
        spectral_facts(&recording.samples, recording.sample_rate_hz);
    Ok(Fixture {
        id: plan.id,
        instrument: plan.instrument,
        source: Source {
            package: PACKAGE,
            path,
            sample_index: None,
            wave_name: None,
        },
        samples: recording.samples,
        sample_rate_hz: recording.sample_rate_hz,
        bandwidth_hz,
        content_bandwidth_hz,
        header_root_hz: None,
        root_key: None,
        note_hz: None,
        played_range_hz: None,
        kind: plan.instrument.kind(),
        looped: false,
        loop_start_samples: None,
        short,
        reverb_added: plan.reverb_added,
        copy_of: None,
        notes: plan.notes,
    })
}
