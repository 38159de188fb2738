//! The drop mode in a voice: the macro scene on its own grid, every contact it reports played by the voice's per-sample contact (the micro scale).
//!
//! The scene ([`DropScene`]) advances in steps of about [`MACRO_STEP_S`], a whole number of
//! samples, one step ahead of the audio: at the first sample of a step the step is computed, and
//! each impact in it is struck at its own sample within the step, or as soon as the micro-impact
//! before it has ended (at most 10 ms after that one's strike), together with the others that
//! waited for it (a rattle's impacts come faster than micro-impacts end). An impact (or several
//! points landing at once, or impacts that waited together, merged) becomes one micro-impact of
//! the voice's [`Hammer`] on the floor's modes, struck where the body lands. The micro contact
//! delivers the macro normal impulse: it meets the floor at the macro approach speed v⁻ with the
//! macro restitution e = v⁺/v⁻, and its mass is the normal effective mass the macro impulse J
//! saw, m = J/((1 + e)·v⁻) — without friction exactly 1/(nᵀ·W·n) (Jia–Wang eq. 5), with friction
//! what stick and slip made of it.
//! The body's own modes make its side of the contact compliant, which lowers the contact's
//! dissipation below what eq. (6) inverted for a rigid pair expects (a coin's rim rebounds up to
//! ~10 % harder; a rod's end bends back and strikes again): before each micro-impact up to four
//! trials of it on copies of both bodies as they vibrate measure the impulse it delivers, the
//! mass is corrected (by the ratio J/J(m), then on the secant), and the impact is struck with
//! the mass whose trial came closest.
//! Lasting contacts (sliding, rolling on the floor) lay the striker on the floor under the load
//! they carry and drive it over a rough track at the contact's speed over the floor (the roll
//! mode's [`Rolling`]), so the rattle and the roll are heard to the end.

use super::{NoteStart, Scene};
use crate::interaction::{ContactPrep, ContactSetup, Gravity, Hammer};
use crate::material::pair_restitution;
use crate::resonator::{ModalBank, ObjectSpec, StrikeLine};
use crate::rigid::drop::{ContactEvent, ContactKind, DropScene, Launch};
use crate::rigid::plus::Settings;
use crate::roll::{RollSettings, Rolling, Track};
use crate::surface::SurfaceSettings;
use crate::voice::bodies::Bodies;
use crate::voice::patch::{Fall, Patch};
use crate::voice::prepared::Strike;
use crate::voice::MAX_CHUNK;
pub use trace::{DropImpact, DropTrace, Pose, DROP_TRACE_IMPACTS, DROP_TRACE_POINTS};

mod trace;

/// Length of a macro step, s (rounded to whole samples): gravity's velocity per step, 2.5 mm/s,
/// stays below PLUS's capture velocity, so a body resting on the floor is captured.
pub const MACRO_STEP_S: f64 = 0.25e-3;
/// Contacts one macro step can report: a few impacts of up to four points each, and a contact
/// step's four points.
const MAX_STEP_EVENTS: usize = 32;
/// Micro-impacts waiting for their sample (or for the micro-impact before them to end); one
/// arriving when all wait is dropped.
const QUEUE: usize = 8;
/// The micro contact's restitution is kept within these bounds (Hunt–Crossley's damping needs
/// e > 0); its mass then carries the macro impulse.
const MIN_MICRO_RESTITUTION: f64 = 0.05;
const MAX_MICRO_RESTITUTION: f64 = 0.98;
/// Impacts that waited together are struck as one if they land within this of the first along
/// the floor's strike axis (where the micro scale strikes it), m: a die's corners do (16 mm
/// apart, 23 mm across), a pencil's or a brick's ends mostly do not (nor the corners of a die
/// scaled past 25 mm). The floor's highest modes then hear their mean point rather than each
/// corner, as they do for corners landing at once.
const MERGE_SPAN_M: f64 = 0.025;
/// Approaches slower than this (m/s) are not struck.
const MIN_MICRO_SPEED_M_PER_S: f64 = 1e-4;
/// A micro-impact (and its trial) ends when its striker has been out of contact this long, s
/// (a flexible body's end bending back touches again within half its lowest period), or
/// [`TRIAL_MAX_S`] after its strike: the striker is then taken away, so it cannot wander into
/// contacts the macro scene did not make.
const TRIAL_APART_S: f64 = 0.003;
const TRIAL_MAX_S: f64 = 0.01;
/// A striker apart that may touch again is asked again this many samples later (the question
/// costs about what a sample of flight does).
const APART_CHECK: usize = 8;
/// The most samples a trial's striker flies apart in one block.
const TRIAL_FLIGHT_BLOCK: usize = 64;
/// Trials per micro-impact at most, the relative impulse error that ends them, and the most
/// they may change the mass by (a rod's chattering end makes the impulse jump with the mass).
const TRIALS: usize = 4;
const TRIAL_TOLERANCE: f64 = 0.01;
const MAX_CORRECTION: f64 = 4.0;
/// Steps a micro-impact's predicted contact (eq. 9) is integrated with at least, in the voice
/// and in its trials: half of [`crate::interaction::MIN_STEPS_PER_CONTACT`]. The trials fit each
/// micro-impact's mass to the impulse it must deliver, so the coarser steps' error in the
/// restitution never reaches what is heard; what remains is the force pulse's shape, the
/// trapezoid rule's O(h²). Against 256 steps, the first 10 ms after the first landing of a die,
/// coin, brick and pencil (0.3 m onto oak or glass) differ by 0.04–1.6 % rms at 32 steps and
/// 0.01–0.4 % at 64 (−36 dB at worst); a steel spoon's and ring's rattles part ways at either
/// count, as at any change of rounding (a micro-impact waits for the one before it). The drop
/// costs ~11 % fewer instructions. A lasting contact (the body laid on the floor) has no trials:
/// its landings keep [`crate::interaction::MIN_STEPS_PER_CONTACT`].
pub const STEPS_PER_CONTACT: f64 = 32.0;
/// The longest a drop is followed, s: a body that never lands or rests (no gravity, no friction)
/// ends there, its lasting contact lifted off with it.
const MAX_DROP_S: f64 = 60.0;
/// Smoothing of the rolling track's speed as the macro scene reports it, s.
const TRACK_SMOOTHING_S: f64 = 0.005;

