//! Voices and the fixed-capacity polyphonic engine: note events and per-note expression in, audio out.

use crate::body::{object_fundamental_hz, StrikerKind, StrikerSpec};
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::interaction::{ContactPrep, ContactSetup, ContactTrace, Damping, Gravity, Hammer};
use crate::material::{Material, MATERIALS};
use crate::resonator::{BankSetup, ModalBank, ObjectSpec};
use crate::roll::{RollSettings, Rolling, Track};
use drop::DropPlay;
pub use drop::{
    drop_scene, DropImpact, DropSettings, DropTrace, MicroImpact, Pose, DROP_TRACE_IMPACTS,
    DROP_TRACE_POINTS, MACRO_STEP_S,
};
use expression::Follower;

/// Voice capacity of an [`Engine`].
pub const MAX_VOICES: usize = 64;
/// Voices an engine plays unless told otherwise.
pub const DEFAULT_POLYPHONY: usize = 32;
/// Samples an engine renders per internal chunk (longer host blocks are split), and the interval
/// of a voice's decisions (rest, end, flush), counted from its note-on.
pub const MAX_CHUNK: usize = 256;
/// Ranges of the contact parameters the plugin offers.
pub const MIN_STIFFNESS: f64 = 1e2;
pub const MAX_STIFFNESS: f64 = 1e12;
pub const MAX_MU_S_PER_M: f64 = 50.0;
pub const MIN_ALPHA: f64 = 1.0;
pub const MAX_ALPHA: f64 = 3.0;
/// Output level per m/s of pickup velocity at unit gain, at the physical level.
pub const OUTPUT_GAIN_PER_M_PER_S: f64 = 0.25;
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

/// How MIDI velocity becomes a strike: a level curve over the velocity that the physics then
/// meets by choosing the impact speed (see [`Calibration`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VelocityCurve {
    /// The softest impact speed, m/s: a floor under the curve (no velocity strikes slower).
    pub min_m_per_s: f64,
    /// The impact speed of velocity 127, m/s.
    pub max_m_per_s: f64,
    /// Level of velocity 1 below velocity 127, dB (the dynamic range).
    pub range_db: f64,
    /// Shape γ of the curve: level(x) = −range·(1 − x)^γ dB with x = (velocity − 1)/126; 1 is
    /// straight in dB, 1.5 (the default) puts velocity 64 at −10.6 dB for a 30 dB range.
    pub shape: f64,
}

impl VelocityCurve {
    /// Target level of a strike in dB relative to velocity 127 (≤ 0), for a normalised MIDI
    /// velocity in [0, 1] (MIDI velocity / 127).
    pub fn level_db(&self, velocity: f32) -> f64 {
        let x = ((f64::from(velocity) * 127.0 - 1.0) / 126.0).clamp(0.0, 1.0);
        -self.range_db.max(0.0) * (1.0 - x).powf(self.shape.clamp(0.1, 10.0))
    }
}

/// How MIDI notes become the object's fundamental.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Follow the note number; otherwise every note strikes an object at `fixed_f0_hz`.
    pub key_tracking: bool,
    /// Frequency of A4 (MIDI 69) in Hz.
    pub a4_hz: f64,
    pub fixed_f0_hz: f64,
}

impl Tuning {
    /// Equal-tempered fundamental of `note` in Hz.
    pub fn f0_hz(&self, note: u8) -> f64 {
        if self.key_tracking {
            self.a4_hz * 2f64.powf((f64::from(note) - 69.0) / 12.0)
        } else {
            self.fixed_f0_hz
        }
    }
}

/// What a note does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    /// One strike of the hammer, which then flies away.
    Strike,
    /// A ball dropped (or thrown down) onto the object, bouncing under gravity until it rests.
    Bounce,
    /// A ball rolling on the object.
    Roll,
    /// A rigid body (a die, a coin, a spoon…) dropped on the object, which is the floor: it
    /// falls, tumbles, rattles and settles (see [`DropSettings`]).
    Drop,
}

/// The bouncing ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounce {
    /// Height of the ball above the object at note-on, m; the note's velocity throws it down.
    pub height_m: f64,
    /// Gravity (also pressing the rolling ball), suspended or on during contact, and the
    /// capture velocity.
    pub gravity: Gravity,
    /// Out-of-roundness of the ball, 0…1: each contact's stiffness is k·√(1 + irregularity·ξ),
    /// ξ uniform in [−1, 1] (Hertz: k ∝ √R, the local radius where the ball lands), so no two
    /// drops are alike; seeded per note, so renders repeat.
    pub irregularity: f64,
}

impl Bounce {
    /// The square of the speed (m²/s²) a ball let fall from the drop height reaches the object
    /// with: 2·g·h.
    pub fn fall_speed_sq(&self) -> f64 {
        2.0 * self.gravity.accel_m_per_s2.max(0.0) * self.height_m.max(0.0)
    }
}

/// The rolling ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Roll {
    pub settings: RollSettings,
    /// Speed the ball rolls at with its controller at full scale, m/s.
    pub speed_m_per_s: f64,
    /// The controller's share of that speed now, 0…1 (the plugin maps its modulation source
    /// here): the ball rolls at speed × fraction.
    pub speed_fraction: f64,
    /// Time constant of the speed's smoothing, s.
    pub smoothing_s: f64,
    /// At note-off: lift the ball off (true) or let it roll to a stop and rest (false).
    pub lift_on_release: bool,
    /// Time constant of the slowing down when rolling to a stop, s.
    pub stop_time_s: f64,
}

/// Speed (m/s) below which a ball rolling to a stop rests.
const ROLL_REST_M_PER_S: f64 = 1e-4;

