//! Modal resonator bank in structure-of-arrays layout, each mode discretized exactly.

/// Capacity of one bank; modes past it are ignored and counted as skipped.
pub const MAX_MODES: usize = 128;

/// Modes are processed in groups of this many independent lanes, so the per-sample loops (and
/// their sums) compile to SIMD; unused lanes of the last group hold zero coefficients.
const LANES: usize = 8;
/// A modal displacement (m) or velocity (m/s) this small is silence by 2000 dB; its square is still
/// far from the subnormal range (below 2.2e-308), which the state itself reaches 3700 dB later.
pub const NEGLIGIBLE_STATE: f64 = 1e-120;
/// A mode-shape value this small is a node: exactly zero. A point on a node of a mode computes as
/// sin(nπ) ≈ n·1.2e-16 rather than 0; a strike and a pickup both there (a string's end) scale the
/// output by ~1e-32, which a soft strike or a decay then takes into f32's subnormal range
/// (clap-validator found 2.1e-40). 1e-9 is 180 dB below an antinode and far above rounding.
pub const NODE_SHAPE: f64 = 1e-9;

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
    };
}

/// One-step transition of a mode, q'' + 2σq' + ω₀²q = φ·f/M, over a step of `dt` seconds:
/// the exact matrix exponential for the free part and a zero-order hold on the force.
#[derive(Clone, Copy)]
struct Step {
    a00: [f64; MAX_MODES],
    a01: [f64; MAX_MODES],
    a10: [f64; MAX_MODES],
    a11: [f64; MAX_MODES],
    b0: [f64; MAX_MODES],
    b1: [f64; MAX_MODES],
    /// φᵢ·a00ᵢ and φᵢ·a01ᵢ: the strike point after a further force-free step, Σ (φa00)ᵢqᵢ +
    /// (φa01)ᵢpᵢ, is read in the same pass as the step itself.
    strike_a00: [f64; MAX_MODES],
    strike_a01: [f64; MAX_MODES],
    /// Strike-point displacement (m) and velocity (m/s) per newton held over the step:
    /// Σ φᵢ·b0ᵢ and Σ φᵢ·b1ᵢ.
    compliance_m_per_n: f64,
    mobility_m_per_s_per_n: f64,
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

/// What the two pickups hear: the mean of their velocities (mid, the mono signal) and half the
/// difference, left minus right (side), in m/s. Left = mid + side, right = mid − side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pickup {
    pub mid_m_per_s: f64,
    pub side_m_per_s: f64,
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
    full: Step,
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
    /// Displacement in metres and velocity in m/s of each mode's coordinate.
    q: [f64; MAX_MODES],
    p: [f64; MAX_MODES],
    sub: Step,
    one_off: Step,
    /// The step length `sub` was last prepared for, s (NaN: none).
    sub_dt_s: f64,
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
            strike_a00: zero,
            strike_a01: zero,
            compliance_m_per_n: 0.0,
            mobility_m_per_s_per_n: 0.0,
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
            full: Step::default(),
        }
    }

    /// Set the modes and the modal mass `mass_kg`, sampled at `sample_rate_hz`. Modes at or above
    /// Nyquist, or past [`MAX_MODES`], are skipped and counted.
    pub fn set(&mut self, modes: &[Mode], mass_kg: f64, sample_rate_hz: f64) {
        self.mass_kg = mass_kg.max(1e-9);
        let nyquist_hz = 0.5 * sample_rate_hz;
        let mut n = 0;
        let mut skipped = 0;
        for mode in modes {
            if n == MAX_MODES || !(mode.freq_hz > 0.0 && mode.freq_hz < nyquist_hz) {
                skipped += 1;
                continue;
            }
            let omega_d = std::f64::consts::TAU * mode.freq_hz;
            self.sigma[n] = 1000f64.ln() / mode.t60_s.max(1e-4);
            self.omega0_sq[n] = omega_d * omega_d + self.sigma[n] * self.sigma[n];
            self.strike[n] = snap_node(mode.strike_shape);
            self.pickup[n] = snap_node(mode.pickup_shape);
            self.side[n] = snap_node(mode.side_shape);
            n += 1;
        }
        for i in n..padded(n) {
            self.omega0_sq[i] = 0.0;
            self.sigma[i] = 0.0;
            self.strike[i] = 0.0;
            self.pickup[i] = 0.0;
            self.side[i] = 0.0;
        }
        self.num_modes = n;
        self.skipped_modes = skipped;
        let mut full = std::mem::take(&mut self.full);
        self.transition(1.0 / sample_rate_hz, &mut full);
        self.full = full;
    }

    /// Exact transition over `dt` for every mode, into `t`'s lanes in use: with
    /// (ec, es) = [`decay_pair`]`(σ, ω₀², dt)` (e^(−σ·dt)·(cos ω_d·dt, sin(ω_d·dt)/ω_d) for an
    /// underdamped mode),
    /// Φ = [[ec + σ·es, es], [−ω₀²·es, ec − σ·es]] and the zero-order-hold input
    /// Γ = A⁻¹(Φ − I)·[0, φ/M]ᵀ. Costs an exponential and a sine/cosine per mode.
    fn transition(&self, dt: f64, t: &mut Step) {
        t.compliance_m_per_n = 0.0;
        t.mobility_m_per_s_per_n = 0.0;
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
                continue;
            }
            let (w0_sq, sg) = (self.omega0_sq[i], self.sigma[i]);
            let (ec, es) = decay_pair(sg, w0_sq, dt);
            t.a00[i] = ec + sg * es;
            t.a01[i] = es;
            t.a10[i] = -w0_sq * es;
            t.a11[i] = ec - sg * es;
            let gain = self.strike[i] / self.mass_kg;
            t.b0[i] = gain * (1.0 - t.a11[i] - 2.0 * sg * t.a01[i]) / w0_sq;
            t.b1[i] = gain * t.a01[i];
            t.strike_a00[i] = self.strike[i] * t.a00[i];
            t.strike_a01[i] = self.strike[i] * t.a01[i];
            t.compliance_m_per_n += self.strike[i] * t.b0[i];
            t.mobility_m_per_s_per_n += self.strike[i] * t.b1[i];
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
        self.full.copy_lanes(&from.full, n);
    }
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
        self.strike_a00[..n].copy_from_slice(&from.strike_a00[..n]);
        self.strike_a01[..n].copy_from_slice(&from.strike_a01[..n]);
        self.compliance_m_per_n = from.compliance_m_per_n;
        self.mobility_m_per_s_per_n = from.mobility_m_per_s_per_n;
    }
}

