//! Modal resonator bank in structure-of-arrays layout, each mode discretized exactly.

/// Capacity of one bank; modes past it are ignored and counted as skipped.
pub const MAX_MODES: usize = 128;

/// Modes are processed in groups of this many independent lanes, so the per-sample loops (and
/// their sums) compile to SIMD; unused lanes of the last group hold zero coefficients.
const LANES: usize = 8;
/// A modal displacement (m) or velocity (m/s) this small is silence by 2000 dB; its square is still
/// far from the subnormal range (below 2.2e-308), which the state itself reaches 3700 dB later.
pub const NEGLIGIBLE_STATE: f64 = 1e-120;
/// How many decades the fastest mode may fall between two flushes of the negligible modes: from
/// [`NEGLIGIBLE_STATE`] to 1e-240 at worst, whose products with the smallest coefficients a step
/// uses (a shape above [`NODE_SHAPE`] times a step's gain, above 1e-30) are still normal numbers.
const FLUSH_DECADES: f64 = 120.0;
/// Samples [`ring_heard`] sums at a time in a long block: its lane sums (2 × 8 doubles a
/// sample, 8 KiB) stay in L1.
const RING_BLOCK: usize = 64;
/// Most steps between two flushes: a flush costs about one step's pass over the lanes.
const MAX_FLUSH_STEPS: u32 = 64;
/// A mode-shape value this small is a node: exactly zero. A point on a node of a mode computes as
/// sin(nπ) ≈ n·1.2e-16 rather than 0; a strike and a pickup both there (a string's end) scale the
/// output by ~1e-32, which a soft strike or a decay then takes into f32's subnormal range
/// (clap-validator found 2.1e-40). 1e-9 is 180 dB below an antinode and far above rounding. The
/// pickups' gains (shape times the mode's radiated pressure per velocity, Pa·s/m, of order
/// 1–100 for a mode that radiates fully) snap to zero below it too.
pub const NODE_SHAPE: f64 = 1e-9;

use crate::radiation::Radiator;
pub use fragment::{FragmentModes, FRAGMENT_MODES};

mod fragment;
mod lanes;
use lanes::{
    advance_lanes, dot, flush_lanes, padded, push_tangent_lanes, ring_block_lanes, ring_lanes,
    shape_inputs_lanes, snap_node, LaneSums, ModeStep,
};

/// One mode of a struck object as the user describes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mode {
    /// Damped frequency in Hz (what is heard; the discretization does not warp it).
    pub freq_hz: f64,
    /// Time in seconds for the free vibration to fall by 60 dB.
    pub t60_s: f64,
    /// Mode-shape value at the strike point (dimensionless, unit-mass normalisation).
    pub strike_shape: f64,
    /// Mode-shape value at the pickup: the mean of the two pickups' (the mono signal).
    pub pickup_shape: f64,
    /// Half the difference of the left and the right pickup's mode-shape values (the side signal:
    /// left = pickup + side, right = pickup − side).
    pub side_shape: f64,
    /// Tangential participation at the strike point: the mode's displacement along the surface
    /// there, per unit modal coordinate, which a friction force drives (see
    /// [`crate::resonator::object_modes`] for each object's reading).
    pub tangent_shape: f64,
    /// How the mode radiates: the bank's pickups hear the pressure it sends to the listener.
    pub radiator: Radiator,
}

impl Mode {
    /// A placeholder mode (zero frequency, skipped by [`ModalBank::set_modes`]), for filling
    /// fixed-size tables.
    pub const SILENT: Mode = Mode {
        freq_hz: 0.0,
        t60_s: 0.0,
        strike_shape: 0.0,
        pickup_shape: 0.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::SILENT,
    };
}

/// One-step transition of a mode, q'' + 2σq' + ω₀²q = φ·f/M, over a step of `dt` seconds:
/// the exact matrix exponential for the free part and a zero-order hold on the force. Aligned
/// to a cache line, and with it every bank: its lanes start on one whatever fields the bank
/// gains (a field of 8 bytes moved them off and cost the free ringing up to 26 %).
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Step {
    a00: [f64; MAX_MODES],
    a01: [f64; MAX_MODES],
    a10: [f64; MAX_MODES],
    a11: [f64; MAX_MODES],
    b0: [f64; MAX_MODES],
    b1: [f64; MAX_MODES],
    /// The zero-order-hold input of a unit shape, A⁻¹(Φ − I)·[0, 1/M]ᵀ: every shape's input is
    /// the shape times these (b0ᵢ = φᵢ·unit_b0ᵢ), so a moving point needs no division.
    unit_b0: [f64; MAX_MODES],
    unit_b1: [f64; MAX_MODES],
    /// A unit shape's static displacement per newton held, 1/(M·ω₀²) (m/N; 0 in unused lanes).
    static_m_per_n: [f64; MAX_MODES],
    /// φᵢ·a00ᵢ and φᵢ·a01ᵢ: the strike point after a further force-free step, Σ (φa00)ᵢqᵢ +
    /// (φa01)ᵢpᵢ, is read in the same pass as the step itself.
    strike_a00: [f64; MAX_MODES],
    strike_a01: [f64; MAX_MODES],
    /// The zero-order-hold input of a tangential force (the b0, b1 above with the tangential
    /// shape in place of the strike shape).
    tangent_b0: [f64; MAX_MODES],
    tangent_b1: [f64; MAX_MODES],
    /// Strike-point displacement (m) and velocity (m/s) per newton held over the step:
    /// Σ φᵢ·b0ᵢ and Σ φᵢ·b1ᵢ.
    compliance_m_per_n: f64,
    mobility_m_per_s_per_n: f64,
    /// Tangential displacement per newton of tangential force held over the step, Σ τᵢ·tb0ᵢ
    /// (m/N), and what the pickups hear of it, Σ gᵢ·tb1ᵢ (Pa/N).
    tangent_compliance_m_per_n: f64,
    tangent_pickup_per_n: Pickup,
}

/// The object as the hammer and the listener see it after a step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Surface {
    /// Displacement of the strike point, m.
    pub displacement_m: f64,
    /// Velocity of the strike point, m/s.
    pub velocity_m_per_s: f64,
    /// What the pickups hear now.
    pub pickup: Pickup,
    /// Strike-point displacement (m) after one more force-free step of the same length: what
    /// [`ModalBank::predict_free`] would return next, read in the same pass.
    pub next_free_displacement_m: f64,
}

/// A point's strike and tangential shapes, in a bank's lanes ([`ModalBank::point_shapes`]).
#[derive(Clone)]
pub struct PointShapes {
    pub strike: [f64; MAX_MODES],
    pub tangent: [f64; MAX_MODES],
}

impl PointShapes {
    pub const ZERO: PointShapes = PointShapes {
        strike: [0.0; MAX_MODES],
        tangent: [0.0; MAX_MODES],
    };
}

/// The object after a tangential push ([`ModalBank::push_tangent`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pushed {
    /// The strike point and the pickups after the push, with the force-free prediction of a
    /// step of the slot asked for.
    pub surface: Surface,
    /// What the push added to the pickups.
    pub added: Pickup,
    /// Tangential displacement at the strike point after the push, m: Σ τᵢ·qᵢ.
    pub tangent_m: f64,
}