/// The macro scene of a drop note of the (resolved) `patch`: its body, of the striker's
/// material, let fall from `height_m` and thrown down at `throw_m_per_s` under the fall's
/// gravity, its pose and spin drawn from `seed`; PLUS's real-time settings with the pair's
/// restitution (the lower of the two materials').
pub fn drop_scene(patch: &Patch, height_m: f64, throw_m_per_s: f64, seed: u64) -> DropScene {
    let settings = &patch.drop;
    let body = patch.striker.material;
    let e_min = pair_restitution(body, patch.object_material);
    let drop = Launch {
        shape: settings.body.shape(settings.size_m),
        density_kg_per_m3: body.density_kg_per_m3,
        height_m,
        throw_m_per_s,
        spin_rad_per_s: settings.spin_rad_per_s,
        drift_m_per_s: settings.drift_m_per_s,
        mu: settings.mu,
    };
    let mut scene = DropScene::dropped(&drop, Settings::real_time(e_min), seed);
    let g = patch.fall.gravity.accel_m_per_s2.max(0.0);
    scene.gravity_m_per_s2 = glam::DVec3::new(0.0, 0.0, -g);
    scene
}

/// One micro-impact to strike.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MicroImpact {
    /// Sample within the current macro step it is due at.
    at_sample: usize,
    pub v_in_m_per_s: f64,
    pub mass_kg: f64,
    pub restitution: f64,
    /// The macro normal impulse it carries, N·s.
    pub normal_impulse_n_s: f64,
    /// The normal impulse the micro contact delivered, N·s: the change of the striker's rigid
    /// momentum from its strike to the next contact (NaN until then).
    pub delivered_n_s: f64,
    /// Where on the floor's strike axis it lands, 0…1.
    pub position: f64,
}

impl MicroImpact {
    /// The micro-impact of contacts whose sums are (J, J·v⁻, J·v⁺), struck at `position` (0…1):
    /// their summed impulse J at their impulse-weighted mean approach speed and rebound, its
    /// restitution kept within bounds and its mass m = J/((1 + e)·v⁻).
    fn from_sums(at_sample: usize, [j, j_v_in, j_v_out]: [f64; 3], position: f64) -> Self {
        let v_in = j_v_in / j;
        let restitution = (j_v_out / j / v_in).clamp(MIN_MICRO_RESTITUTION, MAX_MICRO_RESTITUTION);
        MicroImpact {
            at_sample,
            v_in_m_per_s: v_in,
            mass_kg: j / ((1.0 + restitution) * v_in),
            restitution,
            normal_impulse_n_s: j,
            delivered_n_s: f64::NAN,
            position,
        }
    }

    /// `impacts` (at least one) struck as one, as points landing together are
    /// ([`MicroImpact::from_sums`], at their impulse-weighted mean position). It keeps their
    /// summed impulse (the momentum given to the floor), the kinetic energy they lose,
    /// Σ½J·(v⁻ − v⁺), and at one restitution their summed energy, ½m·v² = J·v/(2(1 + e)).
    fn merged(impacts: &[MicroImpact]) -> MicroImpact {
        let [first, rest @ ..] = impacts else {
            return MicroImpact::default();
        };
        if rest.is_empty() {
            return *first;
        }
        let sum = |f: fn(&MicroImpact) -> f64| -> f64 {
            impacts.iter().map(|i| i.normal_impulse_n_s * f(i)).sum()
        };
        let j: f64 = impacts.iter().map(|i| i.normal_impulse_n_s).sum();
        let sums = [
            j,
            sum(|i| i.v_in_m_per_s),
            sum(|i| i.restitution * i.v_in_m_per_s),
        ];
        MicroImpact::from_sums(first.at_sample, sums, sum(|i| i.position) / j)
    }
}

/// A lasting contact: the striker laid on the floor, driven over a rough track.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lasting {
    /// The contact's speed over the floor, m/s.
    track_speed_m_per_s: f64,
}

