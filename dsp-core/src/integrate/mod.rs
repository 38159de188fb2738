//! The paper's four discretizations of m·a = −f(x, v) − f_e, selectable at run time (eqs. 23–26).

use crate::contact::ContactLaw;

/// Numerical method for one step of the mass (Papetti et al., Section III-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// 1-step Adams–Moulton (trapezoid rule), implicit; eq. (23).
    Am1,
    /// Velocity Verlet; eq. (24).
    Verlet,
    /// Heun (RK2); eq. (25).
    Heun,
    /// Classical 4th-order Runge–Kutta; eq. (26).
    Rk4,
}

impl Method {
    pub const ALL: [Method; 4] = [Method::Am1, Method::Verlet, Method::Heun, Method::Rk4];

    /// Lower-case name as used on command lines ("am1", "verlet", "heun", "rk4").
    pub fn name(self) -> &'static str {
        match self {
            Method::Am1 => "am1",
            Method::Verlet => "verlet",
            Method::Heun => "heun",
            Method::Rk4 => "rk4",
        }
    }

    /// Parse a name from [`Method::name`].
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Newton iterations allowed per AM1 step before the bracketing bisection result is accepted.
pub const MAX_NEWTON_ITERATIONS: u32 = 50;

/// State of the point mass: compression x (m), compression velocity v (m/s) and the contact force
/// of the last step (N), which Verlet, Heun and AM1 reuse as f_n.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassState {
    pub x_m: f64,
    pub v_m_per_s: f64,
    pub force_n: f64,
}

impl MassState {
    /// A mass at compression `x_m` moving at `v_m_per_s`, with its force evaluated.
    pub fn new<L: ContactLaw>(law: &L, x_m: f64, v_m_per_s: f64) -> Self {
        Self {
            x_m,
            v_m_per_s,
            force_n: law.force_n(x_m, v_m_per_s),
        }
    }
}

