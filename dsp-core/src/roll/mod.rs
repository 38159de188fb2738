//! Rolling (after Rath's rolling model): a track, one of the surfaces, seen through the rolling filter drives a ball pressed onto the object by gravity, in the frame that moves with the track.
//!
//! The track's height s(p) is a function of the distance p along it (a surface of
//! [`crate::surface`]: fractal, ridges, grain or smooth), so the physics does not depend on the
//! sample rate. A ball of radius R cannot follow dips narrower than its curvature allows: its
//! lowest point rides on the envelope h(p) = max_ξ [s(p + ξ) − ξ²/(2R)] (the rolling filter, with
//! the sphere's section approximated by its osculating parabola). Out-of-roundness adds
//! ε·R·cos(p/R), a modulation at the rotation period 2πR/v. The ball is then integrated against a
//! fixed surface with the extra acceleration ḧ(t), the track's height accelerating under it, so
//! every contact law and integrator applies unchanged and the rolling is a dense sequence of
//! micro-impacts and sustained contact.

use crate::smooth::{approach, SPEED_RESOLUTION_M_PER_S};
use crate::surface::{band_gain, Partials, SurfaceSettings, MAX_PARTIALS};
use std::f64::consts::TAU;

/// Points of the rolling filter's window, ξ spread evenly over ±(half width).
const FILTER_POINTS: usize = 17;
/// Widest half window of the rolling filter, m.
const MAX_HALF_WINDOW_M: f64 = 8e-3;
/// Track heights a rolling ball keeps on its grid (a power of two, well above the 2·8 + 4 points
/// one evaluation needs).
const GRID_CACHE: usize = 64;
/// Finest grid spacing, m (a track without roughness has a zero-width filter window).
const MIN_GRID_M: f64 = 1e-6;
/// Most iterations of the window's half width (each shrinks it by 0.1 % or more until it
/// stops).
const WINDOW_ITERATIONS: usize = 64;
/// The grid's phasors are re-anchored at the exact position every this many points.
const ANCHOR_POINTS: i64 = 64;

/// Slot of grid point `i` in the ring: i mod GRID_CACHE, by mask (two's complement makes it right
/// for negative points too).
#[inline]
fn ring_index(i: i64) -> usize {
    (i & (GRID_CACHE as i64 - 1)) as usize
}

/// The rolling ball and its track, as the user sets them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollSettings {
    /// Ball radius, m.
    pub radius_m: f64,
    /// The surface the ball rolls on.
    pub track: SurfaceSettings,
    /// Out-of-roundness ε of the ball, a fraction of its radius (0…0.01).
    pub out_of_round: f64,
}

/// A roll's roughness is the RMS height of its track at the wavelengths up to this, m.
pub const ROUGH_UP_TO_M: f64 = 8e-3;
/// The marble's track: its roughness, m (see [`RollSettings::fractal_track`]).
const MARBLE_ROUGHNESS_M: f64 = 2e-6;
/// The marble's track: its slope (an octave's amplitude ∝ λ^slope).
const MARBLE_SLOPE: f64 = 1.0;

impl RollSettings {
    /// A glass marble on a wooden floor.
    pub fn marble() -> Self {
        Self {
            radius_m: 8e-3,
            track: Self::fractal_track(MARBLE_ROUGHNESS_M, MARBLE_SLOPE, 1),
            out_of_round: 1e-3,
        }
    }

    /// A fractal track as a roll sets it: RMS height `roughness_m` at the wavelengths up to
    /// [`ROUGH_UP_TO_M`], and its octave of wavelength λ of amplitude ∝ λ^slope. An octave's
    /// power ∝ λ^(2·slope) = k^(−2·slope), and a power spectrum ∝ k^(−β) puts k^(1 − β) in an
    /// octave, so β = 1 + 2·slope.
    pub fn fractal_track(roughness_m: f64, slope: f64, seed: u64) -> SurfaceSettings {
        SurfaceSettings::fractal_rms_below(roughness_m, 1.0 + 2.0 * slope, ROUGH_UP_TO_M, seed)
    }
}

