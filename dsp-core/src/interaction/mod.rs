//! The hammer: a striker (a rigid mass, with or without modes of its own) striking a modal
//! object through Hunt–Crossley, with the user's integrator, contact sub-steps, onsets between
//! samples and an energy guard.

use crate::integrate::Method;
use crate::resonator::{ring_heard, BankSetup, ModalBank, Mode, Pickup, Pushed, Slot, Surface};

mod discrete_gradient;
mod guard;
mod onset;
mod pool;
mod resting;
mod setup;
mod trace;
use crate::contact::{MAX_STIFFNESS, MIN_STIFFNESS};
use discrete_gradient::{potential_j, solve_discrete_gradient};
pub use pool::{PoolStrike, StrikerPool, POOL_STRIKERS, POOL_SUB_STEPS};
use resting::RestingContact;
pub use setup::{ContactPrep, ContactSetup, Damping, Gravity};
pub use trace::{ContactTrace, TracePoint, TRACE_ONSETS, TRACE_POINTS};

/// Upper bound on sub-steps per sample during a contact.
pub const MAX_SUBSTEPS: usize = 256;

/// A contact is integrated with at least this many steps unless its play mode prepares its own
/// count ([`ContactPrep::steps_per_contact`]): contacts that eq. (9) predicts to be shorter than
/// this many samples are sub-stepped, the rest run at the sample rate.
pub const MIN_STEPS_PER_CONTACT: f64 = 64.0;

/// Steps per half period of a ball resting (or rolling) in the contact's potential well, when
/// that is shorter than the impact's contact time.
const RESTING_STEPS_PER_HALF_PERIOD: f64 = 16.0;

/// The highest ringing in the contact's potential well resolved, as a fraction of the sample
/// rate: a stiffer well is stepped as if it rang there (just below the Nyquist frequency).
const MAX_WELL_FRACTION_OF_FS: f64 = 0.45;

/// Once the hammer recedes and is this far (m) beyond the farthest the object's surface can swing,
/// it can no longer touch the object and is no longer integrated.
const RETIRE_GAP_M: f64 = 0.01;
/// [`Hammer::is_gone_for_good`] keeps this share of the surfaces' reach beyond it, for its
/// round-off.
const REACH_ROUND_OFF: f64 = 1e-6;

/// The approach speed (m/s) at which the contacts of a body laid on the object
/// ([`Hammer::place`]: a ball set rolling, a dropped body sliding or settling) take the damping
/// that restitutes the target e: the speed at which the material table's restitutions hold
/// ([`crate::material::Material::restitution`]). Hunt–Crossley's damping λ = μ·k belongs to the
/// pair, whatever the speed; restituting e at the creep speed of a body lying on the object
/// (μ = (μ·v)(e)/v_in with v_in of mm/s, a hundred times the pair's) would damp every mode that
/// rings through the contact within milliseconds: the sound was cut as the body settled.
const LAID_ON_SPEED_M_PER_S: f64 = 1.0;

/// Figures of the contacts since the last strike, for tools and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactStats {
    /// Largest sub-step count per sample used.
    pub substeps: usize,
    /// Largest Newton iteration count of one implicit step.
    pub newton_iterations_max: u32,
    /// Relative velocity (m/s) at the end of the first contact (NaN while it lasts).
    pub v_out_m_per_s: f64,
    /// Samples the first contact touched.
    pub contact_samples: usize,
    /// Contacts begun since the strike.
    pub onsets: u32,
    /// Where in its sample the last contact began, as a fraction of the sample (0…1).
    pub last_onset_fraction: f64,
    /// Relative closing velocity (m/s) at the last contact's onset.
    pub last_v_in_m_per_s: f64,
}

/// A contact under way.
#[derive(Clone, Copy, Debug)]
struct Contact {
    sub_steps: usize,
    /// A landing stepped finer than its well: when and at what count it settles into it.
    settle: Option<Settle>,
    /// Total energy after the last step, J (the guard's reference).
    energy_j: f64,
    /// Relative closing velocity at the onset, m/s.
    v_in_m_per_s: f64,
    /// Gravity acting during this contact, m/s² (0 when suspended).
    gravity_m_per_s2: f64,
    /// The onset was slower than the capture velocity: the ball settles at the deepest compression.
    capture: bool,
    /// Time since the onset, s.
    elapsed_s: f64,
}

/// A landing (eq. (9)'s contact, shorter than the half period of the well it lands in) is
/// stepped to resolve the impact; a body still in contact once the impact is over and bound in
/// the well (it cannot climb out: [`Hammer::is_bound`]) rests or rolls there and is stepped at
/// the well's count: a rolling ball after a hop at most 15 sub-steps a sample, not the
/// landing's 64–127.
#[derive(Clone, Copy, Debug)]
struct Settle {
    /// The landing's predicted length (eq. (9)), s.
    after_s: f64,
    /// Sub-steps a sample that resolve the well (16 a half period, under the audible cap).
    sub_steps: usize,
}

