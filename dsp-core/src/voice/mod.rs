//! Voices: one note's bodies and scene, its expression and its place in the mix; the engine, the patch and the preparation around them.

use crate::interaction::{ContactPrep, Hammer};
use crate::resonator::{BankSetup, ObjectSpec};
use bodies::Bodies;
use expression::Follower;
use output::{Output, Placement, Scratch};
use scene::{NoteStart, Scenes};

pub use crate::contact::{MAX_ALPHA, MAX_MU_S_PER_M, MAX_STIFFNESS, MIN_ALPHA, MIN_STIFFNESS};
pub use engine::Engine;
pub use patch::{
    Bounce, Crumple, DropSettings, Fall, Fracture, Gesture, Level, Patch, PlayMode, Roll, Slide,
    Stereo, Stroke, Tuning, VelocityCurve,
};
pub use scene::{
    break_settings, drop_scene, DropImpact, DropTrace, MicroImpact, Pose, SlidePoint, SlideTrace,
    DROP_TRACE_IMPACTS, DROP_TRACE_POINTS, MACRO_STEP_S, SLIDE_TRACE_POINTS,
};

/// Voice capacity of an [`Engine`].
pub const MAX_VOICES: usize = 64;
/// Voices an engine plays unless told otherwise.
pub const DEFAULT_POLYPHONY: usize = 32;
/// Samples an engine renders per internal chunk (longer host blocks are split), and the interval
/// of a voice's decisions (rest, end, flush), counted from its note-on.
pub const MAX_CHUNK: usize = 256;
/// Output per pascal of sound pressure at the listener ([`crate::radiation::LISTENER_DISTANCE_M`])
/// at unit gain, at the physical level: a sample is the pressure in pascals (1.0 is 94 dB SPL).
pub const OUTPUT_PER_PA: f64 = 1.0;
/// A voice ends when its object's energy is this far below its peak (−120 dB).
const END_ENERGY_RATIO: f64 = 1e-12;
/// A voice whose output exceeds this many times the largest its strikes' energy allows a passive
/// system, |y| ≤ gain·Σ|ψ|·√(2E/M), is running away (an explicit integrator with the energy guard
/// off, past its stability limit): it is silenced like a non-finite one, before the blast is heard.
const RUNAWAY_AMPLITUDE: f64 = 4.0;
/// Decay time (−60 dB) a choked voice is damped to (note choke, all sound off).
pub const CHOKE_T60_S: f64 = 0.01;
/// Ended notes an engine keeps for the host between two [`Engine::take_ended`] calls.
pub const ENDED_CAPACITY: usize = 4 * MAX_VOICES;

/// One sounding object with its hammer: what every play mode shares (the note, its expression,
/// the bodies, the mix), and the scenes, of which the note-on's plays.
struct Voice {
    note: NoteId,
    active: bool,
    released: bool,
    /// Its key is down: no note-off or choke since the note-on.
    held: bool,
    expression: Expression,
    /// The frequency ratio the bank is tuned to (1 as loaded).
    tuned_ratio: f64,
    /// Engine sample count at the last strike, for stealing the oldest voice.
    started_at: u64,
    /// Samples rendered since the last note-on. The voice decides whether it rests or ends (and
    /// flushes negligible modes) every [`MAX_CHUNK`] samples of this count: neither the host's
    /// block sizes nor what the engine played before can move those decisions.
    age_samples: u64,
    peak_energy_j: f64,
    bodies: Bodies,
    scenes: Scenes,
    /// Output per pascal at the listener, set at the note-on (the patch's level, and in roll
    /// mode the velocity's).
    gain: f64,
    stereo: Placement,
}

impl Voice {
    fn new(patch: &Patch) -> Self {
        Self {
            note: NoteId::default(),
            active: false,
            released: false,
            held: false,
            expression: Expression::NEUTRAL,
            tuned_ratio: 1.0,
            started_at: 0,
            age_samples: 0,
            peak_energy_j: 0.0,
            bodies: Bodies::new(
                patch.object_mass_kg,
                Hammer::new(patch.hammer_mass_kg, patch.contact),
            ),
            scenes: Scenes::new(),
            gain: OUTPUT_PER_PA,
            stereo: Placement::default(),
        }
    }

