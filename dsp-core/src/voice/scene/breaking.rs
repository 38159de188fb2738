//! The break: a note breaks the striker's body on the object, which is the floor — a crack, a burst of impacts whose rate rises, and then its fragments, each bouncing on the floor with its own restitution, all heard through the contact from a pool of strikers.
//!
//! The plan ([`crate::stream::BreakPlan`]) gives each event's time, energy and size; each is a
//! piece of the body thrown at the floor ([`super::thrower`]): a crack's event of energy E a
//! piece of size √(E/E_stored) given E (what gives in the crack rings at its size), a fragment's
//! landing the fragment itself, (m/M)^(1/3) of the body's size, at the speed it lands with and
//! restituting its own coefficient. The body's mass is its rigid mass at the contact point.

use super::thrower::Thrower;
use super::{NoteStart, Scene};
use crate::stream::{BreakPlan, BreakSettings, Piece};
use crate::voice::bodies::Bodies;
use crate::voice::patch::Patch;

/// The plan and what it throws.
pub(in crate::voice) struct BreakScene {
    plan: BreakPlan,
    thrower: Thrower,
    /// Whether the plan still throws.
    throwing: bool,
}

/// The break `patch` (resolved) makes when its striker, falling under the patch's gravity,
/// breaks on its object.
pub fn break_settings(patch: &Patch) -> BreakSettings {
    let fracture = &patch.fracture;
    BreakSettings {
        stored_j: fracture.stored_energy_j,
        crack_share: fracture.crack_share,
        crack_s: fracture.crack_s,
        fragments: fracture.fragments,
        mass_exponent: fracture.mass_exponent,
        mass_kg: patch.striker.rigid_mass_kg(patch.hammer_mass_kg),
        restitution: patch.striker.hertz_contact(patch.object_material).1,
        gravity_m_per_s2: patch.fall.gravity.accel_m_per_s2,
    }
    .clamped()
}

/// How long a break's calibration hears it, s: its crack and the fragments' first landings,
/// which are its loudest (a fragment lands slower each time).
const REFERENCE_AFTER_CRACK_S: f64 = 0.5;

/// The length of `patch`'s break a calibration renders, s.
pub(super) fn reference_s(patch: &Patch) -> f64 {
    break_settings(patch).crack_s + REFERENCE_AFTER_CRACK_S
}

impl BreakScene {
    pub fn new() -> Self {
        Self {
            plan: BreakPlan::new(break_settings(&Patch::default()), 0),
            thrower: Thrower::new(),
            throwing: false,
        }
    }
}

impl Scene for BreakScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        self.thrower.start(bodies, note.patch, note.dt_s);
        self.plan = BreakPlan::new(break_settings(note.patch), note.seed);
        self.throwing = true;
    }

    fn render(
        &mut self,
        bodies: &mut Bodies,
        _patch: &Patch,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
        _decide: bool,
    ) {
        let (plan, throwing) = (&mut self.plan, self.throwing);
        let due = |thrower: &mut Thrower, bodies: &mut Bodies, start_s: f64, end_s: f64, fs| {
            // A stopped break throws nothing more (and takes nothing more from its plan).
            if !throwing {
                return;
            }
            while let Some(event) = plan.next_before(end_s) {
                let restitution = match event.piece {
                    Piece::Crack => thrower.restitution,
                    Piece::Fragment(n) => plan.fragments()[n].restitution,
                };
                let e = event.event;
                let lead_s = e.time_s - start_s;
                thrower.throw(bodies, (e.energy_j, e.size), lead_s, restitution, fs);
            }
        };
        self.thrower.render(bodies, dt_s, (mid, side), due);
    }

    /// Fragments still to land, flying or ringing keep the voice.
    fn in_play(&self, _bodies: &Bodies) -> bool {
        (self.throwing && !self.plan.is_over()) || self.thrower.is_active()
    }

    /// The break plays on after the note-off.
    fn release(&mut self, _bodies: &mut Bodies, _patch: &Patch) -> bool {
        self.throwing && !self.plan.is_over()
    }

    /// Nothing more is thrown, and the fragments are gone.
    fn stop(&mut self, _bodies: &mut Bodies) {
        self.throwing = false;
        self.thrower.silence();
    }

    fn energy_to_come_j(&self) -> f64 {
        if self.throwing {
            self.plan.energy_to_come_j()
        } else {
            0.0
        }
    }
}