/// The stereo image: the object's two pickups ([`ObjectSpec::right_pickup_position`]) make it; a
/// voice's pan by its key is optional. Both are read at note-on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stereo {
    /// Share of the pickups' difference in the output, 0 (mono) … 1 (left and right pickup as
    /// they are). The sum of the channels never depends on it.
    pub width: f64,
    /// Pan by key, 0 … 1: a voice is panned by this times (key − 60)/48, clamped to ±1 (four
    /// octaves from middle C to a side), with constant-sum gains 1 ∓ pan.
    pub pan_by_key: f64,
}

impl Stereo {
    /// The pan of `note`, −1 … 1.
    pub fn pan(&self, note: u8) -> f64 {
        (self.pan_by_key.clamp(0.0, 1.0) * (f64::from(note) - 60.0) / 48.0).clamp(-1.0, 1.0)
    }
}

/// How loud a voice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A make-up gain from the patch's physics puts a velocity-127 strike of the reference note
    /// at [`REFERENCE_PEAK_DBFS`] (see [`Calibration`]).
    Calibrated,
    /// Raw units: [`OUTPUT_GAIN_PER_M_PER_S`] per m/s of pickup velocity.
    Physical,
}

/// Plain per-block settings the plugin hands to the engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    pub contact: ContactSetup,
    /// The striker's mass when it is a point mass; the rigid mass of any other striker follows
    /// from its material and size ([`Patch::resolved`]).
    pub hammer_mass_kg: f64,
    /// What strikes the object: a point mass, or a body with modes of its own that ring too.
    pub striker: StrikerSpec,
    /// The striker's own ringing mixed into the output: its pickup velocity times this is added
    /// to the object's (0: only the object is heard).
    pub striker_level: f64,
    /// What the object is made of: with `contact_from_materials`, the contact's stiffness and
    /// restitution follow from it and the striker's material.
    pub object_material: &'static Material,
    /// Derive the contact from the materials ([`Patch::resolved`]) rather than the raw k, α, μ.
    pub contact_from_materials: bool,
    /// Tune the object by its material and size (`object_size_m`) instead of the tuning's keys
    /// or fixed pitch, for the objects whose pitch those set ([`object_fundamental_hz`]).
    pub physical_tuning: bool,
    /// The object's size for physical tuning, m: a bar's or plank's length, a rectangular
    /// plate's longer side, a circular plate's radius.
    pub object_size_m: f64,
    /// The object struck by new notes; `f0_hz` is replaced by the note's fundamental.
    pub object: ObjectSpec,
    /// Modal mass of the object in kg.
    pub object_mass_kg: f64,
    pub tuning: Tuning,
    pub velocity: VelocityCurve,
    /// Note-off damping: 0 lets the object ring; otherwise every mode's T60 becomes this fraction
    /// of its own at note-off.
    pub release_fraction: f64,
    /// Output level: calibrated by the patch's physics, or raw pickup velocity.
    pub level: Level,
    pub stereo: Stereo,
    /// Linear output gain on top of the level (applied live).
    pub gain: f64,
    pub mode: PlayMode,
    pub bounce: Bounce,
    pub roll: Roll,
    /// The dropped body (drop mode): its kind and size (its material is the striker's), spin,
    /// drift and friction; it falls from the bounce's height under the bounce's gravity.
    pub drop: DropSettings,
    /// The force a note's full pressure presses its ball with, in its weights: the ball is
    /// pulled towards the object by g × press_depth × pressure on top of gravity.
    pub press_depth: f64,
}

impl Default for Patch {
    fn default() -> Self {
        Self {
            contact: ContactSetup {
                law: HuntCrossley {
                    stiffness: 1e8,
                    mu_s_per_m: 0.5,
                    alpha: 1.5,
                },
                method: Method::Am1,
                guard: true,
                exit_correction: true,
                damping: Damping::HuntCrossley,
                restitution: None,
            },
            hammer_mass_kg: 0.01,
            striker: StrikerSpec {
                kind: StrikerKind::PointMass,
                material: &MATERIALS[0],
                size_m: 0.01,
            },
            striker_level: 0.5,
            object_material: &MATERIALS[0],
            contact_from_materials: false,
            physical_tuning: false,
            object_size_m: 0.4,
            object: ObjectSpec::marimba(440.0),
            object_mass_kg: 0.1,
            tuning: Tuning {
                key_tracking: true,
                a4_hz: 440.0,
                fixed_f0_hz: 440.0,
            },
            velocity: VelocityCurve {
                min_m_per_s: 0.05,
                max_m_per_s: 5.0,
                range_db: 30.0,
                shape: 1.5,
            },
            level: Level::Calibrated,
            stereo: Stereo {
                width: 1.0,
                pan_by_key: 0.0,
            },
            release_fraction: 0.0,
            gain: 1.0,
            mode: PlayMode::Strike,
            bounce: Bounce {
                height_m: 0.3,
                gravity: Gravity {
                    accel_m_per_s2: 9.81,
                    in_contact: false,
                    capture_m_per_s: 0.02,
                },
                irregularity: 0.0,
            },
            roll: Roll {
                settings: RollSettings::marble(),
                speed_m_per_s: 0.5,
                speed_fraction: 1.0,
                smoothing_s: 0.03,
                lift_on_release: false,
                stop_time_s: 0.4,
            },
            drop: DropSettings::DEFAULT,
            press_depth: 3.0,
        }
    }
}

/// The range a physically tuned object's pitch is kept in, Hz (a 5 m steel bar is 1 Hz; a
/// tiny plate's fundamental past this would leave no mode below Nyquist).
const MIN_PHYSICAL_F0_HZ: f64 = 1.0;
const MAX_PHYSICAL_F0_HZ: f64 = 100_000.0;