/// What the two pickups hear: the mean of what they hear (mid, the mono signal) and half the
/// difference, left minus right (side): the pressure the modes radiate to the listener, Pa at
/// [`crate::radiation::LISTENER_DISTANCE_M`] (each mode's velocity at the pickup times its
/// [`Radiator::pressure_per_velocity`]). Left = mid + side, right = mid − side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pickup {
    pub mid_pa: f64,
    pub side_pa: f64,
}

/// Which of a mode's point shapes a force acts through.
#[derive(Clone, Copy)]
enum Shape {
    Strike,
    Tangent,
}

/// The step lengths a bank keeps transitions for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// One sample (set by [`ModalBank::set_modes`]).
    Full,
    /// A contact sub-step (see [`ModalBank::prepare`]).
    Sub,
    /// A one-off step, such as the part of a sample before a contact begins.
    OneOff,
}

/// A body's point mobility averaged over frequency, real (its mean conductance): Skudrzyk's
/// mean value n(f)/(4M), n = dN/df the modal density (Skudrzyk, "The mean-value method of
/// predicting the dynamic response of complex vibrators", JASA 67, 1980: a finite structure's
/// mobility averaged over frequency is the infinite structure's, 1/(8√(B·m'')) for a thin
/// plate, Cremer, Heckl & Petersson, *Structure-Borne Sound*). See [`ModalBank::mean_mobility`].
#[derive(Clone, Copy, Debug)]
pub struct MeanMobility {
    /// C in the mode count N(f) = C·f^b + D, per Hz^b.
    count_per_hz_pow: f64,
    /// b.
    exponent: f64,
    mass_kg: f64,
}

impl MeanMobility {
    /// A body without modes: rigid.
    pub const NONE: Self = Self {
        count_per_hz_pow: 0.0,
        exponent: 1.0,
        mass_kg: 1.0,
    };

    /// The mean mobility at `freq_hz`, m/(N·s): n(f)/(4M) with n = b·C·f^(b−1), carried on
    /// above the top mode.
    pub fn m_per_n_s(&self, freq_hz: f64) -> f64 {
        let b = self.exponent;
        b * self.count_per_hz_pow * freq_hz.powf(b - 1.0) / (4.0 * self.mass_kg)
    }
}

/// A bank's modes and their one-sample transition, without any vibration: everything a note-on
/// needs that depends only on the object, its tuning and the sample rate. Built off the audio
/// thread (or at a note-on, when none is ready) and loaded into a voice's bank by
/// [`ModalBank::load`], which copies only the lanes in use.
#[derive(Clone)]
pub struct BankSetup {
    num_modes: usize,
    skipped_modes: usize,
    mass_kg: f64,
    /// Decay rate σ, 1/s.
    sigma: [f64; MAX_MODES],
    /// Undamped angular frequency squared, ω₀² = ω_d² + σ² (rad/s)²: the mode's stiffness per
    /// unit modal mass, zero in unused lanes. A mode damped past critical (σ ≥ ω₀) has no
    /// damped frequency; its transition is the overdamped one.
    omega0_sq: [f64; MAX_MODES],
    strike: [f64; MAX_MODES],
    pickup: [f64; MAX_MODES],
    side: [f64; MAX_MODES],
    tangent: [f64; MAX_MODES],
    /// Which mode of the list the bank was loaded with each lane holds (its index there).
    loaded_index: [usize; MAX_MODES],
    full: Step,
    /// The step of `full`, s (one sample).
    full_dt_s: f64,
    /// Steps of `full` in which the fastest mode falls by at most [`FLUSH_DECADES`]: how often
    /// the bank flushes its negligible modes ([`ModalBank::count_step`]).
    flush_every_steps: u32,
    /// How the count of the body's modes grows with frequency, N(f) ∝ f^b (see
    /// [`ModalBank::mean_mobility`]).
    count_exponent: f64,
}

/// A bank of linear modes driven by one point force and read at one pickup.
///
/// Each mode is a damped oscillator with modal mass `mass_kg`. Its transition over a step is exact
/// (no frequency warping); modes at or above Nyquist are skipped and counted in
/// [`ModalBank::skipped_modes`] rather than mistuned. Lanes past the modes in use, up to a whole
/// group of [`LANES`], hold zero coefficients; lanes beyond are never read.
pub struct ModalBank {
    setup: BankSetup,
    /// The modes' undamped angular frequencies ω₀ as loaded, rad/s: [`ModalBank::retune`] scales
    /// these.
    loaded_omega0: [f64; MAX_MODES],
    /// The decay rate (1/s) of a mode a retune pushed to Nyquist had before it was damped there,
    /// given back when a retune brings it down again; NaN for a mode below Nyquist.
    parked_sigma: [f64; MAX_MODES],
    /// The decay rates (1/s) the modes had before [`ModalBank::add_strike_damper`] while a
    /// damper is on; NaN without one.
    undamped_sigma: [f64; MAX_MODES],
    /// Displacement in metres and velocity in m/s of each mode's coordinate.
    q: [f64; MAX_MODES],
    p: [f64; MAX_MODES],
    sub: Step,
    one_off: Step,
    /// The step lengths `sub` and `one_off` were last prepared for, s (NaN: none, or the
    /// modes changed since).
    sub_dt_s: f64,
    one_off_dt_s: f64,
    /// Steps (of any slot, each no longer than a sample) until the next flush of the
    /// negligible modes.
    steps_to_flush: u32,
}

impl Default for Step {
    fn default() -> Self {
        let zero = [0.0; MAX_MODES];
        Self {
            a00: zero,
            a01: zero,
            a10: zero,
            a11: zero,
            b0: zero,
            b1: zero,
            unit_b0: zero,
            unit_b1: zero,
            static_m_per_n: zero,
            strike_a00: zero,
            strike_a01: zero,
            tangent_b0: zero,
            tangent_b1: zero,
            compliance_m_per_n: 0.0,
            mobility_m_per_s_per_n: 0.0,
            tangent_compliance_m_per_n: 0.0,
            tangent_pickup_per_n: Pickup::default(),
        }
    }
}

impl BankSetup {
    /// No modes, modal mass `mass_kg`.
    pub fn new(mass_kg: f64) -> Self {
        let zero = [0.0; MAX_MODES];
        Self {
            num_modes: 0,
            skipped_modes: 0,
            mass_kg: mass_kg.max(1e-9),
            sigma: zero,
            omega0_sq: zero,
            strike: zero,
            pickup: zero,
            side: zero,
            tangent: zero,
            loaded_index: [0; MAX_MODES],
            full: Step::default(),
            full_dt_s: f64::NAN,
            flush_every_steps: 1,
            count_exponent: 1.0,
        }
    }

    /// How the count of the modes grows with frequency, N(f) ∝ f^`exponent` (1 unless set: a
    /// plate's; see [`crate::resonator::ObjectKind::modal_count_exponent`]).
    pub fn set_modal_count_exponent(&mut self, exponent: f64) {
        self.count_exponent = exponent;
    }

