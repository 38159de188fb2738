//! Which play modes each parameter acts in: what each mode's tab of the editor shows.

use urto_dsp::voice::PlayMode::{self, Bounce, Break, Crumple, Drop, Roll, Slide, Strike};

const ALL: &[PlayMode] = &PlayMode::ALL;
/// The modes whose contact is the Contact group's (a drop derives its own from the materials,
/// keeping only the integrator, the guard and the exit correction).
const HIT: &[PlayMode] = &[Strike, Bounce, Roll, Slide];
/// The modes whose striker is the striker group's body (a crumple throws fragments of it, a
/// break breaks it; a drop's body is its own).
const STRUCK: &[PlayMode] = &[Strike, Bounce, Roll, Slide, Crumple, Break];
/// The modes whose contacts the integrator and the guard set (a crumple's pool always takes
/// the energy-consistent step).
const STEPPED: &[PlayMode] = &[Strike, Bounce, Roll, Drop, Slide];

/// Each parameter by stable id, and the modes in which it can change the sound (some only under
/// a condition the editor notes, e.g. restitution only when damping comes from it). Traced
/// through `Patch::resolved`, the scenes and the preparation (see each scene's module).
const USAGE: &[(&str, &[PlayMode])] = &[
    ("mode", ALL),
    ("k", HIT),
    ("mu", HIT),
    ("alpha", HIT),
    ("integrator", STEPPED),
    ("law", HIT),
    ("damping-from", HIT),
    ("restitution", HIT),
    ("linear-damping", HIT),
    // Roll never parts a rigid pair: nothing to correct at its exit (a slider hopping on a
    // rough surface does).
    ("corrections", &[Strike, Bounce, Drop, Slide]),
    ("guard", STEPPED),
    // A drop's body replaces the striker, of the striker's material (and its ring's level).
    ("hammer-mass", STRUCK),
    ("striker", STRUCK),
    ("striker-material", ALL),
    ("striker-size", STRUCK),
    ("striker-level", ALL),
    ("grip", &[Strike]),
    ("contact-from-materials", HIT),
    ("object", ALL),
    ("object-material", ALL),
    ("physical-tuning", ALL),
    ("object-size", ALL),
    ("key-tracking", ALL),
    ("fixed-f0", ALL),
    ("a4", ALL),
    ("decay", ALL),
    ("material", ALL),
    ("stretch", ALL),
    ("strike-pos", ALL),
    ("pickup-pos", ALL),
    ("pickup-right", ALL),
    ("modes", ALL),
    ("object-mass", ALL),
    // Only a strike and a bounce choose their impact speed from the velocity.
    ("v-min", &[Strike, Bounce]),
    ("v-max", &[Strike, Bounce]),
    ("dynamic-range", ALL),
    ("velocity-curve", ALL),
    ("level", ALL),
    ("width", ALL),
    ("pan-by-key", ALL),
    ("release", ALL),
    ("polyphony", ALL),
    ("gain", ALL),
    ("height", &[Bounce, Drop]),
    // A slider's press is its force; a note's pressure adds Press depth weights (of gravity).
    ("gravity", &[Bounce, Roll, Drop, Slide, Break]),
    ("gravity-in-contact", &[Bounce]),
    ("capture", &[Bounce]),
    ("irregularity", &[Bounce]),
    ("ball-radius", &[Roll]),
    ("out-of-round", &[Roll]),
    ("roll-speed", &[Roll]),
    ("roll-source", &[Roll]),
    ("roll-lift", &[Roll]),
    ("drop-body", &[Drop]),
    ("drop-scale", &[Drop]),
    ("drop-spin", &[Drop]),
    ("drop-drift", &[Drop]),
    ("drop-friction", &[Drop]),
    ("drop-lift", &[Drop]),
    ("slide-force", &[Slide]),
    ("slide-speed", &[Slide]),
    ("slide-source", &[Slide]),
    ("slide-stroke", &[Slide]),
    ("stroke-length", &[Slide]),
    ("slide-coupling", &[Slide]),
    ("slide-edge", &[Slide]),
    ("slide-in-place", &[Slide]),
    ("slider-tip", &[Slide]),
    ("mu-static", &[Slide]),
    ("mu-kinetic", &[Slide]),
    ("stribeck", &[Slide]),
    ("bristle-stiffness", &[Slide]),
    ("bristle-damping", &[Slide]),
    ("viscous-friction", &[Slide]),
    ("breakaway", &[Slide]),
    ("friction-noise", &[Slide]),
    ("surface", &[Roll, Drop, Slide]),
    ("surface-height", &[Roll, Drop, Slide]),
    ("surface-slope", &[Roll, Drop, Slide]),
    ("ridge-spacing", &[Roll, Drop, Slide]),
    ("ridge-shape", &[Roll, Drop, Slide]),
    ("ridge-duty", &[Roll, Drop, Slide]),
    ("grain-size", &[Roll, Drop, Slide]),
    // Pressure presses a ball that rests on the object, and a slider.
    ("press-depth", &[Bounce, Roll, Slide]),
    ("crumple-rate", &[Crumple]),
    ("crumple-source", &[Crumple]),
    ("crumple-gesture", &[Crumple]),
    ("crumple-gesture-time", &[Crumple]),
    ("crumple-exponent", &[Crumple]),
    ("crumple-min-energy", &[Crumple]),
    ("crumple-span", &[Crumple]),
    ("break-energy", &[Break]),
    ("break-crack-share", &[Break]),
    ("break-crack-time", &[Break]),
    ("break-fragments", &[Break]),
    ("break-mass-exponent", &[Break]),
    ("bend-range", ALL),
    ("mpe", ALL),
    ("mpe-bend-range", ALL),
];