impl Patch {
    /// The patch as the engine plays it: a striker other than a point mass has the rigid mass its
    /// material and size give at its contact point; with `contact_from_materials` the contact
    /// is Hertz's between the striker's and the object's materials, k = (4/3)·E*·√R*, α = 3/2,
    /// with the object flat where it is struck (R* the striker's radius of curvature there), and
    /// each contact's damping restitutes the pair's coefficient e (eq. 6 inverted at the
    /// contact's own speed), the smaller of the two materials' typical ones. With
    /// `physical_tuning`, every note strikes the object its material and size tune (where they
    /// do). Cheap: once per block.
    pub fn resolved(&self) -> Patch {
        let mut patch = *self;
        if self.physical_tuning {
            if let Some(f0_hz) =
                object_fundamental_hz(self.object.kind, self.object_material, self.object_size_m)
            {
                patch.tuning.key_tracking = false;
                patch.tuning.fixed_f0_hz = f0_hz.clamp(MIN_PHYSICAL_F0_HZ, MAX_PHYSICAL_F0_HZ);
            }
        }
        if self.mode == PlayMode::Drop {
            // The body's own modes and rigid mass stand in for the striker's; its contact is
            // Hertz's at its rounding, restituting the pair's coefficient (each micro-impact
            // then restitutes its own macro impact's).
            let material = self.striker.material;
            patch.striker = self.drop.striker(material);
            patch.contact.law = HuntCrossley {
                stiffness: self.drop.stiffness(material, self.object_material),
                mu_s_per_m: 0.0,
                alpha: 1.5,
            };
            patch.contact.damping = Damping::HuntCrossley;
            patch.contact.restitution =
                Some(material.restitution.min(self.object_material.restitution));
            patch.hammer_mass_kg = patch.striker.rigid_mass_kg(self.hammer_mass_kg);
            return patch;
        }
        let striker = &self.striker;
        patch.hammer_mass_kg = striker.rigid_mass_kg(self.hammer_mass_kg);
        if self.contact_from_materials {
            let (stiffness, restitution) = striker.hertz_contact(self.object_material);
            patch.contact.law = HuntCrossley {
                stiffness,
                mu_s_per_m: 0.0,
                alpha: 1.5,
            };
            patch.contact.damping = Damping::HuntCrossley;
            patch.contact.restitution = Some(restitution);
        }
        patch
    }
}