/// A striker hitting a [`ModalBank`]: a rigid mass (its translation) with, optionally, modes of
/// its own (a ball's, a rod's), which ring too.
///
/// Positions are along the strike axis, positive towards the object. The compression is
/// x = y + w_s − w_o: the striker's rigid position, plus its own surface's displacement at its
/// contact point towards the object, minus the object's surface displacement at the strike point.
/// The contact force F pushes the object by +F and the striker by −F (its rigid mass and its
/// modes alike), solved together in each step.
pub struct Hammer {
    mass_kg: f64,
    position_m: f64,
    velocity_m_per_s: f64,
    /// The striker's own modes (none: a point mass), driven at its contact point by the reaction
    /// −F; its modal mass is the striker's mass. Free modes of a free body are orthogonal to its
    /// translation, so gravity and a press move only the rigid mass.
    striker: Box<ModalBank>,
    /// The striker's contact point and pickup after the last contact step.
    striker_surface: Surface,
    /// What the striker's pickup adds to the object's (0: only the object is heard).
    striker_level: f64,
    /// Contact force of the last step, N (reused as f_n by Verlet and Heun).
    force_n: f64,
    /// Contact forces of the two steps before, N (AM1 extrapolates its Newton guess from the
    /// last three).
    force_before_n: [f64; 2],
    setup: ContactSetup,
    /// The object's strike point and pickup after the last contact step.
    surface: Surface,
    /// The strike point after a further force-free step of this slot, read with the last AM1
    /// step (saves a pass over the modes); cleared when a contact begins.
    free_prediction: Option<(Slot, f64)>,
    /// How far (m) the two surfaces can swing towards each other while nothing touches them, from
    /// both bodies' energy at the end of the last contact (it only decays until the next one).
    reach_m: f64,
    /// Tighter bounds, taken with `reach_m`: how far (m) and how fast (m/s) the surfaces can
    /// swing, mode by mode ([`ModalBank::swing_bounds`]). Only the questions whose answer cannot
    /// change what the voice plays use them ([`Hammer::is_gone_for_good`],
    /// [`Hammer::may_touch_within`]); the voice's own retirement keeps `reach_m`, which sets
    /// when a drop's next micro-impact may strike.
    swing_m: f64,
    top_speed_m_per_s: f64,
    contact: Option<Contact>,
    retired: bool,
    /// The ball was captured and rests on the object (retired with its weight left on it).
    at_rest: bool,
    /// The hammer was laid on the object by [`Hammer::place`] (rolling, sliding, settling) and
    /// not struck since: its contacts are the chatter of a body lying on the object, not impacts
    /// with an approach speed of their own (see [`LAID_ON_SPEED_M_PER_S`]).
    laid_on: bool,
    gravity: Gravity,
    /// Out-of-roundness of the ball: each contact's stiffness is k·√(1 + irregularity·ξ), ξ
    /// uniform in [−1, 1] from `rng` (Hertz: k ∝ √R, the local radius where it lands).
    irregularity: f64,
    rng: fastrand::Rng,
    /// Acceleration (m/s²) of the rolling track's height under the ball: in the frame that moves
    /// with the track the ball feels it as an extra acceleration, so the contact law and the
    /// integrators see a fixed surface (see [`crate::roll`]).
    track_accel_m_per_s2: f64,
    /// Factor on the stiffness k of the contacts to come (a note's brightness).
    stiffness_scale: f64,
    /// The live view's record of the first contact and the onsets, filled while `tracing`.
    trace: Box<ContactTrace>,
    tracing: bool,
    /// Samples processed since the strike (the onsets' clock).
    samples_since_strike: u64,
    contacts: u32,
    stats: ContactStats,
    /// What the note's patch prepared for its contacts (see [`Hammer::set_prepared`]).
    prep: ContactPrep,
    /// The last target restitution e met that the preparation was not for, and the μ·v_in
    /// restituting it (eq. 6 inverted): a drop's micro-impact, its trials and its re-contacts
    /// share one e, and the root search is made once for them.
    restituted: (f64, f64),
}

impl Hammer {
    /// A hammer of `mass_kg` at rest, out of reach of the object.
    pub fn new(mass_kg: f64, setup: ContactSetup) -> Self {
        Self {
            mass_kg,
            position_m: 0.0,
            velocity_m_per_s: 0.0,
            striker: ModalBank::new(mass_kg),
            striker_surface: Surface::default(),
            striker_level: 0.0,
            force_n: 0.0,
            force_before_n: [0.0; 2],
            setup,
            surface: Surface::default(),
            free_prediction: None,
            reach_m: 0.0,
            swing_m: 0.0,
            top_speed_m_per_s: 0.0,
            contact: None,
            retired: true,
            at_rest: false,
            laid_on: false,
            gravity: Gravity::NONE,
            irregularity: 0.0,
            rng: fastrand::Rng::with_seed(0),
            track_accel_m_per_s2: 0.0,
            stiffness_scale: 1.0,
            trace: Box::default(),
            tracing: false,
            samples_since_strike: 0,
            contacts: 0,
            stats: ContactStats::default(),
            prep: ContactPrep::default(),
            restituted: (f64::NAN, f64::NAN),
        }
    }

    /// Use `prep` (computed off the audio thread) for the contacts to come: while the contact
    /// shape and the target restitution are the ones it was made for, a contact's start costs no
    /// quadrature (eq. 9) and no root search (eq. 6 inverted); otherwise those are computed. Its
    /// steps per contact are the play mode's.
    pub fn set_prepared(&mut self, prep: &ContactPrep) {
        self.prep = *prep;
    }

    /// Launch the hammer from `gap_m` ≥ 0 in front of the object's surface with closing speed
    /// `v_in_m_per_s` > 0. With gap 0 the impact begins exactly on this sample (the paper's
    /// x(0) = 0, ẋ(0) = v_in); a gap puts the onset between samples.
    pub fn strike(&mut self, bank: &ModalBank, v_in_m_per_s: f64, gap_m: f64, mass_kg: f64) {
        self.mass_kg = mass_kg;
        // The striker's own surface at its contact point, w_s and its rate, sets where its rigid
        // mass starts.
        self.position_m =
            bank.strike_displacement_m() - self.striker.strike_displacement_m() - gap_m.max(0.0);
        self.velocity_m_per_s =
            v_in_m_per_s + bank.strike_velocity_m_per_s() - self.striker.strike_velocity_m_per_s();
        self.force_n = 0.0;
        self.force_before_n = [0.0; 2];
        self.contact = None;
        self.take_reach(bank);
        self.retired = false;
        self.at_rest = false;
        self.laid_on = false;
        // Struck again, it no longer lies on the object.
        self.striker.remove_strike_damper();
        self.contacts = 0;
        self.samples_since_strike = 0;
        if self.tracing {
            self.trace.clear();
        }
        self.stats = ContactStats {
            v_out_m_per_s: f64::NAN,
            ..ContactStats::default()
        };
    }

