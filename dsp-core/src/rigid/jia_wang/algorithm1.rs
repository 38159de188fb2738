//! Algorithm 1 of §6.4: Euler steps of the hodograph (eq. 31) of fixed size or of the size of eq. 36 until event s or l, then the closed forms.
//
// Readings of the pseudocode:
// - Line 4's "E ≠ 0", line 10's "v_z = 0": an Euler step moves the impulse along a straight line
//   (I' = ẑ − μ(x̂, ŷ)γ̂ₙ), on which v_z is linear and E quadratic in I_z, so events c and r are
//   located inside the step exactly and E is integrated exactly on it (line 9's "one-step
//   integration of (11)" is the trapezoid rule, exact here).
// - Event s: a step that would turn γ by 90° or more (γₙ₊₁·γₙ ≤ 0) has reached the origin. I_zs
//   is the earliest normal impulse at which the line of sticking can be reached with a
//   cone-admissible straight increment (Hodograph::time_to_origin), and I_s is "polished" on
//   the line of sticking as §6.2 says — line 21 prints I_s ← I_z ẑ − (x̂, ŷ)B⁻¹(γ + I_z d),
//   which must read γ⁻, not γ: it is eq. 26 with γ = 0 (i.e. eq. 35).
// - Event l: eq. 33's cross product changes sign over a step; the ray ĝ_l is the root between
//   the two directions, found by bisection, and the slide continues from γₙ₊₁ (eqs. 42–44).

use super::closed_form::{start, Walk};
use super::Error;

/// The normal-impulse step of the Euler integration.
#[derive(Clone, Copy, Debug)]
pub(super) enum StepRule {
    /// A fixed step in N·s (Table 1 "FS").
    Fixed(f64),
    /// Eq. 36: h = ε h₁/‖γ'‖ + (1 − ε) h₂/(|κ| ‖γ'‖) (Table 1 "VS").
    Variable { eps: f64, h1: f64, h2: f64 },
}

/// Largest turn of the sliding direction in one VS step (our addition to eq. 36, see below).
const TURN_LIMIT_RAD: f64 = 0.1;

/// Run Algorithm 1.
pub(super) fn solve(walk: &mut Walk, rule: StepRule) -> Result<(), Error> {
    if let Some(done) = start(walk) {
        return done;
    }
    let h = walk.hodo;
    // Eq. 36's second term is unbounded on a straight hodograph (κ = 0); the paper gives no cap.
    // We cap it at the frictionless impact's whole normal impulse (§2.4), a step that still
    // locates c and r exactly (they are found inside the straight step).
    let cap = -walk.v_z_minus_m_per_s * (1.0 + walk.e) / h.w_z.z;
    let mut gamma = h.gamma_minus_m_per_s;
    loop {
        walk.tick()?;
        // As in the exact and brute-force walks: an impact whose approach never stops
        // (condition 18 fails) is reported, not walked for the whole step budget.
        if walk.iz_n_s > 1e4 * cap {
            return Err(Error::NoTermination);
        }
        if gamma == glam::DVec2::ZERO {
            return walk.after_s();
        }
        let dir = gamma.normalize();
        let g = h.velocity(dir);
        let step = match rule {
            StepRule::Fixed(step) => step,
            StepRule::Variable { eps, h1, h2 } => {
                let speed = g.length();
                if speed == 0.0 {
                    cap
                } else {
                    let turn = h.curvature(gamma).abs() * speed;
                    let h_turn = if turn > 0.0 {
                        (h2 / turn).min(cap)
                    } else {
                        cap
                    };
                    // Eq. 36 measures the turn of the hodograph (the curve), but the friction
                    // follows the turn of the sliding direction γ̂, which a straight hodograph
                    // passing near γ = 0 can make fast: a step may also turn γ̂ by at most
                    // TURN_LIMIT_RAD, Δθ = |γ̂ × γ'| h/‖γ‖ ≤ 0.1 rad. Without it a near-elastic
                    // impact whose hodograph starts straight was taken in one Euler step that
                    // reversed γ, and the closing step that followed gained energy.
                    let direction_rate = dir.perp_dot(g).abs() / gamma.length();
                    let h_direction = if direction_rate > 0.0 {
                        TURN_LIMIT_RAD / direction_rate
                    } else {
                        cap
                    };
                    (eps * h1 / speed + (1.0 - eps) * h_turn).min(h_direction)
                }
            }
        };
        let next = gamma + step * g;
        if next.dot(gamma) <= 0.0 {
            if let Some(tau) = h.time_to_origin(gamma) {
                let target = h.impulse(glam::DVec2::ZERO, walk.iz_n_s + tau);
                let sigma = if tau > 0.0 {
                    (target - walk.impulse_n_s) / tau
                } else {
                    glam::DVec3::Z
                };
                if walk.linear(sigma, tau)? {
                    return Ok(());
                }
                return walk.after_s();
            }
        }
        if walk.linear(h.slip_rate(dir), step)? {
            return Ok(());
        }
        let next_dir = next.normalize_or_zero();
        let crossed = (h.invariance(dir) > 0.0) != (h.invariance(next_dir) > 0.0);
        gamma = next;
        if crossed && next_dir != glam::DVec2::ZERO {
            let ray = h.invariant_between(dir, next_dir);
            return walk.after_l(gamma, ray);
        }
    }
}