/// One sounding object with its hammer.
struct Voice {
    note: NoteId,
    active: bool,
    released: bool,
    /// Its key is down: no note-off or choke since the note-on.
    held: bool,
    expression: Expression,
    /// The frequency ratio the bank is tuned to (1 as loaded).
    tuned_ratio: f64,
    /// The press on the ball (m/s² towards the object) and, while it rests, the press force held
    /// on the object (N).
    press: Follower,
    held_press_n: f64,
    /// The most the forces held on the object by a ball at rest (its weight, its press) can
    /// have set it swinging, m/s at either pickup (see [`ModalBank::step_pickup_bound_per_n`]):
    /// part of the runaway limit.
    press_swing_m_per_s: f64,
    /// The weight of a ball come to rest is in `press_swing_m_per_s`.
    rest_counted: bool,
    /// Engine sample count at the last strike, for stealing the oldest voice.
    started_at: u64,
    /// Samples rendered since the last note-on. The voice decides whether it rests or ends (and
    /// flushes negligible modes) every [`MAX_CHUNK`] samples of this count: neither the host's
    /// block sizes nor what the engine played before can move those decisions.
    age_samples: u64,
    peak_energy_j: f64,
    /// The energy the strikes put in since the voice started (J; infinite while rolling, which
    /// the track drives).
    input_energy_j: f64,
    bank: Box<ModalBank>,
    hammer: Hammer,
    /// The rolling ball's place on its track, in roll mode.
    rolling: Option<Rolling>,
    /// The dropped body and its contacts, in drop mode.
    drop: Box<DropPlay>,
    /// Rolling to a stop after note-off.
    stopping: bool,
    /// What the last note-on did.
    mode: PlayMode,
    /// Output per m/s of pickup velocity, set at the note-on (the patch's level, and in roll
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
            press: Follower::default(),
            held_press_n: 0.0,
            press_swing_m_per_s: 0.0,
            rest_counted: false,
            started_at: 0,
            age_samples: 0,
            peak_energy_j: 0.0,
            input_energy_j: 0.0,
            bank: ModalBank::new(patch.object_mass_kg),
            hammer: Hammer::new(patch.hammer_mass_kg, patch.contact),
            rolling: None,
            drop: DropPlay::new(),
            stopping: false,
            mode: PlayMode::Strike,
            gain: OUTPUT_GAIN_PER_M_PER_S,
            stereo: Placement::default(),
        }
    }

    /// Start a note with `expression`: load the object's and the striker's modes `bodies` into
    /// the banks (a new note; `None` strikes the object where it rings) and strike, drop or place
    /// the hammer as `patch.mode` says.
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
        // A new object is at rest and unloaded; one struck again keeps whatever rests on it.
        let held_n = if let Some((object, striker)) = bodies {
            self.bank.load(object);
            self.hammer.load_striker(striker);
            self.tuned_ratio = 1.0;
            self.peak_energy_j = 0.0;
            self.input_energy_j = 0.0;
            self.press_swing_m_per_s = 0.0;
            0.0
        } else {
            self.hammer.resting_weight_n() + self.held_press_n
        };
        self.rest_counted = false;
        self.active = true;
        self.released = false;
        self.held = true;
        self.age_samples = 0;
        self.stopping = false;
        self.rolling = None;
        self.mode = patch.mode;
        self.gain = strike.gain;
        let expression = &expression.sanitized();
        self.expression = *expression;
        self.retune_holding(held_n, dt_s);
        self.stereo = Placement {
            width: patch.stereo.width.clamp(0.0, 1.0),
            key_pan: strike.pan,
            pan: Follower::new((strike.pan + expression.pan).clamp(-1.0, 1.0), dt_s),
            volume: Follower::new(expression.volume_factor(), dt_s),
        };
        self.press = Follower::new(self.press_target(patch), dt_s);
        self.held_press_n = 0.0;
        let hammer = &mut self.hammer;
        hammer.set_prepared(contact);
        hammer.set_striker_level(patch.striker_level);
        hammer.set_stiffness_scale(expression.stiffness_scale());
        hammer.set_track_acceleration(self.press.now);
        match patch.mode {
            PlayMode::Strike => {
                hammer.set_gravity(Gravity::NONE);
                hammer.set_irregularity(0.0, seed);
                hammer.strike(&self.bank, strike.v_in_m_per_s, 0.0, patch.hammer_mass_kg);
                self.input_energy_j += hammer.energy_j();
            }
            PlayMode::Bounce => {
                hammer.set_gravity(patch.bounce.gravity);
                hammer.set_irregularity(patch.bounce.irregularity, seed);
                let height_m = strike.drop_height_m;
                hammer.strike(
                    &self.bank,
                    strike.v_in_m_per_s,
                    height_m,
                    patch.hammer_mass_kg,
                );
                // (A press's work is added as it is done: `press_sample`.)
                let fall_j =
                    patch.hammer_mass_kg * patch.bounce.gravity.accel_m_per_s2.max(0.0) * height_m;
                self.input_energy_j += hammer.energy_j() + fall_j;
            }
            PlayMode::Roll => {
                // Pressed by gravity throughout: the contact under way is the rolling itself.
                hammer.set_gravity(Gravity {
                    in_contact: true,
                    capture_m_per_s: 0.0,
                    ..patch.bounce.gravity
                });
                hammer.set_irregularity(0.0, seed);
                // Laid on gently: the object starts deflected under the ball's weight and press.
                let weight_n = patch.hammer_mass_kg
                    * (patch.bounce.gravity.accel_m_per_s2.max(0.0) + self.press.now);
                self.bank.preload(weight_n);
                hammer.place(&self.bank, &patch.contact, patch.hammer_mass_kg);
                self.input_energy_j = f64::INFINITY;
                let settings = RollSettings {
                    seed,
                    ..patch.roll.settings
                };
                self.rolling = Some(Rolling::new(Track::new(settings)));
            }
            PlayMode::Drop => {
                // Every contact is the drop's: the hammer waits for the first impact.
                hammer.set_gravity(Gravity::NONE);
                hammer.set_irregularity(0.0, seed);
                hammer.retire();
                // (Each contact's energy is added as it starts: `render_segment`.)
                self.drop.start(
                    patch,
                    contact,
                    floor,
                    strike.drop_height_m,
                    strike.v_in_m_per_s,
                    seed,
                    dt_s,
                );
            }
        }
    }

    /// The press on the ball its pressure asks for, m/s² (none on a hammer that strikes).
    fn press_target(&self, patch: &Patch) -> f64 {
        if matches!(self.mode, PlayMode::Strike | PlayMode::Drop) {
            0.0
        } else {
            patch.bounce.gravity.accel_m_per_s2.max(0.0)
                * patch.press_depth.clamp(0.0, 100.0)
                * self.expression.pressure
        }
    }

    /// Change one dimension of the voice's expression, from the next sample on.
    fn express(&mut self, patch: &Patch, change: Change, dt_s: f64) {
        self.expression.apply(change);
        let expression = &self.expression;
        match change {
            Change::Pressure(_) => self.press.set(self.press_target(patch)),
            Change::Brightness(_) | Change::StiffnessDecades(_) => {
                self.hammer
                    .set_stiffness_scale(expression.stiffness_scale());
            }
            Change::Tuning(_) | Change::Bend(_) => {
                let held_n = self.hammer.resting_weight_n() + self.held_press_n;
                self.retune_holding(held_n, dt_s);
            }
            Change::Volume(_) | Change::GainDb(_) => {
                self.stereo.volume.set(expression.volume_factor());
            }
            Change::Pan(_) => self
                .stereo
                .pan
                .set((self.stereo.key_pan + expression.pan).clamp(-1.0, 1.0)),
        }
    }

    /// Tune the bank to the expression's frequency ratio if it is not there yet. `held_n` is the
    /// force a ball at rest holds on the object (its weight and press), about whose equilibrium
    /// the bank's state is kept: the true position is kept, and the equilibrium moves with the
    /// modes' stiffness, so the object settles there (a soft thump, as a press is).
    fn retune_holding(&mut self, held_n: f64, dt_s: f64) {
        let ratio = self.expression.frequency_ratio();
        if ratio == self.tuned_ratio {
            return;
        }
        let in_contact = self.hammer.in_contact();
        self.bank.hold_static_force(-held_n);
        self.bank.retune(ratio, 1.0 / dt_s, CHOKE_T60_S, in_contact);
        self.bank.hold_static_force(held_n);
        if in_contact {
            // The contact's energy balance starts again from here, or the energy guard would
            // take the retune's change of the object's energy for the step's own.
            self.hammer.rebase_energy(&self.bank);
        }
        // The runaway limit takes in what a retune can put in: tuning up with the displacements
        // kept raises each mode's energy ½·M·ω₀²·q² by up to the ratio squared; tuning down raises
        // a held force's swing by up to its inverse; the held force's equilibrium moves by
        // φ·F/M·|1/ω₀² − 1/ω₀'²|, a swing of velocity φ·F/(M·ω₀')·|r² − 1|.
        let change = ratio / self.tuned_ratio;
        self.input_energy_j *= change.max(1.0).powi(2);
        self.press_swing_m_per_s /= change.min(1.0);
        self.press_swing_m_per_s +=
            held_n.abs() * (change * change - 1.0).abs() * self.bank.step_pickup_bound_per_n();
        self.tuned_ratio = ratio;
    }

    /// One sample of the press: pulls the ball in flight or in contact (its work towards the
    /// object counts as energy put in); on a ball at rest, the change of force is held on the
    /// object.
    #[inline]
    fn press_sample(&mut self, mass_kg: f64, dt_s: f64) {
        let accel = self.press.next();
        if self.hammer.is_at_rest() {
            let force_n = mass_kg * accel;
            if force_n != self.held_press_n {
                let step_n = force_n - self.held_press_n;
                self.bank.hold_static_force(step_n);
                self.hammer.striker_mut().hold_static_force(-step_n);
                self.press_swing_m_per_s += step_n.abs() * self.step_swing_per_n();
                self.held_press_n = force_n;
            }
        } else {
            self.hammer.set_track_acceleration(accel);
            let travel_m = self.hammer.velocity_m_per_s() * dt_s;
            self.input_energy_j += mass_kg * accel * travel_m.max(0.0);
        }
    }

    /// The most a step of one newton held between the striker at rest and the object can set
    /// either channel swinging by, m/s (see [`ModalBank::step_pickup_bound_per_n`]): both bodies,
    /// the striker's at its level.
    fn step_swing_per_n(&self) -> f64 {
        self.bank.step_pickup_bound_per_n()
            + self.hammer.striker_level() * self.hammer.striker().step_pickup_bound_per_n()
    }

    /// Energy still in play: the object's, plus the hammer's (kinetic and in the contact) until
    /// it has flown out of reach or come to rest.
    fn energy_j(&self) -> f64 {
        if self.hammer.is_retired() {
            self.bank.energy_j() + self.hammer.striker_energy_j()
        } else {
            self.hammer.elastic_energy_j(&self.bank)
        }
    }

    /// What a steal would cut short, J: the energy in play, and a dropped body's still to come
    /// (a die in mid-air is not a quiet voice).
    fn stealing_energy_j(&self) -> f64 {
        match self.mode {
            PlayMode::Drop => self.energy_j() + self.drop.energy_j(),
            _ => self.energy_j(),
        }
    }

    fn silence(&mut self) {
        self.active = false;
        self.held = false;
        self.held_press_n = 0.0;
        self.bank.reset();
        self.hammer.retire();
        self.hammer.striker_mut().reset();
        self.rolling = None;
        self.drop.lift(&mut self.hammer);
    }

    /// The note-off: with a release fraction set, the modes decay that much faster from now on;
    /// a rolling ball is lifted off or rolls to a stop.
    fn release(&mut self, patch: &Patch, sample_rate_hz: f64) {
        self.held = false;
        // A released voice is not struck again by its note; one that only rings on is.
        self.released = self.rolling.is_some() || patch.release_fraction > 0.0;
        if self.mode == PlayMode::Drop && patch.drop.lift_on_release {
            self.drop.lift(&mut self.hammer);
        }
        if self.rolling.is_some() {
            if patch.roll.lift_on_release {
                self.hammer.retire();
                self.rolling = None;
            } else {
                self.stopping = true;
            }
        }
        if patch.release_fraction > 0.0 {
            // A contact under way (a rolling ball) goes on with the damped modes.
            let fraction = patch.release_fraction.clamp(1e-3, 1.0);
            let in_contact = self.hammer.in_contact();
            self.bank.scale_decay(fraction, sample_rate_hz, in_contact);
            self.hammer
                .striker_mut()
                .scale_decay(fraction, sample_rate_hz, in_contact);
        }
    }

    /// Lift the hammer or ball off and damp every mode to a T60 of at most [`CHOKE_T60_S`] (one
    /// below 110 Hz, which cannot decay that fast, critically): the vibration dies away smoothly
    /// and the voice ends at −120 dB, 2·[`CHOKE_T60_S`] later (a low mode's, later).
    fn choke(&mut self, sample_rate_hz: f64) {
        self.released = true;
        self.held = false;
        self.drop.lift(&mut self.hammer);
        self.hammer.retire();
        self.rolling = None;
        self.bank.limit_t60(CHOKE_T60_S, sample_rate_hz);
        self.hammer
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

    /// [`Voice::render`] up to (`decide`: exactly up to) the voice's next decision point.
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
        if let Some(rolling) = self.rolling.as_mut() {
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
                self.hammer
                    .set_track_acceleration(track_accel + self.press.next());
                let pickup = self
                    .hammer
                    .process_sample(&patch.contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_m_per_s, pickup.side_m_per_s);
            }
            if decide && self.stopping && rolling.speed_m_per_s() < ROLL_REST_M_PER_S {
                if !self.hammer.is_retired() {
                    self.hammer.come_to_rest(&mut self.bank);
                }
                self.rolling = None;
            }
        } else if self.mode == PlayMode::Drop {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                self.input_energy_j +=
                    self.drop
                        .before_sample(&mut self.hammer, &mut self.bank, dt_s);
                let pickup = self
                    .hammer
                    .process_sample(&self.drop.setup, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_m_per_s, pickup.side_m_per_s);
            }
        } else if self.press.is_moving() || self.press.now != 0.0 || self.held_press_n != 0.0 {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                self.press_sample(patch.hammer_mass_kg, dt_s);
                let pickup = self
                    .hammer
                    .process_sample(&patch.contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_m_per_s, pickup.side_m_per_s);
            }
        } else {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                let pickup = self
                    .hammer
                    .process_sample(&patch.contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_m_per_s, pickup.side_m_per_s);
            }
        }
        if decide {
            self.bank.flush_negligible();
            self.hammer.striker_mut().flush_negligible();
        }
        // Up to the first sample that is not finite or beyond what the energy put in allows
        // (NaN fails the comparison); a non-finite state is looked for at decisions.
        // (A rolling voice's energy is unbounded: ∞, or NaN with no mode heard, means no limit;
        // `min` drops the NaN.) Either channel is at most 2·|gain|·volume·(|mid| + |side|)
        // (pan ≤ 1, width ≤ 1), so a limit on the pickups also keeps the output within f32.
        if self.hammer.is_at_rest() && !self.rest_counted {
            // The weight laid on the object at once: a step of force (a heavy ball captured on a
            // light object sets it swinging about where the weight holds it).
            self.rest_counted = true;
            self.press_swing_m_per_s += self.hammer.resting_weight_n() * self.step_swing_per_n();
        }
        let gain = self.gain * patch.gain;
        // Either body can hold all the energy put in: the striker's pickup adds its share at its
        // level.
        let striker = self.hammer.striker();
        let pickup_per_sqrt_j = self.bank.pickup_abs_sum() / self.bank.mass_kg().sqrt()
            + self.hammer.striker_level() * striker.pickup_abs_sum() / striker.mass_kg().sqrt();
        let limit_m_per_s = (RUNAWAY_AMPLITUDE
            * (pickup_per_sqrt_j * (2.0 * self.input_energy_j).sqrt() + self.press_swing_m_per_s))
            .min(f64::from(f32::MAX) / (2.0 * MAX_VOLUME_FACTOR * gain.abs()))
            .min(f64::MAX);
        let sound = mid
            .iter()
            .zip(side.iter())
            .position(|(m, s)| !(m.abs() + s.abs() <= limit_m_per_s))
            .unwrap_or(len);
        out.add(&mut self.stereo, gain, &mid[..sound], &side[..sound]);
        if sound < len || (decide && !(self.bank.is_finite() && self.hammer.is_finite())) {
            self.silence();
            return false;
        }
        if decide {
            let energy = self.energy_j();
            self.peak_energy_j = self.peak_energy_j.max(energy);
            // A ball still bouncing or rolling keeps its voice, however quiet for now; a hammer
            // that struck does not (it may drift away for a long time after a very lossy contact).
            let in_play = match self.mode {
                PlayMode::Strike => false,
                PlayMode::Drop => self.drop.in_play(&self.hammer),
                PlayMode::Bounce | PlayMode::Roll => !self.hammer.is_retired(),
            };
            if !in_play && energy <= END_ENERGY_RATIO * self.peak_energy_j {
                self.silence();
            }
        }
        true
    }
}