    /// Gravity from the next sample on (a contact under way keeps what it began with).
    pub fn set_gravity(&mut self, gravity: Gravity) {
        self.gravity = gravity;
    }

    /// The gravity the hammer flies under.
    pub fn gravity(&self) -> Gravity {
        self.gravity
    }

    /// The ball's out-of-roundness, 0…1 (see the field), and the seed of the per-contact draws.
    pub fn set_irregularity(&mut self, irregularity: f64, seed: u64) {
        self.irregularity = irregularity.clamp(0.0, 1.0);
        self.rng = fastrand::Rng::with_seed(seed);
    }

    /// Give the striker the modes of `setup` (none: a point mass), at rest; their modal mass is
    /// to be the striker's mass. Before a strike.
    pub fn load_striker(&mut self, setup: &BankSetup) {
        self.striker.load(setup);
        self.striker_surface = self.striker.surface();
    }

    /// Give the striker `modes` with modal mass `mass_kg` (the striker's), at rest, sampled at
    /// `sample_rate_hz` (see [`Hammer::load_striker`]).
    pub fn set_striker_modes(&mut self, modes: &[Mode], mass_kg: f64, sample_rate_hz: f64) {
        self.striker.set_mass_kg(mass_kg);
        self.striker.set_modes(modes, sample_rate_hz);
        self.striker_surface = self.striker.surface();
    }

    /// The striker's own modes.
    pub fn striker(&self) -> &ModalBank {
        &self.striker
    }

    /// The striker's own modes, to damp (a choke, a release) or flush their vibration; give it
    /// modes with [`Hammer::load_striker`], which also refreshes what the contact reads of them.
    pub fn striker_mut(&mut self) -> &mut ModalBank {
        &mut self.striker
    }

    /// How loud the striker's own ringing is mixed with the object's: the pressure it radiates
    /// times `level` is added to the object's (1: as physics has it, 0: only the object is heard).
    pub fn set_striker_level(&mut self, level: f64) {
        self.striker_level = if level.is_finite() {
            level.max(0.0)
        } else {
            0.0
        };
    }

    /// The level the striker's pickup is mixed at (see [`Hammer::set_striker_level`]).
    pub fn striker_level(&self) -> f64 {
        self.striker_level
    }

    /// Record contacts for the live view (see [`ContactTrace`]) from the next strike on.
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// Whether this is the hammer the live view follows.
    pub fn is_tracing(&self) -> bool {
        self.tracing
    }

    /// The record of the first contact since the strike and of the onsets.
    pub fn trace(&self) -> &ContactTrace {
        &self.trace
    }

    /// The object's modes changed (a retune, a faster decay at note-off): under a contact under
    /// way, the force-free prediction made with the old transitions is dropped (the next step
    /// makes it afresh) and the contact's energy balance starts again from the state now; out of
    /// contact, the surfaces' reach and top speed are taken again (tuning down raises a mode's
    /// amplitude √(q² + q̇²/ω₀²) with its state kept).
    pub fn object_changed(&mut self, bank: &ModalBank) {
        self.free_prediction = None;
        if self.contact.is_some() {
            self.rebase_energy(bank);
        } else {
            self.take_reach(bank);
        }
    }

    /// The contact's energy balance, which the energy guard holds each step to, starts again
    /// from the state now.
    fn rebase_energy(&mut self, bank: &ModalBank) {
        if !self.guards() {
            // Only the guard reads the balance (and it costs a pass over the modes).
            return;
        }
        let energy_j = self.contact_energy_j(bank);
        if let Some(contact) = self.contact.as_mut() {
            contact.energy_j = energy_j;
        }
    }

    /// Push the object this hammer presses with a tangential force `force_n` held over the
    /// sample just stepped (a slider's friction, [`ModalBank::push_tangent`]), and start the
    /// next step from where it moved the object: its surface and the next step's force-free
    /// prediction are read in the push's pass, and the contact's energy balance starts here
    /// (the friction's work is not the contact's).
    pub fn push_tangent(&mut self, bank: &mut ModalBank, force_n: f64) -> Pushed {
        let pushed = bank.push_tangent(force_n, Slot::Sub);
        self.surface = pushed.surface;
        self.free_prediction = self
            .contact
            .map(|_| (Slot::Sub, pushed.surface.next_free_displacement_m));
        self.rebase_energy(bank);
        pushed
    }

    /// The point on the object under this hammer moved ([`ModalBank::set_point`]): read the
    /// object afresh there (the strike point's displacement, velocity and next force-free
    /// prediction, and Σ τ·q, which it returns) in one pass, a tangential push of nothing.
    pub fn point_moved(&mut self, bank: &mut ModalBank) -> f64 {
        self.push_tangent(bank, 0.0).tangent_m
    }

    /// Whether the ball was captured and rests on the object.
    pub fn is_at_rest(&self) -> bool {
        self.at_rest
    }

    /// The weight (N) a ball at rest leaves on the object ([`Hammer::come_to_rest`]); 0 when it
    /// does not rest.
    pub fn resting_weight_n(&self) -> f64 {
        if self.at_rest {
            self.mass_kg * self.gravity.accel_m_per_s2.max(0.0)
        } else {
            0.0
        }
    }

    /// Scale the stiffness k of the contacts that begin from now on by `scale`, within the
    /// plugin's range of k (a contact under way keeps its own): a note's brightness.
    pub fn set_stiffness_scale(&mut self, scale: f64) {
        self.stiffness_scale = scale;
    }