/// The drop mode's state in a voice (boxed, about 100 kB with its trial copies of a striker and
/// a floor; allocated with the voice).
pub(in crate::voice) struct DropPlay {
    pub scene: DropScene,
    /// The note's floor object, its strike position the patch's (where a body landing at the
    /// origin strikes).
    floor: ObjectSpec,
    /// Where on its strike axis the floor's bank is struck now, 0…1 (NaN: as loaded).
    struck_at: f64,
    /// The floor's size along its strike axis, m (the patch's object size).
    floor_size_m: f64,
    step_samples: usize,
    /// Samples of the current step already rendered.
    into_step: usize,
    queue: [MicroImpact; QUEUE],
    queued: usize,
    lasting: Option<Lasting>,
    rolling: Rolling,
    /// The contact of the micro-impacts (its restitution set for each) and of lasting contacts.
    pub setup: ContactSetup,
    /// The pair's restitution, for lasting contacts.
    restitution: f64,
    gravity_m_per_s2: f64,
    /// No more contacts are started: the scene ended (rest, a note-off that lifts, or PLUS
    /// could not resolve a contact in real time).
    finished: bool,
    /// Note-off with lift: no contact starts after the current one.
    lifted: bool,
    /// The body rests on the floor after its last micro-impact (not from a lasting contact, whose
    /// end at rest lays it down): its vibration drains into the floor.
    lying: bool,
    /// Every micro-impact struck since the note-on, for tests and tools (capacity
    /// [`MAX_RECORDED`]).
    pub record: [MicroImpact; MAX_RECORDED],
    pub recorded: usize,
    /// Micro-impacts struck since the note-on.
    pub struck: usize,
    /// The last micro-impact's record index and the striker's velocity at its strike, m/s,
    /// until its delivered impulse is taken.
    open: Option<(usize, f64)>,
    /// Samples since the micro-impact's strike, and since its striker last touched.
    since_strike: usize,
    apart: usize,
    /// Samples to wait before asking again whether the striker flies apart for sure
    /// ([`DropPlay::flight_samples`]), after it said no.
    flight_wait: usize,
    /// [`TRIAL_APART_S`] and [`TRIAL_MAX_S`] in samples.
    apart_samples: usize,
    max_samples: usize,
    /// The floor's mode shapes along its strike line, where its micro-impacts strike it.
    floor_line: StrikeLine,
    /// The live view's record of the drop.
    pub trace: DropTrace,
    /// The trial striker and floor: copies of the voice's, for each trial.
    trial: Hammer,
    trial_floor: Box<ModalBank>,
}

/// Micro-impacts a drop keeps in its record.
pub const MAX_RECORDED: usize = 64;

impl DropPlay {
    pub fn new() -> Box<Self> {
        Box::new(Self {
            scene: DropScene::new(
                crate::rigid::RigidBody::at_rest(1.0, glam::DVec3::ONE),
                crate::rigid::shape::Shape::Sphere { radius_m: 0.01 },
                0.3,
                Settings::real_time(0.5),
            ),
            floor: ObjectSpec::marimba(440.0),
            struck_at: f64::NAN,
            floor_size_m: 1.0,
            step_samples: 1,
            into_step: 0,
            queue: [MicroImpact::default(); QUEUE],
            queued: 0,
            lasting: None,
            rolling: Rolling::new(Track::new(RollSettings::marble(), 0.0)),
            setup: Patch::default().contact,
            restitution: 0.5,
            gravity_m_per_s2: 9.81,
            finished: true,
            lifted: false,
            lying: false,
            record: [MicroImpact::default(); MAX_RECORDED],
            recorded: 0,
            struck: 0,
            open: None,
            since_strike: 0,
            apart: 0,
            flight_wait: 0,
            apart_samples: 1,
            max_samples: 1,
            floor_line: StrikeLine::new(&ObjectSpec::marimba(440.0)),
            trace: DropTrace::default(),
            trial: Hammer::new(1.0, Patch::default().contact),
            trial_floor: ModalBank::new(1.0),
        })
    }

    /// Drop the patch's body on `floor` (the note's object) from `height_m`, thrown down at
    /// `throw_m_per_s`, its pose and spin drawn from `seed`. The patch is resolved; `contact` is
    /// its prepared contact (for the trials).
    #[allow(clippy::too_many_arguments)]
    fn drop_body(
        &mut self,
        patch: &Patch,
        contact: &ContactPrep,
        floor: &ObjectSpec,
        height_m: f64,
        throw_m_per_s: f64,
        seed: u64,
        dt_s: f64,
    ) {
        self.restitution = pair_restitution(patch.striker.material, patch.object_material);
        self.gravity_m_per_s2 = patch.fall.gravity.accel_m_per_s2.max(0.0);
        self.scene = drop_scene(patch, height_m, throw_m_per_s, seed);
        self.floor = *floor;
        self.floor_line = StrikeLine::new(floor);
        self.struck_at = f64::NAN;
        self.floor_size_m = patch.object_size_m.max(0.01);
        self.step_samples = ((MACRO_STEP_S / dt_s).round() as usize).clamp(1, MAX_CHUNK);
        self.apart_samples = (TRIAL_APART_S / dt_s).ceil() as usize;
        self.max_samples = (TRIAL_MAX_S / dt_s).ceil() as usize;
        self.into_step = 0;
        self.queued = 0;
        self.lasting = None;
        // A landed body slides at most about as fast as it landed (gravity's fall and the
        // throw); faster, it needs more grid points a sample.
        let fall = Fall {
            height_m,
            ..patch.fall
        };
        let landing_m_per_s = (fall.fall_speed_sq() + throw_m_per_s * throw_m_per_s).sqrt();
        self.rolling = Rolling::new(Track::new(
            RollSettings {
                radius_m: self.scene.shape().contact_radius_m(),
                track: SurfaceSettings {
                    seed,
                    ..patch.drop.surface
                },
                ..RollSettings::marble()
            },
            landing_m_per_s * dt_s,
        ));
        self.setup = patch.contact;
        self.trial.set_prepared(contact);
        self.finished = false;
        self.lifted = false;
        self.lying = false;
        self.recorded = 0;
        self.struck = 0;
        self.open = None;
        self.trace.clear();
        self.record_pose();
    }

