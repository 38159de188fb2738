//! The patch: the plain settings a block hands to the engine — contact, bodies, level, stereo, and each play mode's own.

use crate::body::{DropBody, Grip, StrikerKind, StrikerSpec};
use crate::contact::HuntCrossley;
use crate::friction::FrictionLaw;
use crate::integrate::Method;
use crate::interaction::{ContactSetup, Damping, Gravity};
use crate::material::{Material, MATERIALS};
use crate::resonator::ObjectSpec;
use crate::roll::RollSettings;
use crate::surface::SurfaceSettings;

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
        // A velocity that is not a number is the softest.
        let x = ((f64::from(velocity) * 127.0 - 1.0) / 126.0).clamp(0.0, 1.0);
        let x = if x.is_nan() { 0.0 } else { x };
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
    /// A slider (a finger, a bow, chalk, a stick, a chair leg) pressed onto the object and drawn
    /// over it through friction, over a surface (see [`Slide`]).
    Slide,
    /// While the note is held, a stream of small impacts that overlap: a sheet crushed, gravel
    /// underfoot (see [`Crumple`]).
    Crumple,
    /// The striker's body breaks on the object, which is the floor: a crack, then its fragments
    /// falling and bouncing (see [`Fracture`]).
    Break,
}

impl PlayMode {
    /// Every play mode, in the order of the plugin's Mode parameter: every mode-generic test,
    /// tool and export iterates this, so a new mode cannot be missed.
    pub const ALL: [PlayMode; 7] = [
        PlayMode::Strike,
        PlayMode::Bounce,
        PlayMode::Roll,
        PlayMode::Drop,
        PlayMode::Slide,
        PlayMode::Crumple,
        PlayMode::Break,
    ];
    /// The modes' stable ids (presets and saved projects hold them), in [`PlayMode::ALL`]'s order.
    pub const IDS: [&'static str; 7] = [
        "strike", "bounce", "roll", "drop", "slide", "crumple", "break",
    ];
    /// The modes' names as a host lists them, in [`PlayMode::ALL`]'s order.
    pub const NAMES: [&'static str; 7] = [
        "Single strike",
        "Bounce",
        "Roll",
        "Drop",
        "Slide",
        "Crumple",
        "Break",
    ];

    /// The mode's place in [`PlayMode::ALL`].
    pub fn index(self) -> usize {
        match self {
            PlayMode::Strike => 0,
            PlayMode::Bounce => 1,
            PlayMode::Roll => 2,
            PlayMode::Drop => 3,
            PlayMode::Slide => 4,
            PlayMode::Crumple => 5,
            PlayMode::Break => 6,
        }
    }

    /// The mode's id in presets and exports.
    pub fn id(self) -> &'static str {
        Self::IDS[self.index()]
    }

    /// Whether the mode makes a steady sound (a rolling ball, a slider drawn, a crumple), whose
    /// calibrated level is its RMS over notes, the crest factor below a struck note's peak.
    pub fn is_steady(self) -> bool {
        matches!(self, PlayMode::Roll | PlayMode::Slide | PlayMode::Crumple)
    }
}

/// How bodies fall onto the object: the height a bouncing ball or a dropped body is let go from,
/// and gravity (which also presses a rolling ball and a body lying on the object), read by every
/// scene that lets something fall or rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fall {
    /// Height above the object at note-on, m; a bounce's velocity throws the ball down from it.
    pub height_m: f64,
    /// Gravity, suspended or on during contact, and the capture velocity.
    pub gravity: Gravity,
}

impl Fall {
    /// The square of the speed (m²/s²) a body let fall from the height reaches the object with:
    /// 2·g·h.
    pub fn fall_speed_sq(&self) -> f64 {
        2.0 * self.gravity.accel_m_per_s2.max(0.0) * self.height_m.max(0.0)
    }
}

/// The bouncing ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounce {
    /// Out-of-roundness of the ball, 0…1: each contact's stiffness is k·√(1 + irregularity·ξ),
    /// ξ uniform in [−1, 1] (Hertz: k ∝ √R, the local radius where the ball lands), so no two
    /// drops are alike; seeded per note, so renders repeat.
    pub irregularity: f64,
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