    /// The factor on the stiffness of the contacts to come.
    pub fn stiffness_scale(&self) -> f64 {
        self.stiffness_scale
    }

    /// Take `other`'s last restitution searched for and the μ·v_in restituting it (eq. 6
    /// inverted; a drop's trial hammer has searched for its micro-impact's e: the voice's need
    /// not search again).
    pub fn share_restitution(&mut self, other: &Hammer) {
        if other.restituted.0.is_finite() {
            self.restituted = other.restituted;
        }
    }

    /// The acceleration of the ball's frame (the rolling track) plus any external pull on it (a
    /// press) for the next sample, m/s²; its work is counted in the contact's energy balance.
    pub fn set_track_acceleration(&mut self, accel_m_per_s2: f64) {
        self.track_accel_m_per_s2 = accel_m_per_s2;
    }

    /// Contact force of the last step, N.
    pub fn force_n(&self) -> f64 {
        self.force_n
    }

    /// Compression x = y + w_s − w_o (see [`Hammer`]), m (negative: the gap between them).
    pub fn compression_m(&self, bank: &ModalBank) -> f64 {
        self.position_m + self.striker.strike_displacement_m() - bank.strike_displacement_m()
    }

    /// Velocity of the hammer along the strike axis, m/s (in the track's frame when rolling).
    pub fn velocity_m_per_s(&self) -> f64 {
        self.velocity_m_per_s
    }

    /// Lay the ball at rest on the object under gravity, at the static compression where the
    /// contact force of `setup` (its stiffness scaled) balances its weight and the pull set by
    /// [`Hammer::set_track_acceleration`] (the start of rolling).
    pub fn place(&mut self, bank: &ModalBank, setup: &ContactSetup, mass_kg: f64) {
        self.setup = *setup;
        self.setup.law.stiffness = scaled_stiffness(setup.law.stiffness, self.stiffness_scale);
        let law = self.setup.law;
        let weight_n = mass_kg * self.pull_m_per_s2().max(0.0);
        let x_eq = (weight_n / law.stiffness).powf(1.0 / law.alpha);
        // The striker's own modes start where the contact's reaction holds them.
        self.striker.preload(-weight_n);
        self.striker_surface = self.striker.surface();
        self.strike(bank, 0.0, 0.0, mass_kg);
        self.position_m =
            bank.strike_displacement_m() - self.striker.strike_displacement_m() + x_eq;
        self.laid_on = true;
    }

    /// Stop the hammer where it is (the voice is being reset or released).
    pub fn retire(&mut self) {
        self.retired = true;
        self.force_n = 0.0;
        self.force_before_n = [0.0; 2];
        self.contact = None;
    }

    /// Take a striker that lies on the object under a steady load (a rolling ball) away without
    /// a jolt: the force it pressed the bodies together with goes with it as if lifted slowly,
    /// so both ring on about their unloaded rest ([`ModalBank::hold_static_force`]) instead of
    /// springing back with a click. Not for a strike under way: its force is no equilibrium the
    /// modes have followed, and moving them by it would put energy in (plain
    /// [`Hammer::retire`] leaves the vibration as it is).
    pub fn lift_off(&mut self, bank: &mut ModalBank) {
        if self.force_n.is_finite() {
            bank.hold_static_force(self.force_n);
            self.striker.hold_static_force(-self.force_n);
        }
        self.retire();
    }

    /// What pulls the striker towards the object, m/s²: gravity, plus the rolling track's
    /// acceleration under it in the track's frame.
    #[inline]
    fn pull_m_per_s2(&self) -> f64 {
        self.gravity.accel_m_per_s2 + self.track_accel_m_per_s2
    }

    /// Whether the hammer is out of reach and no longer integrated.
    pub fn is_retired(&self) -> bool {
        self.retired
    }

    /// Whether the hammer can never touch the object again while its pull and the object's
    /// strike point stay as they are: retired, or flying away from it (no pull towards it)
    /// beyond the farthest both surfaces can swing with the energy they hold, which free modes
    /// never gain. With no pull at all (a drop's trial) its velocity is then final.
    /// [`Hammer::process_sample`] retires a hammer only [`RETIRE_GAP_M`] further out.
    pub fn is_gone_for_good(&self) -> bool {
        let gone = self.contact.is_none()
            && self.recedes_beyond(self.swing_m, REACH_ROUND_OFF * self.swing_m);
        self.retired || gone
    }

    /// Take both surfaces' reach, swing and top speed from the energy they hold now (free modes
    /// never gain energy, so all stay bounds until the next contact).
    fn take_reach(&mut self, bank: &ModalBank) {
        self.reach_m = bank.max_excursion_m() + self.striker.max_excursion_m();
        let (object_swing_m, object_speed_m_per_s) = bank.swing_bounds();
        let (striker_swing_m, striker_speed_m_per_s) = self.striker.swing_bounds();
        self.swing_m = object_swing_m + striker_swing_m;
        self.top_speed_m_per_s = object_speed_m_per_s + striker_speed_m_per_s;
    }

    /// Whether the hammer may touch the object within the next `samples` samples of `dt_s`: false
    /// only if it cannot (retired, or out of contact with no pull towards the object, and out
    /// of reach for the span). Its compression x = y + w_s − w_o rises at most along
    /// x₀ + (v + V)·t, V both surfaces' top speed ([`ModalBank::swing_bounds`]), and never past
    /// the reach's line y₀ + reach + v·t; the smaller of the two lines peaks at the span's ends
    /// or where they cross, and must stay below zero by a round-off margin.
    pub fn may_touch_within(&self, bank: &ModalBank, samples: usize, dt_s: f64) -> bool {
        if self.retired {
            return false;
        }
        let pull = self.pull_m_per_s2();
        if self.contact.is_some() || pull > 0.0 {
            return true;
        }
        self.may_touch_from(self.compression_m(bank), dt_s)(samples)
    }

