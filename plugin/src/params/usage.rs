//! Which play modes each parameter acts in: what each mode's tab of the editor shows.

use urto_dsp::voice::PlayMode::{self, Bounce, Drop, Roll, Strike};

const ALL: &[PlayMode] = &PlayMode::ALL;
/// The modes whose contact is the Contact group's (a drop derives its own from the materials,
/// keeping only the integrator, the guard and the exit correction).
const HIT: &[PlayMode] = &[Strike, Bounce, Roll];

/// Each parameter by stable id, and the modes in which it can change the sound (some only under
/// a condition the editor notes, e.g. restitution only when damping comes from it). Traced
/// through `Patch::resolved`, the scenes and the preparation (see each scene's module).
const USAGE: &[(&str, &[PlayMode])] = &[
    ("mode", ALL),
    ("k", HIT),
    ("mu", HIT),
    ("alpha", HIT),
    ("integrator", ALL),
    ("law", HIT),
    ("damping-from", HIT),
    ("restitution", HIT),
    ("linear-damping", HIT),
    // Roll never parts a rigid pair: nothing to correct at its exit.
    ("corrections", &[Strike, Bounce, Drop]),
    ("guard", ALL),
    // A drop's body replaces the striker, of the striker's material (and its ring's level).
    ("hammer-mass", HIT),
    ("striker", HIT),
    ("striker-material", ALL),
    ("striker-size", HIT),
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
    ("gravity", &[Bounce, Roll, Drop]),
    ("gravity-in-contact", &[Bounce]),
    ("capture", &[Bounce]),
    ("irregularity", &[Bounce]),
    ("ball-radius", &[Roll]),
    ("roughness", &[Roll]),
    ("roughness-slope", &[Roll]),
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
    // Pressure presses a ball that rests on the object.
    ("press-depth", &[Bounce, Roll]),
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
    use crate::params::UrtoParams;
    use nice_plug::prelude::Params;

    /// Every parameter is listed once, and every listed id is a parameter.
    #[test]
    fn every_parameter_has_its_modes() {
        let ids: Vec<String> = UrtoParams::default()
            .param_map()
            .into_iter()
            .map(|(id, _, _)| id)
            .collect();
        for id in &ids {
            let listed = USAGE.iter().filter(|(known, _)| known == id).count();
            assert_eq!(listed, 1, "{id} is listed {listed} times");
        }
        for (id, _) in USAGE {
            assert!(ids.iter().any(|known| known == id), "{id} is no parameter");
        }
    }
}