/// Which way a slider is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    Forward,
    Backward,
    /// Back and forth over the stroke length, reversing at each end (as a bow changes).
    BackAndForth,
}

/// The slider: a body of the striker interface pressed onto the object with a normal force and
/// drawn over it at a speed, its friction the elasto-plastic law, over a surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    pub friction: FrictionLaw,
    /// The surface the slider is drawn over (seeded per note).
    pub surface: SurfaceSettings,
    /// Radius of the slider's tip, m: it feels the surface averaged over it, so it rides over
    /// features much narrower than itself ([`crate::surface::Partials::felt_by`]).
    pub tip_radius_m: f64,
    /// The normal force the slider presses with, N; a note's pressure adds the press (see
    /// [`Patch::press_depth`]). At velocity 127; the velocity sets the share pressed
    /// (`Calibration::press_for`).
    pub force_n: f64,
    /// Drawing speed with its controller at full scale, m/s.
    pub speed_m_per_s: f64,
    /// The controller's share of that speed now, 0…1 (the plugin maps its modulation source
    /// here, as the roll's).
    pub speed_fraction: f64,
    /// Time constant of the drawing velocity's smoothing (and of a stroke's reversal), s.
    pub smoothing_s: f64,
    pub stroke: Stroke,
    /// Length of a back-and-forth stroke, m.
    pub stroke_length_m: f64,
    /// Share of the object's tangential participation the friction drives, 0…1: 1 for a bow
    /// drawn across an edge or a finger round a rim; a few hundredths for a slider dragged along
    /// a face, which drives bending only through the moment of the friction (see
    /// [`crate::resonator::object_modes`]).
    pub coupling: f64,
    /// The slider presses against an edge (a bow on a bar's end, a cymbal's rim, a finger on a
    /// glass's rim): it presses in the object's plane, where the object is far stiffer than in
    /// bending, so its normal contact is against a rigid support and only its friction drives
    /// the modes. Otherwise it presses on a face, through the modes' normal shapes.
    pub against_edge: bool,
    /// The slider stays on one spot of the object as it slides: a disc turning under a brake
    /// pad, a pin turning in a hinge. Otherwise the spot it touches moves along the object with
    /// it from the strike position, except against an edge and round a rim (a glass's, a
    /// bell's), where a mode pair's pattern turns with the finger and the spot under it stays as
    /// it was.
    pub in_place: bool,
}

/// How a crumple's rate moves while its note is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// The rate holds.
    Steady,
    /// A crush: the rate builds to its full scale at the gesture's time T and relaxes,
    /// (t/T)·e^(1 − t/T).
    Crush,
    /// Footsteps, one every T: a heel's burst and, a quarter of a step later, a toe's.
    Steps,
}

/// A crumple: while its note is held, a stream of small impacts on the object (a Poisson
/// process in continuous time, [`crate::stream`]), each a fragment of the striker's body — of its
/// material and kind, its size set by the event's energy — thrown at the object from a pool of
/// strikers so that they overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crumple {
    /// Events per second with the rate's controller at full scale and the gesture at its top.
    pub rate_per_s: f64,
    /// The controller's share of the rate now, 0…1 (the plugin maps its source here).
    pub rate_fraction: f64,
    /// The power law's exponent α of the events' energies, p(E) ∝ E^(−α).
    pub energy_exponent: f64,
    /// The smallest event's energy at velocity 127, J.
    pub min_energy_j: f64,
    /// The largest event's energy over the smallest (two decades: 100). An event of the largest
    /// throws the whole striker; a smaller one a fragment of it, √(E/E_max) of its size.
    pub energy_span: f64,
    pub gesture: Gesture,
    /// The gesture's time: a crush's build, a step's period, s.
    pub gesture_s: f64,
}