    /// Set the modes and the modal mass `mass_kg`, sampled at `sample_rate_hz`. Modes at or above
    /// Nyquist, or past [`MAX_MODES`], are skipped and counted.
    pub fn set(&mut self, modes: &[Mode], mass_kg: f64, sample_rate_hz: f64) {
        self.mass_kg = mass_kg.max(1e-9);
        let nyquist_hz = 0.5 * sample_rate_hz;
        let mut n = 0;
        let mut skipped = 0;
        for (index, mode) in modes.iter().enumerate() {
            if n == MAX_MODES || !(mode.freq_hz > 0.0 && mode.freq_hz < nyquist_hz) {
                skipped += 1;
                continue;
            }
            let omega_d = std::f64::consts::TAU * mode.freq_hz;
            self.sigma[n] = 1000f64.ln() / mode.t60_s.max(1e-4);
            self.omega0_sq[n] = omega_d * omega_d + self.sigma[n] * self.sigma[n];
            self.strike[n] = snap_node(mode.strike_shape);
            let heard = mode.radiator.pressure_per_velocity(mode.freq_hz);
            self.pickup[n] = snap_node(heard * mode.pickup_shape);
            self.side[n] = snap_node(heard * mode.side_shape);
            self.tangent[n] = snap_node(mode.tangent_shape);
            self.loaded_index[n] = index;
            n += 1;
        }
        for i in n..padded(n) {
            self.omega0_sq[i] = 0.0;
            self.sigma[i] = 0.0;
            self.strike[i] = 0.0;
            self.pickup[i] = 0.0;
            self.side[i] = 0.0;
            self.tangent[i] = 0.0;
        }
        self.num_modes = n;
        self.skipped_modes = skipped;
        self.full_dt_s = 1.0 / sample_rate_hz;
        self.set_full_transition();
    }

    /// The one-sample transition `full` and the flushes' period for the modes as they are now.
    fn set_full_transition(&mut self) {
        let mut full = std::mem::take(&mut self.full);
        self.transition(self.full_dt_s, &mut full);
        self.full = full;
        self.flush_every_steps = self.flush_period();
    }

    /// Steps between two flushes: as many as take the fastest mode (its envelope's rate σ; past
    /// critical damping a state falls as its slower root, slower than σ) down [`FLUSH_DECADES`]
    /// over one-sample steps, from 1 to [`MAX_FLUSH_STEPS`].
    fn flush_period(&self) -> u32 {
        let fastest_per_s = self.sigma[..self.num_modes]
            .iter()
            .fold(0.0, |m: f64, &s| m.max(s));
        let steps = FLUSH_DECADES * std::f64::consts::LN_10 / (fastest_per_s * self.full_dt_s);
        // max before min: a NaN gives one step.
        steps.max(1.0).min(f64::from(MAX_FLUSH_STEPS)) as u32
    }

    /// Exact transition over `dt` for every mode, into `t`'s lanes in use: with
    /// (ec, es) = `decay_pair(σ, ω₀², dt)` (e^(−σ·dt)·(cos ω_d·dt, sin(ω_d·dt)/ω_d) for an
    /// underdamped mode),
    /// Φ = [[ec + σ·es, es], [−ω₀²·es, ec − σ·es]] and the zero-order-hold input
    /// Γ = A⁻¹(Φ − I)·[0, φ/M]ᵀ. Costs an exponential and a sine/cosine per mode. A moving point
    /// recomputes the shapes' part of it from the unit inputs ([`shape_inputs_lanes`]); the
    /// load keeps this arithmetic, every sound's reference (a drop's tumble is chaotic: its sums
    /// taken in another order land a spoon otherwise).
    fn transition(&self, dt: f64, t: &mut Step) {
        t.compliance_m_per_n = 0.0;
        t.mobility_m_per_s_per_n = 0.0;
        t.tangent_compliance_m_per_n = 0.0;
        t.tangent_pickup_per_n = Pickup::default();
        for i in 0..padded(self.num_modes) {
            if i >= self.num_modes {
                t.a00[i] = 0.0;
                t.a01[i] = 0.0;
                t.a10[i] = 0.0;
                t.a11[i] = 0.0;
                t.b0[i] = 0.0;
                t.b1[i] = 0.0;
                t.strike_a00[i] = 0.0;
                t.strike_a01[i] = 0.0;
                t.tangent_b0[i] = 0.0;
                t.tangent_b1[i] = 0.0;
                t.unit_b0[i] = 0.0;
                t.unit_b1[i] = 0.0;
                t.static_m_per_n[i] = 0.0;
                continue;
            }
            let w0_sq = self.omega0_sq[i];
            let step = ModeStep::exact(self.sigma[i], w0_sq, dt);
            t.a00[i] = step.a00;
            t.a01[i] = step.a01;
            t.a10[i] = step.a10;
            t.a11[i] = step.a11;
            let gain = self.strike[i] / self.mass_kg;
            let held = step.held;
            t.b0[i] = gain * held / w0_sq;
            t.b1[i] = gain * t.a01[i];
            let tangent_gain = self.tangent[i] / self.mass_kg;
            t.tangent_b0[i] = tangent_gain * held / w0_sq;
            t.tangent_b1[i] = tangent_gain * t.a01[i];
            t.tangent_compliance_m_per_n += self.tangent[i] * t.tangent_b0[i];
            t.tangent_pickup_per_n.mid_pa += self.pickup[i] * t.tangent_b1[i];
            t.tangent_pickup_per_n.side_pa += self.side[i] * t.tangent_b1[i];
            t.strike_a00[i] = self.strike[i] * t.a00[i];
            t.strike_a01[i] = self.strike[i] * t.a01[i];
            t.compliance_m_per_n += self.strike[i] * t.b0[i];
            t.mobility_m_per_s_per_n += self.strike[i] * t.b1[i];
            t.unit_b0[i] = held / (w0_sq * self.mass_kg);
            t.unit_b1[i] = t.a01[i] / self.mass_kg;
            t.static_m_per_n[i] = 1.0 / (w0_sq * self.mass_kg);
        }
    }

    /// Number of modes in use.
    pub fn num_modes(&self) -> usize {
        self.num_modes
    }

    /// Become `from`, copying only the lanes in use.
    fn copy_lanes(&mut self, from: &BankSetup) {
        let n = padded(from.num_modes);
        self.num_modes = from.num_modes;
        self.skipped_modes = from.skipped_modes;
        self.mass_kg = from.mass_kg;
        self.sigma[..n].copy_from_slice(&from.sigma[..n]);
        self.omega0_sq[..n].copy_from_slice(&from.omega0_sq[..n]);
        self.strike[..n].copy_from_slice(&from.strike[..n]);
        self.pickup[..n].copy_from_slice(&from.pickup[..n]);
        self.side[..n].copy_from_slice(&from.side[..n]);
        self.tangent[..n].copy_from_slice(&from.tangent[..n]);
        self.loaded_index[..n].copy_from_slice(&from.loaded_index[..n]);
        self.full.copy_lanes(&from.full, n);
        self.full_dt_s = from.full_dt_s;
        self.flush_every_steps = from.flush_every_steps;
        self.count_exponent = from.count_exponent;
    }
}

/// A bank's shapes, which its steps' shape inputs are made from ([`shape_inputs_lanes`]).
struct ShapeView<'a> {
    num_modes: usize,
    strike: &'a [f64; MAX_MODES],
    tangent: &'a [f64; MAX_MODES],
    pickup: &'a [f64; MAX_MODES],
    side: &'a [f64; MAX_MODES],
}

