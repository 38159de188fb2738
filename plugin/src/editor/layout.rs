//! Which controls each play mode's tab shows, and where: the knobs in front, then the mode's other controls in columns, group by group.

use crate::params::acts_in;
use urto_dsp::voice::PlayMode;

/// The groups of the columns, in order: a title and its parameters by stable id. A tab shows the
/// parameters that act in its mode (`acts_in`), less those it shows as knobs.
pub const GROUPS: &[(&str, &[&str])] = &[
    (
        "Contact",
        &[
            "contact-from-materials",
            "k",
            "law",
            "damping-from",
            "mu",
            "restitution",
            "linear-damping",
            "alpha",
            "integrator",
            "corrections",
            "guard",
        ],
    ),
    (
        "Fall",
        &["height", "gravity", "gravity-in-contact", "capture"],
    ),
    ("Bounce", &["irregularity"]),
    (
        "Crumple",
        &[
            "crumple-rate",
            "crumple-source",
            "crumple-gesture",
            "crumple-gesture-time",
            "crumple-exponent",
            "crumple-min-energy",
            "crumple-span",
        ],
    ),
    (
        "Break",
        &[
            "break-energy",
            "break-crack-share",
            "break-crack-time",
            "break-fragments",
            "break-mass-exponent",
        ],
    ),
    (
        "Roll",
        &[
            "roll-speed",
            "roll-source",
            "ball-radius",
            "out-of-round",
            "roll-lift",
        ],
    ),
    (
        "Dropped body",
        &[
            "drop-body",
            "drop-scale",
            "drop-spin",
            "drop-drift",
            "drop-friction",
            "drop-lift",
        ],
    ),
    (
        "Slide",
        &[
            "slide-force",
            "slide-speed",
            "slide-source",
            "slide-stroke",
            "stroke-length",
            "slide-coupling",
            "slide-edge",
            "slide-in-place",
            "slider-tip",
        ],
    ),
    (
        "Friction",
        &[
            "mu-static",
            "mu-kinetic",
            "stribeck",
            "bristle-stiffness",
            "bristle-damping",
            "viscous-friction",
            "breakaway",
            "friction-noise",
        ],
    ),
    (
        "Surface",
        &[
            "surface",
            "surface-height",
            "surface-slope",
            "ridge-spacing",
            "ridge-shape",
            "ridge-duty",
            "grain-size",
        ],
    ),
    (
        "Striker",
        &[
            "striker",
            "striker-material",
            "striker-size",
            "hammer-mass",
            "striker-level",
            "grip",
        ],
    ),
    (
        "Object",
        &[
            "object",
            "object-material",
            "object-mass",
            "modes",
            "decay",
            "material",
            "stretch",
            "physical-tuning",
            "object-size",
            "key-tracking",
            "fixed-f0",
            "a4",
            "strike-pos",
            "pickup-pos",
            "pickup-right",
        ],
    ),
    (
        "Velocity",
        &["v-min", "v-max", "dynamic-range", "velocity-curve"],
    ),
    (
        "Output",
        &[
            "level",
            "gain",
            "width",
            "pan-by-key",
            "release",
            "polyphony",
        ],
    ),
    (
        "Expression",
        &["press-depth", "bend-range", "mpe", "mpe-bend-range"],
    ),
];

/// The knobs in front of a mode's tab: the contact's stiffness, damping and shape where the
/// mode's contact is the user's (the damping knob is whichever parameter sets it: `damping`),
/// and what the mode is played with besides (a drop's fall and body).
pub fn knobs(mode: PlayMode, damping: &'static str) -> Vec<&'static str> {
    match mode {
        PlayMode::Strike => vec!["k", damping, "alpha"],
        PlayMode::Bounce => vec!["k", damping, "alpha", "height"],
        PlayMode::Roll => vec!["k", damping, "alpha", "roll-speed"],
        PlayMode::Drop => vec!["height", "drop-scale", "drop-spin", "drop-friction"],
        PlayMode::Slide => vec!["slide-force", "slide-speed", "mu-static", "mu-kinetic"],
        PlayMode::Crumple => vec![
            "crumple-rate",
            "crumple-exponent",
            "crumple-min-energy",
            "crumple-span",
        ],
        PlayMode::Break => vec![
            "break-energy",
            "break-crack-share",
            "break-crack-time",
            "break-fragments",
        ],
    }
}

/// The columns a mode's tab lays its other controls in: three, or four for a slide (its
/// friction and surface add two groups), so that every control fits the window.
pub fn column_count(mode: PlayMode) -> usize {
    match mode {
        PlayMode::Strike
        | PlayMode::Bounce
        | PlayMode::Roll
        | PlayMode::Drop
        | PlayMode::Crumple
        | PlayMode::Break => 3,
        PlayMode::Slide => 4,
    }
}

/// One line of a column: a group's title, or a parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Line {
    Title(&'static str),
    Param(&'static str),
}

/// The lines of `mode`'s tab, split into `columns` columns of nearly equal length; a title is
/// never the last line of a column.
pub fn columns(mode: PlayMode, knobs: &[&str], columns: usize) -> Vec<Vec<Line>> {
    let mut lines = vec![];
    for (title, ids) in GROUPS {
        let shown: Vec<_> = ids
            .iter()
            .filter(|id| acts_in(id, mode) && !knobs.contains(id))
            .collect();
        if !shown.is_empty() {
            lines.push(Line::Title(title));
            lines.extend(shown.into_iter().map(|id| Line::Param(id)));
        }
    }
    let per_column = lines.len().div_ceil(columns.max(1));
    let mut out: Vec<Vec<Line>> = vec![vec![]];
    for line in lines {
        let filled = out.last().map_or(0, Vec::len);
        let full =
            filled >= per_column || (filled + 1 >= per_column && matches!(line, Line::Title(_)));
        if full && out.len() < columns {
            out.push(vec![]);
        }
        out.last_mut().expect("one column at least").push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::UrtoParams;
    use nice_plug::prelude::Params;

    /// Every parameter but the mode (the tabs) is in exactly one group.
    #[test]
    fn every_parameter_is_in_one_group() {
        for (id, _, _) in UrtoParams::default().param_map() {
            let groups = GROUPS.iter().filter(|(_, ids)| ids.contains(&id.as_str()));
            assert_eq!(groups.count(), usize::from(id != "mode"), "{id}");
        }
    }
}
