//! PLUS Algorithm 1: one interval's impulse, by the active-set least-squares solve of Table 1, and its step length α (2.13, 2.14).

use glam::DVec2;

use super::linalg::{min_norm_solve, MAX_ROWS};
use super::{Phase, Plus, Settings};

/// What a contact's tangential rows say in one interval (Table 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Friction {
    /// μ = 0 or observing: no tangential impulse.
    Frictionless,
    /// A_xy π = −v_xy: the tangential velocity is driven to zero (2.7).
    Rolling,
    /// π_xy = −μ π_z ŝ with ŝ the unit tangential velocity at the interval's start (2.8, 2.9).
    Sliding(DVec2),
    /// π_xy = −μ π_z ŝ with ŝ the unit tangential velocity at the interval's *end*, which
    /// depends on π (2.9, second case); the field is the current guess of ŝ.
    Impending(DVec2),
}

impl Plus {
    /// Algorithm 1: the impulse π of the current interval, its step length α (the caller
    /// applies α π), and whether the round ends with it.
    ///
    /// `stalled`: the last interval applied next to nothing while the round went on; this one
    /// then resolves the compressing contacts without friction (see [`Plus::solve`]).
    pub(super) fn interval(
        &mut self,
        settings: &Settings,
        stalled: bool,
    ) -> ([f64; MAX_ROWS], f64, bool) {
        let contacts = self.contacts;
        for k in 0..contacts {
            let v_xy = DVec2::new(self.v[3 * k], self.v[3 * k + 1]);
            // A compressing contact that other contacts' impulses have lifted off (v_z > 0)
            // has no normal row while it separates: Table 1's A_z π = −v_z would pull it back.
            // A resting contact (see `Plus::solve`) keeps its row while it is at rest.
            let compressing = self.phase[k] == Phase::Compressing;
            let v_z = self.v[3 * k + 2];
            let approaching = v_z < -settings.velocity_tolerance_m_per_s
                || (self.rests[k] && v_z <= settings.velocity_tolerance_m_per_s);
            self.normal_active[k] = compressing && approaching;
            self.advance[k] = 0.0;
            let frictionless = self.mu[k] == 0.0
                || self.phase[k] == Phase::Observing
                || (compressing && (stalled || !approaching));
            self.friction[k] = if frictionless {
                Friction::Frictionless
            } else if v_xy.length() >= settings.v_transition_m_per_s {
                Friction::Sliding(v_xy.normalize())
            } else {
                Friction::Rolling
            };
        }
        let mut pi = [0.0; MAX_ROWS];
        // Each pass that finds a violation removes a constraint or a contact's friction, so
        // 3K + 1 passes suffice; the last one's leftovers are projected (see below).
        for pass in 0..=3 * contacts {
            pi = self.solve_active_set(settings.velocity_tolerance_m_per_s);
            let scale = pi.iter().fold(0.0f64, |m, p| m.max(p.abs())) + f64::MIN_POSITIVE;
            let mut worst = (1e-12 * scale, None);
            for k in 0..contacts {
                let (x, y, z) = (pi[3 * k], pi[3 * k + 1], pi[3 * k + 2]);
                if self.friction[k] == Friction::Rolling && x.hypot(y) - self.mu[k] * z > worst.0 {
                    worst = (x.hypot(y) - self.mu[k] * z, Some(k));
                }
                if self.normal_active[k] && -z > worst.0 {
                    worst = (-z, Some(k));
                }
            }
            let Some(k) = worst.1 else { break };
            if pass == 3 * contacts {
                // Not expected; if the heuristic cycles, keep the impulse physical.
                self.project_onto_cones(&mut pi);
                break;
            }
            match self.friction[k] {
                Friction::Rolling => {
                    // Oppose the rolling impulse that μ could not supply: the slip it would allow.
                    let rolling = DVec2::new(pi[3 * k], pi[3 * k + 1]);
                    let v_xy = DVec2::new(self.v[3 * k], self.v[3 * k + 1]);
                    let guess = (-rolling)
                        .try_normalize()
                        .or(v_xy.try_normalize())
                        .unwrap_or(DVec2::X);
                    self.friction[k] = Friction::Impending(guess);
                }
                Friction::Sliding(s) | Friction::Impending(s) if self.jammed(k, s) => {
                    let slip = DVec2::new(self.v[3 * k], self.v[3 * k + 1]).length();
                    if slip >= settings.v_transition_m_per_s {
                        self.normal_active[k] = false;
                        self.advance[k] = self.slide_until_slip_stops(k, s);
                    } else {
                        // Jammed with next to no slip left to spend: friction can neither stick
                        // nor slide it through, so this interval lets the contact slip freely.
                        self.friction[k] = Friction::Frictionless;
                    }
                }
                _ => self.normal_active[k] = false,
            }
        }
        let alpha = self.step_length(&pi, settings);
        // A jammed contact is still approaching: its round goes on.
        let round_ends = alpha >= 1.0 && self.advance[..contacts].iter().all(|a| *a == 0.0);
        (pi, alpha, round_ends)
    }