impl Step {
    /// Copy the first `n` lanes (a multiple of [`LANES`]) of `from`.
    fn copy_lanes(&mut self, from: &Step, n: usize) {
        self.a00[..n].copy_from_slice(&from.a00[..n]);
        self.a01[..n].copy_from_slice(&from.a01[..n]);
        self.a10[..n].copy_from_slice(&from.a10[..n]);
        self.a11[..n].copy_from_slice(&from.a11[..n]);
        self.b0[..n].copy_from_slice(&from.b0[..n]);
        self.b1[..n].copy_from_slice(&from.b1[..n]);
        self.unit_b0[..n].copy_from_slice(&from.unit_b0[..n]);
        self.unit_b1[..n].copy_from_slice(&from.unit_b1[..n]);
        self.static_m_per_n[..n].copy_from_slice(&from.static_m_per_n[..n]);
        self.strike_a00[..n].copy_from_slice(&from.strike_a00[..n]);
        self.strike_a01[..n].copy_from_slice(&from.strike_a01[..n]);
        self.tangent_b0[..n].copy_from_slice(&from.tangent_b0[..n]);
        self.tangent_b1[..n].copy_from_slice(&from.tangent_b1[..n]);
        self.compliance_m_per_n = from.compliance_m_per_n;
        self.mobility_m_per_s_per_n = from.mobility_m_per_s_per_n;
        self.tangent_compliance_m_per_n = from.tangent_compliance_m_per_n;
        self.tangent_pickup_per_n = from.tangent_pickup_per_n;
    }
}

impl ModalBank {
    /// An empty bank with modal mass `mass_kg`.
    pub fn new(mass_kg: f64) -> Box<Self> {
        Box::new(Self {
            setup: BankSetup::new(mass_kg),
            loaded_omega0: [0.0; MAX_MODES],
            parked_sigma: [f64::NAN; MAX_MODES],
            undamped_sigma: [f64::NAN; MAX_MODES],
            q: [0.0; MAX_MODES],
            p: [0.0; MAX_MODES],
            sub: Step::default(),
            one_off: Step::default(),
            sub_dt_s: f64::NAN,
            one_off_dt_s: f64::NAN,
            steps_to_flush: 1,
        })
    }

    /// Set the modal mass in kg (takes effect at the next [`ModalBank::set_modes`]; a step
    /// prepared before is prepared again).
    pub fn set_mass_kg(&mut self, mass_kg: f64) {
        self.setup.mass_kg = mass_kg.max(1e-9);
        self.sub_dt_s = f64::NAN;
        self.one_off_dt_s = f64::NAN;
    }

    /// Shorten every mode's T60 to `fraction` of its current value from now on, keeping the
    /// vibration as it is (note-off damping; see [`ModalBank::damp_mode`]); `in_contact` (a
    /// contact is using the sub-step transition) refreshes that too.
    pub fn scale_decay(&mut self, fraction: f64, sample_rate_hz: f64, in_contact: bool) {
        for i in 0..self.setup.num_modes {
            self.damp_mode(i, self.setup.sigma[i] / fraction);
        }
        self.retransition(sample_rate_hz, in_contact);
    }

    /// Damp every mode whose T60 is longer than `t60_s` to `t60_s` from now on, keeping the
    /// vibration as it is (a choke; see [`ModalBank::damp_mode`]).
    pub fn limit_t60(&mut self, t60_s: f64, sample_rate_hz: f64) {
        let sigma_min = 1000f64.ln() / t60_s.max(1e-4);
        for i in 0..self.setup.num_modes {
            self.damp_mode(i, sigma_min);
        }
        self.retransition(sample_rate_hz, false);
    }

    /// Raise mode `i`'s decay rate towards `sigma` (1/s), keeping its stiffness ω₀²: a damper
    /// added to the mode, so its energy ½M(p² + ω₀²q²) can only fall (raising σ at a fixed
    /// damped frequency would stiffen the mode and pump energy into a displaced one). The rate
    /// stops at critical damping, σ = ω₀, the fastest decay a mode can have: past it the
    /// displacement creeps back ever more slowly. A mode already damped beyond is left as it is.
    /// A mode parked at Nyquist by a retune keeps the damping for when it comes back.
    fn damp_mode(&mut self, i: usize, sigma: f64) {
        let critical = self.setup.omega0_sq[i].sqrt();
        let current = &mut self.setup.sigma[i];
        *current = current.max(sigma.min(critical));
        let parked = &mut self.parked_sigma[i];
        if !parked.is_nan() {
            *parked = parked.max(sigma);
        }
    }

    /// A dashpot at the strike point from now on, of resistance `resistance_n_s_per_m(ω₀)` at
    /// each mode's undamped angular frequency, in place of any put there before: mode i's decay
    /// rate rises by φᵢ²·R/(2M) over what it had without one, the power R·v² it draws from the
    /// mode over twice the mode's energy (light damping: the coupling it adds between modes is
    /// left out), up to critical ([`ModalBank::damp_mode`]). The vibration is kept; costs the
    /// one-sample transition. [`ModalBank::remove_strike_damper`] takes it away.
    pub fn add_strike_damper(&mut self, resistance_n_s_per_m: impl Fn(f64) -> f64) {
        if !self.has_strike_damper() {
            self.undamped_sigma = self.setup.sigma;
        }
        let before = self.undamped_sigma;
        for (i, &sigma) in before.iter().enumerate().take(self.setup.num_modes) {
            let shape = self.setup.strike[i];
            let added = shape * shape * resistance_n_s_per_m(self.setup.omega0_sq[i].sqrt())
                / (2.0 * self.setup.mass_kg);
            self.setup.sigma[i] = sigma;
            if added > 0.0 {
                self.damp_mode(i, sigma + added);
            }
        }
        self.retransition(1.0 / self.setup.full_dt_s, false);
    }

    /// Take away the damper of [`ModalBank::add_strike_damper`], if one is on: the modes decay
    /// as they did before it.
    pub fn remove_strike_damper(&mut self) {
        if self.has_strike_damper() {
            let n = self.setup.num_modes;
            self.setup.sigma[..n].copy_from_slice(&self.undamped_sigma[..n]);
            self.undamped_sigma = [f64::NAN; MAX_MODES];
            self.retransition(1.0 / self.setup.full_dt_s, false);
        }
    }

    fn has_strike_damper(&self) -> bool {
        !self.undamped_sigma[0].is_nan()
    }