    /// Start a note with `expression`: load the object's and the striker's modes `bodies` into
    /// the banks (a new note; `None` strikes the object where it rings) and start the scene of
    /// `patch.mode`.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        patch: &Patch,
        bodies: Option<(&BankSetup, &BankSetup)>,
        contact: &ContactPrep,
        strike: Strike,
        expression: &Expression,
        seed: u64,
        dt_s: f64,
        floor: &ObjectSpec,
    ) {
        // A new object is at rest and unloaded; one struck again keeps whatever rests on it (a
        // constant force: its equilibrium, not its sound).
        let held_n = if let Some((object, striker)) = bodies {
            self.bodies.load(object, striker);
            self.tuned_ratio = 1.0;
            self.peak_energy_j = 0.0;
            0.0
        } else {
            self.bodies.held_n()
        };
        self.bodies.rest_counted = false;
        self.active = true;
        self.released = false;
        self.held = true;
        self.age_samples = 0;
        self.scenes.begin(patch.mode);
        self.gain = strike.gain;
        let expression = &expression.sanitized();
        self.expression = *expression;
        self.bodies.drive_fraction = expression.drive_fraction;
        self.retune_holding(held_n, dt_s);
        self.stereo = Placement {
            width: patch.stereo.width.clamp(0.0, 1.0),
            key_pan: strike.pan,
            pan: Follower::new((strike.pan + expression.pan).clamp(-1.0, 1.0), dt_s),
            volume: Follower::new(expression.volume_factor(), dt_s),
        };
        self.bodies.press = Follower::new(self.press_target(patch), dt_s);
        self.bodies.held_press_n = 0.0;
        let hammer = &mut self.bodies.hammer;
        hammer.set_prepared(contact);
        hammer.set_striker_level(patch.striker_level);
        hammer.set_stiffness_scale(expression.stiffness_scale());
        hammer.set_track_acceleration(self.bodies.press.now);
        let note = NoteStart {
            patch,
            contact,
            strike,
            seed,
            dt_s,
            floor,
        };
        self.scenes.current_mut().start(&mut self.bodies, &note);
    }

    /// The press on the ball its pressure asks for, m/s² (none where the mode does not press).
    fn press_target(&self, patch: &Patch) -> f64 {
        if self.scenes.mode().presses() {
            patch.fall.gravity.accel_m_per_s2.max(0.0)
                * patch.press_depth.clamp(0.0, 100.0)
                * self.expression.pressure
        } else {
            0.0
        }
    }

    /// Change one dimension of the voice's expression, from the next sample on.
    fn express(&mut self, patch: &Patch, change: Change, dt_s: f64) {
        self.expression.apply(change);
        let expression = &self.expression;
        match change {
            Change::Pressure(_) => {
                let target = self.press_target(patch);
                self.bodies.press.set(target);
            }
            Change::Brightness(_) | Change::StiffnessDecades(_) => {
                self.bodies
                    .hammer
                    .set_stiffness_scale(expression.stiffness_scale());
            }
            Change::Tuning(_) | Change::Bend(_) => {
                let held_n = self.bodies.held_n();
                self.retune_holding(held_n, dt_s);
            }
            Change::Volume(_) | Change::GainDb(_) => {
                self.stereo.volume.set(expression.volume_factor());
            }
            Change::Pan(_) => self
                .stereo
                .pan
                .set((self.stereo.key_pan + expression.pan).clamp(-1.0, 1.0)),
            Change::Drive(_) => self.bodies.drive_fraction = expression.drive_fraction,
        }
    }

    /// Tune the bank to the expression's frequency ratio if it is not there yet, holding `held_n`
    /// (see [`Bodies::retune_holding`]).
    fn retune_holding(&mut self, held_n: f64, dt_s: f64) {
        let ratio = self.expression.frequency_ratio();
        if ratio == self.tuned_ratio {
            return;
        }
        let change = ratio / self.tuned_ratio;
        self.bodies.retune_holding(ratio, change, held_n, dt_s);
        self.tuned_ratio = ratio;
    }

    /// What a steal would cut short, J: the energy in play, and what the scene has yet to play.
    fn stealing_energy_j(&self) -> f64 {
        self.bodies.energy_j() + self.scenes.current().energy_to_come_j()
    }

    fn silence(&mut self) {
        self.active = false;
        self.held = false;
        let bodies = &mut self.bodies;
        bodies.held_press_n = 0.0;
        bodies.bank.reset();
        bodies.hammer.retire();
        bodies.hammer.striker_mut().reset();
        self.scenes.current_mut().stop(bodies);
    }

    /// The note-off: the scene's (a rolling ball is lifted off or rolls to a stop, a dropped
    /// body may be lifted); with a release fraction set, the modes decay that much faster from
    /// now on.
    fn release(&mut self, patch: &Patch, sample_rate_hz: f64) {
        self.held = false;
        let plays_on = self.scenes.current_mut().release(&mut self.bodies, patch);
        // A released voice is not struck again by its note; one that only rings on is.
        self.released = plays_on || patch.release_fraction > 0.0;
        if patch.release_fraction > 0.0 {
            // A contact under way (a rolling ball) goes on with the damped modes.
            let fraction = patch.release_fraction.clamp(1e-3, 1.0);
            let bodies = &mut self.bodies;
            let in_contact = bodies.hammer.in_contact();
            bodies
                .bank
                .scale_decay(fraction, sample_rate_hz, in_contact);
            bodies
                .hammer
                .striker_mut()
                .scale_decay(fraction, sample_rate_hz, in_contact);
            if in_contact {
                bodies.hammer.object_changed(&bodies.bank);
            }
        }
    }

    /// Stop the scene, lift the hammer or ball off and damp every mode to a T60 of at most
    /// [`CHOKE_T60_S`] (one below 110 Hz, which cannot decay that fast, critically): the
    /// vibration dies away smoothly and the voice ends at −120 dB, 2·[`CHOKE_T60_S`] later (a low
    /// mode's, later).
    fn choke(&mut self, sample_rate_hz: f64) {
        self.released = true;
        self.held = false;
        let bodies = &mut self.bodies;
        self.scenes.current_mut().stop(bodies);
        bodies.hammer.retire();
        bodies.bank.limit_t60(CHOKE_T60_S, sample_rate_hz);
        bodies
            .hammer
            .striker_mut()
            .limit_t60(CHOKE_T60_S, sample_rate_hz);
    }

    /// Render `out.len()` samples, added to `out` (the left channel, or the mono signal without
    /// `right`), cut where the voice's age reaches a multiple of [`MAX_CHUNK`] (its decision
    /// points). Returns false if the voice went non-finite or ran away, in which case it is
    /// silenced from the first bad sample on.
    fn render(
        &mut self,
        patch: &Patch,
        dt_s: f64,
        out: &mut Output<'_>,
        scratch: &mut Scratch,
    ) -> bool {
        let mut start = 0;
        while start < out.len() && self.active {
            let to_decision = MAX_CHUNK - (self.age_samples % MAX_CHUNK as u64) as usize;
            let end = (start + to_decision).min(out.len());
            let decide = end - start == to_decision;
            if !self.render_segment(patch, dt_s, &mut out.part(start, end), scratch, decide) {
                return false;
            }
            self.age_samples += (end - start) as u64;
            start = end;
        }
        true
    }

    /// [`Voice::render`] up to (`decide`: exactly up to) the voice's next decision point: the
    /// scene renders the pickups, the voice mixes them, guards against a runaway and decides
    /// whether it ends.
    fn render_segment(
        &mut self,
        patch: &Patch,
        dt_s: f64,
        out: &mut Output<'_>,
        scratch: &mut Scratch,
        decide: bool,
    ) -> bool {
        let len = out.len();
        let (mid, side) = (&mut scratch.mid[..len], &mut scratch.side[..len]);
        self.scenes
            .current_mut()
            .render(&mut self.bodies, patch, dt_s, mid, side, decide);
        let bodies = &mut self.bodies;
        bodies.count_rest();
        let gain = self.gain * patch.gain;
        let limit_pa = self.runaway_limit_pa(gain);
        let sound = mid
            .iter()
            .zip(side.iter())
            .position(|(m, s)| !(m.abs() + s.abs() <= limit_pa))
            .unwrap_or(len);
        out.add(&mut self.stereo, gain, &mid[..sound], &side[..sound]);
        let bodies = &self.bodies;
        if sound < len || (decide && !(bodies.bank.is_finite() && bodies.hammer.is_finite())) {
            self.silence();
            return false;
        }
        if decide {
            let energy = bodies.energy_j();
            self.peak_energy_j = self.peak_energy_j.max(energy);
            let in_play = self.scenes.current().in_play(bodies);
            if !in_play && energy <= END_ENERGY_RATIO * self.peak_energy_j {
                self.silence();
            }
        }
        true
    }

    /// The most either pickup may hear before the voice counts as running away, Pa: what the
    /// energy put in allows (either body can hold all of it; the striker's pickup adds its share
    /// at its level) and the swing of forces held on the object, with room, and within what
    /// keeps the output within f32 at `gain`. A sample beyond it (or NaN, which fails the
    /// comparison) silences the voice; a driven contact's energy is unbounded (∞, or NaN with no
    /// mode heard, means no limit: `min` drops the NaN). Either channel is at most
    /// 2·|gain|·volume·(|mid| + |side|) (pan ≤ 1, width ≤ 1).
    fn runaway_limit_pa(&self, gain: f64) -> f64 {
        let bodies = &self.bodies;
        let striker = bodies.hammer.striker();
        let pickup_per_sqrt_j = bodies.bank.pickup_abs_sum() / bodies.bank.mass_kg().sqrt()
            + bodies.hammer.striker_level() * striker.pickup_abs_sum() / striker.mass_kg().sqrt()
            + bodies.scene_pickup_per_sqrt_j;
        (RUNAWAY_AMPLITUDE
            * (pickup_per_sqrt_j * (2.0 * bodies.input_energy_j).sqrt() + bodies.press_swing_pa))
            .min(f64::from(f32::MAX) / (2.0 * MAX_VOLUME_FACTOR * gain.abs()))
            .min(f64::MAX)
    }
}