/// The track under the ball: its partials up to what the rolling filter's grid can carry, and
/// the filter's window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Track {
    radius_m: f64,
    out_of_round: f64,
    /// The surface's partials, each times its band gain on the grid (see [`Track::new`]).
    partials: Partials,
    /// Half width of the rolling filter's window, m: beyond it the sphere has dropped below any
    /// bump the track can have ([`half_window_m`]).
    half_window_m: f64,
}

impl Track {
    /// The track of `settings`, for a ball that moves at most `fastest_step_m` in one sample
    /// (its fastest speed times the sample period; 0: no bound). The window's 17 points
    /// ([`half_window_m`]) are a grid of spacing Δ, which carries wavenumbers up to π/Δ: a
    /// partial is kept whole up to 0.40/Δ cycles per metre and faded out by 0.48/Δ (the band
    /// gain of [`crate::surface`], in space), so the grid never aliases the surface. Δ is no
    /// finer than the fastest step (the window wider than it must be, which is safe), so a
    /// sample needs at most two new grid points, and at that speed no partial kept sounds above
    /// 0.48·fs: the band gain in space is then one in time.
    pub fn new(settings: RollSettings, fastest_step_m: f64) -> Self {
        let radius_m = settings.radius_m.max(1e-4);
        let mut partials = Partials::new(&settings.track);
        let half_window_m = half_window_m(&partials, radius_m)
            .max((FILTER_POINTS / 2) as f64 * fastest_step_m.max(0.0))
            .min(MAX_HALF_WINDOW_M);
        let grid_m = grid_spacing_m(half_window_m);
        for i in 0..partials.count {
            let gain = band_gain(partials.wavenumber_per_m[i] / TAU, 1.0 / grid_m);
            if gain == 0.0 {
                partials.count = i;
                break;
            }
            partials.amplitude_m[i] *= gain;
        }
        Self {
            radius_m,
            out_of_round: settings.out_of_round,
            partials,
            half_window_m,
        }
    }

    /// Height of the track at distance `p_m`, m (its partials summed directly).
    pub fn height_m(&self, p_m: f64) -> f64 {
        self.partials.height_m(p_m)
    }

    /// Height of the ball's lowest point over the track at distance `p_m` (the rolling filter),
    /// plus the out-of-roundness at the rotation angle p/R, m. Evaluated directly (17 track
    /// heights); [`Rolling`] evaluates the same filter on a grid.
    pub fn ball_height_m(&self, p_m: f64) -> f64 {
        let r = self.radius_m;
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
        let r = self.radius_m;
        self.out_of_round * r * (p_m / r).cos()
    }

    /// Spacing of the rolling filter's points, m: the grid [`Rolling`] keeps heights on.
    fn grid_m(&self) -> f64 {
        grid_spacing_m(self.half_window_m)
    }
}

/// Spacing of the rolling filter's points for a window of half width `half_window_m`, m.
fn grid_spacing_m(half_window_m: f64) -> f64 {
    (half_window_m / (FILTER_POINTS / 2) as f64).max(MIN_GRID_M)
}

/// Half width of the rolling filter's window, m (at most 8 mm): the largest w with
/// w² = 2R·Σ|aᵢ|·min(2, kᵢ·w). Within ±ξ of a point the track rises by at most
/// Σ|aᵢ|·min(2, kᵢ·|ξ|) (|cos(θ + kξ) − cos θ| ≤ min(2, k|ξ|)) while the sphere falls by ξ²/2R,
/// and the rise over ξ never increases with ξ, so beyond w no point of the track reaches the
/// ball. Iterated from above (every partial's whole swing, 2|aᵢ|), w falls to it: the long
/// undulations, which the ball follows, no longer widen the window.
fn half_window_m(partials: &Partials, radius_m: f64) -> f64 {
    let rise_m = |w: f64| -> f64 {
        (0..partials.count)
            .map(|i| partials.amplitude_m[i].abs() * (partials.wavenumber_per_m[i] * w).min(2.0))
            .sum()
    };
    let mut w = MAX_HALF_WINDOW_M;
    for _ in 0..WINDOW_ITERATIONS {
        let next = (2.0 * radius_m * rise_m(w)).sqrt().min(w);
        if next > (1.0 - 1e-3) * w {
            return next;
        }
        w = next;
    }
    w
}