    /// The body's point mobility at the strike point averaged over frequency (see
    /// [`MeanMobility`]), from the modes in use: each mode counts by its shape's square there
    /// (φ² = 1 on average over the body; 4 at a bar's end, which is four times as mobile as its
    /// middle, Cremer, Heckl & Petersson). The count so weighted follows N(f) = C·f^b + D (b set
    /// with the modes, see [`BankSetup::set_modal_count_exponent`]; D takes up what the edges
    /// add or remove), C from the top octave below the top mode f_top,
    /// N(f_top) − N(f_top/2) = C·f_top^b·(1 − 2^(−b)). [`MeanMobility::NONE`] with no modes.
    pub fn mean_mobility(&self) -> MeanMobility {
        let setup = &self.setup;
        let freq_of = |i: usize| setup.omega0_sq[i].sqrt() / std::f64::consts::TAU;
        let modes = 0..setup.num_modes;
        let top_hz = modes.clone().map(freq_of).fold(0.0, f64::max);
        if !(top_hz > 0.0) {
            return MeanMobility::NONE;
        }
        let top_octave: f64 = modes
            .filter(|&i| freq_of(i) > 0.5 * top_hz)
            .map(|i| setup.strike[i] * setup.strike[i])
            .sum();
        let exponent = setup.count_exponent;
        MeanMobility {
            count_per_hz_pow: top_octave / (top_hz.powf(exponent) * (1.0 - 0.5f64.powf(exponent))),
            exponent,
            mass_kg: setup.mass_kg,
        }
    }

    /// Tune every mode to `ratio` times its frequency as loaded (its undamped frequency ω₀, so
    /// its stiffness by `ratio`², and with it the energy of a displacement), keeping its decay
    /// rate and the vibration (q, p) as it is: the pickups hear the velocities, which do not
    /// jump, so a retune does not click. A mode pushed to Nyquist or beyond cannot be represented: it is held just
    /// below Nyquist and damped to a T60 of at most `choke_t60_s`, so it dies away instead of
    /// aliasing, and gets its decay back when a retune brings it below Nyquist again. Costs a
    /// transition (an exponential and a sine/cosine per mode); `in_contact` (a contact is using
    /// the sub-step transition) a second one.
    pub fn retune(&mut self, ratio: f64, sample_rate_hz: f64, choke_t60_s: f64, in_contact: bool) {
        let nyquist_rad_per_s = std::f64::consts::PI * sample_rate_hz;
        let sigma_choke = 1000f64.ln() / choke_t60_s.max(1e-4);
        let ratio = if ratio.is_finite() && ratio > 0.0 {
            ratio
        } else {
            1.0
        };
        for i in 0..self.setup.num_modes {
            let omega = self.loaded_omega0[i] * ratio;
            let parked = &mut self.parked_sigma[i];
            if omega < nyquist_rad_per_s {
                self.setup.omega0_sq[i] = omega * omega;
                if !parked.is_nan() {
                    self.setup.sigma[i] = *parked;
                    *parked = f64::NAN;
                }
            } else {
                let omega = 0.99 * nyquist_rad_per_s;
                self.setup.omega0_sq[i] = omega * omega;
                if parked.is_nan() {
                    *parked = self.setup.sigma[i];
                }
                self.damp_mode(i, sigma_choke);
            }
        }
        self.retransition(sample_rate_hz, in_contact);
    }

    /// The one-sample transition after a change of the frequencies or decay rates, and with
    /// `refresh_sub` the sub-step transition too (a contact under way goes on with the new
    /// modes); otherwise the next contact prepares its sub-step afresh.
    fn retransition(&mut self, sample_rate_hz: f64, refresh_sub: bool) {
        self.setup.full_dt_s = 1.0 / sample_rate_hz;
        self.setup.set_full_transition();
        self.steps_to_flush = self.steps_to_flush.min(self.setup.flush_every_steps);
        self.one_off_dt_s = f64::NAN;
        if refresh_sub && self.sub_dt_s.is_finite() {
            self.setup.transition(self.sub_dt_s, &mut self.sub);
        } else {
            self.sub_dt_s = f64::NAN;
        }
    }

    /// Move the strike point: `strike_shape_at(i)` gives the strike shape at the new point of
    /// the `i`-th mode of the list the bank was loaded with (each lane's mode found by
    /// [`BankSetup::set`]'s record) — keeping the vibration, the frequencies and decays (a
    /// retune's too). Not while a contact is under way (its sub-step is prepared afresh). Costs
    /// the one-sample transition (an exponential and a sine/cosine per mode).
    pub fn restrike(&mut self, strike_shape_at: impl Fn(usize) -> f64, sample_rate_hz: f64) {
        let setup = &mut self.setup;
        for lane in 0..setup.num_modes {
            setup.strike[lane] = snap_node(strike_shape_at(setup.loaded_index[lane]));
        }
        self.retransition(sample_rate_hz, false);
    }

    /// The strike and tangential shapes of this bank's modes at another point, in its lanes and
    /// snapped on nodes as at loading: `shape_at(i)` gives the (strike, tangential) shape there
    /// of the `i`-th mode of the list the bank was loaded with.
    pub fn point_shapes(&self, shape_at: impl Fn(usize) -> (f64, f64), shapes: &mut PointShapes) {
        let setup = &self.setup;
        for lane in 0..setup.num_modes {
            let (strike, tangent) = shape_at(setup.loaded_index[lane]);
            shapes.strike[lane] = snap_node(strike);
            shapes.tangent[lane] = snap_node(tangent);
        }
    }

    /// Strike and rub the object from now on at the point a share `s` (0…1) of the way between
    /// the points of `ends` ([`ModalBank::point_shapes`]), its shapes interpolated linearly,
    /// under a contact under way that holds `[normal, tangential]` forces `loads_n` (N) on it.
    /// Their static deflection moves with the point, qᵢ += (Δφᵢ·F + Δτᵢ·F_t)/(M·ω₀ᵢ²): a slider
    /// is far slower than the object's bending waves, so the deflection under it follows it
    /// quasi-statically, which the modes, heard at their own frequencies, would otherwise hear
    /// as an infrasonic wander of the pickups. The velocities, the frequencies and the decays
    /// are kept; the one-sample and the contact's sub-step transitions keep their Φ and only the
    /// shapes' inputs are recomputed (no exponential, no sine, no division).
    pub fn set_point(&mut self, ends: &[PointShapes; 2], s: f64, loads_n: [f64; 2]) {
        let setup = &mut self.setup;
        let [a, b] = ends;
        let [normal_n, tangent_n] = loads_n;
        for i in 0..setup.num_modes {
            let strike = a.strike[i] + s * (b.strike[i] - a.strike[i]);
            let tangent = a.tangent[i] + s * (b.tangent[i] - a.tangent[i]);
            let moved_n =
                (strike - setup.strike[i]) * normal_n + (tangent - setup.tangent[i]) * tangent_n;
            self.q[i] += moved_n * setup.full.static_m_per_n[i];
            setup.strike[i] = strike;
            setup.tangent[i] = tangent;
        }
        let shapes = ShapeView {
            num_modes: setup.num_modes,
            strike: &setup.strike,
            tangent: &setup.tangent,
            pickup: &setup.pickup,
            side: &setup.side,
        };
        shape_inputs_lanes(&shapes, &mut setup.full);
        if self.sub_dt_s.is_finite() {
            shape_inputs_lanes(&shapes, &mut self.sub);
        }
        self.one_off_dt_s = f64::NAN;
    }

    /// Replace the modes, sampled at `sample_rate_hz`. Modes at or above Nyquist, or past
    /// [`MAX_MODES`], are skipped and counted. The object is left at rest.
    pub fn set_modes(&mut self, modes: &[Mode], sample_rate_hz: f64) {
        let mass_kg = self.setup.mass_kg;
        self.setup.set(modes, mass_kg, sample_rate_hz);
        self.loaded_omega0 = self.setup.omega0_sq.map(f64::sqrt);
        self.parked_sigma = [f64::NAN; MAX_MODES];
        self.undamped_sigma = [f64::NAN; MAX_MODES];
        self.sub_dt_s = f64::NAN;
        self.one_off_dt_s = f64::NAN;
        self.reset();
    }

