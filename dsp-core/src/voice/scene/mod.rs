//! Scenes: one home per play mode — how a note starts it, what it does each piece, when it is still in play, what a release and a choke do, the energy it has yet to play, its contact and its level calibration.
//!
//! A new play mode is a module here implementing [`Scene`], a field of [`Scenes`] and an arm of
//! each `match` in this file (the compiler lists them), its settings in [`super::patch`], its
//! parameter group, presets and editor group in the plugin, and the docs.

use super::bodies::Bodies;
use super::patch::{Patch, PlayMode};
use super::prepared::{Calibration, Strike, ROLL_CREST, STREAM_CREST};
use crate::body::{object_fundamental_hz, object_size_m, Grip};
use crate::interaction::{ContactPrep, MIN_STEPS_PER_CONTACT};
use crate::resonator::ObjectSpec;

mod bounce;
mod breaking;
mod crumple;
mod drop;
mod roll;
mod slide;
mod strike;
mod thrower;

pub use breaking::break_settings;
use drop::DropPlay;
pub use drop::{
    drop_scene, DropImpact, DropTrace, MicroImpact, Pose, DROP_TRACE_IMPACTS, DROP_TRACE_POINTS,
    MACRO_STEP_S,
};
pub use slide::{SlidePoint, SlideTrace, SLIDE_TRACE_POINTS};

/// What a note-on hands its scene.
pub(super) struct NoteStart<'a> {
    /// The resolved patch.
    pub patch: &'a Patch,
    /// The patch's prepared contact.
    pub contact: &'a ContactPrep,
    /// The note's speed, height and level as the calibration chose them.
    pub strike: Strike,
    /// The note's seed (its drop's pose, its bounce's irregularity, its rolling track).
    pub seed: u64,
    pub dt_s: f64,
    /// The note's object (its fundamental the note's).
    pub floor: &'a ObjectSpec,
}

/// One play mode's behaviour in a voice. The voice calls it once per piece of at most
/// [`super::MAX_CHUNK`] samples; its per-sample loops are its own, so dispatch costs nothing per
/// sample.
pub(super) trait Scene {
    /// Set the hammer going for a note: the voice has loaded the bodies, set the contact, the
    /// striker's level and stiffness scale, and the press.
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>);

    /// Render one piece: the pickups' mid and side into `mid` and `side` (Pa). At a decision
    /// point (`decide`) the scene may also change what it does (a rolling ball comes to rest).
    /// Unless the scene drives the contact, the hammer is left to itself, gravity and the press
    /// pulling it ([`Bodies::render_free`]).
    fn render(
        &mut self,
        bodies: &mut Bodies,
        patch: &Patch,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
        _decide: bool,
    ) {
        bodies.render_free(&patch.contact, patch.hammer_mass_kg, dt_s, mid, side);
    }

    /// Whether the scene still plays on its own (a ball still bouncing or rolling, a body still
    /// falling), however quiet for now: its voice is kept.
    fn in_play(&self, bodies: &Bodies) -> bool;

    /// The note-off; returns whether the scene plays on by itself (a ball rolling to a stop), so
    /// its note is not struck again where it sounds. Nothing, unless the scene says otherwise.
    fn release(&mut self, _bodies: &mut Bodies, _patch: &Patch) -> bool {
        false
    }

    /// Stop: no contact starts from now on (a choke, a silenced voice). The voice then retires
    /// the hammer.
    fn stop(&mut self, _bodies: &mut Bodies) {}

    /// Energy the scene has yet to play, J, beyond what the bodies hold (a die in mid-air is not
    /// a quiet voice): what a steal would cut short.
    fn energy_to_come_j(&self) -> f64 {
        0.0
    }
}

/// How a play mode's level is calibrated (see [`super::Calibration`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LevelReference {
    /// Strikes at a ladder of impact speeds up to `hardest_m_per_s`, each the peak of a short
    /// strike: the physics makes a soft note soft.
    Ladder { hardest_m_per_s: f64 },
    /// A steady sound (a rolling ball): its RMS over the reference seeds times the crest; the
    /// velocity sets a gain.
    Steady,
    /// A slider drawn, or a crumple: measured as a steady sound at a ladder of press forces (a
    /// crumple's: shares of its events' energies); the velocity sets the force, and a gain brings
    /// the level the force gives to the velocity's. (A slider's level
    /// is no simple function of its force: a hinge squeaks louder pressed less, a bowed cymbal
    /// catches another mode.)
    Pressed,
    /// Whole drops of the reference note, the geometric mean of their peaks; the velocity sets a
    /// gain.
    Drops,
    /// Whole breaks of the reference note over `seconds`, the geometric mean of their peaks; the
    /// velocity sets a gain.
    Breaks { seconds: f64 },
}