/// The track's heights at consecutive grid points, by phasors e^(i(k·jΔ + φ)) turned by e^(ikΔ)
/// from one point to the next and re-anchored at the exact point every [`ANCHOR_POINTS`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct GridPhasors {
    re: [f64; MAX_PARTIALS],
    im: [f64; MAX_PARTIALS],
    turn_re: [f64; MAX_PARTIALS],
    turn_im: [f64; MAX_PARTIALS],
    /// The grid point the phasors stand at (i64::MIN: not anchored yet).
    point: i64,
}

impl GridPhasors {
    fn new(track: &Track) -> Self {
        let zero = [0.0; MAX_PARTIALS];
        let mut phasors = Self {
            re: zero,
            im: zero,
            turn_re: zero,
            turn_im: zero,
            point: i64::MIN,
        };
        let p = &track.partials;
        for i in 0..p.count {
            let (s, c) = (p.wavenumber_per_m[i] * track.grid_m()).sin_cos();
            phasors.turn_re[i] = c;
            phasors.turn_im[i] = s;
        }
        phasors
    }

    /// The track's height at grid point `j`: the phasors turned on by one point when `j`
    /// follows the last, anchored afresh otherwise and every [`ANCHOR_POINTS`].
    fn height_m(&mut self, track: &Track, j: i64) -> f64 {
        let p = &track.partials;
        if j != self.point.wrapping_add(1) || j % ANCHOR_POINTS == 0 {
            let x_m = j as f64 * track.grid_m();
            for i in 0..p.count {
                let (s, c) = (p.wavenumber_per_m[i] * x_m + p.phase[i]).sin_cos();
                self.re[i] = c;
                self.im[i] = s;
            }
        } else {
            for i in 0..p.count {
                let (c, s) = (self.re[i], self.im[i]);
                self.re[i] = c * self.turn_re[i] - s * self.turn_im[i];
                self.im[i] = c * self.turn_im[i] + s * self.turn_re[i];
            }
        }
        self.point = j;
        (0..p.count).map(|i| p.amplitude_m[i] * self.re[i]).sum()
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
    /// The rolling filter at grid points i < `next_envelope`, kept in a ring the same way: each
    /// is computed once, when the ball first needs it, instead of four a sample (a ball that
    /// barely moves needs the same four for thousands of samples).
    envelopes: [f64; GRID_CACHE],
    next_envelope: i64,
    phasors: GridPhasors,
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
            envelopes: [0.0; GRID_CACHE],
            next_envelope: i64::MIN,
            phasors: GridPhasors::new(&track),
        };
        let h = rolling.ball_height_m(0.0);
        rolling.heights_m = [h, h];
        rolling
    }

    /// The rolling filter at grid point `i`: max over the window of s((i + k)·Δ) − (kΔ)²/2R.
    fn envelope_at(&self, i: i64) -> f64 {
        let (grid, r) = (self.track.grid_m(), self.track.radius_m);
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
            self.grid[ring_index(i)] = self.phasors.height_m(&self.track, i);
            self.next_point += 1;
        }
        // The filter at j − 1 … j + 2, each from the track heights just made ready around it.
        self.next_envelope = self.next_envelope.max(j - 1);
        while self.next_envelope <= j + 2 {
            let i = self.next_envelope;
            self.envelopes[ring_index(i)] = self.envelope_at(i);
            self.next_envelope += 1;
        }
        let [a, b, c, d] = [j - 1, j, j + 1, j + 2].map(|i| self.envelopes[ring_index(i)]);
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
        let (now, target) = (self.speed_m_per_s, target_m_per_s.max(0.0));
        self.speed_m_per_s = approach(now, target, keep, SPEED_RESOLUTION_M_PER_S);
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
    fn the_grid_filter_is_the_direct_one_at_grid_points_and_close_between() {
        let track = Track::new(RollSettings::marble(), 0.0);
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
        // The phasors drift by rounding between anchors: 10⁻¹⁵ m is 5·10⁻¹⁰ of the roughness.
        assert!(worst_on < 1e-15, "{worst_on}");
        let mean_between = error_between / n as f64;
        assert!(mean_between < 0.05 * 2e-6, "{mean_between}");
    }

    /// The filter values kept between samples are the ones the grid around them gives now, to
    /// the bit, whether the ball stands, crawls, rolls or is moved past the whole ring at once.
    #[test]
    fn the_kept_filter_values_are_the_grids_own() {
        let track = Track::new(RollSettings::marble(), 0.0);
        let grid = track.grid_m();
        let mut rolling = Rolling::new(track);
        let mut p = 0.0;
        let moves = [
            (2000, 0.0),
            (3000, 0.013),
            (500, 0.9),
            (1, 150.0),
            (800, 1.7),
        ];
        for (samples, step_in_grid_points) in moves {
            for _ in 0..samples {
                p += step_in_grid_points * grid;
                rolling.ball_height_m(p);
                let j = (p / grid).floor() as i64;
                for i in j - 1..=j + 2 {
                    let kept = rolling.envelopes[ring_index(i)];
                    assert_eq!(kept.to_bits(), rolling.envelope_at(i).to_bits(), "at {p} m");
                }
            }
        }
    }

    #[test]
    fn beyond_the_window_no_point_of_the_track_reaches_the_ball() {
        // Brute force: at 500 places, no point from the window's edge out to 8 mm (every 4 µm)
        // rises above the parabola through the track under the ball.
        let ridges = SurfaceSettings {
            kind: crate::surface::SurfaceKind::Ridges,
            height_m: 2e-5,
            ridge_spacing_m: 2e-3,
            ..SurfaceSettings::smooth()
        };
        for track in [
            RollSettings::marble().track,
            RollSettings::fractal_track(2e-6, 0.0, 3),
            ridges,
        ] {
            let settings = RollSettings {
                track,
                ..RollSettings::marble()
            };
            let t = Track::new(settings, 0.0);
            let r = settings.radius_m;
            for i in 0..500 {
                let p = i as f64 * 149e-6;
                let under = t.height_m(p);
                let mut xi = t.half_window_m;
                while xi < MAX_HALF_WINDOW_M {
                    for side in [-1.0, 1.0] {
                        let above = t.height_m(p + side * xi) - xi * xi / (2.0 * r) - under;
                        assert!(above <= 0.0, "{track:?} at {p}, ξ {xi}: {above}");
                    }
                    xi += 4e-6;
                }
            }
        }
    }

    #[test]
    fn a_fast_ball_needs_at_most_two_new_grid_points_a_sample() {
        // A barely rough track has a tiny window; at 5 m/s and 44.1 kHz the ball moves 113 µm
        // a sample, and the grid is no finer than that.
        let settings = RollSettings {
            track: RollSettings::fractal_track(1e-8, 0.0, 1),
            ..RollSettings::marble()
        };
        let step_m = 5.0 / 44_100.0;
        assert!(Track::new(settings, 0.0).grid_m() < 0.1 * step_m);
        let track = Track::new(settings, step_m);
        assert!(track.grid_m() >= step_m, "{}", track.grid_m());
        let mut rolling = Rolling::new(track);
        for _ in 0..44_100 {
            let before = rolling.next_point;
            rolling.advance(5.0, 1e-4, 1.0 / 44_100.0);
            assert!(
                rolling.next_point - before <= 2,
                "{}",
                rolling.next_point - before
            );
        }
    }

    #[test]
    fn the_ball_rides_on_the_envelope() {
        // Never below the track under its lowest point, and bridging its dips: on average well
        // above it, against the RMS height of its wavelengths up to 8 mm (a bright track, every
        // octave alike, has dips far narrower than the ball).
        let settings = RollSettings {
            track: RollSettings::fractal_track(2e-6, 0.0, 1),
            ..RollSettings::marble()
        };
        let track = Track::new(settings, 0.0);
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
        let p = &track.partials;
        let fine_rms = (0..p.count)
            .filter(|&i| TAU / p.wavenumber_per_m[i] <= ROUGH_UP_TO_M)
            .map(|i| 0.5 * p.amplitude_m[i].powi(2))
            .sum::<f64>()
            .sqrt();
        println!("mean gap {mean_gap:e} m, RMS up to 8 mm {fine_rms:e} m");
        assert!(mean_gap > 0.2 * fine_rms, "{mean_gap} vs {fine_rms}");
    }
}