/// Advance `state` by one step of `h_s` seconds of m·a = −f(x, v) − f_e (eqs. 2 and 21; the
/// printed schemes write +f/m, the physics is m·a = −f). Returns the Newton iterations used
/// (0 for the explicit methods).
#[inline]
pub fn step<L: ContactLaw>(
    method: Method,
    law: &L,
    mass_kg: f64,
    external_force_n: f64,
    h_s: f64,
    state: &mut MassState,
) -> u32 {
    let inv_m = 1.0 / mass_kg;
    let MassState {
        x_m: x,
        v_m_per_s: v,
        force_n: f,
    } = *state;
    match method {
        Method::Verlet => {
            // Eq. (24): position from f_n, predicted half-step velocity, one new force evaluation.
            let a = -(f + external_force_n) * inv_m;
            let x1 = x + h_s * v + 0.5 * h_s * h_s * a;
            let v_half = v + 0.5 * h_s * a;
            let f1 = law.force_n(x1, v_half);
            let v1 = v_half - 0.5 * h_s * (f1 + external_force_n) * inv_m;
            *state = MassState {
                x_m: x1,
                v_m_per_s: v1,
                force_n: f1,
            };
            0
        }
        Method::Heun => {
            // Eq. (25): forward-Euler predictor, trapezoid corrector.
            let a = -(f + external_force_n) * inv_m;
            let v_pred = v + h_s * a;
            let x1 = x + 0.5 * h_s * (v + v_pred);
            let f1 = law.force_n(x1, v_pred);
            let v1 = v - 0.5 * h_s * (f + f1 + 2.0 * external_force_n) * inv_m;
            *state = MassState {
                x_m: x1,
                v_m_per_s: v1,
                force_n: f1,
            };
            0
        }
        Method::Rk4 => {
            // Eq. (26), with f = 0 for x ≤ 0 in every stage.
            let acc = |x: f64, v: f64| -(law.force_n(x, v) + external_force_n) * inv_m;
            let k1 = h_s * acc(x, v);
            let l1 = h_s * v;
            let k2 = h_s * acc(x + 0.5 * l1, v + 0.5 * k1);
            let l2 = h_s * (v + 0.5 * k1);
            let k3 = h_s * acc(x + 0.5 * l2, v + 0.5 * k2);
            let l3 = h_s * (v + 0.5 * k2);
            let k4 = h_s * acc(x + l3, v + k3);
            let l4 = h_s * (v + k3);
            let x1 = x + (l1 + 2.0 * l2 + 2.0 * l3 + l4) / 6.0;
            let v1 = v + (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
            *state = MassState {
                x_m: x1,
                v_m_per_s: v1,
                force_n: law.force_n(x1, v1),
            };
            0
        }
        Method::Am1 => am1_step(law, inv_m, external_force_n, h_s, state),
    }
}

/// AM1 (eq. 23): x₁ = x + h·v − h²/(4m)·(f + f₁ + 2f_e), v₁ = v − h/(2m)·(f + f₁ + 2f_e), with
/// f₁ = f(x₁, v₁). The delay-free loop is the scalar equation g(f₁) = f₁ − f(x₁(f₁), v₁(f₁)) = 0.
/// Since ∂f/∂x ≥ 0 and ∂f/∂v ≥ 0 in contact, g' ≥ 1: g is increasing with its root in
/// [0, f(x₁(0), v₁(0))]. Newton's method from f_n, safeguarded by bisection on that bracket.
fn am1_step<L: ContactLaw>(law: &L, inv_m: f64, fe: f64, h: f64, state: &mut MassState) -> u32 {
    let MassState {
        x_m: x,
        v_m_per_s: v,
        force_n: f,
    } = *state;
    let cx = h * h * 0.25 * inv_m;
    let cv = h * 0.5 * inv_m;
    let x_base = x + h * v - cx * (f + 2.0 * fe);
    let v_base = v - cv * (f + 2.0 * fe);
    let hi = law.force_n(x_base, v_base);
    let (f1, iterations) = if hi > 0.0 {
        let g = |f1: f64| {
            let (force, dfdx, dfdv) = law.force_and_partials(x_base - cx * f1, v_base - cv * f1);
            (f1 - force, 1.0 + cx * dfdx + cv * dfdv)
        };
        safeguarded_newton(g, 0.0, hi, f, 1e-13 * hi)
    } else {
        (0.0, 0)
    };
    *state = MassState {
        x_m: x_base - cx * f1,
        v_m_per_s: v_base - cv * f1,
        force_n: f1,
    };
    iterations
}

/// Root of g on [lo, hi], where g(lo) ≤ 0 ≤ g(hi), by Newton's method from `start` with a
/// bisection step whenever Newton leaves the shrinking bracket. `g` returns (g(F), g'(F)).
/// Stops when a step or the bracket is within `tolerance`, or after [`MAX_NEWTON_ITERATIONS`].
/// Returns (root, iterations).
pub(crate) fn safeguarded_newton(
    mut g: impl FnMut(f64) -> (f64, f64),
    mut lo: f64,
    mut hi: f64,
    start: f64,
    tolerance: f64,
) -> (f64, u32) {
    let mut root = start.clamp(lo, hi);
    let mut iterations = 0;
    while iterations < MAX_NEWTON_ITERATIONS {
        iterations += 1;
        let (value, slope) = g(root);
        if value > 0.0 {
            hi = root;
        } else {
            lo = root;
        }
        let mut next = root - value / slope;
        if !(next >= lo && next <= hi) {
            next = 0.5 * (lo + hi);
        }
        let converged = (next - root).abs() <= tolerance || hi - lo <= tolerance;
        root = next;
        if converged {
            break;
        }
    }
    (root, iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::HuntCrossley;

    /// A contact-free step is exact free flight (gravity here) for every method.
    #[test]
    fn free_flight_is_a_parabola() {
        let law = HuntCrossley {
            stiffness: 1e9,
            mu_s_per_m: 0.5,
            alpha: 1.5,
        };
        let (m, g, h) = (0.01, 9.81, 1e-3);
        for method in Method::ALL {
            let mut s = MassState::new(&law, -0.5, 1.0);
            for _ in 0..100 {
                step(method, &law, m, m * g, h, &mut s);
            }
            let t = 0.1;
            assert!(
                (s.x_m - (-0.5 + t - 0.5 * g * t * t)).abs() < 1e-12,
                "{method:?}"
            );
            assert!((s.v_m_per_s - (1.0 - g * t)).abs() < 1e-12, "{method:?}");
        }
    }

    /// AM1's solved force satisfies its own implicit equation, in a handful of iterations.
    #[test]
    fn am1_solves_the_delay_free_loop() {
        let law = HuntCrossley {
            stiffness: 1e9,
            mu_s_per_m: 0.5,
            alpha: 1.5,
        };
        let mut s = MassState::new(&law, 1e-5, 0.8);
        let iterations = step(Method::Am1, &law, 0.01, 0.0, 1.0 / 44_100.0, &mut s);
        assert!(iterations <= 6, "{iterations}");
        assert!((s.force_n / law.force_n(s.x_m, s.v_m_per_s) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn names_round_trip() {
        for method in Method::ALL {
            assert_eq!(Method::from_name(method.name()), Some(method));
        }
        assert_eq!(Method::from_name("euler"), None);
    }
}
