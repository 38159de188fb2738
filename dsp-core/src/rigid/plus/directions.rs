//! The impending-slip directions of one active set (PLUS 2.9, second case): a fixed point on the contacts' end velocities, finished by Newton's method on their angles when it does not settle.

use glam::DVec2;

use super::interval::Friction;
use super::linalg::{min_norm_solve, MAX_ROWS};
use super::{Plus, MAX_CONTACTS};

/// Linear solves one active set's directions may take after its first: the bound on the work.
const DIRECTION_SOLVES: usize = 50;
/// Plain fixed-point iterations before Newton's method takes over (most active sets settle in
/// one to three).
const FIXED_POINT_ITERATIONS: usize = 4;
/// The directions have settled when none turns by more than this, rad.
const SETTLED_RAD: f64 = 1e-12;
/// Turn of one direction that measures a column of the Jacobian, rad.
const JACOBIAN_STEP_RAD: f64 = 1e-7;
/// Halvings of a Newton step that does not bring the directions closer.
const BACKTRACKS: usize = 3;

/// The directions' angles and how far each is from its contact's end velocity.
#[derive(Clone, Copy)]
struct Iterate {
    pi: [f64; MAX_ROWS],
    /// The angle of each unknown direction, rad.
    angle_rad: [f64; MAX_CONTACTS],
    /// The end velocity's angle less the direction's, within ±π (0 for a contact that sticks).
    residual_rad: [f64; MAX_CONTACTS],
    /// The largest |residual|.
    worst_rad: f64,
}

/// `a` within ±π.
fn wrap_rad(a: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    a - tau * (a / tau).round()
}

impl Plus {
    /// Table 1's impulse for the current active set. Impending-slip directions depend on π
    /// (2.9, second case: ŝ is the unit tangential velocity at the interval's end): each
    /// direction is turned to its contact's end velocity and π solved again, to a fixed point;
    /// the friction lies exactly on its cone whether or not the directions have settled.
    ///
    /// A contact whose end velocity vanishes (within `tolerance_m_per_s`) sticks with its
    /// friction on the cone's edge: the other contacts stop it whatever its direction, so the
    /// direction, undefined there, keeps its guess (turning it to a velocity of round-off
    /// would make the iteration wander for ever). When the fixed point has not settled after
    /// [`FIXED_POINT_ITERATIONS`] (it can crawl, or swing between two sets of directions when
    /// every contact slips), Newton's method on the angles finishes it.
    pub(super) fn solve_active_set(&mut self, tolerance_m_per_s: f64) -> [f64; MAX_ROWS] {
        let mut pi = self.solve_linear();
        for _ in 0..FIXED_POINT_ITERATIONS {
            if self.turn_directions(&pi, tolerance_m_per_s) <= SETTLED_RAD {
                return pi;
            }
            pi = self.solve_linear();
        }
        self.newton_directions(pi, tolerance_m_per_s)
    }

    /// Turn every impending direction to its contact's end velocity under `pi`; the largest
    /// change of a unit direction.
    fn turn_directions(&mut self, pi: &[f64; MAX_ROWS], tolerance_m_per_s: f64) -> f64 {
        let mut change = 0.0f64;
        for k in 0..self.contacts {
            if let Friction::Impending(s) = self.friction[k] {
                if let Some(end) = self.slipping_end_velocity(k, pi, tolerance_m_per_s) {
                    let opposed = end.normalize();
                    change = change.max((opposed - s).length());
                    self.friction[k] = Friction::Impending(opposed);
                }
            }
        }
        change
    }

    /// Newton's method on the impending directions' angles θ: r(θ) = arg(end velocity) − θ
    /// driven to zero, each step J⁻¹r by [`min_norm_solve`] (a contact that comes to stick makes
    /// J singular) and halved while it brings no improvement. Stops when settled, when
    /// no step improves, or when the next would exceed [`DIRECTION_SOLVES`]; returns the best π
    /// found, its directions in place.
    fn newton_directions(
        &mut self,
        pi: [f64; MAX_ROWS],
        tolerance_m_per_s: f64,
    ) -> [f64; MAX_ROWS] {
        let mut unknowns = [0usize; MAX_CONTACTS];
        let mut m = 0;
        for k in 0..self.contacts {
            if matches!(self.friction[k], Friction::Impending(_)) {
                unknowns[m] = k;
                m += 1;
            }
        }
        let unknowns = &unknowns[..m];
        let mut best = self.iterate(pi, unknowns, tolerance_m_per_s);
        let mut solves = FIXED_POINT_ITERATIONS;
        while best.worst_rad > SETTLED_RAD && solves + m < DIRECTION_SOLVES {
            self.jacobian(&best, unknowns, tolerance_m_per_s);
            solves += m;
            let mut rhs = [0.0; MAX_ROWS];
            for i in 0..m {
                rhs[i] = -best.residual_rad[i];
            }
            let step = min_norm_solve(&self.system, &rhs, &mut self.solve);
            match self.line_search(&best, &step, unknowns, tolerance_m_per_s, &mut solves) {
                Some(better) => best = better,
                None => break,
            }
        }
        self.set_directions(&best.angle_rad, unknowns);
        best.pi
    }

