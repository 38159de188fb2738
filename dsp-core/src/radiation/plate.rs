//! The radiation efficiency of a simply supported rectangular plate's mode in a rigid baffle (Wallace, JASA 51, 1972).

use std::f64::consts::PI;

/// σ of mode (m, n) at k·a = `ka`, k·b = `kb` (provisional: Wallace's low-frequency forms,
/// capped at 1).
pub fn efficiency(m: u32, n: u32, ka: f64, kb: f64) -> f64 {
    let (mf, nf) = (f64::from(m.max(1)), f64::from(n.max(1)));
    let k2ab = ka * kb;
    let pi5 = PI.powi(5);
    let sigma = match (m % 2 == 1, n % 2 == 1) {
        (true, true) => 32.0 * k2ab / (pi5 * mf * mf * nf * nf),
        (false, true) => 8.0 * ka * ka * k2ab / (3.0 * pi5 * mf * mf * nf * nf),
        (true, false) => 8.0 * kb * kb * k2ab / (3.0 * pi5 * mf * mf * nf * nf),
        (false, false) => 2.0 * ka * ka * kb * kb * k2ab / (15.0 * pi5 * mf * mf * nf * nf),
    };
    sigma.min(1.0)
}