    /// Sliding friction makes contact k approach faster, A_z · (−μ ŝ, 1) < 0 (the Painlevé-type
    /// jam of a slender body): Table 1's normal row would then ask for a pull, and releasing it
    /// would leave the contact approaching with nothing to stop it. The paper does not treat
    /// this case; we continue the slide, as the Darboux–Keller impulse ODE does, until the slip
    /// stops, after which sticking (whose normal slope, a Schur complement of the positive
    /// definite A, is positive) ends the compression.
    fn jammed(&self, k: usize, s: DVec2) -> bool {
        let (x, y, z) = (3 * k, 3 * k + 1, 3 * k + 2);
        let row = self.a.a[z];
        self.phase[k] == Phase::Compressing
            && row[z] - self.mu[k] * (row[x] * s.x + row[y] * s.y) < 0.0
    }

    /// The normal impulse of a jammed contact's slide: the one that brings its slip nearest to
    /// zero along the current friction direction; if the slip is not slowing, the impulse that
    /// changes the contact velocity by its own size. The step-length rules then cut it.
    fn slide_until_slip_stops(&self, k: usize, s: DVec2) -> f64 {
        let (x, y, z) = (3 * k, 3 * k + 1, 3 * k + 2);
        let mu = self.mu[k];
        let rate = |i: usize| self.a.a[i][z] - mu * (self.a.a[i][x] * s.x + self.a.a[i][y] * s.y);
        let slip_rate = DVec2::new(rate(x), rate(y));
        let slip = DVec2::new(self.v[x], self.v[y]);
        let stop = -slip.dot(slip_rate) / slip_rate.length_squared();
        let speed = slip.extend(self.v[z]).length();
        let scale = speed / slip_rate.extend(rate(z)).length();
        if stop.is_finite() && stop > 0.0 {
            stop
        } else {
            scale
        }
    }

    /// π = c + T y: Table 1's rows that fix an impulse (expansion, sliding and impending
    /// friction, observers, released normals) are eliminated exactly; the velocity rows (a
    /// compressing normal driven to rest, a rolling contact's tangential velocity driven to
    /// zero) form a square system in the free impulses, solved in the least-squares sense with
    /// the smallest ‖π − c‖ (the minimum-norm load sharing of §3a) by the pseudoinverse.
    pub(super) fn solve_linear(&mut self) -> [f64; MAX_ROWS] {
        let mut fixed = [0.0; MAX_ROWS];
        // Column j of T: its contact and its entries in that contact's rows (x, y, z).
        let mut column_contact = [0usize; MAX_ROWS];
        let mut column_entries = [[0.0f64; 3]; MAX_ROWS];
        let mut velocity_rows = [0usize; MAX_ROWS];
        let mut n = 0;
        for k in 0..self.contacts {
            let (x, y, z) = (3 * k, 3 * k + 1, 3 * k + 2);
            let friction_per_normal = match self.friction[k] {
                Friction::Sliding(s) | Friction::Impending(s) => -self.mu[k] * s,
                Friction::Rolling | Friction::Frictionless => DVec2::ZERO,
            };
            if self.normal_active[k] {
                column_contact[n] = k;
                column_entries[n] = [friction_per_normal.x, friction_per_normal.y, 1.0];
                velocity_rows[n] = z;
                n += 1;
            } else {
                // Expanding: Poisson's π_z = π_exp; jammed: the slide's impulse; observing or
                // released: π_z = 0.
                fixed[z] = match self.phase[k] {
                    Phase::Expanding => self.pi_expansion[k],
                    _ => self.advance[k],
                };
                fixed[x] = friction_per_normal.x * fixed[z];
                fixed[y] = friction_per_normal.y * fixed[z];
            }
            if self.friction[k] == Friction::Rolling {
                for (row, entries) in [(x, [1.0, 0.0, 0.0]), (y, [0.0, 1.0, 0.0])] {
                    column_contact[n] = k;
                    column_entries[n] = entries;
                    velocity_rows[n] = row;
                    n += 1;
                }
            }
        }
        let a_fixed = self.a.mul_vec(&fixed);
        let m = &mut self.system;
        m.n = n;
        let mut rhs = [0.0; MAX_ROWS];
        let mut norms = [0.0; MAX_ROWS];
        for j in 0..n {
            norms[j] = column_entries[j].iter().map(|e| e * e).sum::<f64>().sqrt();
        }
        for r in 0..n {
            let i = velocity_rows[r];
            let row = &self.a.a[i];
            rhs[r] = -self.v[i] - a_fixed[i];
            for j in 0..n {
                let base = 3 * column_contact[j];
                let t: f64 = (0..3).map(|i| row[base + i] * column_entries[j][i]).sum();
                // Scaled columns: T's columns have disjoint or orthogonal supports on which c is
                // zero, so ‖π‖² = ‖c‖² + Σ (‖T_j‖ y_j)²; the minimum-norm u = ‖T_j‖ y_j thus
                // minimises ‖π‖, Table 1's objective.
                m.a[r][j] = t / norms[j];
            }
        }
        let u = min_norm_solve(&self.system, &rhs, &mut self.solve);
        let mut pi = fixed;
        for j in 0..n {
            let base = 3 * column_contact[j];
            for i in 0..3 {
                pi[base + i] += column_entries[j][i] * u[j] / norms[j];
            }
        }
        pi
    }