    /// [`Hammer::may_touch_within`] for a hammer out of contact with no pull towards the
    /// object, its compression `x` now: whether it may touch within a span of samples, asked
    /// of as many spans as need be (the lines' crossing found once).
    fn may_touch_from(&self, x: f64, dt_s: f64) -> impl Fn(usize) -> bool {
        let (y, v, swing_m) = (self.position_m, self.velocity_m_per_s, self.swing_m);
        let speed = self.top_speed_m_per_s;
        let crossing_s = (y + swing_m - x) / speed;
        move |samples| {
            let span_s = samples as f64 * dt_s;
            let lower_line = |t: f64| (x + (v + speed) * t).min(y + swing_m + v * t);
            let crossing_s = if speed > 0.0 {
                crossing_s.clamp(0.0, span_s)
            } else {
                span_s
            };
            let highest = lower_line(0.0)
                .max(lower_line(crossing_s))
                .max(lower_line(span_s));
            let margin = 1e-9 * (y.abs() + swing_m + v.abs() * span_s);
            // (A state gone non-finite may touch.)
            !(highest < -margin)
        }
    }

    /// Whether the hammer flies away from the object (no pull towards it) more than `gap_m`
    /// beyond `reach_m`, a bound on how far both surfaces can swing with the energy they hold
    /// (as of the last strike or contact's end: free modes never gain energy).
    fn recedes_beyond(&self, reach_m: f64, gap_m: f64) -> bool {
        let pull = self.pull_m_per_s2();
        self.velocity_m_per_s <= 0.0 && pull <= 0.0 && self.position_m + reach_m < -gap_m
    }

    /// Whether a contact is under way.
    pub fn in_contact(&self) -> bool {
        self.contact.is_some()
    }

    /// Figures of the contacts since the last strike.
    pub fn stats(&self) -> &ContactStats {
        &self.stats
    }

    /// Kinetic energy of the striker's rigid motion in joules.
    pub fn energy_j(&self) -> f64 {
        0.5 * self.mass_kg * self.velocity_m_per_s * self.velocity_m_per_s
    }

    /// Energy of the striker's own vibration in joules.
    pub fn striker_energy_j(&self) -> f64 {
        self.striker.energy_j()
    }

    /// Whether every state variable is finite.
    pub fn is_finite(&self) -> bool {
        self.position_m.is_finite()
            && self.velocity_m_per_s.is_finite()
            && self.force_n.is_finite()
            && self.striker.is_finite()
    }

    /// Compression (m) and compression velocity (m/s) now.
    fn relative(&self, bank: &ModalBank) -> (f64, f64) {
        (
            self.compression_m(bank),
            self.velocity_m_per_s + self.striker.strike_velocity_m_per_s()
                - bank.strike_velocity_m_per_s(),
        )
    }

    /// Where the striker's rigid position must be for zero compression, and its rate, after the
    /// last contact step: the object's surface less the striker's own (m, m/s).
    #[inline]
    fn contact_point(&self) -> (f64, f64) {
        (
            self.surface.displacement_m - self.striker_surface.displacement_m,
            self.surface.velocity_m_per_s - self.striker_surface.velocity_m_per_s,
        )
    }

    /// What the pickups hear after the last contact step: the object's, plus the striker's at
    /// its level.
    #[inline]
    fn pickup(&self) -> Pickup {
        self.mix(self.surface.pickup, self.striker_surface.pickup)
    }

    #[inline]
    fn mix(&self, object: Pickup, striker: Pickup) -> Pickup {
        Pickup {
            mid_pa: object.mid_pa + self.striker_level * striker.mid_pa,
            side_pa: object.side_pa + self.striker_level * striker.side_pa,
        }
    }

    /// One force-free sample of both bodies' vibration: what the pickups hear (the same bits
    /// as [`Hammer::ring_block`]).
    #[inline]
    fn ring(&mut self, bank: &mut ModalBank) -> Pickup {
        if self.striker.num_modes() == 0 {
            return bank.ring();
        }
        let (mut mid, mut side) = (0.0, 0.0);
        ring_heard(
            &mut [(bank, 1.0), (&mut self.striker, self.striker_level)],
            std::slice::from_mut(&mut mid),
            std::slice::from_mut(&mut side),
        );
        Pickup {
            mid_pa: mid,
            side_pa: side,
        }
    }

    /// A retired hammer's samples for `mid.len()` samples: both bodies ring freely in one pass
    /// ([`ring_heard`]; a striker without modes adds nothing), the striker heard at its level.
    pub fn ring_block(&mut self, bank: &mut ModalBank, mid: &mut [f64], side: &mut [f64]) {
        debug_assert!(self.retired);
        self.samples_since_strike += mid.len() as u64;
        ring_heard(
            &mut [(bank, 1.0), (&mut self.striker, self.striker_level)],
            mid,
            side,
        );
    }