    /// Take the open micro-impact's delivered impulse (its contact is over: the striker flies
    /// at its exit velocity, no gravity acting on a micro-impact).
    pub fn close(&mut self, hammer: &Hammer) {
        if let Some((index, v0)) = self.open.take() {
            let impact = &mut self.record[index];
            impact.delivered_n_s = impact.mass_kg * (v0 - hammer.velocity_m_per_s());
        }
    }

    /// The body's mechanical energy until it rests or is lifted: kinetic, and potential above
    /// where its lowest point touches the floor, J (what the drop has yet to play).
    pub fn energy_j(&self) -> f64 {
        if self.finished {
            return 0.0;
        }
        let body = &self.scene.body;
        body.kinetic_energy_j() + body.mass_kg * self.gravity_m_per_s2 * self.scene.clearance_m()
    }

    /// Whether the drop still makes contacts (or has one under way).
    fn plays_on(&self, hammer: &Hammer) -> bool {
        let struck_not_begun = self.open.is_some() && hammer.stats().onsets == 0;
        !self.finished || self.queued > 0 || hammer.in_contact() || struck_not_begun
    }

    /// Whether nothing is left for [`DropPlay::before_sample`] to do (it only counts samples
    /// from now on): the drop is over, no micro-impact waits or rings on, no lasting contact,
    /// and a body come to rest after its last micro-impact already lies on the floor.
    fn is_over(&self, hammer: &Hammer) -> bool {
        let laid = self.lying || self.lifted || hammer.is_at_rest() || !self.scene.at_rest;
        self.finished && self.queued == 0 && self.lasting.is_none() && hammer.is_retired() && laid
    }

    /// Lift the body: no contact starts from now on; a micro-impact under way plays out, a
    /// lasting contact ends now.
    pub fn lift(&mut self, hammer: &mut Hammer) {
        self.lifted = true;
        self.finished = true;
        self.queued = 0;
        if self.lasting.take().is_some() {
            hammer.retire();
        }
    }

    /// Prepare the sample about to be rendered: a new macro step at its first sample, then the
    /// micro-impacts due, and the lasting contact's drive. Returns the energy (J) the contacts
    /// started now put in (∞ for a lasting contact, which the rolling track drives).
    pub fn before_sample(&mut self, hammer: &mut Hammer, bank: &mut ModalBank, dt_s: f64) -> f64 {
        let mut energy_j = 0.0;
        if self.into_step >= self.step_samples {
            self.into_step = 0;
            // Impacts still waiting from the last step are due now.
            self.queue[..self.queued]
                .iter_mut()
                .for_each(|i| i.at_sample = 0);
        }
        if self.into_step == 0 && !self.finished {
            if self.scene.time_s > MAX_DROP_S {
                // A body that never lands or never rests (no gravity, no friction): the drop
                // ends, and a lasting contact is lifted off it without a jolt.
                self.finished = true;
                if self.lasting.take().is_some() {
                    hammer.lift_off(bank);
                }
            } else {
                energy_j += self.macro_step(hammer, bank, dt_s);
            }
        }
        if self.lasting.is_none() && !hammer.is_retired() && self.micro_impact_over(hammer) {
            self.close(hammer);
            hammer.retire();
        }
        if self.lying_down_due(hammer) {
            self.lying = true;
            hammer.lie_on(bank, self.scene.body.mass_kg * self.gravity_m_per_s2);
        }
        // The impacts due, once the micro-impact before them is over, its re-contacts included
        // (at most [`TRIAL_MAX_S`] after its strike: cut short, it would deliver less than its
        // trials measured).
        let free = hammer.is_retired() || self.lasting.is_some();
        let due = if free { self.impacts_due() } else { 0 };
        if due > 0 {
            let mut impact = MicroImpact::merged(&self.queue[..due]);
            self.queue.copy_within(due..self.queued, 0);
            self.queued -= due;
            self.restrike(bank, impact.position, dt_s);
            impact.mass_kg = self.fitted_mass_kg(&impact, hammer, bank, dt_s);
            hammer.share_restitution(&self.trial);
            energy_j += self.strike(hammer, bank, &impact, dt_s);
        }
        if let Some(lasting) = self.lasting {
            let accel = self
                .rolling
                .advance(lasting.track_speed_m_per_s, TRACK_SMOOTHING_S, dt_s);
            hammer.set_track_acceleration(accel);
        }
        self.into_step += 1;
        energy_j
    }