    /// Take the modes, mass and transition of `setup` (copying only the lanes in use) and put
    /// the object at rest: a note-on's whole set-up, a copy of a few kilobytes at most.
    pub fn load(&mut self, setup: &BankSetup) {
        let n = padded(setup.num_modes);
        self.setup.copy_lanes(setup);
        for (loaded, w0_sq) in self.loaded_omega0[..n]
            .iter_mut()
            .zip(&setup.omega0_sq[..n])
        {
            *loaded = w0_sq.sqrt();
        }
        self.parked_sigma[..n].fill(f64::NAN);
        self.undamped_sigma = [f64::NAN; MAX_MODES];
        self.sub_dt_s = f64::NAN;
        self.one_off_dt_s = f64::NAN;
        self.reset();
    }

    /// Compute the transition of `slot` (not [`Slot::Full`]) for steps of `dt_s` seconds. Costs an
    /// exponential and a sine/cosine per mode, once per contact (twice for a landing that settles
    /// into its well); nothing when the slot's step is the one prepared last, the modes
    /// unchanged since (a drop's trials of one impact meet the floor the same way).
    pub fn prepare(&mut self, slot: Slot, dt_s: f64) {
        match slot {
            Slot::Full => debug_assert!(false, "the full step is set by set_modes"),
            Slot::Sub => {
                if dt_s != self.sub_dt_s {
                    self.setup.transition(dt_s, &mut self.sub);
                    self.sub_dt_s = dt_s;
                }
            }
            Slot::OneOff => {
                if dt_s != self.one_off_dt_s {
                    self.setup.transition(dt_s, &mut self.one_off);
                    self.one_off_dt_s = dt_s;
                }
            }
        }
    }

    fn step_for(&self, slot: Slot) -> &Step {
        match slot {
            Slot::Full => &self.setup.full,
            Slot::Sub => &self.sub,
            Slot::OneOff => &self.one_off,
        }
    }

    /// Multiply every mode's displacement and velocity by `factor` (its energy by factor²).
    pub fn scale_vibration(&mut self, factor: f64) {
        for i in 0..self.setup.num_modes {
            self.q[i] *= factor;
            self.p[i] *= factor;
        }
    }

    /// Add the loaded equilibrium under a constant force `force_n` (N) on the strike point,
    /// qᵢ = φᵢ·F/(M·ω₀ᵢ²), to the state: a body of that weight laid on the object then starts
    /// without a jolt (the object is already where the weight holds it).
    pub fn preload(&mut self, force_n: f64) {
        self.shift_equilibrium(Shape::Strike, force_n);
    }

    /// A constant force `force_n` (N) now rests on the strike point for good: carry on with the
    /// vibration about the loaded equilibrium qᵢ = φᵢ·F/(M·ω₀ᵢ²). The free motion of that
    /// vibration is exactly the motion under the constant force, so ringing on without the force
    /// is the same sound (velocities and the pickup are unchanged).
    pub fn hold_static_force(&mut self, force_n: f64) {
        self.shift_equilibrium(Shape::Strike, -force_n);
    }

    /// A constant tangential force `force_n` (N) held on the strike point is taken away as if
    /// slowly: carry on about the unloaded equilibrium, qᵢ −= τᵢ·F/(M·ω₀ᵢ²) (the tangential
    /// counterpart of [`ModalBank::hold_static_force`]; velocities and the pickups unchanged).
    pub fn hold_static_tangent(&mut self, force_n: f64) {
        self.shift_equilibrium(Shape::Tangent, -force_n);
    }

    /// Add the static displacement a constant force `force_n` (N) holds through `shape`,
    /// qᵢ += shapeᵢ·F/(M·ω₀ᵢ²): the one rule behind a preload, a held force and a held
    /// tangential force.
    fn shift_equilibrium(&mut self, shape: Shape, force_n: f64) {
        let setup = &self.setup;
        let shape = match shape {
            Shape::Strike => &setup.strike,
            Shape::Tangent => &setup.tangent,
        };
        for i in 0..setup.num_modes {
            self.q[i] += shape[i] * force_n / (setup.mass_kg * setup.omega0_sq[i]);
        }
    }

    /// Become a copy of `from` again, a bank this one last became a copy of with
    /// [`ModalBank::copy_from`] and which has not changed its modes since: its vibration and
    /// flush schedule only, keeping the transitions this one prepared (a drop's next trial on
    /// the same floor).
    pub fn copy_state_from(&mut self, from: &ModalBank) {
        self.steps_to_flush = from.steps_to_flush;
        self.copy_vibration(from);
    }

    /// Take `from`'s vibration (displacements and velocities of the lanes in use): `from` holds
    /// the same modes.
    fn copy_vibration(&mut self, from: &ModalBank) {
        let n = padded(self.setup.num_modes.min(from.setup.num_modes));
        self.q[..n].copy_from_slice(&from.q[..n]);
        self.p[..n].copy_from_slice(&from.p[..n]);
    }

    /// Become a copy of `from`: its modes, transitions and vibration (a trial copy of a bank,
    /// without allocating).
    pub fn copy_from(&mut self, from: &ModalBank) {
        let n = padded(from.setup.num_modes);
        self.setup.copy_lanes(&from.setup);
        self.loaded_omega0[..n].copy_from_slice(&from.loaded_omega0[..n]);
        self.parked_sigma[..n].copy_from_slice(&from.parked_sigma[..n]);
        self.undamped_sigma = from.undamped_sigma;
        self.sub_dt_s = f64::NAN;
        self.one_off_dt_s = f64::NAN;
        self.steps_to_flush = from.steps_to_flush;
        self.copy_vibration(from);
    }

    /// Put every mode at rest (the lanes in use; no other lane is read), with the flushes on
    /// the schedule of a bank just loaded.
    pub fn reset(&mut self) {
        let n = padded(self.setup.num_modes);
        self.q[..n].fill(0.0);
        self.p[..n].fill(0.0);
        self.steps_to_flush = self.setup.flush_every_steps;
    }

    /// Advance one step of `slot` with the force `force_n` (N) held on the strike point, and read
    /// the strike point and the pickup after it in the same pass.
    #[inline]
    pub fn advance(&mut self, slot: Slot, force_n: f64) -> Surface {
        let t = match slot {
            Slot::Full => &self.setup.full,
            Slot::Sub => &self.sub,
            Slot::OneOff => &self.one_off,
        };
        let surface = advance_lanes(
            t,
            &self.setup.strike,
            &self.setup.pickup,
            &self.setup.side,
            &mut self.q,
            &mut self.p,
            padded(self.setup.num_modes),
            force_n,
        );
        self.count_step();
        surface
    }

    /// The strike point and the pickup now (no prediction: `next_free_displacement_m` is NaN).
    pub fn surface(&self) -> Surface {
        Surface {
            displacement_m: self.strike_displacement_m(),
            velocity_m_per_s: self.strike_velocity_m_per_s(),
            pickup: Pickup {
                mid_pa: self.pickup_pa(),
                side_pa: dot(&self.setup.side, &self.p, self.setup.num_modes),
            },
            next_free_displacement_m: f64::NAN,
        }
    }