    /// Advance hammer and object by one sample of `dt_s` and return what the pickups hear.
    /// `setup` is latched if a contact begins in this sample.
    #[inline]
    pub fn process_sample(
        &mut self,
        setup: &ContactSetup,
        bank: &mut ModalBank,
        dt_s: f64,
    ) -> Pickup {
        self.samples_since_strike += 1;
        if self.retired {
            return self.ring(bank);
        }
        let Some(contact) = self.contact else {
            let (y_end, out_of_reach) = self.flight_end(dt_s);
            if !out_of_reach {
                let x = self.compression_m(bank);
                // Compression at the end of the sample if nothing touches.
                let x_end =
                    y_end + self.striker.predict_free(Slot::Full) - bank.predict_free(Slot::Full);
                if x_end > 0.0 || x > 0.0 {
                    self.begin_contact(setup, bank, x, x_end, dt_s);
                    return self.pickup();
                }
            }
            // Nothing touches: the hammer flies free, both bodies ring freely.
            self.fly_to(y_end, out_of_reach, dt_s);
            return self.ring(bank);
        };
        let h = dt_s / contact.sub_steps as f64;
        for _ in 0..contact.sub_steps {
            self.contact_step(bank, Slot::Sub, h);
            if contact.capture && self.settle_if_captured(bank) {
                return self.pickup();
            }
        }
        if self.settled_in_the_well(&contact) {
            self.come_to_rest(bank);
            return self.pickup();
        }
        self.end_contact_if_separated(bank);
        self.settle_into_the_well(bank, dt_s);
        self.pickup()
    }

    /// Where this sample's free flight ends (a parabola under the pull, a line without, exact),
    /// and whether the hammer stays out of reach all through it: with a pull g ≥ 0 the path is
    /// convex towards the object, so its nearest point to the object is an end point, and the
    /// surface never gets past −reach.
    #[inline]
    fn flight_end(&self, dt_s: f64) -> (f64, bool) {
        let g = self.pull_m_per_s2();
        let y_end = self.position_m + dt_s * (self.velocity_m_per_s + 0.5 * g * dt_s);
        let out_of_reach = y_end + self.reach_m < 0.0 && self.position_m + self.reach_m < 0.0;
        (y_end, out_of_reach)
    }

    /// Take this sample's free flight to `y_end` ([`Hammer::flight_end`]); a hammer out of reach
    /// that recedes for good retires.
    #[inline]
    fn fly_to(&mut self, y_end_m: f64, out_of_reach: bool, dt_s: f64) {
        let g = self.pull_m_per_s2();
        self.position_m = y_end_m;
        self.velocity_m_per_s += g * dt_s;
        if out_of_reach && self.recedes_beyond(self.reach_m, RETIRE_GAP_M) {
            self.retire();
        }
    }

    /// How many of the next `samples` samples the hammer surely flies without touching the
    /// object: the most for which [`Hammer::may_touch_within`] says it cannot (its bound only
    /// grows with the span), 0 in contact, under a pull towards the object or retired.
    pub fn free_flight_samples(&self, bank: &ModalBank, samples: usize, dt_s: f64) -> usize {
        let pull = self.pull_m_per_s2();
        if self.retired || self.contact.is_some() || pull > 0.0 || samples == 0 {
            return 0;
        }
        let x = self.compression_m(bank);
        let may_touch = self.may_touch_from(x, dt_s);
        if !may_touch(samples) {
            return samples;
        }
        // The bound's lines reach the object after `guess` samples (its margin aside): the span
        // that may touch is found next to it, else in (free, touching] by halving.
        let guess = ((self.first_touch_s(x) / dt_s).floor() as usize).min(samples - 1);
        let (mut free, mut touching) = if may_touch(guess) {
            (0, guess)
        } else if may_touch(guess + 1) {
            return guess;
        } else {
            (guess + 1, samples)
        };
        while touching - free > 1 {
            let mid = free + (touching - free) / 2;
            if may_touch(mid) {
                touching = mid;
            } else {
                free = mid;
            }
        }
        free
    }

    /// When both lines of [`Hammer::may_touch_within`]'s bound, x + (v + V)·t and
    /// y + swing + v·t, first stand at or above zero, s from now (∞ if they never do): where
    /// the bound first reaches the object, its round-off margin aside. Each line is at or
    /// above zero on a half-line of t; the moment is the start of where the two meet.
    fn first_touch_s(&self, x: f64) -> f64 {
        let (v, speed) = (self.velocity_m_per_s, self.top_speed_m_per_s);
        let (mut from_s, mut until_s) = (0.0f64, f64::INFINITY);
        for (at_zero, slope) in [(x, v + speed), (self.position_m + self.swing_m, v)] {
            if slope > 0.0 {
                from_s = from_s.max(-at_zero / slope);
            } else if slope < 0.0 {
                until_s = until_s.min(-at_zero / slope);
            } else if at_zero < 0.0 {
                return f64::INFINITY;
            }
        }
        if from_s <= until_s {
            from_s
        } else {
            f64::INFINITY
        }
    }

    /// Fly free for up to `mid.len()` samples that [`Hammer::free_flight_samples`] granted,
    /// writing what the pickups hear into `mid` and `side`: the flight a sample at a time as
    /// [`Hammer::process_sample`] takes it, both bodies ringing in one block
    /// ([`ring_heard`]), the same bits. Stops after a sample in which the hammer retires, so
    /// whoever waits for that sees it; returns the samples flown.
    pub fn fly_block(
        &mut self,
        bank: &mut ModalBank,
        mid: &mut [f64],
        side: &mut [f64],
        dt_s: f64,
    ) -> usize {
        debug_assert!(self.contact.is_none());
        let mut flown = 0;
        while flown < mid.len() && !self.retired {
            let (y_end, out_of_reach) = self.flight_end(dt_s);
            self.fly_to(y_end, out_of_reach, dt_s);
            flown += 1;
        }
        self.samples_since_strike += flown as u64;
        ring_heard(
            &mut [(bank, 1.0), (&mut self.striker, self.striker_level)],
            &mut mid[..flown],
            &mut side[..flown],
        );
        flown
    }

    /// In a captured contact, once the ball stops closing (the deepest compression), it comes to
    /// rest: its weight m·g stays on the object as a constant force, so the object rings on about
    /// its loaded equilibrium, and the ball is no longer integrated. Returns whether it settled.
    fn settle_if_captured(&mut self, bank: &mut ModalBank) -> bool {
        if self.velocity_m_per_s > self.contact_point().1 {
            return false;
        }
        if self.contacts == 0 {
            self.stats.v_out_m_per_s = 0.0;
        }
        self.contacts += 1;
        self.come_to_rest(bank);
        true
    }

