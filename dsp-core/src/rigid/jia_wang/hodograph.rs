//! The sliding velocity γ and its ODE (eqs. 19–33), invariant directions (Theorem 5), stick and resumed slip (§5), curvature (eq. 37).

use glam::{DMat2, DMat3, DVec2, DVec3};

/// Bisection iterations: enough to reach adjacent doubles on any bracket.
const BISECTIONS: usize = 200;

/// The data of the hodograph ODE: B (eq. 21), d (eq. 22), B⁻¹, μ, γ⁻ and the normal row of W.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hodograph {
    /// B = (x̂, ŷ)ᵀ W (x̂, ŷ), eq. 21, 1/kg.
    pub b: DMat2,
    pub b_inv: DMat2,
    /// d = (x̂, ŷ)ᵀ W ẑ, eq. 22, 1/kg.
    pub d: DVec2,
    pub mu: f64,
    /// Pre-impact sliding velocity γ⁻ = (v_x⁻, v_y⁻), m/s.
    pub gamma_minus_m_per_s: DVec2,
    /// ẑᵀW, so that v_z = v_z⁻ + ẑᵀW I (eq. 10).
    pub w_z: DVec3,
}

/// An invariant direction ŝ: −μBŝ + d = λŝ (eq. 33); centripetal if λ ≤ 0, centrifugal if λ > 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvariantDirection {
    pub direction: DVec2,
    /// dγ/dI_z along ŝ (eq. 32), m/s per N·s.
    pub lambda: f64,
}

/// All invariant directions (two to four, Theorem 5(ii)), or every direction (Theorem 5(i)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvariantDirections {
    items: [InvariantDirection; 4],
    len: usize,
    /// B = b I and d = 0 (μ > 0), or μ = 0 and d = 0: every direction is invariant.
    pub every: bool,
}

impl InvariantDirections {
    /// Add a direction unless it is zero or already listed.
    fn push(&mut self, direction: DVec2, lambda: f64) {
        let direction = direction.normalize_or_zero();
        let duplicate = self
            .as_slice()
            .iter()
            .any(|s| s.direction.dot(direction) > 1.0 - 1e-12);
        if direction == DVec2::ZERO || duplicate {
            return;
        }
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = InvariantDirection { direction, lambda };
            self.len += 1;
        }
    }

    /// The directions found (empty when `every`).
    pub fn as_slice(&self) -> &[InvariantDirection] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

/// A zero of `f` on [lo, hi] (f(lo), f(hi) of opposite signs or zero) by Algorithm 748 of
/// Alefeld, Potra and Shi (ACM TOMS 21(3), 1995), to 4 ulps or 10⁻¹³ of the bracket; by
/// bisection if it fails. Over the Jia–Wang tests' 14 687 events it takes 6.9 evaluations (an
/// RK4 step each) where bisection to adjacent doubles takes 55.
pub(super) fn zero_in(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    basin::Toms748Root::new(lo, hi)
        .with_relative_position_tolerance(4.0 * f64::EPSILON)
        .with_absolute_position_tolerance(1e-13 * (hi - lo).abs())
        .solve(|t| Ok::<_, std::convert::Infallible>(f(t)))
        .map(|zero| zero.root())
        .unwrap_or_else(|_| bisect(lo, hi, f))
}