/// A voice's place in the stereo image and its volume: the width of its pickups' image, set at
/// its note-on, and its pan and volume, which follow its expression.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Placement {
    /// Side signal's share, 0 (mono) … 1 (the two pickups as they are).
    width: f64,
    /// The key's pan, −1…1, which the pan expression moves.
    key_pan: f64,
    /// −1 (left) … 1 (right), constant-sum: the channels' gains are 1 − pan and 1 + pan, so
    /// their sum does not depend on it.
    pan: Follower,
    /// Factor on the output (the volume expression).
    volume: Follower,
}

impl Placement {
    /// Left and right output of a voice at `gain` hearing `mid` and `side` (m/s), one sample on.
    #[inline]
    fn mix(&mut self, gain: f64, mid: f64, side: f64) -> (f64, f64) {
        let (pan, gain) = (self.pan.next(), gain * self.volume.next());
        Self::mix_at(self.width, pan, gain, mid, side)
    }

    /// [`Placement::mix`] with the pan and the gain (volume included) given.
    #[inline]
    fn mix_at(width: f64, pan: f64, gain: f64, mid: f64, side: f64) -> (f64, f64) {
        let side = width * side;
        (
            gain * (1.0 - pan) * (mid + side),
            gain * (1.0 + pan) * (mid - side),
        )
    }

