//! Reading a surface sample by sample at the contact's position: phasors of the partials in use, re-anchored at the exact position every block.

use super::band_gain;
use super::partials::{Partials, SurfaceSettings, MAX_PARTIALS};

/// The speed is held, and the phasors re-anchored at the exact position, every this many
/// samples: a speed change moves each partial's frequency at a block's start, continuous in
/// phase.
pub const BLOCK_SAMPLES: usize = 32;
/// Partials per octave of a rough surface: partial i + this is partial i an octave up (its
/// phasor the square).
const OCTAVE_STRIDE: usize = 6;
/// The partials are summed in groups of this many independent lanes (so the loop compiles to
/// SIMD); the lanes past the partials in use have zero gains.
const LANES: usize = 8;

/// The profile under the contact after one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProfileSample {
    /// Height h, m.
    pub height_m: f64,
    /// Slope dh/dx.
    pub slope: f64,
    /// The height's acceleration under a contact moving at the block's speed v, d²h/dt² =
    /// v²·d²h/dx², m/s².
    pub accel_m_per_s2: f64,
    /// Distance moved over the sample, m (the drive's travel: v·dt at the block's speed).
    pub travel_m: f64,
}

/// A surface read at a moving contact, band-limited for the speed of each block.
pub struct SurfaceReader {
    partials: Partials,
    /// e^(iφ) of every partial.
    phase_re: [f64; MAX_PARTIALS],
    phase_im: [f64; MAX_PARTIALS],
    /// e^(i(k·x + φ)) of the partials in use, and their rotation over a sample, e^(i·k·v·dt).
    re: [f64; MAX_PARTIALS],
    im: [f64; MAX_PARTIALS],
    rot_re: [f64; MAX_PARTIALS],
    rot_im: [f64; MAX_PARTIALS],
    /// Band gain times amplitude, and its products with k and k², for the block's speed.
    gain_m: [f64; MAX_PARTIALS],
    gain_k: [f64; MAX_PARTIALS],
    gain_k2_per_m: [f64; MAX_PARTIALS],
    active: usize,
    x_m: f64,
    speed_m_per_s: f64,
    left_in_block: usize,
    dt_s: f64,
}

impl SurfaceReader {
    /// A smooth surface at `sample_rate_hz`.
    pub fn new(sample_rate_hz: f64) -> Box<Self> {
        let zero = [0.0; MAX_PARTIALS];
        let mut reader = Box::new(Self {
            partials: Partials::new(&SurfaceSettings::smooth()),
            phase_re: zero,
            phase_im: zero,
            re: zero,
            im: zero,
            rot_re: zero,
            rot_im: zero,
            gain_m: zero,
            gain_k: zero,
            gain_k2_per_m: zero,
            active: 0,
            x_m: 0.0,
            speed_m_per_s: 0.0,
            left_in_block: 0,
            dt_s: 1.0 / sample_rate_hz,
        });
        reader.set_sample_rate(sample_rate_hz);
        reader
    }

    pub fn set_sample_rate(&mut self, sample_rate_hz: f64) {
        self.dt_s = 1.0 / sample_rate_hz.max(1.0);
        self.left_in_block = 0;
    }

    /// Read `settings`' surface as a tip of radius `tip_radius_m` feels it ([`Partials::felt_by`];
    /// 0: a point) from `x_m` on. Allocation-free (its partials are built in place).
    pub fn set_surface(&mut self, settings: &SurfaceSettings, tip_radius_m: f64, x_m: f64) {
        self.partials = Partials::new(settings);
        self.partials.felt_by(tip_radius_m);
        for i in 0..self.partials.count {
            let (s, c) = self.partials.phase[i].sin_cos();
            self.phase_re[i] = c;
            self.phase_im[i] = s;
        }
        self.x_m = x_m;
        self.left_in_block = 0;
    }

    /// The contact's position, m.
    pub fn position_m(&self) -> f64 {
        self.x_m
    }