/// Bisection for a sign change of `f` on [lo, hi] (f(lo), f(hi) of opposite signs or zero).
pub(super) fn bisect(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let f_lo = f(lo);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo.min(hi) || mid >= lo.max(hi) {
            break;
        }
        if (f(mid) > 0.0) == (f_lo > 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

impl Hodograph {
    /// B, d (eqs. 21–22) and γ⁻ from W and v⁻; W must be symmetric positive definite so that B is
    /// (Proposition 4).
    pub fn new(w: &DMat3, v_minus: DVec3, mu: f64) -> Self {
        let b = DMat2::from_cols(
            DVec2::new(w.x_axis.x, w.x_axis.y),
            DVec2::new(w.y_axis.x, w.y_axis.y),
        );
        Self {
            b,
            b_inv: b.inverse(),
            d: DVec2::new(w.z_axis.x, w.z_axis.y),
            mu,
            gamma_minus_m_per_s: v_minus.truncate(),
            w_z: w.row(2),
        }
    }

    /// γ' = −μBγ̂ + d while sliding in the direction γ̂ (eq. 31).
    pub fn velocity(&self, direction: DVec2) -> DVec2 {
        -self.mu * (self.b * direction) + self.d
    }

    /// γ̂ × (−μBγ̂ + d), zero on an invariant direction (eq. 33).
    pub fn invariance(&self, direction: DVec2) -> f64 {
        direction.perp_dot(self.velocity(direction))
    }

    /// dI/dI_z while sliding in the direction γ̂: ẑ − μ(x̂, ŷ)γ̂ (eq. 29, whose printed
    /// "(x̂, γ̂)γ̂" is read as (x̂, ŷ)γ̂: the tangential part is −μγ̂ by eq. 28).
    pub fn slip_rate(&self, direction: DVec2) -> DVec3 {
        (-self.mu * direction).extend(1.0)
    }

    /// The impulse at sliding velocity γ and normal impulse I_z:
    /// I = I_z ẑ + (x̂, ŷ) B⁻¹(γ − γ⁻ − I_z d) (eq. 26).
    pub fn impulse(&self, gamma: DVec2, iz: f64) -> DVec3 {
        (self.b_inv * (gamma - self.gamma_minus_m_per_s - iz * self.d)).extend(iz)
    }

    /// ‖B⁻¹d‖ ≤ μ: once γ = 0 the contact sticks (§5.1); otherwise slip resumes (§5.2).
    pub fn sticks(&self) -> bool {
        (self.b_inv * self.d).length() <= self.mu
    }

    /// dI/dI_z while sticking: ẑ − (x̂, ŷ)B⁻¹d (eqs. 34, 35 and the first line of eq. 38, whose
    /// printed "(x̂ γ̂)" is read as (x̂, ŷ): eq. 35 differentiated).
    pub fn stick_rate(&self) -> DVec3 {
        (-(self.b_inv * self.d)).extend(1.0)
    }

    /// The unique centrifugal invariant direction when ‖B⁻¹d‖ > μ (Theorem 5(iv), Corollary 6).
    ///
    /// −μBŝ + d = λŝ with λ > 0 means ŝ = (λU₂ + μB)⁻¹d with ‖ŝ‖ = 1; ‖(λU₂ + μB)⁻¹d‖ falls
    /// strictly from ‖B⁻¹d‖/μ > 1 at λ = 0 to below 1 at λ = ‖d‖, so the root is unique (a
    /// one-line proof of Theorem 12) and bisection finds it.
    pub fn centrifugal(&self) -> Option<InvariantDirection> {
        if self.sticks() {
            return None;
        }
        let norm = |lambda: f64| {
            ((DMat2::from_diagonal(DVec2::splat(lambda)) + self.mu * self.b).inverse() * self.d)
                .length()
                - 1.0
        };
        let lambda = bisect(
            0.0,
            self.d.length(),
            |l| if l <= 0.0 { 1.0 } else { norm(l) },
        );
        let m = DMat2::from_diagonal(DVec2::splat(lambda)) + self.mu * self.b;
        let direction = (m.inverse() * self.d).normalize_or_zero();
        (direction != DVec2::ZERO).then_some(InvariantDirection { direction, lambda })
    }

    /// All invariant directions (eq. 33, Theorem 5).
    ///
    /// In the eigenbasis B = U diag(b₁, b₂) Uᵀ (b₁ ≤ b₂), with a_i = μb_i and p = Uᵀd, the
    /// invariant directions are û_i = p_i/(λ + a_i) with Σ p_i²/(λ + a_i)² = 1: one root above
    /// −a₁, one below −a₂ and zero or two between (the function is convex there), so two to
    /// four directions. A component p_i = 0 adds the directions of Theorem 8(ii)/(iii) at λ = −a_i.
    pub fn invariant_directions(&self) -> InvariantDirections {
        let mut out = InvariantDirections {
            items: [InvariantDirection {
                direction: DVec2::ZERO,
                lambda: 0.0,
            }; 4],
            len: 0,
            every: false,
        };
        let (b11, b12, b22) = (self.b.x_axis.x, self.b.x_axis.y, self.b.y_axis.y);
        let mean = 0.5 * (b11 + b22);
        let radius = (0.5 * (b11 - b22)).hypot(b12);
        let scale = self.mu * (mean + radius) + self.d.length();
        if scale == 0.0 {
            out.every = true;
            return out;
        }
        let tiny = 1e-13 * scale;
        let (a1, a2) = (self.mu * (mean - radius), self.mu * (mean + radius));
        if a2 - a1 <= tiny {
            // B = bU₂ (or μ = 0): ŝ = ±d̂ with λ = −a ± ‖d‖ (Theorem 8(i)).
            if self.d.length() <= tiny {
                out.every = true;
            } else {
                let dh = self.d.normalize();
                out.push(dh, self.d.length() - a1);
                out.push(-dh, -self.d.length() - a1);
            }
            return out;
        }
        let phi = 0.5 * (2.0 * b12).atan2(b11 - b22);
        let u2 = DVec2::new(phi.cos(), phi.sin());
        let u1 = u2.perp();
        let (p1, p2) = (u1.dot(self.d), u2.dot(self.d));
        let world = |x: f64, y: f64| x * u1 + y * u2;
        let gap = a2 - a1;
        let (flat1, flat2) = (p1.abs() <= tiny, p2.abs() <= tiny);
        // Directions at a pole λ = −a_i with p_i = 0: û_j = p_j/(a_j − a_i), û_i = ±√(1 − û_j²).
        if flat1 {
            let q = p2 / gap;
            if q.abs() < 1.0 - 1e-12 {
                let c = (1.0 - q * q).sqrt();
                out.push(world(c, q), -a1);
                out.push(world(-c, q), -a1);
            }
        }
        if flat2 {
            let q = p1 / -gap;
            if q.abs() < 1.0 - 1e-12 {
                let c = (1.0 - q * q).sqrt();
                out.push(world(q, c), -a2);
                out.push(world(q, -c), -a2);
            }
        }
        match [flat1, flat2] {
            [true, true] => {}
            [true, false] => {
                for lambda in [-a2 + p2.abs(), -a2 - p2.abs()] {
                    out.push(world(0.0, p2 / (lambda + a2)), lambda);
                }
            }
            [false, true] => {
                for lambda in [-a1 + p1.abs(), -a1 - p1.abs()] {
                    out.push(world(p1 / (lambda + a1), 0.0), lambda);
                }
            }
            [false, false] => {
                let pn = p1.hypot(p2);
                let from_lambda = |lambda: f64| world(p1 / (lambda + a1), p2 / (lambda + a2));
                // Above −a₁: t = λ + a₁ ∈ (0, ‖p‖], F decreasing.
                let above = bisect(0.0, pn, |t| {
                    (p1 / t).powi(2) + (p2 / (t + gap)).powi(2) - 1.0
                });
                out.push(from_lambda(above - a1), above - a1);
                // Below −a₂: t = −(λ + a₂) ∈ (0, ‖p‖], F decreasing in t.
                let below = bisect(0.0, pn, |t| {
                    (p2 / t).powi(2) + (p1 / (t + gap)).powi(2) - 1.0
                });
                out.push(from_lambda(-a2 - below), -a2 - below);
                // Between: x = −(λ + a₁) ∈ (0, gap), F convex, minimum where p₁²/x³ = p₂²/(gap − x)³.
                let f = |x: f64| (p1 / x).powi(2) + (p2 / (gap - x)).powi(2) - 1.0;
                let rho = (p2 * p2 / (p1 * p1)).cbrt();
                let x_min = gap / (1.0 + rho);
                let f_min = f(x_min);
                if f_min <= 1e-12 {
                    let roots = if f_min >= -1e-12 {
                        [x_min, x_min]
                    } else {
                        [bisect(0.0, x_min, f), bisect(x_min, gap, f)]
                    };
                    for x in roots {
                        out.push(from_lambda(-a1 - x), -a1 - x);
                    }
                }
            }
        }
        out
    }

    /// Signed curvature of the hodograph at γ (eq. 37, corrected).
    ///
    /// κ = γ' × γ'' / ‖γ'‖³ with γ'' = −μB γ̂' and γ̂' = (γ̂ × γ') γ̂⊥ / ‖γ‖, i.e.
    /// γ'' = −μB[γ̂ × (γ' × γ̂)] / ‖γ‖. The printed eq. 37 divides by ‖γ'‖·‖γ'‖³: its first
    /// factor must be ‖γ‖ (differentiating γ̂ brings 1/‖γ‖; the printed form is not even
    /// dimensionally a curvature, 1/(m/s)).
    pub fn curvature(&self, gamma: DVec2) -> f64 {
        let r = gamma.length();
        if r == 0.0 {
            return 0.0;
        }
        let dir = gamma / r;
        let g = self.velocity(dir);
        let speed = g.length();
        if speed == 0.0 {
            return 0.0;
        }
        let g2 = -self.mu * (self.b * dir.perp()) * (dir.perp_dot(g) / r);
        g.perp_dot(g2) / (speed * speed * speed)
    }

    /// Whether sliding near the direction γ̂ turns towards it: d/dθ[ŝ × g(ŝ)] < 0, i.e.
    /// −ŝ·g(ŝ) − μ ŝ⊥ᵀBŝ⊥ < 0 (with dθ/dI_z = (ŝ × g)/‖γ‖, a root of eq. 33 attracts the
    /// hodograph's direction iff this holds).
    pub fn attracts(&self, direction: DVec2) -> bool {
        let n = direction.perp();
        -direction.dot(self.velocity(direction)) - self.mu * n.dot(self.b * n) < 0.0
    }

    /// A bound on the rate at which the sliding direction relaxes near γ (1/(N·s)):
    /// (|γ̂·g(γ̂)| + μ γ̂⊥ᵀBγ̂⊥)/‖γ‖ ≥ |d/dθ[γ̂ × g(γ̂)]|/‖γ‖, the linearised angular dynamics of
    /// eq. 31 (dθ/dI_z = γ̂ × g/‖γ‖). It grows like 1/‖γ‖ towards γ = 0, where explicit steps
    /// must shrink to stay stable.
    pub fn direction_stiffness(&self, gamma: DVec2) -> f64 {
        let r = gamma.length();
        if r == 0.0 {
            return f64::INFINITY;
        }
        let dir = gamma / r;
        let n = dir.perp();
        (dir.dot(self.velocity(dir)).abs() + self.mu * n.dot(self.b * n)) / r
    }

    /// The smallest normal impulse increment τ > 0 after which the impulse can sit on the line of
    /// sticking (eq. 25, γ = 0) with a straight increment inside the friction cone:
    /// ‖B⁻¹(γ + τd)‖ ≤ μτ. For a straight final approach (the hodograph enters the origin along
    /// an invariant ray) this is exactly the I_z still needed to reach γ = 0; `None` if the
    /// origin cannot be reached in a straight, cone-admissible way.
    pub fn time_to_origin(&self, gamma: DVec2) -> Option<f64> {
        let a = self.b_inv * gamma;
        let b = self.b_inv * self.d;
        let (qa, qb, qc) = (b.dot(b) - self.mu * self.mu, a.dot(b), a.dot(a));
        let disc = qb * qb - qa * qc;
        if qc == 0.0 {
            return Some(0.0);
        }
        if disc < 0.0 {
            return None;
        }
        let root = disc.sqrt();
        if qb < 0.0 {
            Some(qc / (root - qb))
        } else if qa < 0.0 {
            Some((qb + root) / -qa)
        } else {
            None
        }
    }

    /// The invariant direction between the directions `from` and `to` (a sign change of
    /// eq. 33 on the shorter arc), by bisection on the angle; λ from eq. 32.
    pub fn invariant_between(&self, from: DVec2, to: DVec2) -> InvariantDirection {
        let turn = from.perp_dot(to).atan2(from.dot(to));
        let at = |t: f64| DVec2::from_angle(t).rotate(from);
        let t = bisect(0.0, turn, |t| self.invariance(at(t)));
        let direction = at(t);
        InvariantDirection {
            direction,
            lambda: direction.dot(self.velocity(direction)),
        }
    }
}