    /// How many of the queued impacts are due now and are struck together, as one: those that
    /// waited for the micro-impact before them (a rattle's impacts come faster than micro-impacts
    /// end) and land within [`MERGE_SPAN_M`] of the first, as long as their masses add up to no
    /// more than the body's (a heavier striker would stay on the floor longer than any of them
    /// did); the first alone whatever its mass.
    fn impacts_due(&self) -> usize {
        let (into_step, body_kg) = (self.into_step, self.scene.body.mass_kg);
        let span = MERGE_SPAN_M / self.floor_size_m;
        let first = self.queue[0].position;
        let mut merged_kg = 0.0;
        self.queue[..self.queued]
            .iter()
            .enumerate()
            .take_while(|(k, impact)| {
                merged_kg += impact.mass_kg;
                let alike = (impact.position - first).abs() <= span && merged_kg <= body_kg;
                impact.at_sample <= into_step && (*k == 0 || alike)
            })
            .count()
    }

    /// The body rests and its last micro-impact is over (none queued, the hammer retired and
    /// not yet at rest), and it has not been lifted or laid down: it lies on the floor now.
    fn lying_down_due(&self, hammer: &Hammer) -> bool {
        let last_impact_over = self.queued == 0 && hammer.is_retired() && !hammer.is_at_rest();
        self.scene.at_rest && last_impact_over && !self.lifted && !self.lying
    }

    /// Samples from now in which [`DropPlay::before_sample`] would do nothing and the retired
    /// hammer would only ring: none while a contact may start or end, the step's end or the
    /// body's lying down is due; else up to the step's end or the next impact due.
    fn quiet_samples(&self, hammer: &Hammer) -> usize {
        let macro_step_due = self.into_step == 0 && !self.finished;
        if !hammer.is_retired()
            || self.lasting.is_some()
            || macro_step_due
            || self.into_step >= self.step_samples
            || self.lying_down_due(hammer)
        {
            return 0;
        }
        let step_end = self.step_samples - self.into_step;
        match self.queued {
            0 => step_end,
            _ => step_end.min(self.queue[0].at_sample.saturating_sub(self.into_step)),
        }
    }

    /// Samples from now (up to `samples`) in which the micro-impact under way only flies apart,
    /// so that [`DropPlay::before_sample`] would only count them: its striker has touched,
    /// recedes and surely cannot touch again ([`Hammer::free_flight_samples`]), no step begins,
    /// no impact is due (the hammer is not free) and the micro-impact is not over
    /// ([`TRIAL_MAX_S`], [`TRIAL_APART_S`]). Asked again [`APART_CHECK`] samples after a no.
    fn flight_samples(
        &mut self,
        hammer: &Hammer,
        bank: &ModalBank,
        samples: usize,
        dt_s: f64,
    ) -> usize {
        if self.flight_wait > 0 {
            self.flight_wait -= 1;
            return 0;
        }
        let apart = !hammer.is_retired()
            && !hammer.in_contact()
            && self.lasting.is_none()
            && hammer.stats().onsets > 0
            && hammer.velocity_m_per_s() < 0.0;
        if !apart || self.into_step == 0 || self.into_step >= self.step_samples {
            return 0;
        }
        let span = samples
            .min(self.step_samples - self.into_step)
            .min(self.max_samples.saturating_sub(self.since_strike))
            .min(self.apart_samples.saturating_sub(self.apart));
        let flight = hammer.free_flight_samples(bank, span, dt_s);
        if flight == 0 {
            self.flight_wait = APART_CHECK;
        }
        flight
    }

    /// Ring, from `start`, the `taken` samples [`DropPlay::before_sample`] has already taken
    /// and the quiet samples after them ([`DropPlay::quiet_samples`]: nothing happens but
    /// ringing until the next step or impact) as one block, the same bits as a sample at a time;
    /// returns where the block ends.
    fn ring_quiet(
        &mut self,
        bodies: &mut Bodies,
        mid: &mut [f64],
        side: &mut [f64],
        start: usize,
        taken: usize,
    ) -> usize {
        let quiet = self
            .quiet_samples(&bodies.hammer)
            .min(mid.len() - start - taken);
        let end = start + taken + quiet;
        let (m, s) = (&mut mid[start..end], &mut side[start..end]);
        bodies.hammer.ring_block(&mut bodies.bank, m, s);
        self.into_step += quiet;
        end
    }

    /// Advance the scene by one step and schedule what it reports.
    fn macro_step(&mut self, hammer: &mut Hammer, bank: &mut ModalBank, dt_s: f64) -> f64 {
        let step_s = self.step_samples as f64 * dt_s;
        let start_s = self.scene.time_s;
        let mut events = [None::<ContactEvent>; MAX_STEP_EVENTS];
        let mut count = 0;
        let result = self.scene.step(step_s, &mut |e| {
            if count < MAX_STEP_EVENTS {
                events[count] = Some(e);
                count += 1;
            }
        });
        if result.is_err() {
            // PLUS could not resolve a contact within the real-time bounds: the drop ends here.
            self.finished = true;
        }
        self.record_pose();
        if self.scene.at_rest {
            self.trace.rest(self.scene.time_s);
        }
        let (mut load_n_s, mut track_m_per_s, mut lasting) = (0.0, 0.0f64, false);
        let mut k = 0;
        while k < count {
            let Some(first) = events[k] else { break };
            match first.kind {
                ContactKind::Impact => {
                    // Points landing at the same moment: one micro-impact with their summed
                    // impulse, at their impulse-weighted mean point, speeds and rebound.
                    let mut sum = [0.0; 4];
                    while let Some(e) = events.get(k).copied().flatten() {
                        if e.kind != ContactKind::Impact || e.time_s != first.time_s {
                            break;
                        }
                        let j = e.normal_impulse_n_s;
                        sum[0] += j;
                        sum[1] += j * e.normal_speed_m_per_s;
                        sum[2] += j * e.rebound_speed_m_per_s;
                        sum[3] += j * e.point_m.x;
                        k += 1;
                    }
                    let offset_s = first.time_s - start_s;
                    self.schedule(sum, (offset_s / dt_s).floor().max(0.0) as usize);
                    self.trace.impact(DropImpact {
                        t_s: first.time_s as f32,
                        normal_impulse_n_s: sum[0] as f32,
                    });
                    continue;
                }
                ContactKind::Slide | ContactKind::Roll => {
                    lasting = true;
                    load_n_s += first.normal_impulse_n_s;
                    track_m_per_s = track_m_per_s.max(first.track_speed_m_per_s);
                }
                ContactKind::Rest => self.finished = true,
            }
            k += 1;
        }
        // A body come to rest in this step leaves no lasting contact behind.
        let lasting = lasting && !self.finished;
        self.lasting_contact(
            hammer,
            bank,
            lasting,
            load_n_s / step_s,
            track_m_per_s,
            dt_s,
        )
    }

