//! The event-driven solution of §6: adaptive RK4 on the hodograph (eq. 31) and the energy (eq. 11) until the impact ends or γ reaches 0, then §6.2.
//
// Event l after the start never happens in the exact flow: an invariant ray is itself a
// solution of eq. 31, and the vector field is smooth for γ ≠ 0, so by uniqueness no other
// hodograph joins the ray at γ ≠ 0 in finite I_z — it approaches it asymptotically (Figs. 4(b),
// 4(c) and 10 show the paper's numerical hodographs "reaching" a ray). So this solver reports l
// only when γ⁻ already lies on an invariant direction (footnote 7), and sequences clsr and clr
// cannot occur. The hodograph reaches γ = 0 tangent to an attracting centripetal ray; once its
// tangent line misses the origin by less than 1e-10 of the velocity scale the rest is closed as a
// straight, cone-admissible path to the line of sticking (Hodograph::time_to_origin) — event s
// with I_s on the line of sticking (the "polishing" of §6.2).

use glam::{DVec2, DVec3};

use super::closed_form::{start, Walk};
use super::hodograph::zero_in;
use super::Error;

/// Relative local error per step of the step-doubling RK4: at 10⁻⁸ the icosahedron's impulse
/// leaves 10⁻⁸ of the brute-force integration's
/// (`icosahedron_agrees_with_brute_force_and_reproduces_eq_15`).
const TOLERANCE: f64 = 1e-9;

/// The integrated state: sliding velocity γ (m/s) and contact energy E (J).
#[derive(Clone, Copy, Debug)]
struct State {
    gamma: DVec2,
    energy: f64,
}

/// The right-hand side: γ' of eq. 31 and E' = −v_z of eq. 11 with I from eq. 26.
fn rhs(walk: &Walk, s: State, iz: f64) -> State {
    let h = &walk.hodo;
    let dir = s.gamma.normalize_or_zero();
    State {
        gamma: h.velocity(dir),
        energy: -walk.v_z_at(h.impulse(s.gamma, iz)),
    }
}

/// One classical RK4 step of size `dt`; None if a stage's sliding velocity turns by 90° or more
/// from the start (the step would cross γ = 0, where eq. 31 is singular).
fn rk4(walk: &Walk, s: State, iz: f64, dt: f64) -> Option<State> {
    rk4_from(walk, s, rhs(walk, s, iz), iz, dt)
}

/// [`rk4`] given its first stage `k1` = [`rhs`] at the start (steps of two lengths from one
/// start share it).
#[inline]
fn rk4_from(walk: &Walk, s: State, k1: State, iz: f64, dt: f64) -> Option<State> {
    let add = |a: State, k: State, c: f64| State {
        gamma: a.gamma + c * k.gamma,
        energy: a.energy + c * k.energy,
    };
    let ok = |x: State| x.gamma.dot(s.gamma) > 0.0;
    let s2 = add(s, k1, 0.5 * dt);
    let k2 = rhs(walk, s2, iz + 0.5 * dt);
    let s3 = add(s, k2, 0.5 * dt);
    let k3 = rhs(walk, s3, iz + 0.5 * dt);
    let s4 = add(s, k3, dt);
    let k4 = rhs(walk, s4, iz + dt);
    let out = State {
        gamma: s.gamma + dt / 6.0 * (k1.gamma + 2.0 * k2.gamma + 2.0 * k3.gamma + k4.gamma),
        energy: s.energy + dt / 6.0 * (k1.energy + 2.0 * k2.energy + 2.0 * k3.energy + k4.energy),
    };
    (ok(s2) && ok(s3) && ok(s4) && ok(out)).then_some(out)
}

/// Two half steps (the accepted result; its tangential impulse increment is a positive
/// combination of −μγ̂ at the stages, so it stays in the friction cone) and the error estimate
/// against one full step, scaled by the velocity and energy scales.
fn doubled(walk: &Walk, s: State, iz: f64, dt: f64, v: f64, e: f64) -> Option<(State, f64)> {
    let k1 = rhs(walk, s, iz);
    let full = rk4_from(walk, s, k1, iz, dt)?;
    let mid = rk4_from(walk, s, k1, iz, 0.5 * dt)?;
    let two = rk4(walk, mid, iz + 0.5 * dt, 0.5 * dt)?;
    let err = ((two.gamma - full.gamma).length() / v).max((two.energy - full.energy).abs() / e);
    Some((two, err / 15.0))
}