    /// A ball pressed by gravity into a lasting contact (it never separates, so no onset slower
    /// than the capture velocity stops it) rests once it barely moves: relative speed under a
    /// tenth of the capture velocity and the contact force within 10 % of its weight. Not while
    /// rolling (capture is off there).
    fn settled_in_the_well(&self, contact: &Contact) -> bool {
        let capture = self.gravity.capture_m_per_s;
        if capture <= 0.0 || contact.gravity_m_per_s2 <= 0.0 {
            return false;
        }
        let v_rel = self.velocity_m_per_s - self.contact_point().1;
        let weight_n = self.mass_kg * contact.gravity_m_per_s2;
        v_rel.abs() < 0.1 * capture && (self.force_n - weight_n).abs() < 0.1 * weight_n
    }

    /// The ball stops where it is, its weight m·g left on the object as a constant force: the
    /// object rings on about its loaded equilibrium and the ball is no longer integrated. Its own
    /// modes ring on about that load, losing their vibration into the object through the
    /// contact it lies on ([`RestingContact`]).
    pub fn come_to_rest(&mut self, bank: &mut ModalBank) {
        let weight_n = self.mass_kg * self.gravity.accel_m_per_s2.max(0.0);
        bank.hold_static_force(weight_n);
        self.striker.hold_static_force(-weight_n);
        self.lie_on(bank, weight_n);
        self.surface = bank.surface();
        self.striker_surface = self.striker.surface();
        self.retire();
        self.at_rest = true;
    }

    /// The striker lies on the object under `weight_n` from now on: its modes lose their
    /// vibration into the object through the contact it lies on ([`RestingContact`]: the law
    /// linearised at the load, in series with the object's mean mobility, driven through the
    /// striker's own).
    pub fn lie_on(&mut self, bank: &ModalBank, weight_n: f64) {
        if !(weight_n > 0.0) || self.striker.num_modes() == 0 {
            return;
        }
        let contact = self.resting_contact(weight_n);
        let (object, body) = (bank.mean_mobility(), self.striker.mean_mobility());
        self.striker.add_strike_damper(|omega| {
            let freq_hz = omega / std::f64::consts::TAU;
            contact.resistance_n_s_per_m(omega, object.m_per_n_s(freq_hz), body.m_per_n_s(freq_hz))
        });
    }

    /// The contact the ball lies on under `weight_n`: the latched law, damped as the pair's
    /// (the target restitution's μ at [`LAID_ON_SPEED_M_PER_S`], not the creep speed's; a linear
    /// damper's coefficient as it is).
    fn resting_contact(&mut self, weight_n: f64) -> RestingContact {
        let law = self.setup.law;
        match (self.setup.damping, self.setup.restitution) {
            (Damping::HuntCrossley, Some(e)) => {
                RestingContact::hunt_crossley(law, self.mu_for(e, LAID_ON_SPEED_M_PER_S), weight_n)
            }
            (Damping::HuntCrossley, None) => {
                RestingContact::hunt_crossley(law, law.mu_s_per_m, weight_n)
            }
            (Damping::Linear { n_s_per_m }, _) => RestingContact {
                damping_n_s_per_m: n_s_per_m,
                ..RestingContact::hunt_crossley(law, 0.0, weight_n)
            },
        }
    }

    /// Total energy in joules: the striker's (kinetic and vibration) + object + contact potential
    /// k·x^(α+1)/(α+1) + the striker's potential in gravity, −m·g·y (zero at the object's rest
    /// position).
    pub fn total_energy_j(&self, bank: &ModalBank) -> f64 {
        self.elastic_energy_j(bank) - self.mass_kg * self.gravity.accel_m_per_s2 * self.position_m
    }

    /// Kinetic + object + contact energy in joules: what is in play without gravity's potential.
    pub fn elastic_energy_j(&self, bank: &ModalBank) -> f64 {
        let x = self.compression_m(bank);
        self.energy_j()
            + self.striker.energy_j()
            + bank.energy_j()
            + potential_j(&self.setup.law, x)
    }

    /// The energy the contact conserves or loses: [`Hammer::total_energy_j`] without the gravity
    /// term when gravity is suspended in this contact (then it does no work).
    fn contact_energy_j(&self, bank: &ModalBank) -> f64 {
        let g = self.contact.map_or(0.0, |c| c.gravity_m_per_s2);
        self.elastic_energy_j(bank) - self.mass_kg * g * self.position_m
    }

