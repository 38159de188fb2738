//! Rolling (after Rath's rolling model): a rough track seen through the rolling filter drives a
//! ball pressed onto the object by gravity, in the frame that moves with the track.
//!
//! The track's height s(p) is a function of the distance p along it (seeded value noise summed
//! over octaves), so the physics does not depend on the sample rate. A ball of radius R cannot
//! follow dips narrower than its curvature allows: its lowest point rides on the envelope
//! h(p) = max_ξ [s(p + ξ) − ξ²/(2R)] (the rolling filter, with the sphere's section approximated by
//! its osculating parabola). Out-of-roundness adds ε·R·cos(p/R), a modulation at the rotation
//! period 2πR/v. The ball is then integrated against a fixed surface with the extra acceleration
//! ḧ(t), the track's height accelerating under it, so every contact law and integrator applies
//! unchanged and the rolling is a dense sequence of micro-impacts and sustained contact.

/// Octaves of the track's value noise, each half the wavelength of the one before.
const OCTAVES: usize = 7;
/// Wavelength of the coarsest octave, m (the finest is 1/64 of it, 125 µm).
const COARSEST_WAVELENGTH_M: f64 = 8e-3;
/// Points of the rolling filter's window, ξ spread evenly over ±(half width).
const FILTER_POINTS: usize = 17;
/// Track heights a rolling ball keeps on its grid (a power of two, well above the 2·8 + 4 points
/// one evaluation needs).
const GRID_CACHE: usize = 64;
/// Finest grid spacing, m (a track without roughness has a zero-width filter window).
const MIN_GRID_M: f64 = 1e-6;

/// Slot of grid point `i` in the ring: i mod GRID_CACHE, by mask (two's complement makes it right
/// for negative points too).
#[inline]
fn ring_index(i: i64) -> usize {
    (i & (GRID_CACHE as i64 - 1)) as usize
}

/// Variance of smoothstep-interpolated value noise with values uniform in [−1, 1]:
/// (1/3)·∫₀¹ [(1 − s(u))² + s(u)²] du, s the smoothstep.
const VALUE_NOISE_VARIANCE: f64 = 0.219_047_619;

/// The rolling ball and its track, as the user sets them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollSettings {
    /// Ball radius, m.
    pub radius_m: f64,
    /// RMS height of the track's roughness, m.
    pub roughness_m: f64,
    /// Spectral slope: the octave of wavelength λ has amplitude ∝ λ^slope (0: every octave
    /// alike, bright; 2: smooth, long undulations dominate).
    pub slope: f64,
    /// Out-of-roundness ε of the ball, a fraction of its radius (0…0.01).
    pub out_of_round: f64,
    /// Seed of the track.
    pub seed: u64,
}

impl RollSettings {
    /// A glass marble on a wooden floor.
    pub fn marble() -> Self {
        Self {
            radius_m: 8e-3,
            roughness_m: 2e-6,
            slope: 1.0,
            out_of_round: 1e-3,
            seed: 1,
        }
    }
}