    /// Record the body's pose now in the trace.
    fn record_pose(&mut self) {
        let scene = &self.scene;
        self.trace.push(|| Pose {
            t_s: scene.time_s as f32,
            height_m: scene.clearance_m() as f32,
            tilt_rad: (scene.body.orientation * glam::DVec3::Z)
                .z
                .clamp(-1.0, 1.0)
                .acos() as f32,
        });
    }

    /// Queue a micro-impact from the sums (J, J·v⁻, J·v⁺, J·x) of the points landing together.
    fn schedule(&mut self, sum: [f64; 4], at_sample: usize) {
        let j = sum[0];
        if !(j > 0.0) || self.queued == QUEUE || self.lifted {
            return;
        }
        let impact = MicroImpact::from_sums(
            at_sample.min(self.step_samples - 1),
            [j, sum[1], sum[2]],
            self.floor_position(sum[3] / j),
        );
        if !(impact.v_in_m_per_s > MIN_MICRO_SPEED_M_PER_S) {
            return;
        }
        self.queue[self.queued] = impact;
        self.queued += 1;
    }

    /// The point of the floor's strike axis (0…1) under world x = `x_m`: the patch's strike
    /// position at the origin, moving by x over the floor's size.
    fn floor_position(&self, x_m: f64) -> f64 {
        (self.floor.strike_position + x_m / self.floor_size_m).clamp(0.02, 0.98)
    }

    /// Move the floor's strike point to `position` (0…1).
    fn restrike(&mut self, bank: &mut ModalBank, position: f64, dt_s: f64) {
        if position == self.struck_at {
            return;
        }
        self.struck_at = position;
        let line = &self.floor_line;
        bank.restrike(|i| line.shapes_at(i, position).0, 1.0 / dt_s);
    }

    /// The mass with which `impact` delivers its macro impulse: trials from the estimate, the
    /// second at m·J/J(m), the others on the secant, within [`MAX_CORRECTION`] of the estimate,
    /// keeping the mass whose trial came closest (so the impact struck is one whose outcome is
    /// known).
    fn fitted_mass_kg(
        &mut self,
        impact: &MicroImpact,
        hammer: &Hammer,
        floor: &ModalBank,
        dt_s: f64,
    ) -> f64 {
        let (estimate_kg, target) = (impact.mass_kg, impact.normal_impulse_n_s);
        let mut trial = *impact;
        let mut best = (f64::INFINITY, estimate_kg);
        // The trial before: (mass, impulse delivered).
        let mut before: Option<(f64, f64)> = None;
        for _ in 0..TRIALS {
            let mass_kg = trial.mass_kg;
            let delivered = self.trial_impulse(&trial, hammer, floor, before.is_some(), dt_s);
            // A trial that delivered nothing (it never touched) tells nothing.
            if !(delivered > 0.0) {
                break;
            }
            let error = (delivered / target - 1.0).abs();
            if error < best.0 {
                best = (error, mass_kg);
            }
            if error < TRIAL_TOLERANCE {
                break;
            }
            // The secant through the last two trials, or the ratio from the first (J ∝ m on
            // a rigid floor with the restitution fixed).
            let ratio_kg = mass_kg * target / delivered;
            let next_kg = match before {
                Some((m0, j0)) if delivered != j0 => {
                    let secant_kg =
                        mass_kg + (target - delivered) * (mass_kg - m0) / (delivered - j0);
                    if secant_kg > 0.0 {
                        secant_kg
                    } else {
                        ratio_kg
                    }
                }
                _ => ratio_kg,
            };
            before = Some((mass_kg, delivered));
            trial.mass_kg =
                next_kg.clamp(estimate_kg / MAX_CORRECTION, estimate_kg * MAX_CORRECTION);
            // Held at a bound of the correction, the next trial would repeat this one (and,
            // with at most four trials, so would every one after it).
            if trial.mass_kg == mass_kg {
                break;
            }
        }
        best.1
    }

    /// Count a sample of the micro-impact under way; whether it is over (see [`TRIAL_APART_S`]).
    fn micro_impact_over(&mut self, hammer: &Hammer) -> bool {
        self.since_strike += 1;
        let parted = parted(hammer, &mut self.apart, self.apart_samples);
        self.since_strike > self.max_samples || parted
    }