/// Whether the parameter with stable id `id` acts in `mode` (an unknown id acts nowhere).
pub fn acts_in(id: &str, mode: PlayMode) -> bool {
    USAGE
        .iter()
        .find(|(known, _)| *known == id)
        .is_some_and(|(_, modes)| modes.contains(&mode))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Controllers, UrtoParams};
    use nice_plug::prelude::{ParamPtr, Params};
    use urto_dsp::voice::Engine;

    /// Middle C at velocity 100 for half a second at 48 kHz, left then right.
    fn render(params: &UrtoParams) -> Vec<f32> {
        let patch = params.patch(&Controllers::default());
        let mut engine = Engine::new(48_000.0);
        engine.note_on(&patch, 60, 100.0 / 127.0);
        let (mut left, mut right) = (vec![0.0; 24_000], vec![0.0; 24_000]);
        for (l, r) in left.chunks_mut(480).zip(right.chunks_mut(480)) {
            engine.process_stereo(&patch, l, r);
        }
        left.extend(right);
        left
    }

    /// Default parameters in `mode`, and the `moved`-th parameter of the map (if any) away from
    /// its default.
    fn params_in(mode: PlayMode, moved: Option<usize>) -> UrtoParams {
        let params = UrtoParams::default();
        let set = |ptr: ParamPtr, normalized: f32| {
            // SAFETY: `ptr` points into `params`, alive for the call.
            unsafe { ptr._internal_set_normalized_value(normalized) };
        };
        params.set_mode_directly(mode);
        if let Some((_, ptr, _)) = moved.and_then(|index| params.param_map().get(index).cloned()) {
            // SAFETY: as above.
            let default = unsafe { ptr.default_normalized_value() };
            set(ptr, if default < 0.5 { 0.8 } else { 0.2 });
        }
        params
    }

    /// What the table says does not act in a mode changes nothing a note of that mode renders:
    /// with the parameter moved from its default, the render is bit-identical (the engine, not
    /// the table, decides).
    #[test]
    fn what_does_not_act_in_a_mode_changes_nothing_there() {
        let ids = UrtoParams::default().ids();
        for mode in PlayMode::ALL {
            let reference = render(&params_in(mode, None));
            for (index, id) in ids.iter().enumerate() {
                if !acts_in(id, mode) {
                    let moved = render(&params_in(mode, Some(index)));
                    assert!(moved == reference, "{id} changes {mode:?}");
                }
            }
        }
    }

    /// Every parameter is listed once, and every listed id is a parameter.
    #[test]
    fn every_parameter_has_its_modes() {
        crate::params::assert_lists_every_parameter_once(USAGE.iter().map(|(id, _)| *id));
    }
}