impl ModalBank {
    /// An empty bank with modal mass `mass_kg`.
    pub fn new(mass_kg: f64) -> Box<Self> {
        Box::new(Self {
            setup: BankSetup::new(mass_kg),
            loaded_omega0: [0.0; MAX_MODES],
            parked_sigma: [f64::NAN; MAX_MODES],
            q: [0.0; MAX_MODES],
            p: [0.0; MAX_MODES],
            sub: Step::default(),
            one_off: Step::default(),
            sub_dt_s: f64::NAN,
        })
    }

    /// Set the modal mass in kg (takes effect at the next [`ModalBank::set_modes`]).
    pub fn set_mass_kg(&mut self, mass_kg: f64) {
        self.setup.mass_kg = mass_kg.max(1e-9);
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
        let mut full = std::mem::take(&mut self.setup.full);
        self.setup.transition(1.0 / sample_rate_hz, &mut full);
        self.setup.full = full;
        if refresh_sub && self.sub_dt_s.is_finite() {
            self.setup.transition(self.sub_dt_s, &mut self.sub);
        } else {
            self.sub_dt_s = f64::NAN;
        }
    }

    /// Move the strike point: take the strike shapes of `modes` — the modes the bank was loaded
    /// with (the same list, skipped the same way), evaluated at the new point — keeping the
    /// vibration, the frequencies and decays (a retune's too). Not while a contact is under way
    /// (its sub-step is prepared afresh). Costs the one-sample transition (an exponential and a
    /// sine/cosine per mode).
    pub fn restrike(&mut self, modes: &[Mode], sample_rate_hz: f64) {
        let nyquist_hz = 0.5 * sample_rate_hz;
        let mut n = 0;
        for mode in modes {
            if n == self.setup.num_modes {
                break;
            }
            if mode.freq_hz > 0.0 && mode.freq_hz < nyquist_hz {
                self.setup.strike[n] = snap_node(mode.strike_shape);
                n += 1;
            }
        }
        self.retransition(sample_rate_hz, false);
    }

