//! AM1's energy-consistent step: the discrete gradient of the contact potential and the Newton solve for the step's force.

use super::{ContactSetup, Damping};
use crate::contact::HuntCrossley;
use crate::integrate::{safeguarded_newton, MAX_NEWTON_ITERATIONS};

/// Contact potential energy V(x) = k·x^(α+1)/(α+1) for x > 0, in joules.
#[inline]
pub(super) fn potential_j(law: &HuntCrossley, x_m: f64) -> f64 {
    if x_m > 0.0 {
        law.stiffness * x_m * law.x_pow_alpha(x_m) / (law.alpha + 1.0)
    } else {
        0.0
    }
}

/// The energy-consistent force of one AM1 step as a function of the new compression:
/// Φ(x₁) = [V(x₁) − V(x₀)]/(x₁ − x₀) + D·(x₁ − x₀)/h with the damper D = λ·(x₀^α + x₁^α)/2
/// (Hunt–Crossley) or c (linear), and the step's residual in the held force F, x₁ = x_base − c·F.
#[derive(Clone, Copy, Debug)]
pub(super) struct DiscreteGradient {
    law: HuntCrossley,
    x0: f64,
    x_base: f64,
    c: f64,
    /// k/(α + 1); the Hunt–Crossley damper's λ/(2h), λ = μ·k; the linear damper's c/h (one of
    /// the two is zero).
    k_over_q: f64,
    half_lambda_over_h: f64,
    linear_over_h: f64,
    /// x₀^α and V(x₀).
    p0: f64,
    v0: f64,
}

impl DiscreteGradient {
    pub(super) fn new(setup: &ContactSetup, x0: f64, x_base: f64, c: f64, h: f64) -> Self {
        let law = &setup.law;
        let (mu_s_per_m, linear_n_s_per_m) = match setup.damping {
            Damping::HuntCrossley => (law.mu_s_per_m, 0.0),
            Damping::Linear { n_s_per_m } => (0.0, n_s_per_m),
        };
        let k_over_q = law.stiffness / (law.alpha + 1.0);
        let p0 = if x0 > 0.0 { law.x_pow_alpha(x0) } else { 0.0 };
        Self {
            law: *law,
            x0,
            x_base,
            c,
            k_over_q,
            half_lambda_over_h: 0.5 * mu_s_per_m * law.stiffness / h,
            linear_over_h: linear_n_s_per_m / h,
            p0,
            v0: k_over_q * x0.max(0.0) * p0,
        }
    }

    /// Φ and dΦ/dx₁ at x₁: x₁^α = x₁·x₁^(α−1) and its derivative α·x₁^(α−1) from one power, and
    /// one division (independent of the power, so the two overlap).
    #[inline(always)]
    pub(super) fn phi(&self, x1: f64) -> (f64, f64) {
        let (k, a, x0, p0) = (self.law.stiffness, self.law.alpha, self.x0, self.p0);
        let dx = x1 - x0;
        let (p1, dp1) = if x1 > 0.0 {
            let r = self.law.x_pow_alpha_minus_one(x1);
            (x1 * r, a * r)
        } else {
            (0.0, 0.0)
        };
        let (elastic, d_elastic) = if dx.abs() > 1e-9 * x0.abs().max(x1.abs()).max(1e-300) {
            // V(x₁) = k·x₁·x₁^α/(α + 1), reusing the power above.
            let dv = self.k_over_q * x1.max(0.0) * p1 - self.v0;
            let inv_dx = 1.0 / dx;
            (dv * inv_dx, (k * p1 - dv * inv_dx) * inv_dx)
        } else {
            // The discrete gradient's limit: V'(x̄), slope V''(x̄)/2.
            let mid = 0.5 * (x0 + x1);
            if mid > 0.0 {
                let r = self.law.x_pow_alpha_minus_one(mid);
                (k * mid * r, 0.5 * k * a * r)
            } else {
                (0.0, 0.0)
            }
        };
        let damper = (self.half_lambda_over_h * (p0 + p1) + self.linear_over_h) * dx;
        let d_damper = self.half_lambda_over_h * (dp1 * dx + p0 + p1) + self.linear_over_h;
        let value = elastic + damper;
        if value > 0.0 {
            (value, d_elastic + d_damper)
        } else {
            (0.0, 0.0)
        }
    }

    /// g(F) = F − Φ(x_base − c·F) and dg/dF.
    #[inline(always)]
    fn residual(&self, force: f64) -> (f64, f64) {
        let (value, slope_x) = self.phi(self.x_base - self.c * force);
        (force - value, 1.0 + self.c * slope_x)
    }
}

/// Newton iterations tried from the extrapolated guess before falling back to the bracketed
/// solve of [`solve_discrete_gradient`].
const UNBRACKETED_ITERATIONS: u32 = 4;

/// The held contact force F of one energy-consistent step from compression `x0`, where the new
/// compression is x₁ = `x_base` − `c`·F:
/// F = max(0, [V(x₁) − V(x₀)]/(x₁ − x₀) + λ·(x₀^α + x₁^α)/2·(x₁ − x₀)/h), λ = μ·k.
/// Solved for F ≥ 0 on g(F) = F − Φ(x₁(F)): first by plain Newton from `guess` (extrapolated from
/// the last steps' forces, so it usually converges in one or two evaluations); if that leaves F ≥ 0 or
/// does not settle, by Newton with a bisection safeguard on the bracket [0, Φ(x₁(0))].
/// Returns (F, iterations).
pub(super) fn solve_discrete_gradient(
    setup: &ContactSetup,
    x0: f64,
    x_base: f64,
    c: f64,
    h: f64,
    guess: f64,
) -> (f64, u32) {
    let dg = DiscreteGradient::new(setup, x0, x_base, c, h);
    let g = |force: f64| dg.residual(force);
    // Plain Newton from the guess. Any root of g with F ≥ 0 makes the step energy-consistent.
    let mut force = guess.max(0.0);
    for iteration in 1..=UNBRACKETED_ITERATIONS {
        let (value, slope) = g(force);
        let next = force - value / slope;
        if !(next >= 0.0 && slope > 0.0) {
            break;
        }
        // Newton's error after a step s is about κ·s² (κ the relative curvature of g), so a
        // relative step of 1e-8 leaves an error near 1e-16.
        if (next - force).abs() <= 1e-8 * next.max(force) {
            return (next, iteration);
        }
        force = next;
    }
    let hi0 = dg.phi(x_base).0;
    if hi0 <= 0.0 {
        return (0.0, UNBRACKETED_ITERATIONS);
    }
    // g(F) = F − Φ is negative at 0 and usually positive at Φ(x₁(0)). In restitution the damper can
    // make Φ grow with F: when the root sits at the top of the bracket and g is still negative
    // there, widen it (Φ vanishes once x₁ is far enough below zero) and solve again.
    let (mut lo, mut hi) = (0.0, hi0);
    let mut iterations = UNBRACKETED_ITERATIONS;
    loop {
        let (force, newton_iterations) = safeguarded_newton(g, lo, hi, guess, 1e-13 * hi);
        iterations += newton_iterations;
        if force < hi * (1.0 - 1e-12) || g(hi).0 >= 0.0 || iterations >= MAX_NEWTON_ITERATIONS {
            return (force, iterations);
        }
        lo = hi;
        hi *= 2.0;
    }
}
