//! The roll: a ball laid on the object and driven over a rough track, pressed by gravity (and the note's pressure); at note-off lifted, or rolled to a stop.

use super::{NoteStart, Scene};
use crate::interaction::Gravity;
use crate::roll::{RollSettings, Rolling, Track};
use crate::surface::SurfaceSettings;
use crate::voice::bodies::Bodies;
use crate::voice::patch::Patch;

/// Speed (m/s) below which a ball rolling to a stop rests.
const ROLL_REST_M_PER_S: f64 = 1e-4;

/// The rolling ball's place on its track, while it rolls.
pub(in crate::voice) struct RollScene {
    rolling: Option<Rolling>,
    /// Rolling to a stop after note-off.
    stopping: bool,
}

impl RollScene {
    pub fn new() -> Self {
        Self {
            rolling: None,
            stopping: false,
        }
    }
}

impl Scene for RollScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let patch = note.patch;
        let hammer = &mut bodies.hammer;
        // Pressed by gravity throughout: the contact under way is the rolling itself.
        hammer.set_gravity(Gravity {
            in_contact: true,
            capture_m_per_s: 0.0,
            ..patch.fall.gravity
        });
        hammer.set_irregularity(0.0, note.seed);
        // Laid on gently: the object starts deflected under the ball's weight and press.
        let weight_n =
            patch.hammer_mass_kg * (patch.fall.gravity.accel_m_per_s2.max(0.0) + bodies.press.now);
        bodies.bank.preload(weight_n);
        hammer.place(&bodies.bank, &patch.contact, patch.hammer_mass_kg);
        bodies.input_energy_j = f64::INFINITY;
        let settings = RollSettings {
            track: SurfaceSettings {
                seed: note.seed,
                ..patch.roll.settings.track
            },
            ..patch.roll.settings
        };
        // The ball rolls at most at the full-scale speed.
        let fastest_step_m = patch.roll.speed_m_per_s.max(0.0) * note.dt_s;
        self.rolling = Some(Rolling::new(Track::new(settings, fastest_step_m)));
        self.stopping = false;
    }

    /// The track drives the ball at the controller's speed (or slows it to a stop), the press
    /// pulling too; once it rests, or was lifted, the ball is left to itself.
    fn render(
        &mut self,
        bodies: &mut Bodies,
        patch: &Patch,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
        decide: bool,
    ) {
        let Some(rolling) = self.rolling.as_mut() else {
            bodies.render_free(&patch.contact, patch.hammer_mass_kg, dt_s, mid, side);
            return;
        };
        let (target, smoothing) = if self.stopping {
            (0.0, patch.roll.stop_time_s)
        } else {
            (
                patch.roll.speed_m_per_s * patch.roll.speed_fraction.clamp(0.0, 1.0),
                patch.roll.smoothing_s,
            )
        };
        for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
            let track_accel = rolling.advance(target, smoothing, dt_s);
            bodies
                .hammer
                .set_track_acceleration(track_accel + bodies.press.next());
            let pickup = bodies
                .hammer
                .process_sample(&patch.contact, &mut bodies.bank, dt_s);
            (*m, *s) = (pickup.mid_pa, pickup.side_pa);
        }
        if decide && self.stopping && rolling.speed_m_per_s() < ROLL_REST_M_PER_S {
            if !bodies.hammer.is_retired() {
                bodies.hammer.come_to_rest(&mut bodies.bank);
            }
            self.rolling = None;
        }
    }

    /// A ball still rolling or resting on the object keeps its voice.
    fn in_play(&self, bodies: &Bodies) -> bool {
        !bodies.hammer.is_retired()
    }

    /// Lift the ball off, or let it roll to a stop (then it plays on by itself).
    fn release(&mut self, bodies: &mut Bodies, patch: &Patch) -> bool {
        if self.rolling.is_none() {
            return false;
        }
        if patch.roll.lift_on_release {
            bodies.hammer.lift_off(&mut bodies.bank);
            self.rolling = None;
        } else {
            self.stopping = true;
        }
        true
    }

    /// A rolling ball is lifted off with the load it rolls under (see
    /// [`crate::interaction::Hammer::lift_off`]).
    fn stop(&mut self, bodies: &mut Bodies) {
        if self.rolling.take().is_some() {
            bodies.hammer.lift_off(&mut bodies.bank);
        }
    }
}