    /// Replace the modes, sampled at `sample_rate_hz`. Modes at or above Nyquist, or past
    /// [`MAX_MODES`], are skipped and counted. The object is left at rest.
    pub fn set_modes(&mut self, modes: &[Mode], sample_rate_hz: f64) {
        let mass_kg = self.setup.mass_kg;
        self.setup.set(modes, mass_kg, sample_rate_hz);
        self.loaded_omega0 = self.setup.omega0_sq.map(f64::sqrt);
        self.parked_sigma = [f64::NAN; MAX_MODES];
        self.sub_dt_s = f64::NAN;
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
        self.sub_dt_s = f64::NAN;
        self.reset();
    }

    /// Compute the transition of `slot` (not [`Slot::Full`]) for steps of `dt_s` seconds. Costs an
    /// exponential and a sine/cosine per mode, once per contact; nothing when the sub-step is
    /// the one prepared last.
    pub fn prepare(&mut self, slot: Slot, dt_s: f64) {
        match slot {
            Slot::Full => debug_assert!(false, "the full step is set by set_modes"),
            Slot::Sub => {
                if dt_s != self.sub_dt_s {
                    self.setup.transition(dt_s, &mut self.sub);
                    self.sub_dt_s = dt_s;
                }
            }
            Slot::OneOff => self.setup.transition(dt_s, &mut self.one_off),
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
        for i in 0..self.setup.num_modes {
            self.q[i] +=
                self.setup.strike[i] * force_n / (self.setup.mass_kg * self.setup.omega0_sq[i]);
        }
    }

    /// A constant force `force_n` (N) now rests on the strike point for good: carry on with the
    /// vibration about the loaded equilibrium qᵢ = φᵢ·F/(M·ω₀ᵢ²). The free motion of that
    /// vibration is exactly the motion under the constant force, so ringing on without the force
    /// is the same sound (velocities and the pickup are unchanged).
    pub fn hold_static_force(&mut self, force_n: f64) {
        for i in 0..self.setup.num_modes {
            self.q[i] -=
                self.setup.strike[i] * force_n / (self.setup.mass_kg * self.setup.omega0_sq[i]);
        }
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
        self.sub_dt_s = f64::NAN;
        self.copy_vibration(from);
    }

    /// Put every mode at rest (the lanes in use; no other lane is read).
    pub fn reset(&mut self) {
        let n = padded(self.setup.num_modes);
        self.q[..n].fill(0.0);
        self.p[..n].fill(0.0);
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
        advance_lanes(
            t,
            &self.setup.strike,
            &self.setup.pickup,
            &self.setup.side,
            &mut self.q,
            &mut self.p,
            padded(self.setup.num_modes),
            force_n,
        )
    }

    /// The strike point and the pickup now (no prediction: `next_free_displacement_m` is NaN).
    pub fn surface(&self) -> Surface {
        Surface {
            displacement_m: self.strike_displacement_m(),
            velocity_m_per_s: self.strike_velocity_m_per_s(),
            pickup: Pickup {
                mid_m_per_s: self.pickup_velocity_m_per_s(),
                side_m_per_s: dot(&self.setup.side, &self.p, self.setup.num_modes),
            },
            next_free_displacement_m: f64::NAN,
        }
    }

    /// Strike-point displacement (m) and velocity (m/s) after one force-free step of `slot`,
    /// without taking it; the step under a held force F adds F times [`ModalBank::compliance`].
    #[inline]
    pub fn predict_free(&self, slot: Slot) -> (f64, f64) {
        let t = self.step_for(slot);
        let mut w = [0.0; LANES];
        let mut w_dot = [0.0; LANES];
        for base in (0..padded(self.setup.num_modes)).step_by(LANES) {
            for lane in 0..LANES {
                let i = base + lane;
                let (qi, pi, phi) = (self.q[i], self.p[i], self.setup.strike[i]);
                w[lane] += t.strike_a00[i] * qi + t.strike_a01[i] * pi;
                w_dot[lane] += phi * (t.a10[i] * qi + t.a11[i] * pi);
            }
        }
        (w.iter().sum(), w_dot.iter().sum())
    }

    /// Strike-point (displacement, velocity) per newton held over one step of `slot`: how far
    /// the surface yields under the contact force, in m/N and (m/s)/N.
    #[inline]
    pub fn compliance(&self, slot: Slot) -> (f64, f64) {
        let t = self.step_for(slot);
        (t.compliance_m_per_n, t.mobility_m_per_s_per_n)
    }

    /// Advance one full sample with no force on the object (free ringing) and return what the
    /// pickups hear after it: the update and the output sums in one pass over the modes.
    #[inline]
    pub fn ring(&mut self) -> Pickup {
        ring_lanes(
            &self.setup.full,
            &self.setup.pickup,
            &self.setup.side,
            &mut self.q,
            &mut self.p,
            padded(self.setup.num_modes),
        )
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

    /// Velocity at the pickup (the mean of the two) in m/s: Σ ψᵢ·q̇ᵢ (the mono signal).
    #[inline]
    pub fn pickup_velocity_m_per_s(&self) -> f64 {
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

    /// Set every mode whose displacement and velocity have both decayed below
    /// [`NEGLIGIBLE_STATE`] to exactly zero: called at each of the voice's decision points, it
    /// keeps a long tail's fast-decaying modes out of subnormal numbers (slow on many CPUs), and
    /// zero stays zero.
    pub fn flush_negligible(&mut self) {
        for i in 0..self.setup.num_modes {
            if self.q[i].abs() < NEGLIGIBLE_STATE && self.p[i].abs() < NEGLIGIBLE_STATE {
                self.q[i] = 0.0;
                self.p[i] = 0.0;
            }
        }
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

    /// Σ(|ψᵢ| + |sideᵢ|) of the pickup shapes: either channel's velocity per unit of modal
    /// velocity, at most.
    pub fn pickup_abs_sum(&self) -> f64 {
        let n = self.setup.num_modes;
        let (pickup, side) = (&self.setup.pickup[..n], &self.setup.side[..n]);
        pickup
            .iter()
            .zip(side)
            .map(|(p, s)| p.abs() + s.abs())
            .sum()
    }

    /// Σ(|ψᵢ| + |sideᵢ|)·|φᵢ|/(M·ω₀ᵢ), m/s per N: the most a step of one newton in a force held
    /// on the strike point can add to either channel's pickup velocity (a step ΔF sets mode i
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

/// e^(−σ·dt)·(cos ω_d·dt, sin(ω_d·dt)/ω_d) of a mode with decay rate `sigma` and stiffness
/// `omega0_sq` = ω₀² over `dt_s`, with ω_d = √(ω₀² − σ²); past critical damping, where ω_d = i·β,
/// the same analytic functions: e^(−σ·dt)·(cosh β·dt, sinh(β·dt)/β), written with the two real
/// decay rates σ ∓ β so that neither overflows however heavy the damping (the slow rate as
/// ω₀²/(σ + β), which does not cancel), and as the series near critical damping.
fn decay_pair(sigma: f64, omega0_sq: f64, dt_s: f64) -> (f64, f64) {
    let wd_sq = omega0_sq - sigma * sigma;
    if wd_sq > 0.0 {
        let wd = wd_sq.sqrt();
        let e = (-sigma * dt_s).exp();
        let (s, c) = (wd * dt_s).sin_cos();
        return (e * c, e * s / wd);
    }
    let beta = (-wd_sq).sqrt();
    let x = beta * dt_s;
    if x < 1e-3 {
        // cosh x = 1 + x²/2 + …, sinh(x)/β = dt·(1 + x²/6 + …): the next terms, x⁴/24 and
        // x⁴/120, are below 5e-14.
        let e = (-sigma * dt_s).exp();
        return (e * (1.0 + 0.5 * x * x), e * dt_s * (1.0 + x * x / 6.0));
    }
    let slow = (-omega0_sq / (sigma + beta) * dt_s).exp();
    let fast = (-(sigma + beta) * dt_s).exp();
    (0.5 * (slow + fast), (slow - fast) / (2.0 * beta))
}

/// The first `groups` lane groups of a per-mode array, as fixed-size groups the compiler keeps
/// in vector registers without bounds checks.
#[inline(always)]
fn lane_groups(values: &[f64; MAX_MODES], groups: usize) -> &[[f64; LANES]] {
    &values.as_chunks::<LANES>().0[..groups]
}

#[inline(always)]
fn lane_groups_mut(values: &mut [f64; MAX_MODES], groups: usize) -> &mut [[f64; LANES]] {
    &mut values.as_chunks_mut::<LANES>().0[..groups]
}

/// The free-ringing pass of [`ModalBank::ring`] over the first `n` modes (a multiple of [`LANES`]),
/// compiled for AVX2 + FMA as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
fn ring_lanes(
    t: &Step,
    pickup: &[f64; MAX_MODES],
    side: &[f64; MAX_MODES],
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    n: usize,
) -> Pickup {
    let groups = n.min(MAX_MODES) / LANES;
    let (a00, a01) = (lane_groups(&t.a00, groups), lane_groups(&t.a01, groups));
    let (a10, a11) = (lane_groups(&t.a10, groups), lane_groups(&t.a11, groups));
    let (pickup, side) = (lane_groups(pickup, groups), lane_groups(side, groups));
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    let mut mid_sum = [0.0; LANES];
    let mut side_sum = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let (qi, pi) = (q[j][lane], p[j][lane]);
            q[j][lane] = a00[j][lane] * qi + a01[j][lane] * pi;
            let p_next = a10[j][lane] * qi + a11[j][lane] * pi;
            p[j][lane] = p_next;
            mid_sum[lane] += pickup[j][lane] * p_next;
            side_sum[lane] += side[j][lane] * p_next;
        }
    }
    Pickup {
        mid_m_per_s: mid_sum.iter().sum(),
        side_m_per_s: side_sum.iter().sum(),
    }
}

/// One step of every mode under the held force `force_n` over the first `n` modes (a multiple
/// of [`LANES`]), reading the strike point, the pickup and the next force-free prediction in the
/// same pass; compiled for AVX2 + FMA as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
#[allow(clippy::too_many_arguments)]
fn advance_lanes(
    t: &Step,
    strike: &[f64; MAX_MODES],
    pickup: &[f64; MAX_MODES],
    side: &[f64; MAX_MODES],
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    n: usize,
    force_n: f64,
) -> Surface {
    let groups = n.min(MAX_MODES) / LANES;
    let (a00, a01) = (lane_groups(&t.a00, groups), lane_groups(&t.a01, groups));
    let (a10, a11) = (lane_groups(&t.a10, groups), lane_groups(&t.a11, groups));
    let (b0, b1) = (lane_groups(&t.b0, groups), lane_groups(&t.b1, groups));
    let (sa00, sa01) = (
        lane_groups(&t.strike_a00, groups),
        lane_groups(&t.strike_a01, groups),
    );
    let (strike, pickup) = (lane_groups(strike, groups), lane_groups(pickup, groups));
    let side = lane_groups(side, groups);
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    let mut w = [0.0; LANES];
    let mut w_dot = [0.0; LANES];
    let mut out = [0.0; LANES];
    let mut out_side = [0.0; LANES];
    let mut w_next = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let (qi, pi) = (q[j][lane], p[j][lane]);
            let q_next = a00[j][lane] * qi + a01[j][lane] * pi + b0[j][lane] * force_n;
            let p_next = a10[j][lane] * qi + a11[j][lane] * pi + b1[j][lane] * force_n;
            q[j][lane] = q_next;
            p[j][lane] = p_next;
            w[lane] += strike[j][lane] * q_next;
            w_dot[lane] += strike[j][lane] * p_next;
            out[lane] += pickup[j][lane] * p_next;
            out_side[lane] += side[j][lane] * p_next;
            w_next[lane] += sa00[j][lane] * q_next + sa01[j][lane] * p_next;
        }
    }
    Surface {
        displacement_m: w.iter().sum(),
        velocity_m_per_s: w_dot.iter().sum(),
        pickup: Pickup {
            mid_m_per_s: out.iter().sum(),
            side_m_per_s: out_side.iter().sum(),
        },
        next_free_displacement_m: w_next.iter().sum(),
    }
}

/// `n` rounded up to whole groups of [`LANES`].
#[inline]
fn padded(n: usize) -> usize {
    n.div_ceil(LANES) * LANES
}

/// Σ aᵢ·bᵢ over the first `n` entries (rounded up to whole lane groups; padding is zero).
#[inline]
fn dot(a: &[f64; MAX_MODES], b: &[f64; MAX_MODES], n: usize) -> f64 {
    let mut sum = [0.0; LANES];
    for base in (0..padded(n)).step_by(LANES) {
        for lane in 0..LANES {
            sum[lane] += a[base + lane] * b[base + lane];
        }
    }
    sum.iter().sum()
}

/// `shape`, or exactly 0 on a node (|shape| < [`NODE_SHAPE`]).
fn snap_node(shape: f64) -> f64 {
    if shape.abs() < NODE_SHAPE {
        0.0
    } else {
        shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 48_000.0;

    fn one_mode(freq_hz: f64, t60_s: f64) -> Box<ModalBank> {
        let mut bank = ModalBank::new(0.1);
        let mode = Mode {
            freq_hz,
            t60_s,
            strike_shape: 1.0,
            pickup_shape: 1.0,
            side_shape: 0.0,
        };
        bank.set_modes(&[mode], FS);
        bank
    }

    /// The free response from (q0, p0) of q'' + 2σq' + ω₀²q = 0 past critical damping, from its
    /// two real roots −σ ± β: q = A·e^(r₁t) + B·e^(r₂t).
    fn overdamped_displacement(sigma: f64, omega0: f64, q0: f64, p0: f64, t: f64) -> f64 {
        let beta = (sigma * sigma - omega0 * omega0).sqrt();
        let (r1, r2) = (-sigma + beta, -sigma - beta);
        let a = (p0 - r2 * q0) / (r1 - r2);
        let b = q0 - a;
        a * (r1 * t).exp() + b * (r2 * t).exp()
    }

    #[test]
    fn an_overdamped_mode_follows_its_continuous_solution() {
        // Choked to a 10 ms T60 (σ = 691/s), a 20 Hz mode (ω₀ = 126 rad/s) stops at critical
        // damping; a release fraction of 1/1000 then asks for σ far beyond, which stays at
        // critical. Set past critical by hand, the mode follows the two real roots.
        let mut bank = one_mode(20.0, 1.0);
        bank.advance(Slot::Full, 10.0);
        let omega0 = bank.setup.omega0_sq[0].sqrt();
        bank.limit_t60(0.01, FS);
        assert!((bank.setup.sigma[0] - omega0).abs() <= 1e-12 * omega0);
        bank.scale_decay(1e-3, FS, false);
        assert!((bank.setup.sigma[0] - omega0).abs() <= 1e-12 * omega0);
        for sigma in [1.000_001 * omega0, 5.5 * omega0, 1e6] {
            bank.setup.sigma[0] = sigma;
            bank.retransition(FS, false);
            let (q0, p0) = (bank.q[0], bank.p[0]);
            for n in 1..500 {
                bank.advance(Slot::Full, 0.0);
                let t = n as f64 / FS;
                let expected = overdamped_displacement(sigma, omega0, q0, p0, t);
                assert!(
                    (bank.q[0] - expected).abs() <= 1e-9 * q0.abs().max(p0.abs() / omega0),
                    "σ = {sigma}, n = {n}: {} vs {expected}",
                    bank.q[0]
                );
            }
        }
    }

    #[test]
    fn damping_a_displaced_mode_never_adds_energy() {
        // A choke or a release adds a damper: the energy at that instant is unchanged, and it
        // only falls after, even for a mode far below the choke's rate and held far from rest.
        for f_hz in [0.05, 20.0, 110.0, 1000.0] {
            for fraction in [None, Some(0.5), Some(1e-3)] {
                let mut bank = one_mode(f_hz, 2.0);
                bank.q[0] = 0.01;
                bank.p[0] = 0.3;
                let before = bank.energy_j();
                match fraction {
                    None => bank.limit_t60(0.01, FS),
                    Some(fraction) => bank.scale_decay(fraction, FS, false),
                }
                assert_eq!(bank.energy_j(), before);
                let mut last = before;
                for _ in 0..4800 {
                    bank.advance(Slot::Full, 0.0);
                    let energy = bank.energy_j();
                    assert!(energy <= last * (1.0 + 1e-12), "{f_hz} Hz {fraction:?}");
                    last = energy;
                }
            }
        }
    }

    #[test]
    fn free_decay_matches_the_continuous_solution() {
        // Kick the mode with one sample of force, then compare every later sample with the
        // continuous free response through the state after the kick.
        let (f_hz, t60) = (1234.5, 0.8);
        let mut bank = one_mode(f_hz, t60);
        bank.advance(Slot::Full, 10.0);
        let (q0, p0) = (bank.q[0], bank.p[0]);
        let wd = std::f64::consts::TAU * f_hz;
        let sg = 1000f64.ln() / t60;
        for n in 1..2000 {
            bank.advance(Slot::Full, 0.0);
            let t = n as f64 / FS;
            // q(t) = e^(−σt)[q0·cos + (p0 + σq0)/ω_d·sin]
            let expected =
                (-sg * t).exp() * (q0 * (wd * t).cos() + (p0 + sg * q0) / wd * (wd * t).sin());
            assert!(
                (bank.q[0] - expected).abs() <= 1e-9 * q0.abs().max(1e-12),
                "n = {n}"
            );
        }
    }

    #[test]
    fn constant_force_settles_at_static_deflection() {
        // Static deflection under force F: q = φF/(M·ω₀²).
        let mut bank = one_mode(200.0, 0.05);
        for _ in 0..(FS as usize) {
            bank.advance(Slot::Full, 3.0);
        }
        let w0_sq = (std::f64::consts::TAU * 200.0f64).powi(2) + (1000f64.ln() / 0.05).powi(2);
        let expected = 3.0 / (0.1 * w0_sq);
        assert!((bank.strike_displacement_m() / expected - 1.0).abs() < 1e-9);
    }

    #[test]
    fn modes_at_or_above_nyquist_are_skipped_and_counted() {
        let mut bank = ModalBank::new(0.1);
        let m = |f| Mode {
            freq_hz: f,
            t60_s: 1.0,
            strike_shape: 1.0,
            pickup_shape: 1.0,
            side_shape: 0.0,
        };
        bank.set_modes(&[m(1000.0), m(24_000.0), m(30_000.0), m(5000.0)], FS);
        assert_eq!(bank.num_modes(), 2);
        assert_eq!(bank.skipped_modes(), 2);
    }

    #[test]
    fn ringing_is_a_forceless_step_with_its_output() {
        let modes: Vec<Mode> = (1..=7)
            .map(|i| Mode {
                freq_hz: 311.0 * f64::from(i),
                t60_s: 1.0 / f64::from(i),
                strike_shape: 1.0 / f64::from(i),
                pickup_shape: (-1f64).powi(i),
                side_shape: 0.0,
            })
            .collect();
        let mut a = ModalBank::new(0.1);
        let mut b = ModalBank::new(0.1);
        a.set_modes(&modes, FS);
        b.set_modes(&modes, FS);
        a.advance(Slot::Full, 7.0);
        b.advance(Slot::Full, 7.0);
        for _ in 0..500 {
            a.advance(Slot::Full, 0.0);
            let out = b.ring().mid_m_per_s;
            assert!((out - a.pickup_velocity_m_per_s()).abs() <= 1e-15 * out.abs().max(1e-9));
        }
        // Fewer modes after more: the old modes' shapes must not leak into the padded lanes.
        b.set_modes(&modes[..2], FS);
        b.advance(Slot::Full, 1.0);
        let expected = b.pickup_velocity_m_per_s();
        assert_eq!(b.num_modes(), 2);
        assert!(
            (b.p[0] * modes[0].pickup_shape + b.p[1] * modes[1].pickup_shape - expected).abs()
                < 1e-18
        );
    }

    #[test]
    fn a_held_force_moves_the_strike_point_by_the_compliance() {
        let mut bank = one_mode(700.0, 0.3);
        bank.advance(Slot::Full, 2.0);
        bank.prepare(Slot::OneOff, 0.37 / FS);
        let (w_free, w_dot_free) = bank.predict_free(Slot::OneOff);
        let (g, g_v) = bank.compliance(Slot::OneOff);
        let surface = bank.advance(Slot::OneOff, 5.0);
        assert!((bank.strike_displacement_m() - (w_free + 5.0 * g)).abs() < 1e-15);
        // The prediction read in the same pass is the next force-free step's.
        let (w_next, _) = bank.predict_free(Slot::OneOff);
        assert!((surface.next_free_displacement_m - w_next).abs() <= 1e-15 * w_next.abs());
        assert!((bank.strike_velocity_m_per_s() - (w_dot_free + 5.0 * g_v)).abs() < 1e-12);
        assert!(g > 0.0 && g_v > 0.0);
    }

    #[test]
    fn sub_steps_compose_to_a_full_step() {
        // n sub-steps of T/n with zero force equal one exact step of T.
        let mut a = one_mode(3000.0, 0.5);
        let mut b = one_mode(3000.0, 0.5);
        a.advance(Slot::Full, 5.0);
        b.advance(Slot::Full, 5.0);
        b.prepare(Slot::Sub, 1.0 / (7.0 * FS));
        a.advance(Slot::Full, 0.0);
        for _ in 0..7 {
            b.advance(Slot::Sub, 0.0);
        }
        assert!((a.q[0] - b.q[0]).abs() < 1e-12 * a.q[0].abs());
        assert!((a.p[0] - b.p[0]).abs() < 1e-12 * a.p[0].abs());
    }
}