    /// Whether pan and volume stay where they are (no glide under way).
    fn is_steady(&self) -> bool {
        !self.pan.is_moving() && !self.volume.is_moving()
    }
}

/// Where voices add their output: one mono channel (the mean of left and right) or two.
enum Output<'a> {
    Mono(&'a mut [f32]),
    Stereo(&'a mut [f32], &'a mut [f32]),
}

impl Output<'_> {
    fn len(&self) -> usize {
        match self {
            Output::Mono(out) | Output::Stereo(out, _) => out.len(),
        }
    }

    /// Samples `start..end` of the channels.
    fn part(&mut self, start: usize, end: usize) -> Output<'_> {
        match self {
            Output::Mono(out) => Output::Mono(&mut out[start..end]),
            Output::Stereo(left, right) => {
                Output::Stereo(&mut left[start..end], &mut right[start..end])
            }
        }
    }

    /// Add a voice's `mid` and `side` signals (m/s), placed by `stereo` at `gain`. Without a
    /// glide under way the placement is read once for the whole piece.
    fn add(&mut self, stereo: &mut Placement, gain: f64, mid: &[f64], side: &[f64]) {
        if stereo.is_steady() {
            let (width, pan, gain) = (stereo.width, stereo.pan.now, gain * stereo.volume.now);
            self.add_with(mid, side, |m, s| Placement::mix_at(width, pan, gain, m, s));
        } else {
            self.add_with(mid, side, |m, s| stereo.mix(gain, m, s));
        }
    }

    /// Add what `mix` makes of each sample of `mid` and `side` (left, right).
    #[inline]
    fn add_with(&mut self, mid: &[f64], side: &[f64], mut mix: impl FnMut(f64, f64) -> (f64, f64)) {
        match self {
            Output::Mono(out) => {
                for ((o, m), s) in out.iter_mut().zip(mid).zip(side) {
                    let (left, right) = mix(*m, *s);
                    *o += (0.5 * (left + right)) as f32;
                }
            }
            Output::Stereo(out_left, out_right) => {
                for (((l, r), m), s) in out_left
                    .iter_mut()
                    .zip(out_right.iter_mut())
                    .zip(mid)
                    .zip(side)
                {
                    let (left, right) = mix(*m, *s);
                    *l += left as f32;
                    *r += right as f32;
                }
            }
        }
    }
}

/// A voice's working buffers: what its pickups hear over one piece of a block, m/s.
struct Scratch {
    mid: Vec<f64>,
    side: Vec<f64>,
}

impl Scratch {
    fn new() -> Self {
        Self {
            mid: vec![0.0; MAX_CHUNK],
            side: vec![0.0; MAX_CHUNK],
        }
    }
}

/// The seed of the `count`-th note struck on `key` (its drop's pose and spin, its bounce's
/// irregularity, its rolling track): notes differ, renders repeat.
pub fn note_seed(count: u64, key: u8) -> u64 {
    count ^ (u64::from(key) << 32)
}

