//! An engine with its patch prepared before the clock starts, as the plugin prepares a patch off the audio thread.

use urto_dsp::voice::{Engine, Patch, Prepared};

/// An engine at `sample_rate_hz` with `patch` prepared (every key, the contacts' tables, the
/// level calibration) and installed, as the plugin does on its preparing thread when the patch
/// changes: a timed note-on then costs what a note costs, not the patch's preparation. (A fresh
/// engine prepares on its first note-on, and criterion builds the engine again for every sample:
/// the drop's calibration, 30 ms, was timed in every sample's first iteration.)
pub fn prepared_engine(patch: &Patch, sample_rate_hz: f64) -> Engine {
    let mut engine = Engine::new(sample_rate_hz);
    let mut prepared = Prepared::new(sample_rate_hz);
    prepared.prepare(patch);
    engine.install(prepared);
    engine
}