/// The seed of the `count`-th note struck on `key` (its drop's pose and spin, its bounce's
/// irregularity, its rolling track): notes differ, renders repeat.
pub fn note_seed(count: u64, key: u8) -> u64 {
    count ^ (u64::from(key) << 32)
}

/// `y`, or exactly 0 if it is subnormal in f32 (below 1.2e-38, −760 dBFS): hosts reject
/// subnormal output (it is slow to process downstream), and a sum or a gain can make one from
/// normal numbers, so the engine and the plugin's output stage both pass their last samples here.
pub fn flush_subnormal(y: f32) -> f32 {
    if y.abs() < f32::MIN_POSITIVE {
        0.0
    } else {
        y
    }
}

mod bodies;
mod engine;
mod expression;
mod output;
mod patch;
mod prepared;
mod scene;
#[cfg(test)]
mod tests;

pub use expression::{
    Change, Expression, NoteId, NoteTarget, BRIGHTNESS_DECADES, EXPRESSION_SMOOTHING_S, MAX_VOLUME,
    MAX_VOLUME_FACTOR,
};

pub use prepared::{
    preparation_key, Calibration, Prepared, Strike, NUM_KEYS, REFERENCE_NOTE, REFERENCE_PEAK_DBFS,
    ROLL_CREST,
};