/// Fixed-capacity polyphonic engine. All memory is allocated in [`Engine::new`].
pub struct Engine {
    voices: Vec<Voice>,
    polyphony: usize,
    scratch: Scratch,
    /// Every key's object, the contacts' tables and the level calibration of the patch.
    prepared: Box<Prepared>,
    sample_rate_hz: f64,
    samples_rendered: u64,
    non_finite_resets: u64,
    /// Notes struck since the last reset: seeds the ball's irregularity and the rolling track.
    notes_struck: u64,
    /// The voice struck last, whose contact the live view shows.
    traced_voice: Option<usize>,
    /// Notes whose voices ended since the host last took them ([`Engine::take_ended`]); never
    /// grows past its capacity.
    ended: Vec<NoteId>,
    /// A channel is a note (MPE): a channel's messages reach only the note held there.
    channel_per_note: bool,
}

impl Engine {
    /// An engine for `sample_rate_hz` with [`MAX_VOICES`] voices, [`DEFAULT_POLYPHONY`] in use.
    pub fn new(sample_rate_hz: f64) -> Self {
        let patch = Patch::default();
        Self {
            voices: (0..MAX_VOICES).map(|_| Voice::new(&patch)).collect(),
            polyphony: DEFAULT_POLYPHONY,
            scratch: Scratch::new(),
            prepared: Prepared::new(sample_rate_hz),
            sample_rate_hz,
            samples_rendered: 0,
            non_finite_resets: 0,
            notes_struck: 0,
            traced_voice: None,
            ended: Vec::with_capacity(ENDED_CAPACITY),
            channel_per_note: false,
        }
    }

    /// Whether a MIDI channel is one note (MPE) or carries many (see the field).
    pub fn set_channel_per_note(&mut self, on: bool) {
        self.channel_per_note = on;
    }

    /// Remember that `note`'s voice ended (dropped if the host has not taken the last
    /// [`ENDED_CAPACITY`]).
    fn end(ended: &mut Vec<NoteId>, note: NoteId) {
        if ended.len() < ended.capacity() {
            ended.push(note);
        }
    }