    /// ∂r/∂θ at `at` by forward differences of [`JACOBIAN_STEP_RAD`], one solve a column, left
    /// in the solver's system matrix (its first m rows and columns, as `solve_linear` leaves
    /// its own: no zeroing of the whole matrix a step).
    fn jacobian(&mut self, at: &Iterate, unknowns: &[usize], tolerance_m_per_s: f64) {
        let m = unknowns.len();
        let mut columns = [[0.0; MAX_CONTACTS]; MAX_CONTACTS];
        for (j, column) in columns.iter_mut().enumerate().take(m) {
            let mut angle_rad = at.angle_rad;
            angle_rad[j] += JACOBIAN_STEP_RAD;
            let probe = self.iterate_at(&angle_rad, unknowns, tolerance_m_per_s);
            for i in 0..m {
                column[i] =
                    wrap_rad(probe.residual_rad[i] - at.residual_rad[i]) / JACOBIAN_STEP_RAD;
            }
        }
        self.system.n = m;
        for i in 0..m {
            for j in 0..m {
                self.system.a[i][j] = columns[j][i];
            }
        }
    }

    /// The Newton `step` from `from`, halved up to [`BACKTRACKS`] times until its worst
    /// residual is smaller (one solve a try, counted in `solves`); None if no try improves.
    fn line_search(
        &mut self,
        from: &Iterate,
        step: &[f64; MAX_ROWS],
        unknowns: &[usize],
        tolerance_m_per_s: f64,
        solves: &mut usize,
    ) -> Option<Iterate> {
        let mut scale = 1.0;
        for _ in 0..=BACKTRACKS {
            if *solves >= DIRECTION_SOLVES {
                break;
            }
            let mut angle_rad = from.angle_rad;
            for (angle, delta) in angle_rad.iter_mut().zip(step).take(unknowns.len()) {
                *angle += scale * delta;
            }
            let trial = self.iterate_at(&angle_rad, unknowns, tolerance_m_per_s);
            *solves += 1;
            if trial.worst_rad < from.worst_rad {
                return Some(trial);
            }
            scale *= 0.5;
        }
        None
    }

    /// π with the unknown directions at `angle_rad`, and its residuals.
    fn iterate_at(
        &mut self,
        angle_rad: &[f64; MAX_CONTACTS],
        unknowns: &[usize],
        tolerance_m_per_s: f64,
    ) -> Iterate {
        self.set_directions(angle_rad, unknowns);
        let pi = self.solve_linear();
        self.iterate(pi, unknowns, tolerance_m_per_s)
    }

    /// The residuals of `pi`, solved with the directions now in place.
    fn iterate(&self, pi: [f64; MAX_ROWS], unknowns: &[usize], tolerance_m_per_s: f64) -> Iterate {
        let mut it = Iterate {
            pi,
            angle_rad: [0.0; MAX_CONTACTS],
            residual_rad: [0.0; MAX_CONTACTS],
            worst_rad: 0.0,
        };
        for (i, &k) in unknowns.iter().enumerate() {
            let Friction::Impending(s) = self.friction[k] else {
                continue;
            };
            it.angle_rad[i] = s.to_angle();
            if let Some(end) = self.slipping_end_velocity(k, &pi, tolerance_m_per_s) {
                it.residual_rad[i] = wrap_rad(end.to_angle() - it.angle_rad[i]);
                it.worst_rad = it.worst_rad.max(it.residual_rad[i].abs());
            }
        }
        it
    }

    /// Contact k's end velocity under `pi`, unless it vanishes (within `tolerance_m_per_s`): the
    /// contact then sticks, and (2.9) leaves its direction undefined.
    fn slipping_end_velocity(
        &self,
        k: usize,
        pi: &[f64; MAX_ROWS],
        tolerance_m_per_s: f64,
    ) -> Option<DVec2> {
        let end = self.end_velocity(k, pi);
        (end.length() > tolerance_m_per_s).then_some(end)
    }