    /// Strike-point displacement (m) after one force-free step of `slot`, without taking it;
    /// the step under a held force F adds F times [`ModalBank::compliance`].
    #[inline]
    pub fn predict_free(&self, slot: Slot) -> f64 {
        let t = self.step_for(slot);
        let mut w = [0.0; LANES];
        for base in (0..padded(self.setup.num_modes)).step_by(LANES) {
            for lane in 0..LANES {
                let i = base + lane;
                w[lane] += t.strike_a00[i] * self.q[i] + t.strike_a01[i] * self.p[i];
            }
        }
        w.iter().sum()
    }

    /// Strike-point (displacement, velocity) per newton held over one step of `slot`: how far
    /// the surface yields under the contact force, in m/N and (m/s)/N.
    #[inline]
    pub fn compliance(&self, slot: Slot) -> (f64, f64) {
        let t = self.step_for(slot);
        (t.compliance_m_per_n, t.mobility_m_per_s_per_n)
    }

    /// Tangential displacement at the strike point, m: Σ τᵢ·qᵢ (τ the tangential shape).
    #[inline]
    pub fn tangent_displacement_m(&self) -> f64 {
        dot(&self.setup.tangent, &self.q, self.setup.num_modes)
    }

    /// Tangential displacement per newton of tangential force held over one full sample, m/N.
    #[inline]
    pub fn tangent_compliance_m_per_n(&self) -> f64 {
        self.setup.full.tangent_compliance_m_per_n
    }

    /// Add a tangential force `force_n` held over the full sample just stepped (by linearity,
    /// its response adds to whatever the step did): qᵢ += tb0ᵢ·F, q̇ᵢ += tb1ᵢ·F. Returns the
    /// object after it, with the force-free prediction of a step of `next`, read in the same
    /// pass.
    #[inline]
    pub fn push_tangent(&mut self, force_n: f64, next: Slot) -> Pushed {
        let next = match next {
            Slot::Full => &self.setup.full,
            Slot::Sub => &self.sub,
            Slot::OneOff => &self.one_off,
        };
        push_tangent_lanes(&self.setup, next, &mut self.q, &mut self.p, force_n)
    }

    /// Advance one full sample with no force on the object (free ringing) and return what the
    /// pickups hear after it: the update and the output sums in one pass over the modes.
    #[inline]
    pub fn ring(&mut self) -> Pickup {
        let pickup = ring_lanes(
            &self.setup.full,
            &self.setup.pickup,
            &self.setup.side,
            &mut self.q,
            &mut self.p,
            padded(self.setup.num_modes),
        );
        self.count_step();
        pickup
    }

    /// [`ModalBank::ring`] for `mid.len()` samples, writing what the pickups hear after each
    /// into `mid` and `side` (the same bits as a call a sample): [`ring_heard`] of this bank
    /// alone.
    pub fn ring_block(&mut self, mid: &mut [f64], side: &mut [f64]) {
        ring_heard(&mut [(self, 1.0)], mid, side);
    }

    /// Count a step taken, and flush the negligible modes every
    /// [`BankSetup::flush_every_steps`] of the one-sample transition (a sub-step or a one-off step is
    /// no longer than a sample, so its modes fall no further): a mode's state never gets
    /// [`FLUSH_DECADES`] below [`NEGLIGIBLE_STATE`], far above the subnormal range (2.2e-308),
    /// whatever the bank rings for and whoever steps it, at the cost of one pass in up to
    /// [`MAX_FLUSH_STEPS`]. A change of the decays while the bank rings shortens the count to
    /// its new period if that is shorter (a retune giving a parked mode back its damping can
    /// restore any σ).
    #[inline]
    fn count_step(&mut self) {
        self.steps_to_flush -= 1;
        if self.steps_to_flush == 0 {
            flush_lanes(&mut self.q, &mut self.p, padded(self.setup.num_modes));
            self.steps_to_flush = self.setup.flush_every_steps;
        }
    }

    /// Surface displacement at the strike point in metres: Σ φᵢ·qᵢ.
    #[inline]
    pub fn strike_displacement_m(&self) -> f64 {
        dot(&self.setup.strike, &self.q, self.setup.num_modes)
    }

    /// Surface velocity at the strike point in m/s: Σ φᵢ·q̇ᵢ.
    #[inline]
    pub fn strike_velocity_m_per_s(&self) -> f64 {
        dot(&self.setup.strike, &self.p, self.setup.num_modes)
    }

    /// What the pickup hears (the mean of the two; the mono signal), Pa: Σ gᵢ·ψᵢ·q̇ᵢ, gᵢ the
    /// mode's pressure per velocity.
    #[inline]
    pub fn pickup_pa(&self) -> f64 {
        dot(&self.setup.pickup, &self.p, self.setup.num_modes)
    }

    /// Total vibrational energy in joules: Σ ½M(q̇ᵢ² + ω₀ᵢ²qᵢ²).
    pub fn energy_j(&self) -> f64 {
        let mut sum = [0.0; LANES];
        for base in (0..padded(self.setup.num_modes)).step_by(LANES) {
            for lane in 0..LANES {
                let i = base + lane;
                sum[lane] +=
                    self.p[i] * self.p[i] + self.setup.omega0_sq[i] * self.q[i] * self.q[i];
            }
        }
        0.5 * self.setup.mass_kg * sum.iter().sum::<f64>()
    }

    /// Bound in metres on how far the strike point can ever move with the present energy E and no
    /// force: |Σ φᵢqᵢ| ≤ √(2E/M · Σ φᵢ²/ω₀ᵢ²) by Cauchy–Schwarz, since Mω₀ᵢ²qᵢ²/2 ≤ Eᵢ.
    pub fn max_excursion_m(&self) -> f64 {
        let compliance: f64 = (0..self.setup.num_modes)
            .map(|i| self.setup.strike[i] * self.setup.strike[i] / self.setup.omega0_sq[i])
            .sum();
        (2.0 * self.energy_j() / self.setup.mass_kg * compliance).sqrt()
    }

    /// How far (m) and how fast (m/s) the strike point can ever move while the modes ring
    /// freely: each mode's energy Eᵢ = ½M(q̇ᵢ² + ω₀ᵢ²qᵢ²) never grows
    /// (dEᵢ/dt = −2σᵢM·q̇ᵢ² ≤ 0), so |qᵢ| stays within √(2Eᵢ/M)/ω₀ᵢ and |q̇ᵢ| within √(2Eᵢ/M),
    /// and the strike point's displacement Σφᵢqᵢ and velocity Σφᵢq̇ᵢ within Σ|φᵢ| times those.
    /// The reach is never more than Cauchy–Schwarz's bound √(2E/M · Σφᵢ²/ω₀ᵢ²) on the total
    /// energy, and much less when the energy sits in stiff modes.
    pub fn swing_bounds(&self) -> (f64, f64) {
        let setup = &self.setup;
        let (mut swing_m, mut speed_m_per_s) = (0.0, 0.0);
        for i in 0..setup.num_modes {
            // 2Eᵢ/M.
            let energy = self.p[i] * self.p[i] + setup.omega0_sq[i] * self.q[i] * self.q[i];
            let shape = setup.strike[i].abs();
            swing_m += shape * (energy / setup.omega0_sq[i]).sqrt();
            speed_m_per_s += shape * energy.sqrt();
        }
        (swing_m, speed_m_per_s)
    }

