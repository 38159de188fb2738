//! A brute-force check: fixed-step RK4 of the impulse, the sliding velocity and the energy (eqs. 11, 28, 31), no closed form.
//
// Independent of the other methods on purpose: the impulse is integrated from eq. 28 instead of
// read off eq. 26, the phase events are located by bisection on RK4 sub-steps, γ = 0 is walked
// into (no straight closure): near it the step shrinks to resolve the turning direction and to
// keep its relaxation stable, and halves while a stage would turn γ by 90°, until ‖γ‖ ≤ 1e-10 of the velocity
// scale, where event s is declared with the integrated impulse (not polished); the
// centrifugal direction comes from a scan of eq. 33 over 4096 angles, and stick or resumed slip
// is integrated with the same RK4 (eqs. 34 and 32).

use std::f64::consts::TAU;

use glam::{DVec2, DVec3};

use super::closed_form::Walk;
use super::hodograph::bisect;
use super::Error;

/// Contact mode: sliding by eq. 31, sticking (eq. 34), or sliding along the centrifugal ray
/// ŝ at rate λ after γ = 0 (§5.2).
#[derive(Clone, Copy, Debug)]
enum Mode {
    Slip,
    Stick,
    Resumed { direction: DVec2, lambda: f64 },
}

/// Sliding velocity γ (m/s), impulse I (N·s), contact energy E (J).
#[derive(Clone, Copy, Debug)]
struct State {
    gamma: DVec2,
    impulse: DVec3,
    energy: f64,
}

impl State {
    fn plus(self, k: State, c: f64) -> State {
        State {
            gamma: self.gamma + c * k.gamma,
            impulse: self.impulse + c * k.impulse,
            energy: self.energy + c * k.energy,
        }
    }
}

/// d/dI_z of the state in a mode: γ' (eq. 31), I' (eq. 28 or 34), E' = −v_z (eq. 11).
fn rhs(walk: &Walk, mode: Mode, s: State) -> State {
    let h = &walk.hodo;
    let (gamma, impulse) = match mode {
        Mode::Slip => {
            let dir = s.gamma.normalize_or_zero();
            (h.velocity(dir), h.slip_rate(dir))
        }
        Mode::Stick => (DVec2::ZERO, h.stick_rate()),
        Mode::Resumed { direction, lambda } => (lambda * direction, h.slip_rate(direction)),
    };
    State {
        gamma,
        impulse,
        energy: -walk.v_z_at(s.impulse),
    }
}

/// One RK4 step; None if, while sliding, a stage turns γ by 90° or more (γ = 0 lies inside).
fn rk4(walk: &Walk, mode: Mode, s: State, dt: f64) -> Option<State> {
    let k1 = rhs(walk, mode, s);
    let s2 = s.plus(k1, 0.5 * dt);
    let k2 = rhs(walk, mode, s2);
    let s3 = s.plus(k2, 0.5 * dt);
    let k3 = rhs(walk, mode, s3);
    let s4 = s.plus(k3, dt);
    let k4 = rhs(walk, mode, s4);
    let out = s
        .plus(k1, dt / 6.0)
        .plus(k2, dt / 3.0)
        .plus(k3, dt / 3.0)
        .plus(k4, dt / 6.0);
    let sliding = matches!(mode, Mode::Slip);
    let turned = [s2, s3, s4, out]
        .iter()
        .any(|x| x.gamma.dot(s.gamma) <= 0.0);
    (!(sliding && turned)).then_some(out)
}