    /// The normal impulse `impact` delivers, N·s (0 if it never touches), struck by a copy of
    /// `hammer` (its body's modes as they vibrate, its stiffness scale) on a copy of `floor`;
    /// `again`, the trial before was on the same floor, whose modes the floor's copy keeps (with
    /// the transitions it prepared). The striker is copied afresh: a strike takes a lying body's
    /// damper off its copy.
    fn trial_impulse(
        &mut self,
        impact: &MicroImpact,
        hammer: &Hammer,
        floor: &ModalBank,
        again: bool,
        dt_s: f64,
    ) -> f64 {
        let trial = &mut self.trial;
        if again {
            self.trial_floor.copy_state_from(floor);
        } else {
            self.trial_floor.copy_from(floor);
        }
        trial.striker_mut().copy_from(hammer.striker());
        trial.set_striker_level(hammer.striker_level());
        trial.set_stiffness_scale(hammer.stiffness_scale());
        trial.set_gravity(Gravity::NONE);
        trial.set_track_acceleration(0.0);
        let setup = ContactSetup {
            restitution: Some(impact.restitution),
            ..self.setup
        };
        trial.strike(&self.trial_floor, impact.v_in_m_per_s, 0.0, impact.mass_kg);
        let v0 = trial.velocity_m_per_s();
        let (mut done, mut apart, mut wait) = (0, 0, 0);
        let mut heard = [[0.0; TRIAL_FLIGHT_BLOCK]; 2];
        // As the voice does (see `micro_impact_over`).
        while done < self.max_samples {
            if apart > 0 && trial.stats().onsets > 0 && wait == 0 {
                // Apart: no pull acts on a micro-impact's striker, so once it cannot touch
                // again in the samples the voice would still follow it, its velocity is final;
                // a stretch in which it surely cannot touch is flown in a block.
                let left = (self.apart_samples + 1)
                    .saturating_sub(apart)
                    .min(self.max_samples - done);
                let flight = trial.free_flight_samples(&self.trial_floor, left, dt_s);
                if flight == left {
                    break;
                }
                if flight > 0 {
                    let n = flight.min(TRIAL_FLIGHT_BLOCK);
                    let [mid, side] = &mut heard;
                    let flown =
                        trial.fly_block(&mut self.trial_floor, &mut mid[..n], &mut side[..n], dt_s);
                    (done, apart) = (done + flown, apart + flown);
                    continue;
                }
                wait = APART_CHECK;
            }
            wait = wait.saturating_sub(1);
            trial.process_sample(&setup, &mut self.trial_floor, dt_s);
            done += 1;
            // A striker gone for good has delivered all it will: the voice's micro-impact
            // would go on apart for longer, to the same impulse.
            if trial.is_gone_for_good() || parted(trial, &mut apart, self.apart_samples) {
                break;
            }
        }
        trial.retire();
        let impulse = impact.mass_kg * (v0 - trial.velocity_m_per_s());
        if impulse.is_finite() {
            impulse.max(0.0)
        } else {
            0.0
        }
    }

    /// Strike one micro-impact; returns the energy it brings, J.
    fn strike(
        &mut self,
        hammer: &mut Hammer,
        bank: &mut ModalBank,
        impact: &MicroImpact,
        dt_s: f64,
    ) -> f64 {
        self.close(hammer);
        self.lasting = None;
        self.restrike(bank, impact.position, dt_s);
        self.setup.restitution = Some(impact.restitution);
        hammer.set_gravity(Gravity::NONE);
        hammer.set_track_acceleration(0.0);
        hammer.strike(bank, impact.v_in_m_per_s, 0.0, impact.mass_kg);
        self.struck += 1;
        if self.recorded < MAX_RECORDED {
            self.record[self.recorded] = MicroImpact {
                delivered_n_s: f64::NAN,
                ..*impact
            };
            self.open = Some((self.recorded, hammer.velocity_m_per_s()));
            self.recorded += 1;
        }
        self.since_strike = 0;
        self.apart = 0;
        self.flight_wait = 0;
        0.5 * impact.mass_kg * impact.v_in_m_per_s * impact.v_in_m_per_s
    }

    /// Start, drive or end the lasting contact after a step: `lasting` whether the step had one,
    /// carrying `load_n` (N) at `track_m_per_s`.
    fn lasting_contact(
        &mut self,
        hammer: &mut Hammer,
        bank: &mut ModalBank,
        lasting: bool,
        load_n: f64,
        track_m_per_s: f64,
        dt_s: f64,
    ) -> f64 {
        if !lasting || self.lifted {
            if self.lasting.take().is_some() {
                if self.scene.at_rest {
                    // At rest: its load stays on the floor, which rings on about it.
                    hammer.come_to_rest(bank);
                } else {
                    // Lifted off into flight.
                    hammer.retire();
                }
            }
            return 0.0;
        }
        if let Some(lasting) = self.lasting.as_mut() {
            lasting.track_speed_m_per_s = track_m_per_s;
            return 0.0;
        }
        if hammer.in_contact() || self.queued > 0 || !(self.gravity_m_per_s2 > 0.0) {
            return 0.0;
        }
        self.close(hammer);
        let mass_kg = (load_n / self.gravity_m_per_s2)
            .max(1e-6)
            .min(self.scene.body.mass_kg);
        let x_m = self.scene.body.position_m.x;
        self.restrike(bank, self.floor_position(x_m), dt_s);
        self.setup.restitution = Some(self.restitution);
        hammer.set_gravity(Gravity {
            accel_m_per_s2: self.gravity_m_per_s2,
            in_contact: true,
            capture_m_per_s: 0.0,
        });
        hammer.set_track_acceleration(0.0);
        // The floor already carries the load (the captured contact steps laid it on): it starts
        // where the load holds it, without a jolt, as a rolling ball's does.
        bank.preload(mass_kg * self.gravity_m_per_s2);
        hammer.place(bank, &self.setup, mass_kg);
        self.lasting = Some(Lasting {
            track_speed_m_per_s: track_m_per_s,
        });
        f64::INFINITY
    }
}