    /// Start a block at the position now and speed `v`: the partials in use, their band gains,
    /// phasors at the exact position and rotations.
    fn begin_block(&mut self, v: f64) {
        self.speed_m_per_s = v;
        self.left_in_block = BLOCK_SAMPLES;
        let p = &self.partials;
        let rate_hz = 1.0 / self.dt_s;
        let step_m = v * self.dt_s;
        self.active = 0;
        for i in 0..p.count {
            let k = p.wavenumber_per_m[i];
            let gain = band_gain(v.abs() * k / std::f64::consts::TAU, rate_hz);
            if gain == 0.0 {
                break;
            }
            let (at, turn) = if i == 0 || (!p.harmonic && i < OCTAVE_STRIDE) {
                ((k * self.x_m).sin_cos(), (k * step_m).sin_cos())
            } else if p.harmonic {
                // e^(i(n+1)θ) = e^(inθ)·e^(iθ), before the phases are applied.
                self.product(i, 1)
            } else {
                self.product(i, OCTAVE_STRIDE)
            };
            // Keep the bare phasors (before the phase) in re/im for the products of later
            // partials; the phase is applied in the gains below.
            self.re[i] = at.1;
            self.im[i] = at.0;
            self.rot_re[i] = turn.1;
            self.rot_im[i] = turn.0;
            let a = p.amplitude_m[i] * gain;
            self.gain_m[i] = a;
            self.gain_k[i] = a * k;
            self.gain_k2_per_m[i] = a * k * k;
            self.active = i + 1;
        }
        // Lanes up to a whole group are summed with zero gains.
        for i in self.active..self.active.next_multiple_of(LANES) {
            self.gain_m[i] = 0.0;
            self.gain_k[i] = 0.0;
            self.gain_k2_per_m[i] = 0.0;
        }
        // Apply the phases: the bare phasor times e^(iφ).
        for i in 0..self.active {
            let (c, s) = (self.re[i], self.im[i]);
            self.re[i] = c * self.phase_re[i] - s * self.phase_im[i];
            self.im[i] = c * self.phase_im[i] + s * self.phase_re[i];
        }
    }

    /// The bare phasor and rotation of partial `i` from earlier ones: a harmonic's from the
    /// one below it and the first (`back` = 1), a rough octave's the square of the octave
    /// below (`back` = [`OCTAVE_STRIDE`]). Returns ((sin, cos) at x, (sin, cos) of the turn).
    fn product(&self, i: usize, back: usize) -> ((f64, f64), (f64, f64)) {
        let (j, m) = if back == 1 {
            (i - 1, 0)
        } else {
            (i - back, i - back)
        };
        let mul =
            |(s1, c1): (f64, f64), (s2, c2): (f64, f64)| (s1 * c2 + c1 * s2, c1 * c2 - s1 * s2);
        let at = mul((self.im[j], self.re[j]), (self.im[m], self.re[m]));
        let turn = mul(
            (self.rot_im[j], self.rot_re[j]),
            (self.rot_im[m], self.rot_re[m]),
        );
        (at, turn)
    }

    /// Move on by one sample at speed `v_m_per_s` (taken at a block's start and held through
    /// it) and read the profile under the contact at the sample's end.
    #[inline]
    pub fn advance(&mut self, v_m_per_s: f64) -> ProfileSample {
        if self.left_in_block == 0 {
            self.begin_block(v_m_per_s);
        }
        self.left_in_block -= 1;
        let v = self.speed_m_per_s;
        let travel_m = v * self.dt_s;
        self.x_m += travel_m;
        let (mut h, mut slope, mut curvature) = ([0.0; LANES], [0.0; LANES], [0.0; LANES]);
        for base in (0..self.active).step_by(LANES) {
            for lane in 0..LANES {
                let i = base + lane;
                let (c, s) = (self.re[i], self.im[i]);
                let (c, s) = (
                    c * self.rot_re[i] - s * self.rot_im[i],
                    c * self.rot_im[i] + s * self.rot_re[i],
                );
                self.re[i] = c;
                self.im[i] = s;
                h[lane] += self.gain_m[i] * c;
                slope[lane] -= self.gain_k[i] * s;
                curvature[lane] -= self.gain_k2_per_m[i] * c;
            }
        }
        let (h, slope, curvature): (f64, f64, f64) =
            (h.iter().sum(), slope.iter().sum(), curvature.iter().sum());
        ProfileSample {
            height_m: h,
            slope,
            accel_m_per_s2: v * v * curvature,
            travel_m,
        }
    }
}
