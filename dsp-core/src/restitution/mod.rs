//! Contact parameters from a target coefficient of restitution e: Hunt–Crossley μ by inverting
//! eq. (6), and the Hertz + linear-damper c_opt (restitution paper, eqs. 45–49).

use crate::analytic::h;

/// Hunt–Crossley μ in s/m that makes an impact at `v_in_m_per_s` leave with |v_out| = e·v_in.
///
/// Eq. (6) with v_out = −e·v_in reads h(−e·u) = h(u) for u = μ·v_in, h(y) = y − ln(1 + y); this
/// is the restitution paper's eqs. (18)–(19) with d = e·u. For 0 < e < 1 it has one root
/// u ∈ (0, 1/e), found by bisection on the cancellation-free difference h(u) − h(−e·u), which is
/// positive below the root and negative above. e ≥ 1 gives 0; e ≤ 0 is clamped to 10⁻⁶.
pub fn mu_for_restitution(e: f64, v_in_m_per_s: f64) -> f64 {
    if !(e < 1.0) {
        return 0.0;
    }
    let e = e.max(1e-6);
    let gap = |u: f64| h(u) - h(-e * u);
    let (mut lo, mut hi) = (0.0f64, 1.0 / e);
    // The difference vanishes like (1 − e²)u²/2 at 0; start the bracket where it is resolvable.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi) / v_in_m_per_s
}

/// Optimal linear damping c (N·s/m) for the Hertz + linear-damper law m·δ'' + c·δ' + k·δⁿ = 0 to
/// restitute e at impact velocity `v_in_m_per_s` (restitution paper, eq. 49):
/// c = a(n)·(e^b(n) − 1)·[k·v_in^(n−1)·mⁿ]^(1/(n+1)), with a(n) and b(n) the fits of eqs. (46)–(47).
pub fn c_opt_n_s_per_m(
    e: f64,
    stiffness: f64,
    exponent: f64,
    mass_kg: f64,
    v_in_m_per_s: f64,
) -> f64 {
    let n = exponent;
    let a = 0.3331 * n.powi(4) - 1.48 * n.powi(3) + 3.077 * n * n - 2.306 * n + 1.794;
    let b = 1.285 * n.powf(0.2553) - 1.725;
    a * (e.powf(b) - 1.0)
        * (stiffness * v_in_m_per_s.powf(n - 1.0) * mass_kg.powf(n)).powf(1.0 / (n + 1.0))
}

#[cfg(test)]
mod tests;