    /// The notes whose voices ended (decayed, stolen, struck again under a new note id, reset)
    /// since the last call: a CLAP host is told, so it can free what it holds for them.
    pub fn take_ended(&mut self) -> std::vec::Drain<'_, NoteId> {
        self.ended.drain(..)
    }

    /// Voices in use, 1…[`MAX_VOICES`]. Voices beyond a lowered limit finish their tails.
    pub fn set_polyphony(&mut self, voices: usize) {
        self.polyphony = voices.clamp(1, MAX_VOICES);
    }

    /// Silence every voice.
    pub fn reset(&mut self) {
        for voice in self.voices.iter_mut().filter(|v| v.active) {
            Self::end(&mut self.ended, voice.note);
            voice.silence();
        }
        self.notes_struck = 0;
    }

    /// Strike `key` on channel 0 with normalised velocity `velocity` ∈ [0, 1] and no expression
    /// (see [`Engine::start_note`]).
    pub fn note_on(&mut self, patch: &Patch, key: u8, velocity: f32) {
        self.start_note(patch, NoteId::key(key), velocity, &Expression::NEUTRAL);
    }

    /// Strike `note` with normalised velocity `velocity` ∈ [0, 1] and `expression` (its
    /// channel's state). The same key on the same channel, still sounding and not released (see
    /// [`Patch::release_fraction`]), is struck again where it rings; otherwise a free voice is used, or the quietest (then the oldest) is stolen.
    pub fn start_note(
        &mut self,
        patch: &Patch,
        note: NoteId,
        velocity: f32,
        expression: &Expression,
    ) {
        let limit = self.polyphony;
        let sounding = self.voices.iter().position(|v| {
            v.active && v.note.key == note.key && v.note.channel == note.channel && !v.released
        });
        let index = sounding
            .or_else(|| self.voices[..limit].iter().position(|v| !v.active))
            .or_else(|| {
                (0..limit).min_by(|&a, &b| {
                    let (va, vb) = (&self.voices[a], &self.voices[b]);
                    va.stealing_energy_j()
                        .total_cmp(&vb.stealing_energy_j())
                        .then(va.started_at.cmp(&vb.started_at))
                })
            });
        let Some(index) = index else {
            return;
        };
        let previous = &self.voices[index];
        if previous.active && (sounding.is_none() || previous.note.voice_id != note.voice_id) {
            Self::end(&mut self.ended, previous.note);
        }
        if let Some(previous) = self.traced_voice.replace(index) {
            self.voices[previous].hammer.set_tracing(false);
        }
        self.notes_struck += 1;
        let seed = note_seed(self.notes_struck, note.key);
        self.prepared.ensure(patch, note.key);
        let key = self.prepared.key(note.key);
        let strike = Strike {
            pan: patch.stereo.pan(note.key),
            ..self.prepared.calibration().strike(patch, velocity)
        };
        let dt_s = 1.0 / self.sample_rate_hz;
        let voice = &mut self.voices[index];
        voice.hammer.set_tracing(true);
        let bodies = if sounding.is_none() {
            Some((key.bank, key.striker))
        } else {
            None
        };
        let floor = ObjectSpec {
            f0_hz: patch.tuning.f0_hz(note.key),
            ..patch.object
        };
        voice.start(
            patch,
            bodies,
            key.contact,
            strike,
            expression,
            seed,
            dt_s,
            &floor,
        );
        voice.note = note;
        voice.started_at = self.samples_rendered;
    }

    /// Count the notes struck so far as `count`: the next note is the `count + 1`-th, and its
    /// drop (or bounce irregularity, or rolling track) is the one [`note_seed`] gives it. For
    /// tools that render a chosen drop.
    pub fn set_notes_struck(&mut self, count: u64) {
        self.notes_struck = count;
    }

    /// The drop of the voice last started, if it is a drop: its body and the time, for tools.
    pub fn drop_scene(&self) -> Option<&crate::rigid::drop::DropScene> {
        let voice = &self.voices[self.traced_voice?];
        (voice.active && voice.mode == PlayMode::Drop).then_some(&voice.drop.scene)
    }

    /// The live view's record of the drop of the voice last started in drop mode (kept after it
    /// ends).
    pub fn drop_trace(&self) -> Option<&DropTrace> {
        let voice = &self.voices[self.traced_voice?];
        (voice.mode == PlayMode::Drop).then_some(&voice.drop.trace)
    }

    /// Micro-impacts the drop of the voice last started has struck so far (0 for other modes).
    pub fn drop_impacts(&self) -> usize {
        self.traced_voice
            .map(|i| &self.voices[i])
            .filter(|v| v.mode == PlayMode::Drop)
            .map_or(0, |v| v.drop.struck)
    }

    /// Adopt `prepared` (built by [`Prepared::prepare`] off the audio thread) and return the
    /// preparation it replaces, to be reused or dropped there: no copy, no allocation, no
    /// deallocation. One for another sample rate is returned unused.
    pub fn install(&mut self, prepared: Box<Prepared>) -> Box<Prepared> {
        if prepared.sample_rate_hz() == self.sample_rate_hz {
            std::mem::replace(&mut self.prepared, prepared)
        } else {
            prepared
        }
    }

    /// The preparation new notes use (its calibration, whether it is for a patch).
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// Release `key` on any channel (see [`Engine::release`]).
    pub fn note_off(&mut self, patch: &Patch, key: u8) {
        self.release(patch, NoteTarget::key(key));
    }

    /// Release the notes of `target`: with a release fraction set, their modes decay that much
    /// faster from now on; a rolling ball is lifted off or rolls to a stop.
    pub fn release(&mut self, patch: &Patch, target: NoteTarget) {
        let fs = self.sample_rate_hz;
        self.voices
            .iter_mut()
            .filter(|v| v.active && !v.released && target.matches(&v.note))
            .for_each(|voice| voice.release(patch, fs));
    }

    /// Change one dimension of the expression of the notes of `target`, from the next sample on.
    /// Notes that are not sounding are not touched; with a channel per note (MPE), a message to
    /// a whole channel reaches only the note held there, not a released one still ringing (the
    /// channel's next note's controllers may already be on their way).
    pub fn express(&mut self, patch: &Patch, target: NoteTarget, change: Change) {
        let dt_s = 1.0 / self.sample_rate_hz;
        let released_too = !(self.channel_per_note && target.is_channel_wide());
        self.voices
            .iter_mut()
            .filter(|v| v.active && target.matches(&v.note) && (v.held || released_too))
            .for_each(|voice| voice.express(patch, change, dt_s));
    }

    /// Release every held note (MIDI "all notes off"): each rings on as after its note-off.
    pub fn all_notes_off(&mut self, patch: &Patch) {
        self.release(patch, NoteTarget::default());
    }

    /// Silence the notes of `target` within [`CHOKE_T60_S`] (a CLAP note choke), without a
    /// click.
    pub fn choke(&mut self, target: NoteTarget) {
        let fs = self.sample_rate_hz;
        self.voices
            .iter_mut()
            .filter(|v| v.active && target.matches(&v.note))
            .for_each(|voice| voice.choke(fs));
    }

    /// Silence every voice within [`CHOKE_T60_S`] (MIDI "all sound off"), without a click.
    pub fn all_sound_off(&mut self) {
        self.choke(NoteTarget::default());
    }

    /// Render `out.len()` samples of the sum of all voices into `out` (overwritten), mono: the
    /// mean of the left and right channels of [`Engine::process_stereo`].
    pub fn process(&mut self, patch: &Patch, out: &mut [f32]) {
        out.fill(0.0);
        self.render(patch, Output::Mono(out));
    }

    /// Render `left.len()` samples of the sum of all voices into `left` and `right`
    /// (overwritten; `right` as long as `left`).
    pub fn process_stereo(&mut self, patch: &Patch, left: &mut [f32], right: &mut [f32]) {
        let len = left.len().min(right.len());
        let (left, right) = (&mut left[..len], &mut right[..len]);
        left.fill(0.0);
        right.fill(0.0);
        self.render(patch, Output::Stereo(left, right));
    }

    fn render(&mut self, patch: &Patch, mut out: Output<'_>) {
        let dt_s = 1.0 / self.sample_rate_hz;
        let len = out.len();
        let mut start = 0;
        while start < len {
            let end = (start + MAX_CHUNK).min(len);
            let mut chunk = out.part(start, end);
            for voice in self.voices.iter_mut().filter(|v| v.active) {
                if !voice.render(patch, dt_s, &mut chunk, &mut self.scratch) {
                    self.non_finite_resets += 1;
                }
                if !voice.active {
                    Self::end(&mut self.ended, voice.note);
                }
            }
            self.samples_rendered += (end - start) as u64;
            start = end;
        }
        match out {
            Output::Mono(out) => out.iter_mut().for_each(|y| *y = flush_subnormal(*y)),
            Output::Stereo(left, right) => left
                .iter_mut()
                .chain(right.iter_mut())
                .for_each(|y| *y = flush_subnormal(*y)),
        }
    }

    /// The record of the last strike's first contact and its rebounds (for the live view).
    pub fn trace(&self) -> Option<&ContactTrace> {
        self.traced_voice.map(|i| self.voices[i].hammer.trace())
    }

    /// Number of sounding voices.
    pub fn active_voices(&self) -> usize {
        self.voices.iter().filter(|v| v.active).count()
    }

    /// Voices silenced because their state went non-finite or ran away since construction.
    pub fn non_finite_resets(&self) -> u64 {
        self.non_finite_resets
    }
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

mod drop;
mod expression;
mod prepared;
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