impl PlayMode {
    /// How this mode's level is calibrated for `patch`, whose velocity curve reaches `hardest`
    /// m/s.
    pub(super) fn level_reference(self, patch: &Patch, hardest_m_per_s: f64) -> LevelReference {
        match self {
            PlayMode::Strike => LevelReference::Ladder { hardest_m_per_s },
            PlayMode::Bounce => bounce::level_reference(patch, hardest_m_per_s),
            PlayMode::Drop => LevelReference::Drops,
            PlayMode::Roll => LevelReference::Steady,
            PlayMode::Slide => LevelReference::Pressed,
            PlayMode::Crumple => LevelReference::Pressed,
            PlayMode::Break => LevelReference::Breaks {
                seconds: breaking::reference_s(patch),
            },
        }
    }

    /// How a note at `level_db` below velocity 127 starts, at output `gain` per pascal, by the
    /// patch's `calibration`: the impact speed whose calibrated peak is that level, or the press a
    /// slider's velocity sets and the gain that brings its level there.
    pub(super) fn strike(
        self,
        patch: &Patch,
        level_db: f64,
        gain: f64,
        calibration: &Calibration,
    ) -> Strike {
        let at_level = Strike {
            v_in_m_per_s: 0.0,
            drop_height_m: 0.0,
            gain: gain * 10f64.powf(level_db / 20.0),
            pan: 0.0,
            press_fraction: 1.0,
        };
        match self {
            PlayMode::Strike => Strike {
                v_in_m_per_s: calibration.speed_for(level_db),
                gain,
                ..at_level
            },
            PlayMode::Bounce => bounce::strike(patch, calibration.speed_for(level_db), gain),
            PlayMode::Roll => at_level,
            // A slider's velocity sets its press; a crumple's the share of its events' energies.
            PlayMode::Slide | PlayMode::Crumple => {
                let (press_fraction, level_gain) = calibration.press_for(patch, level_db);
                Strike {
                    gain: gain * level_gain,
                    press_fraction,
                    ..at_level
                }
            }
            PlayMode::Drop => drop::strike(patch, level_db, gain),
            PlayMode::Break => at_level,
        }
    }

    /// Peak over RMS a steady sound of this mode is calibrated with ([`PlayMode::is_steady`]):
    /// a rolling ball's or a slider's filtered noise, or a crumple's stream of impacts.
    pub fn crest(self) -> f64 {
        match self {
            PlayMode::Crumple => STREAM_CREST,
            PlayMode::Strike
            | PlayMode::Bounce
            | PlayMode::Roll
            | PlayMode::Drop
            | PlayMode::Slide
            | PlayMode::Break => ROLL_CREST,
        }
    }

    /// The patch a calibration renders for `patch` in this mode, and the factor the RMS it
    /// measures is scaled by: a crumple's stream is rendered slower (see
    /// [`crumple::reference_stream`]); the other modes as they are.
    pub(super) fn reference_stream(self, patch: Patch) -> (Patch, f64) {
        match self {
            PlayMode::Crumple => crumple::reference_stream(patch),
            PlayMode::Strike
            | PlayMode::Bounce
            | PlayMode::Roll
            | PlayMode::Drop
            | PlayMode::Slide
            | PlayMode::Break => (patch, 1.0),
        }
    }

    /// Whether a note's pressure presses its ball onto the object (not a hammer that strikes
    /// and flies, nor a tumbling body).
    pub(super) fn presses(self) -> bool {
        matches!(self, PlayMode::Bounce | PlayMode::Roll | PlayMode::Slide)
    }

    /// Whether a hand holds the striker: a hammer that strikes and flies back (not a ball let
    /// fall or set rolling, nor a tumbling body, which nothing holds).
    pub(super) fn holds_striker(self) -> bool {
        matches!(self, PlayMode::Strike)
    }

    /// Steps an impact's predicted contact (eq. 9) is integrated with at least in this mode.
    pub(super) fn steps_per_contact(self) -> f64 {
        match self {
            PlayMode::Drop => drop::STEPS_PER_CONTACT,
            PlayMode::Strike
            | PlayMode::Bounce
            | PlayMode::Roll
            | PlayMode::Slide
            | PlayMode::Crumple
            | PlayMode::Break => MIN_STEPS_PER_CONTACT,
        }
    }