    /// Point the unknown contacts' impending directions at `angle_rad`.
    fn set_directions(&mut self, angle_rad: &[f64; MAX_CONTACTS], unknowns: &[usize]) {
        for (&angle, &k) in angle_rad.iter().zip(unknowns) {
            self.friction[k] = Friction::Impending(DVec2::from_angle(angle));
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    use super::super::examples::flat_brick;
    use super::super::Phase;
    use super::*;

    /// The flat brick of PLUS's Example 2 on its four corners, sliding at `velocity_m_per_s`
    /// and turning at `spin_rad_per_s` about the vertical; every corner's normal row active, its
    /// friction impending along its slip.
    fn sliding_brick(velocity_m_per_s: DVec3, spin_rad_per_s: f64) -> Plus {
        let scenario = flat_brick(velocity_m_per_s);
        let mut bodies = scenario.bodies().to_vec();
        bodies[0].angular_velocity_rad_per_s = DVec3::Z * spin_rad_per_s;
        let mut plus = Plus::new();
        plus.assemble(&bodies, scenario.contacts());
        for k in 0..plus.contacts {
            plus.phase[k] = Phase::Compressing;
            plus.normal_active[k] = true;
            let slip = DVec2::new(plus.v[3 * k], plus.v[3 * k + 1]);
            plus.friction[k] = Friction::Impending(slip.normalize());
        }
        plus
    }

    /// Sliding at 3 mm/s and turning slowly, the brick's plain fixed point crawls (each
    /// iteration cuts the change about fourfold: it settles after 20). Newton's method, taking
    /// over after [`FIXED_POINT_ITERATIONS`], must reach the same impulse, every friction on its
    /// cone and opposing its corner's end velocity (2.9).
    #[test]
    fn newton_finishes_a_crawling_fixed_point_where_it_would_settle() {
        let (velocity_m_per_s, spin_rad_per_s) = (DVec3::new(0.003, 0.0, -0.0025), 0.01);
        let mut plain = sliding_brick(velocity_m_per_s, spin_rad_per_s);
        let mut expected = plain.solve_linear();
        let mut iterations = 0;
        while plain.turn_directions(&expected, 1e-10) > SETTLED_RAD {
            expected = plain.solve_linear();
            iterations += 1;
            assert!(iterations < 100, "the plain fixed point does not settle");
        }
        assert!(
            iterations > 2 * FIXED_POINT_ITERATIONS,
            "{iterations} iterations"
        );

        let mut plus = sliding_brick(velocity_m_per_s, spin_rad_per_s);
        let pi = plus.solve_active_set(1e-10);
        let scale = expected.iter().fold(0.0f64, |m, p| m.max(p.abs()));
        for (p, e) in pi.iter().zip(&expected) {
            assert!((p - e).abs() <= 1e-9 * scale, "{pi:?} against {expected:?}");
        }
        for k in 0..plus.contacts {
            let Friction::Impending(s) = plus.friction[k] else {
                panic!("corner {k} is no longer impending");
            };
            let end = plus.end_velocity(k, &pi);
            let sine = end.perp_dot(s) / end.length();
            assert!(
                end.dot(s) > 0.0 && sine.abs() < 1e-9,
                "corner {k}: {end} against {s}"
            );
            let (tangential, normal) = (DVec2::new(pi[3 * k], pi[3 * k + 1]), pi[3 * k + 2]);
            let cone = (tangential + s * plus.mu[k] * normal).length();
            assert!(cone <= 1e-12 * scale, "corner {k} off its cone by {cone}");
        }
    }

    /// Three corners rolling stop the brick whatever the fourth does: the fourth corner, at the
    /// edge of its cone, ends with no velocity, and its direction keeps its guess rather than
    /// turning to a velocity of round-off.
    #[test]
    fn a_corner_that_sticks_keeps_its_direction() {
        let mut plus = sliding_brick(DVec3::new(0.003, 0.001, -0.0025), 0.01);
        for k in 0..3 {
            plus.friction[k] = Friction::Rolling;
        }
        let guess = DVec2::new(0.6, 0.8);
        plus.friction[3] = Friction::Impending(guess);
        let pi = plus.solve_active_set(1e-10);
        assert_eq!(plus.friction[3], Friction::Impending(guess));
        for k in 0..plus.contacts {
            let end = plus.end_velocity(k, &pi);
            assert!(end.length() < 1e-12, "corner {k} still slips at {end} m/s");
        }
    }
}