    /// One contact step of length `h` with the object's transition `slot`.
    fn contact_step(&mut self, bank: &mut ModalBank, slot: Slot, h: f64) {
        let setup = self.setup;
        let m = self.mass_kg;
        let (y, u, f) = (self.position_m, self.velocity_m_per_s, self.force_n);
        // Gravity in this contact (eq. 21's f_e = m·g, 0 when suspended) and the track's pull.
        let g = self.contact.map_or(0.0, |c| c.gravity_m_per_s2) + self.track_accel_m_per_s2;
        match self.setup.method {
            Method::Am1 => {
                // Trapezoid rule for the striker's rigid mass, both bodies' modes exact under the
                // step's held force (+F on the object, −F on the striker), and F the discrete
                // gradient of the contact potential plus the damper at the mean compression
                // velocity: ΔT + ΔE_striker + ΔE_object = −F·Δx − D_modes and ΔV = F_el·Δx, so
                // the total energy falls by the damper's and the modes' losses (for α = 1 and
                // μ = 0 F is the average of f_n and f_{n+1}: eq. 23 exactly). The new
                // compression is linear in F, x₁ = x_base − c·F, with c the rigid mass's h²/2m
                // plus both bodies' compliances over the step: one scalar equation.
                let x0 = y - self.contact_point().0;
                let w_free = match self.free_prediction {
                    Some((predicted, w)) if predicted == slot => w,
                    _ => bank.predict_free(slot),
                };
                let (compliance, _) = bank.compliance(slot);
                let (w_s_free, striker_compliance) = if self.striker.num_modes() == 0 {
                    (0.0, 0.0)
                } else {
                    (
                        self.striker.predict_free(slot),
                        self.striker.compliance(slot).0,
                    )
                };
                let x_base = y + h * (u + 0.5 * g * h) + w_s_free - w_free;
                let c = h * h / (2.0 * m) + compliance + striker_compliance;
                // Quadratic extrapolation of the force: off by O(h³), so Newton usually needs one
                // evaluation in long contacts.
                let [f1, f2] = self.force_before_n;
                let guess = 3.0 * (f - f1) + f2;
                let (force, iterations) = solve_discrete_gradient(&setup, x0, x_base, c, h, guess);
                self.stats.newton_iterations_max = self.stats.newton_iterations_max.max(iterations);
                self.position_m = y + h * (u + 0.5 * g * h) - h * h / (2.0 * m) * force;
                self.velocity_m_per_s = u + h * (g - force / m);
                self.surface = bank.advance(slot, force);
                self.advance_striker(slot, force);
                self.free_prediction = Some((slot, self.surface.next_free_displacement_m));
                self.force_before_n = [f, self.force_before_n[0]];
                self.force_n = force;
            }
            Method::Verlet => {
                // Eq. (24), the object advancing under the force f_n held over the step.
                let v_half = u + 0.5 * h * (g - f / m);
                self.position_m = y + h * v_half;
                self.surface = bank.advance(slot, f);
                self.advance_striker(slot, f);
                let (w, w_dot) = self.contact_point();
                let f1 = setup.force_n(self.position_m - w, v_half - w_dot);
                self.velocity_m_per_s = v_half + 0.5 * h * (g - f1 / m);
                self.force_n = f1;
            }
            Method::Heun => {
                // Eq. (25), the object advancing under f_n held over the step.
                let v_pred = u + h * (g - f / m);
                self.position_m = y + 0.5 * h * (u + v_pred);
                self.surface = bank.advance(slot, f);
                self.advance_striker(slot, f);
                let (w, w_dot) = self.contact_point();
                let f1 = setup.force_n(self.position_m - w, v_pred - w_dot);
                self.velocity_m_per_s = u + h * (g - 0.5 * (f + f1) / m);
                self.force_n = f1;
            }
            Method::Rk4 => {
                // Eq. (26) for the striker's rigid mass against the contact point moving at its
                // current velocity over the step; both bodies' modes then advance under the
                // step's mean force m·Δu/h.
                let (w, w_dot) = self.contact_point();
                let acc =
                    |t: f64, y: f64, u: f64| g - setup.force_n(y - w - w_dot * t, u - w_dot) / m;
                let k1 = h * acc(0.0, y, u);
                let l1 = h * u;
                let k2 = h * acc(0.5 * h, y + 0.5 * l1, u + 0.5 * k1);
                let l2 = h * (u + 0.5 * k1);
                let k3 = h * acc(0.5 * h, y + 0.5 * l2, u + 0.5 * k2);
                let l3 = h * (u + 0.5 * k2);
                let k4 = h * acc(h, y + l3, u + k3);
                let l4 = h * (u + k3);
                self.position_m = y + (l1 + 2.0 * l2 + 2.0 * l3 + l4) / 6.0;
                self.velocity_m_per_s = u + (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
                let mean_force = m * (g - (self.velocity_m_per_s - u) / h);
                self.surface = bank.advance(slot, mean_force);
                self.advance_striker(slot, mean_force);
                let (w, w_dot) = self.contact_point();
                self.force_n = setup.force_n(self.position_m - w, self.velocity_m_per_s - w_dot);
            }
        }
        if let Some(contact) = self.contact.as_mut() {
            // The track's pull does work on the ball: the guard's reference follows it.
            contact.energy_j += m * self.track_accel_m_per_s2 * (self.position_m - y);
            contact.elapsed_s += h;
        }
        self.guard_energy(bank);
        if self.tracing && self.contacts == 0 {
            self.record_step();
        }
    }

    /// The striker's modes over one contact step under the reaction −`force_n` held.
    #[inline]
    fn advance_striker(&mut self, slot: Slot, force_n: f64) {
        if self.striker.num_modes() > 0 {
            self.striker_surface = self.striker.advance(slot, -force_n);
        }
    }

    /// Add the state after a contact step to the live view's record.
    fn record_step(&mut self) {
        let (w, w_dot) = self.contact_point();
        let x = self.position_m - w;
        let v = self.velocity_m_per_s - w_dot;
        let elapsed_s = self.contact.map_or(0.0, |c| c.elapsed_s);
        let energy_j = 0.5 * self.mass_kg * v * v + potential_j(&self.setup.law, x);
        self.trace.push(TracePoint {
            t_s: elapsed_s as f32,
            x_m: x as f32,
            v_m_per_s: v as f32,
            force_n: self.force_n as f32,
            energy_j: energy_j as f32,
        });
    }
}

/// `stiffness` (N/m^α) scaled by `scale`, kept within [`MIN_STIFFNESS`, `MAX_STIFFNESS`] (or at
/// `stiffness` itself where that is outside).
fn scaled_stiffness(stiffness: f64, scale: f64) -> f64 {
    if scale == 1.0 {
        return stiffness;
    }
    (stiffness * scale).clamp(MIN_STIFFNESS.min(stiffness), MAX_STIFFNESS.max(stiffness))
}

#[cfg(test)]
mod tests;