    /// The contact this mode sets up for `patch` in place of the patch's own (the resolved
    /// `patch` so far; see [`Patch::resolved`]), if it sets one.
    pub(super) fn own_contact(self, patch: &Patch) -> Option<Patch> {
        match self {
            PlayMode::Drop => Some(drop::resolved(patch)),
            PlayMode::Strike
            | PlayMode::Bounce
            | PlayMode::Roll
            | PlayMode::Slide
            | PlayMode::Crumple
            | PlayMode::Break => None,
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
    /// do). Only a striker that strikes is held ([`Patch::grip`]). Cheap: once per block.
    pub fn resolved(&self) -> Patch {
        let mut patch = *self;
        if !self.mode.holds_striker() {
            patch.grip = Grip::Free;
        }
        if self.physical_tuning {
            if let Some(f0_hz) =
                object_fundamental_hz(self.object.kind, self.object_material, self.object_size_m)
            {
                patch.tuning.key_tracking = false;
                patch.tuning.fixed_f0_hz = f0_hz.clamp(MIN_PHYSICAL_F0_HZ, MAX_PHYSICAL_F0_HZ);
            }
        }
        if let Some(own) = self.mode.own_contact(&patch) {
            return own;
        }
        let striker = &self.striker;
        patch.hammer_mass_kg = striker.rigid_mass_kg(self.hammer_mass_kg);
        if self.contact_from_materials {
            let (stiffness, restitution) = striker.hertz_contact(self.object_material);
            patch.contact = patch.contact.hertz(stiffness, restitution);
        }
        patch
    }

    /// The object's size, m, which sets how it radiates (see
    /// [`crate::radiation::Radiator`]): the size knob's when physical tuning sets the object's
    /// pitch from it, otherwise the size its mass has in its material
    /// ([`crate::body::object_size_m`]).
    pub fn object_radiating_size_m(&self) -> f64 {
        let kind = self.object.kind;
        if self.physical_tuning
            && object_fundamental_hz(kind, self.object_material, self.object_size_m).is_some()
        {
            self.object_size_m.max(1e-3)
        } else {
            object_size_m(kind, self.object_material, self.object_mass_kg)
        }
    }
}

/// Every scene's state in a voice (allocated with it), and which one the last note-on started.
pub(super) struct Scenes {
    mode: PlayMode,
    strike: strike::StrikeScene,
    bounce: bounce::BounceScene,
    roll: roll::RollScene,
    pub drop: Box<DropPlay>,
    pub slide: slide::SlideScene,
    crumple: crumple::CrumpleScene,
    breaking: breaking::BreakScene,
}

impl Scenes {
    pub fn new() -> Self {
        Self {
            mode: PlayMode::Strike,
            strike: strike::StrikeScene,
            bounce: bounce::BounceScene,
            roll: roll::RollScene::new(),
            drop: DropPlay::new(),
            slide: slide::SlideScene::new(),
            crumple: crumple::CrumpleScene::new(),
            breaking: breaking::BreakScene::new(),
        }
    }

    /// What the last note-on did.
    pub fn mode(&self) -> PlayMode {
        self.mode
    }

    /// The scene of the last note-on.
    pub fn current(&self) -> &dyn Scene {
        match self.mode {
            PlayMode::Strike => &self.strike,
            PlayMode::Bounce => &self.bounce,
            PlayMode::Roll => &self.roll,
            PlayMode::Drop => &*self.drop,
            PlayMode::Slide => &self.slide,
            PlayMode::Crumple => &self.crumple,
            PlayMode::Break => &self.breaking,
        }
    }

    pub fn current_mut(&mut self) -> &mut dyn Scene {
        match self.mode {
            PlayMode::Strike => &mut self.strike,
            PlayMode::Bounce => &mut self.bounce,
            PlayMode::Roll => &mut self.roll,
            PlayMode::Drop => &mut *self.drop,
            PlayMode::Slide => &mut self.slide,
            PlayMode::Crumple => &mut self.crumple,
            PlayMode::Break => &mut self.breaking,
        }
    }

    /// Switch to `mode` for a new note-on (whose [`Scene::start`] then sets its scene up).
    pub fn begin(&mut self, mode: PlayMode) {
        self.mode = mode;
    }
}