    /// The fastest decay rate σ (1/s) among the modes heard with at least `min_heard` of
    /// [`ModalBank::heard`]; 0 if none is.
    #[cfg(test)]
    pub fn fastest_heard_decay_per_s(&self, min_heard: f64) -> f64 {
        (0..self.setup.num_modes)
            .filter(|&i| self.heard_mode(i) >= min_heard)
            .map(|i| self.setup.sigma[i])
            .fold(0.0, f64::max)
    }

    /// How loud the bank is to the listener over a period: Σᵢ Eᵢ·(gᵢ² + sᵢ²), each mode's
    /// vibration energy ½M(q̇ᵢ² + ω₀ᵢ²qᵢ²) times the square of what the pickups hear of it per
    /// m/s of its velocity (mid and side), J·Pa²·s²/m².
    #[cfg(test)]
    pub fn heard(&self) -> f64 {
        (0..self.setup.num_modes).map(|i| self.heard_mode(i)).sum()
    }

    #[cfg(test)]
    fn heard_mode(&self, i: usize) -> f64 {
        let setup = &self.setup;
        let (q, p) = (self.q[i], self.p[i]);
        let energy_j = 0.5 * setup.mass_kg * (p * p + setup.omega0_sq[i] * q * q);
        energy_j * (setup.pickup[i].powi(2) + setup.side[i].powi(2))
    }

    /// Modal mass in kg.
    pub fn mass_kg(&self) -> f64 {
        self.setup.mass_kg
    }

    /// Number of modes in use.
    pub fn num_modes(&self) -> usize {
        self.setup.num_modes
    }

    /// Number of requested modes left out (at or above Nyquist, or past capacity).
    pub fn skipped_modes(&self) -> usize {
        self.setup.skipped_modes
    }

    /// The largest |q| or |p| of any mode.
    #[cfg(test)]
    pub(crate) fn max_state(&self) -> f64 {
        let n = padded(self.setup.num_modes);
        self.q[..n]
            .iter()
            .chain(&self.p[..n])
            .fold(0.0, |m, x| m.max(x.abs()))
    }

    /// Whether any mode's state is a subnormal number.
    #[cfg(test)]
    pub(crate) fn has_subnormal_state(&self) -> bool {
        let n = padded(self.setup.num_modes);
        self.q[..n]
            .iter()
            .chain(&self.p[..n])
            .any(|x| x.is_subnormal())
    }

    /// Σ(|ψᵢ| + |sideᵢ|) of the pickup gains (shape times pressure per velocity): either
    /// channel's pressure per unit of modal velocity, at most.
    pub fn pickup_abs_sum(&self) -> f64 {
        let n = self.setup.num_modes;
        let (pickup, side) = (&self.setup.pickup[..n], &self.setup.side[..n]);
        pickup
            .iter()
            .zip(side)
            .map(|(p, s)| p.abs() + s.abs())
            .sum()
    }

    /// Σ(|ψᵢ| + |sideᵢ|)·|φᵢ|/(M·ω₀ᵢ), Pa per N: the most a step of one newton in a force held
    /// on the strike point can add to either channel's pressure (a step ΔF sets mode i
    /// swinging with velocity amplitude φᵢ·ΔF/(M·ω₀ᵢ) about its new equilibrium).
    pub fn step_pickup_bound_per_n(&self) -> f64 {
        let n = self.setup.num_modes;
        (0..n)
            .map(|i| {
                let shapes = self.setup.pickup[i].abs() + self.setup.side[i].abs();
                shapes * self.setup.strike[i].abs()
                    / (self.setup.mass_kg * self.setup.omega0_sq[i].sqrt())
            })
            .sum()
    }

    /// Whether every state variable is finite.
    pub fn is_finite(&self) -> bool {
        self.q[..self.setup.num_modes]
            .iter()
            .chain(&self.p[..self.setup.num_modes])
            .all(|x| x.is_finite())
    }
}

/// Ring `banks` freely for `mid.len()` samples (`side` as long), each heard at its gain, writing
/// the sum of what their pickups hear after each sample into `mid` and `side`: every bank's lane
/// groups add into one set of lane sums a sample (bank by bank, in the order given), added up
/// once, so two bodies ringing together (an object and its striker) cost what their modes cost
/// in one bank.
/// Each bank's flushes fall on the same steps as a sample at a time ([`ModalBank::count_step`]).
pub(crate) fn ring_heard(banks: &mut [(&mut ModalBank, f64)], mid: &mut [f64], side: &mut [f64]) {
    debug_assert_eq!(mid.len(), side.len());
    // The sums are zeroed for as many samples as a call takes at a time: a short call (a
    // sample, a drop's striker flying apart for a few samples or its quiet stretch within its
    // 0.25 ms macro step, 11–48 samples from 44.1 to 192 kHz) does not clear 8 KiB.
    match mid.len().min(side.len()) {
        0..=1 => ring_rows::<1>(banks, mid, side),
        2..=4 => ring_rows::<4>(banks, mid, side),
        5..=8 => ring_rows::<8>(banks, mid, side),
        9..=16 => ring_rows::<16>(banks, mid, side),
        17..=48 => ring_rows::<48>(banks, mid, side),
        _ => ring_rows::<RING_BLOCK>(banks, mid, side),
    }
}

/// [`ring_heard`], `ROWS` samples at a time.
fn ring_rows<const ROWS: usize>(
    banks: &mut [(&mut ModalBank, f64)],
    mid: &mut [f64],
    side: &mut [f64],
) {
    let len = mid.len().min(side.len());
    let mut sums: [LaneSums; ROWS] = [[[0.0; LANES]; 2]; ROWS];
    let mut start = 0;
    while start < len {
        let rows = banks
            .iter()
            .fold((len - start).min(ROWS), |rows, (bank, _)| {
                rows.min(bank.steps_to_flush as usize)
            });
        // Every bank's count to its next flush is at least 1 (`flush_period`), or this would
        // never end.
        debug_assert!(rows > 0);
        let sums = &mut sums[..rows];
        if start > 0 {
            sums.fill([[0.0; LANES]; 2]);
        }
        for (bank, gain) in banks.iter_mut() {
            ring_block_lanes(
                &bank.setup.full,
                &bank.setup.pickup,
                &bank.setup.side,
                &mut bank.q,
                &mut bank.p,
                padded(bank.setup.num_modes),
                *gain,
                sums,
            );
            // All but the last of the rows taken, then the last counted as `ring` counts it
            // (`rows` is at most `steps_to_flush`: a flush falls on the block's last step).
            bank.steps_to_flush -= rows as u32 - 1;
            bank.count_step();
        }
        for (k, [mid_sum, side_sum]) in sums.iter().enumerate() {
            mid[start + k] = mid_sum.iter().sum();
            side[start + k] = side_sum.iter().sum();
        }
        start += rows;
    }
}

#[cfg(test)]
mod tests;
