//! The drop benchmarks' note: a die dropped on a plank, shared by `voices` and `scaling` so both measure the same drop.

use urto_dsp::material;
use urto_dsp::resonator::ObjectKind;
use urto_dsp::voice::{Patch, PlayMode};

/// A die of ABS dropped from 5 cm on a 32-mode oak plank ringing 20 s (resolved): it lands,
/// rattles and rests within a second (PLUS impacts, micro-impacts with their trials, the contact
/// steps on the floor).
pub fn dropped_die() -> Patch {
    let mut patch = Patch {
        mode: PlayMode::Drop,
        ..Patch::default()
    };
    patch.object.kind = ObjectKind::Plank;
    patch.object.num_modes = 32;
    patch.object.t60_s = 20.0;
    patch.object_material = material::by_id("oak").expect("oak");
    patch.striker.material = material::by_id("abs").expect("abs");
    patch.fall.height_m = 0.05;
    patch.resolved()
}