/// Uniform value in [−1, 1] for lattice point `i` of octave `octave` (SplitMix64's finaliser).
fn lattice_value(seed: u64, octave: usize, i: i64) -> f64 {
    let mut z = seed
        .wrapping_add((octave as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 * (2.0 / (1u64 << 53) as f64) - 1.0
}

/// The track under the ball: heights in metres as functions of the distance along it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track {
    settings: RollSettings,
    amplitude_m: [f64; OCTAVES],
    /// Half width of the rolling filter's window, m: beyond it the sphere has dropped below any
    /// bump the track can have.
    half_window_m: f64,
}

impl Track {
    pub fn new(settings: RollSettings) -> Self {
        let radius_m = settings.radius_m.max(1e-4);
        let mut amplitude_m = [0.0; OCTAVES];
        let mut power = 0.0;
        for (j, a) in amplitude_m.iter_mut().enumerate() {
            *a = 0.5f64.powi(j as i32).powf(settings.slope);
            power += *a * *a * VALUE_NOISE_VARIANCE;
        }
        let scale = settings.roughness_m.max(0.0) / power.sqrt();
        amplitude_m.iter_mut().for_each(|a| *a *= scale);
        let peak_m: f64 = amplitude_m.iter().sum();
        Self {
            settings: RollSettings {
                radius_m,
                ..settings
            },
            amplitude_m,
            half_window_m: (4.0 * radius_m * peak_m).sqrt().min(COARSEST_WAVELENGTH_M),
        }
    }

    /// Height of the rough track at distance `p_m`, m.
    pub fn height_m(&self, p_m: f64) -> f64 {
        let mut sum = 0.0;
        let mut wavelength = COARSEST_WAVELENGTH_M;
        for (octave, a) in self.amplitude_m.iter().enumerate() {
            let u = p_m / wavelength;
            let i = u.floor();
            let f = u - i;
            let s = f * f * (3.0 - 2.0 * f);
            let (v0, v1) = (
                lattice_value(self.settings.seed, octave, i as i64),
                lattice_value(self.settings.seed, octave, i as i64 + 1),
            );
            sum += a * (v0 + s * (v1 - v0));
            wavelength *= 0.5;
        }
        sum
    }

    /// Height of the ball's lowest point over the track at distance `p_m` (the rolling filter),
    /// plus the out-of-roundness at the rotation angle p/R, m. Evaluated directly (17 track
    /// heights); [`Rolling`] evaluates the same filter on a grid.
    pub fn ball_height_m(&self, p_m: f64) -> f64 {
        let r = self.settings.radius_m;
        let half = (FILTER_POINTS / 2) as f64;
        let mut envelope = f64::NEG_INFINITY;
        for k in 0..FILTER_POINTS {
            let xi = self.half_window_m * (k as f64 - half) / half;
            envelope = envelope.max(self.height_m(p_m + xi) - xi * xi / (2.0 * r));
        }
        envelope + self.out_of_round_m(p_m)
    }

    /// The out-of-roundness term ε·R·cos(p/R), m.
    fn out_of_round_m(&self, p_m: f64) -> f64 {
        let r = self.settings.radius_m;
        self.settings.out_of_round * r * (p_m / r).cos()
    }

    /// Spacing of the rolling filter's points, m: the grid [`Rolling`] keeps heights on.
    fn grid_m(&self) -> f64 {
        (self.half_window_m / (FILTER_POINTS / 2) as f64).max(MIN_GRID_M)
    }
}

/// The state of one rolling ball: where it is on the track and how fast it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rolling {
    track: Track,
    distance_m: f64,
    speed_m_per_s: f64,
    /// Ball heights at the last two samples, m (for the second difference).
    heights_m: [f64; 2],
    /// Track heights s(i·Δ) at grid points i < `next_point`, kept in a ring (i mod GRID_CACHE).
    /// Each is computed once as the ball comes to it, instead of 17 per sample.
    grid: [f64; GRID_CACHE],
    next_point: i64,
}

impl Rolling {
    /// A ball at rest at the start of `track`.
    pub fn new(track: Track) -> Self {
        let mut rolling = Self {
            track,
            distance_m: 0.0,
            speed_m_per_s: 0.0,
            heights_m: [0.0; 2],
            grid: [0.0; GRID_CACHE],
            next_point: i64::MIN,
        };
        let h = rolling.ball_height_m(0.0);
        rolling.heights_m = [h, h];
        rolling
    }