/// Solve with the event-driven scheme of §6 (Algorithm 1's structure, exact integration).
pub(super) fn solve(walk: &mut Walk) -> Result<(), Error> {
    if let Some(done) = start(walk) {
        return done;
    }
    let h = walk.hodo;
    let i_scale = -walk.v_z_minus_m_per_s * (1.0 + walk.e) / h.w_z.z;
    let v_scale = h.gamma_minus_m_per_s.length().max(-walk.v_z_minus_m_per_s);
    let e_scale = 0.5 * i_scale * v_scale;
    let mut s = State {
        gamma: h.gamma_minus_m_per_s,
        energy: 0.0,
    };
    let mut dt = 1e-3 * i_scale;
    loop {
        if walk.iz_n_s > 1e4 * i_scale {
            return Err(Error::NoTermination);
        }
        // Terminal approach to γ = 0 along an attracting ray: close in straight form.
        let r = s.gamma.length();
        if r <= 1e-14 * v_scale {
            let iz = walk.iz_n_s;
            walk.move_to(iz, h.impulse(DVec2::ZERO, iz), s.energy);
            return walk.after_s();
        }
        let dir = s.gamma / r;
        let g = h.velocity(dir);
        let miss = dir.perp_dot(g).abs() * r / g.length().max(f64::MIN_POSITIVE);
        if dir.dot(g) < 0.0 && h.attracts(dir) && miss <= 1e-10 * v_scale {
            if let Some(tau) = h.time_to_origin(s.gamma) {
                let target = h.impulse(DVec2::ZERO, walk.iz_n_s + tau);
                let sigma = if tau > 0.0 {
                    (target - walk.impulse_n_s) / tau
                } else {
                    DVec3::Z
                };
                if walk.linear(sigma, tau)? {
                    return Ok(());
                }
                return walk.after_s();
            }
        }
        // Keep the direction's relaxation inside RK4's stability interval (near γ = 0).
        dt = dt.min(2.0 / h.direction_stiffness(s.gamma));
        let Some((next, err)) = doubled(walk, s, walk.iz_n_s, dt, v_scale, e_scale) else {
            dt *= 0.25;
            if dt < 1e-40 * i_scale {
                return Err(Error::TooManySteps);
            }
            continue;
        };
        if err > TOLERANCE {
            dt *= (0.9 * (TOLERANCE / err).powf(0.2)).max(0.1);
            if dt < 1e-40 * i_scale {
                return Err(Error::TooManySteps);
            }
            continue;
        }
        walk.tick()?;
        let iz_next = walk.iz_n_s + dt;
        let v_next = walk.v_z_at(h.impulse(next.gamma, iz_next));
        if walk.compressing && v_next >= 0.0 {
            // Event c inside the step: v_z(τ) = 0.
            let v_at = |tau: f64| match rk4(walk, s, walk.iz_n_s, tau) {
                Some(x) => walk.v_z_at(h.impulse(x.gamma, walk.iz_n_s + tau)),
                None => 1.0,
            };
            let tau = zero_in(0.0, dt, v_at);
            s = rk4(walk, s, walk.iz_n_s, tau).unwrap_or(next);
            let iz = walk.iz_n_s + tau;
            walk.move_to(iz, h.impulse(s.gamma, iz), s.energy);
            if walk.end_compression() {
                return Ok(());
            }
            s.energy = walk.energy_j;
            continue;
        }
        if !walk.compressing && next.energy <= 0.0 {
            // Event r inside the step: E(τ) = 0.
            let e_at = |tau: f64| match rk4(walk, s, walk.iz_n_s, tau) {
                Some(x) => x.energy,
                None => -1.0,
            };
            let tau = zero_in(0.0, dt, e_at);
            let end = rk4(walk, s, walk.iz_n_s, tau).unwrap_or(next);
            let iz = walk.iz_n_s + tau;
            walk.move_to(iz, h.impulse(end.gamma, iz), 0.0);
            walk.mark(b'r');
            return Ok(());
        }
        walk.move_to(iz_next, h.impulse(next.gamma, iz_next), next.energy);
        s = next;
        dt *= (0.9 * (TOLERANCE / err.max(1e-300)).powf(0.2)).min(4.0);
    }
}