/// A break: a note breaks the striker's body on the object (the floor) — the energy it holds is
/// released as a crack, a burst of impacts whose rate rises, and then as its fragments, each
/// launched and bouncing on the object ([`crate::stream::BreakPlan`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fracture {
    /// The energy the body holds when it breaks, J.
    pub stored_energy_j: f64,
    /// The share of it the crack releases (the rest launches the fragments), 0…1.
    pub crack_share: f64,
    /// How long the crack takes to break the body, s.
    pub crack_s: f64,
    /// Fragments it breaks into, 1…16.
    pub fragments: usize,
    /// β of the fragments' masses, n(m) ∝ m^(−β) (shells ≈ 1.35, plates ≈ 1.5).
    pub mass_exponent: f64,
}

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
    /// Physical units: the pressure the bodies radiate to the listener, 1 m away, in pascals
    /// ([`OUTPUT_PER_PA`]).
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
    /// The striker's own ringing in the output: the pressure it radiates times this is added to
    /// the object's (1: as physics has it, 0: only the object is heard).
    pub striker_level: f64,
    /// How a hand holds the striker (its fingers damp its modes where they hold it).
    pub grip: Grip,
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
    /// Output level: calibrated by the patch's physics, or the pressure in pascals.
    pub level: Level,
    pub stereo: Stereo,
    /// Linear output gain on top of the level (applied live).
    pub gain: f64,
    pub mode: PlayMode,
    /// The height bodies fall from and gravity (bounce, roll, drop).
    pub fall: Fall,
    pub bounce: Bounce,
    pub roll: Roll,
    /// The dropped body (drop mode): its kind and size (its material is the striker's), spin,
    /// drift and friction; it falls from the fall's height under its gravity.
    pub drop: DropSettings,
    /// The slider (slide mode).
    pub slide: Slide,
    /// The stream of impacts (crumple mode).
    pub crumple: Crumple,
    /// The break (break mode).
    pub fracture: Fracture,
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
            striker_level: 1.0,
            grip: Grip::Free,
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
            fall: Fall {
                height_m: 0.3,
                gravity: Gravity {
                    accel_m_per_s2: 9.81,
                    in_contact: false,
                    capture_m_per_s: 0.02,
                },
            },
            bounce: Bounce { irregularity: 0.0 },
            roll: Roll {
                settings: RollSettings::marble(),
                speed_m_per_s: 0.5,
                speed_fraction: 1.0,
                smoothing_s: 0.03,
                lift_on_release: false,
                stop_time_s: 0.4,
            },
            drop: DropSettings::default(),
            slide: Slide {
                friction: FrictionLaw::rosin(),
                surface: SurfaceSettings::smooth(),
                tip_radius_m: 1e-3,
                force_n: 1.0,
                speed_m_per_s: 0.3,
                speed_fraction: 1.0,
                smoothing_s: 0.03,
                stroke: Stroke::Forward,
                stroke_length_m: 0.3,
                coupling: 1.0,
                against_edge: false,
                in_place: false,
            },
            crumple: Crumple {
                rate_per_s: 200.0,
                rate_fraction: 1.0,
                energy_exponent: 1.45,
                min_energy_j: 1e-8,
                energy_span: 100.0,
                gesture: Gesture::Steady,
                gesture_s: 1.0,
            },
            fracture: Fracture {
                stored_energy_j: 0.05,
                crack_share: 0.3,
                crack_s: 0.03,
                fragments: 8,
                mass_exponent: 1.35,
            },
            press_depth: 3.0,
        }
    }
}

/// What a drop note does: the patch's choice of body and how it falls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DropSettings {
    pub body: DropBody,
    /// The body's size, m (see [`DropBody::usual_size_m`]); its material is the striker's.
    pub size_m: f64,
    /// Largest spin about each axis at the drop, rad/s.
    pub spin_rad_per_s: f64,
    /// Largest horizontal drift at the drop along each floor axis, m/s.
    pub drift_m_per_s: f64,
    /// Coulomb friction between body and floor.
    pub mu: f64,
    /// At note-off: lift the body — no contact starts after the one under way — (true), or let
    /// it settle.
    pub lift_on_release: bool,
    /// The object's surface under a body that slides or rolls on it: the track of its lasting
    /// contacts (seeded per note).
    pub surface: SurfaceSettings,
}

impl Default for DropSettings {
    /// A die dropped with some spin and drift on a wooden floor (the marble's track).
    fn default() -> Self {
        Self {
            body: DropBody::Die,
            size_m: 0.016,
            spin_rad_per_s: 20.0,
            drift_m_per_s: 0.05,
            mu: 0.3,
            lift_on_release: false,
            surface: RollSettings::marble().track,
        }
    }
}