/// The centrifugal direction by scanning eq. 33 for a sign change with λ > 0 (it is a simple
/// root: the derivative there is −λ − μŝ⊥ᵀBŝ⊥ < 0).
fn centrifugal_by_scan(walk: &Walk) -> Option<(DVec2, f64)> {
    const ANGLES: usize = 4096;
    let h = &walk.hodo;
    let f = |t: f64| h.invariance(DVec2::from_angle(t));
    (0..ANGLES).find_map(|i| {
        let (t0, t1) = (
            TAU * i as f64 / ANGLES as f64,
            TAU * (i + 1) as f64 / ANGLES as f64,
        );
        if (f(t0) > 0.0) == (f(t1) > 0.0) {
            return None;
        }
        let dir = DVec2::from_angle(bisect(t0, t1, f));
        let lambda = dir.dot(h.velocity(dir));
        (lambda > 0.0).then_some((dir, lambda))
    })
}

/// Run the brute-force integration with normal-impulse step `step_n_s`.
pub(super) fn solve(walk: &mut Walk, step_n_s: f64) -> Result<(), Error> {
    let h = walk.hodo;
    let i_scale = -walk.v_z_minus_m_per_s * (1.0 + walk.e) / h.w_z.z;
    let v_scale = h.gamma_minus_m_per_s.length().max(-walk.v_z_minus_m_per_s);
    let mut s = State {
        gamma: h.gamma_minus_m_per_s,
        impulse: DVec3::ZERO,
        energy: 0.0,
    };
    let mut mode = Mode::Slip;
    let mut at_origin = s.gamma.length() <= 1e-10 * v_scale;
    loop {
        if at_origin && matches!(mode, Mode::Slip) {
            walk.mark(b's');
            s.gamma = DVec2::ZERO;
            mode = if h.sticks() {
                Mode::Stick
            } else {
                // Theorem 12 guarantees the root; the closed-form search is the fallback.
                let (direction, lambda) = centrifugal_by_scan(walk)
                    .or_else(|| h.centrifugal().map(|c| (c.direction, c.lambda)))
                    .unwrap_or((DVec2::ZERO, 0.0));
                Mode::Resumed { direction, lambda }
            };
        }
        walk.tick()?;
        if walk.iz_n_s > 1e4 * i_scale {
            return Err(Error::NoTermination);
        }
        // Near γ = 0 the sliding direction turns at a rate ~ 1/‖γ‖: the step shrinks so that it
        // turns by at most 0.05 rad (dθ/dI_z = γ̂ × γ'/‖γ‖) and so that the direction's
        // relaxation stays inside RK4's stability interval (else it chatters about a false
        // equilibrium). Away from γ = 0 neither bound is active and the step is fixed.
        let mut dt = match mode {
            Mode::Slip => {
                let r = s.gamma.length();
                let turn = h.invariance(s.gamma / r).abs() / r;
                step_n_s
                    .min(2.0 / h.direction_stiffness(s.gamma))
                    .min(0.05 / turn)
            }
            _ => step_n_s,
        };
        let next = loop {
            if let Some(next) = rk4(walk, mode, s, dt) {
                break Some(next);
            }
            dt *= 0.5;
            if dt < 1e-15 * step_n_s {
                break None;
            }
        };
        let Some(next) = next else {
            at_origin = true;
            continue;
        };
        let sub = |tau: f64| rk4(walk, mode, s, tau).unwrap_or(next);
        if walk.compressing && walk.v_z_at(next.impulse) >= 0.0 {
            let tau = bisect(0.0, dt, |tau| walk.v_z_at(sub(tau).impulse));
            s = sub(tau);
            walk.move_to(walk.iz_n_s + tau, s.impulse, s.energy);
            if walk.end_compression() {
                return Ok(());
            }
            s.energy = walk.energy_j;
            continue;
        }
        if !walk.compressing && next.energy <= 0.0 {
            let tau = bisect(0.0, dt, |tau| sub(tau).energy);
            let end = sub(tau);
            walk.move_to(walk.iz_n_s + tau, end.impulse, 0.0);
            walk.mark(b'r');
            return Ok(());
        }
        walk.move_to(walk.iz_n_s + dt, next.impulse, next.energy);
        s = next;
        at_origin = s.gamma.length() <= 1e-10 * v_scale;
    }
}