    /// Clamp each contact's impulse into its cone with a pushing normal.
    fn project_onto_cones(&self, pi: &mut [f64; MAX_ROWS]) {
        for k in 0..self.contacts {
            let z = pi[3 * k + 2].max(0.0);
            pi[3 * k + 2] = z;
            let xy = DVec2::new(pi[3 * k], pi[3 * k + 1]);
            let limit = self.mu[k] * z;
            if xy.length() > limit {
                let clamped = xy.clamp_length_max(limit);
                pi[3 * k] = clamped.x;
                pi[3 * k + 1] = clamped.y;
            }
        }
    }

    /// The tangential velocity at the end of the interval, v_xy + A_xy π, of contact k.
    pub(super) fn end_velocity(&self, k: usize, pi: &[f64; MAX_ROWS]) -> DVec2 {
        let rows = 3 * self.contacts;
        let dot = |i: usize| {
            self.a.a[i]
                .iter()
                .zip(pi)
                .take(rows)
                .map(|(a, p)| a * p)
                .sum::<f64>()
        };
        DVec2::new(
            self.v[3 * k] + dot(3 * k),
            self.v[3 * k + 1] + dot(3 * k + 1),
        )
    }

    /// The interval step length: the smallest over sliding contacts of α_CP (2.13) where the
    /// tangential velocity comes within v_transition of zero, else α_DC (2.14) where it has
    /// turned by θ_max, bounded to [α_min, 1]; 1 when no sliding contact limits it, and 1 when a
    /// contact would end the whole interval below v_transition (§2e).
    fn step_length(&self, pi: &[f64; MAX_ROWS], settings: &Settings) -> f64 {
        let mut alpha = 1.0f64;
        let cos_max = settings.theta_max_rad.cos();
        for k in 0..self.contacts {
            let Friction::Sliding(_) = self.friction[k] else {
                continue;
            };
            let start = DVec2::new(self.v[3 * k], self.v[3 * k + 1]);
            let end = self.end_velocity(k, pi);
            let d = end - start;
            if end.length() <= settings.v_transition_m_per_s
                || start.dot(end) >= cos_max * start.length() * end.length()
            {
                continue;
            }
            let alpha_cp = -start.dot(d) / d.length_squared();
            if alpha_cp > 0.0
                && alpha_cp < 1.0
                && (start + alpha_cp * d).length() < settings.v_transition_m_per_s
            {
                alpha = alpha.min(alpha_cp);
                continue;
            }
            // (2.14) read geometrically: the ray from the origin at θ_max from v_start, turned
            // the way the segment turns, meets the segment at α_DC = (a × r)/(r × d). It is the
            // positive root of the squared quadratic the paper describes.
            let turn = if start.perp_dot(d) >= 0.0 { 1.0 } else { -1.0 };
            let r = DVec2::from_angle(turn * settings.theta_max_rad).rotate(start);
            let alpha_dc = start.perp_dot(r) / r.perp_dot(d);
            let alpha_dc = if alpha_dc.is_finite() && alpha_dc > 0.0 {
                alpha_dc
            } else {
                0.0
            };
            alpha = alpha.min(alpha_dc.clamp(settings.alpha_min, 1.0));
        }
        alpha
    }
}