/// Count one sample of a micro-impact's striker in `apart` (samples out of contact); whether it
/// touched and has been apart for more than `apart_samples` since (see [`TRIAL_APART_S`]).
fn parted(hammer: &Hammer, apart: &mut usize, apart_samples: usize) -> bool {
    *apart = if hammer.in_contact() { 0 } else { *apart + 1 };
    hammer.stats().onsets > 0 && *apart > apart_samples
}

/// A drop note: always the patch's drop, let fall from the drop height — a tumbling body's
/// loudest impact need not be its first (a brick landing on an edge slaps down on a face at a
/// speed its fall did not set) — and the velocity's `level_db` sets its level as a gain.
pub(super) fn strike(patch: &Patch, level_db: f64, gain: f64) -> Strike {
    Strike {
        v_in_m_per_s: 0.0,
        drop_height_m: patch.fall.height_m.max(0.0),
        gain: gain * 10f64.powf(level_db / 20.0),
        pan: 0.0,
        press_fraction: 1.0,
    }
}

/// The drop's contact for `patch` (resolved so far): the body's own modes and rigid mass stand in
/// for the striker's; its contact is Hertz's at its rounding, restituting the pair's coefficient
/// (each micro-impact then restitutes its own macro impact's).
pub(super) fn resolved(patch: &Patch) -> Patch {
    let material = patch.striker.material;
    let settings = &patch.drop;
    let striker = settings.body.stand_in(settings.size_m, material);
    let mut resolved = *patch;
    resolved.striker = striker;
    resolved.contact = patch.contact.hertz(
        settings
            .body
            .contact_stiffness(settings.size_m, material, patch.object_material),
        pair_restitution(material, patch.object_material),
    );
    resolved.hammer_mass_kg = striker.rigid_mass_kg(patch.hammer_mass_kg);
    resolved
}

impl Scene for DropPlay {
    /// Every contact is the drop's: the hammer waits for the first impact.
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let hammer = &mut bodies.hammer;
        hammer.set_gravity(Gravity::NONE);
        hammer.set_irregularity(0.0, note.seed);
        hammer.retire();
        // (Each contact's energy is added as it starts: `render`.)
        self.drop_body(
            note.patch,
            note.contact,
            note.floor,
            note.strike.drop_height_m,
            note.strike.v_in_m_per_s,
            note.seed,
            note.dt_s,
        );
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
        if self.is_over(&bodies.hammer) {
            // Both bodies ring freely: a block at a time, the same bits.
            bodies.hammer.ring_block(&mut bodies.bank, mid, side);
            return;
        }
        debug_assert_eq!(mid.len(), side.len());
        let mut start = 0;
        while start < mid.len() {
            if self.quiet_samples(&bodies.hammer) > 0 {
                start = self.ring_quiet(bodies, mid, side, start, 0);
                continue;
            }
            let flight = self.flight_samples(&bodies.hammer, &bodies.bank, mid.len() - start, dt_s);
            if flight > 0 {
                // The striker only flies apart: a block, the same bits as a sample at a time.
                let end = start + flight;
                let (m, s) = (&mut mid[start..end], &mut side[start..end]);
                let flown = bodies.hammer.fly_block(&mut bodies.bank, m, s, dt_s);
                self.since_strike += flown;
                self.apart += flown;
                self.into_step += flown;
                start += flown;
                continue;
            }
            bodies.input_energy_j += self.before_sample(&mut bodies.hammer, &mut bodies.bank, dt_s);
            if bodies.hammer.is_retired() {
                // Only ringing in this sample (a step with nothing to strike).
                start = self.ring_quiet(bodies, mid, side, start, 1);
                continue;
            }
            let pickup = bodies
                .hammer
                .process_sample(&self.setup, &mut bodies.bank, dt_s);
            (mid[start], side[start]) = (pickup.mid_pa, pickup.side_pa);
            start += 1;
        }
    }

    fn in_play(&self, bodies: &Bodies) -> bool {
        self.plays_on(&bodies.hammer)
    }

    fn release(&mut self, bodies: &mut Bodies, patch: &Patch) -> bool {
        if patch.drop.lift_on_release {
            self.lift(&mut bodies.hammer);
        }
        false
    }

    fn stop(&mut self, bodies: &mut Bodies) {
        self.lift(&mut bodies.hammer);
    }

    fn energy_to_come_j(&self) -> f64 {
        self.energy_j()
    }
}

#[cfg(test)]
mod tests;