    /// The rolling filter at grid point `i`: max over the window of s((i + k)·Δ) − (kΔ)²/2R.
    fn envelope_at(&self, i: i64) -> f64 {
        let (grid, r) = (self.track.grid_m(), self.track.settings.radius_m);
        let half = (FILTER_POINTS / 2) as i64;
        (-half..=half)
            .map(|k| {
                let xi = k as f64 * grid;
                self.grid[ring_index(i + k)] - xi * xi / (2.0 * r)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The ball's height at `p_m` (ahead of or at every distance asked before): the rolling filter
    /// at the grid points around it, joined by a Catmull–Rom spline (continuous slope, so the
    /// track's acceleration has no impulses at grid points), plus the out-of-roundness.
    fn ball_height_m(&mut self, p_m: f64) -> f64 {
        let grid = self.track.grid_m();
        let u = p_m / grid;
        let j = u.floor() as i64;
        let f = u - j as f64;
        let half = (FILTER_POINTS / 2) as i64;
        // Track heights from j − 1 − half to j + 2 + half; a jump further than the ring skips ahead.
        let (first, last) = (j - 1 - half, j + 2 + half);
        self.next_point = self.next_point.max(first);
        while self.next_point <= last {
            let i = self.next_point;
            self.grid[ring_index(i)] = self.track.height_m(i as f64 * grid);
            self.next_point += 1;
        }
        let [a, b, c, d] = [j - 1, j, j + 1, j + 2].map(|i| self.envelope_at(i));
        let spline = b + 0.5
            * f
            * (c - a + f * (2.0 * a - 5.0 * b + 4.0 * c - d + f * (3.0 * (b - c) + d - a)));
        spline + self.track.out_of_round_m(p_m)
    }

    /// Speed now, m/s.
    pub fn speed_m_per_s(&self) -> f64 {
        self.speed_m_per_s
    }

    /// Move the ball on by one sample of `dt_s`, its speed following `target_m_per_s` through a
    /// one-pole smoother of time constant `smoothing_s`. Returns the acceleration (m/s²) of the
    /// track's height under the ball over that sample: the second difference of the heights.
    pub fn advance(&mut self, target_m_per_s: f64, smoothing_s: f64, dt_s: f64) -> f64 {
        let keep = (-dt_s / smoothing_s.max(1e-4)).exp();
        self.speed_m_per_s =
            target_m_per_s.max(0.0) + keep * (self.speed_m_per_s - target_m_per_s.max(0.0));
        self.distance_m += self.speed_m_per_s * dt_s;
        let h = self.ball_height_m(self.distance_m);
        let [h1, h0] = self.heights_m;
        self.heights_m = [h, h1];
        (h - 2.0 * h1 + h0) / (dt_s * dt_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roughness_is_the_rms_height() {
        for slope in [0.0, 1.0, 2.0] {
            let track = Track::new(RollSettings {
                roughness_m: 3e-6,
                slope,
                ..RollSettings::marble()
            });
            let n = 200_000;
            let mean_sq: f64 = (0..n)
                .map(|i| track.height_m(i as f64 * 1e-5).powi(2))
                .sum::<f64>()
                / n as f64;
            let rms = mean_sq.sqrt();
            assert!((rms / 3e-6 - 1.0).abs() < 0.1, "slope {slope}: rms {rms}");
        }
    }

    #[test]
    fn the_grid_filter_is_the_direct_one_at_grid_points_and_close_between() {
        let track = Track::new(RollSettings::marble());
        let mut rolling = Rolling::new(track);
        let grid = track.grid_m();
        let (mut worst_on, mut error_between) = (0.0f64, 0.0);
        let n = 4000;
        for i in 0..n {
            let p = i as f64 * grid;
            worst_on = worst_on.max((rolling.ball_height_m(p) - track.ball_height_m(p)).abs());
            let q = p + 0.37 * grid;
            error_between += (rolling.ball_height_m(q) - track.ball_height_m(q)).abs();
        }
        assert!(worst_on < 1e-18, "{worst_on}");
        let mean_between = error_between / n as f64;
        assert!(
            mean_between < 0.05 * RollSettings::marble().roughness_m,
            "{mean_between}"
        );
    }

    #[test]
    fn the_ball_rides_on_the_envelope() {
        // Never below the track under its lowest point, and bridging its dips: on average well
        // above it (a bright track, every octave alike, has dips far narrower than the ball).
        let settings = RollSettings {
            slope: 0.0,
            ..RollSettings::marble()
        };
        let track = Track::new(settings);
        let r = settings.radius_m;
        let n = 20_000;
        let mut gap_sum = 0.0;
        for i in 0..n {
            let p = i as f64 * 2e-5;
            let ball = track.ball_height_m(p) - settings.out_of_round * r * (p / r).cos();
            let gap = ball - track.height_m(p);
            assert!(gap >= -1e-18, "{p}: {gap}");
            gap_sum += gap;
        }
        let mean_gap = gap_sum / n as f64;
        assert!(mean_gap > 0.2 * settings.roughness_m, "{mean_gap}");
    }
}
