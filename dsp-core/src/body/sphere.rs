//! Free vibration of an elastic sphere (Lamb's spheroidal modes): frequencies and the pole's participation, for a ball striker.

// Lamb, "On the vibrations of an elastic sphere", Proc. London Math. Soc. 13 (1882) 189–212; Love,
// *A Treatise on the Mathematical Theory of Elasticity*, 4th ed. (1927), ch. XII. Derived here
// afresh, with R = 1 and c_s = 1 (so ξ = ωR/c_s is the shear wavenumber k, h = ξ/κ the
// dilatational one, κ = c_p/c_s = √(2(1−ν)/(1−2ν))), x = hR, y = kR = ξ, jₙ the spherical Bessel
// functions, P = Pₙ(cos θ), P′ = dPₙ/dθ:
//
// (1) u = ∇φ + ∇×∇×(r·ψ) (r the position vector), φ = A·jₙ(hr)·P, ψ = B·jₙ(kr)·P, gives
//     u_r = U(r)·P, u_θ = V(r)·P′ with
//     r·U = A·[n·jₙ(hr) − hr·jₙ₊₁(hr)] + B·n(n+1)·jₙ(kr),
//     r·V = A·jₙ(hr) + B·[(n+1)·jₙ(kr) − kr·jₙ₊₁(kr)].
// (2) σ_rr = λ∇·u + 2G·∂u_r/∂r and σ_rθ = G·(∂_θu_r/r + ∂_r u_θ − u_θ/r) at r = R, times R²/(2G)
//     and divided by P and P′:
//     σ_rr: A·[(n² − n − y²/2)·jₙ(x) + 2x·jₙ₊₁(x)] + B·n(n+1)·[(n − 1)·jₙ(y) − y·jₙ₊₁(y)],
//     σ_rθ: A·[(n − 1)·jₙ(x) − x·jₙ₊₁(x)]        + B·[(n² − 1 − y²/2)·jₙ(y) + y·jₙ₊₁(y)].
//     Free surface: the 2×2 determinant vanishes (Lamb's frequency equation; the same matrix, up
//     to row and column factors and a transposition, as Sato & Usami, Geophys. Mag. 31 (1962),
//     eq. 2.2).
//     For n = 0, P′ = 0: σ_rθ vanishes identically and the condition is σ_rr's A entry alone,
//     (1 − κ²x²/4)·sin x − x·cos x = 0, i.e. tan x / x = 1/(1 − κ²x²/4) (Lamb's eq. 59). Taking
//     the 2×2 determinant there instead adds the zeros of the σ_rθ row's B entry, which are no
//     modes (at ν = ¼ one sits at ξ ≈ 2.45, below the true lowest mode).
// (3) A radial force at the pole θ = 0 excites only the axisymmetric (m = 0) spheroidal modes
//     (for m ≠ 0 u_r vanishes at the pole; torsional modes have no u_r); n = 1's root ξ = 0 is the
//     rigid translation (the hammer's mass), its elastic roots are kept.
// (4) Mass normalisation, with ∫P²·sin θ dθ = 2/(2n+1), ∫P′²·sin θ dθ = 2n(n+1)/(2n+1):
//     ∫ρ|u|²dV = 2πρ·2/(2n+1)·∫₀¹((rU)² + n(n+1)(rV)²)dr = M = 4πρ/3, so the pole's shape
//     φ = U(1)·Pₙ(1) is |U(1)| / √(3/(2n+1)·∫₀¹((rU)² + n(n+1)(rV)²)dr).

use std::f64::consts::PI;

/// One axisymmetric spheroidal mode of a free sphere struck radially at a pole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereMode {
    /// Angular degree n (0 = breathing, 2 = the lowest, ellipsoidal, mode, …).
    pub degree: u32,
    /// Dimensionless frequency ξ = ω·R/c_s (c_s = √(G/ρ) the shear wave speed).
    pub xi: f64,
    /// Radial displacement at the pole of the mode shape normalised so that ∫ρ|u|²dV = M (the
    /// sphere's mass): the modal participation φ at the contact (dimensionless), so that the
    /// pole's receptance is Σ φ²/(M(Ω² − ω²)).
    pub pole_shape: f64,
}

/// Most modes [`sphere_modes`] writes.
pub const MAX_SPHERE_MODES: usize = 8;

/// Largest Poisson's ratio taken (at ½ the sphere is incompressible and c_p infinite).
const MAX_POISSON: f64 = 0.49;
/// Highest degree searched, a safety bound: the search ends at the first degree n ≥ 2 with no
/// root below the current cap, the fundamental ₀Sₙ rising with n.
const MAX_DEGREE: u32 = 24;
/// Lower end of the scan in ξ, below every elastic root for 0 ≤ ν ≤ 0.49 (the lowest is ₀S₂ at
/// ξ ≈ 2.63) and clear of the determinant's cancellation near ξ = 0.
const XI_START: f64 = 0.5;
/// Scan step in ξ: a degree's roots lie at least 0.9 apart below ξ = 10 for 0 ≤ ν ≤ 0.49.
const XI_STEP: f64 = 0.05;
/// Upper end of the scan in ξ: the eighth mode lies below 7.3 for 0 ≤ ν ≤ 0.49.
const XI_MAX: f64 = 10.0;
/// Bisections of a bracketing step: 0.05/2⁴⁰ ≈ 5·10⁻¹⁴ in ξ.
const BISECTIONS: u32 = 40;
/// Cap on the power series' terms (fewer than 60 are needed for z < n + 2 ≤ 27).
const SERIES_TERMS: u32 = 80;
/// Gauss–Legendre points per quadrature panel (exact for polynomials of degree 31); even.
const GAUSS_POINTS: usize = 16;
/// One quadrature panel per this much ξ (the integrand oscillates like sin²(ξr)).
const PANEL_XI: f64 = 4.0;
/// Most quadrature panels (ξ up to 256).
const MAX_PANELS: usize = 64;
/// Newton steps for a Gauss–Legendre node (it converges in about five).
const NEWTON_STEPS: u32 = 100;

/// The lowest `out.len()` (at most MAX_SPHERE_MODES) spheroidal modes that a radial force at the
/// pole excites (degrees n = 0, 1, 2, 3, … with m = 0, the lowest roots of each; n = 1's elastic
/// modes are included, its ξ = 0 rigid translation is not), sorted by frequency, for Poisson's
/// ratio `nu` (clamped to 0 … 0.49, NaN taken as 0). Returns how many were written.
///
/// Roots of Lamb's frequency equation (2) by scanning ξ and bisecting sign changes; shapes by (1)
/// normalised by (4) (see the notes at the top of this file).
pub fn sphere_modes(nu: f64, out: &mut [SphereMode]) -> usize {
    let wanted = out.len().min(MAX_SPHERE_MODES);
    if wanted == 0 {
        return 0;
    }
    let kappa = wave_speed_ratio(nu);
    // The lowest `wanted` (degree, ξ) so far, ascending in ξ.
    let mut found = [(0_u32, 0.0_f64); MAX_SPHERE_MODES];
    let found = &mut found[..wanted];
    let mut count = 0;
    let mut roots = [0.0; MAX_SPHERE_MODES];
    for degree in 0..=MAX_DEGREE {
        let cap = if count == wanted {
            found[count - 1].1
        } else {
            XI_MAX
        };
        let num_roots = degree_roots(degree, kappa, cap, &mut roots[..wanted]);
        for &xi in &roots[..num_roots] {
            count = insert_sorted(found, count, (degree, xi));
        }
        if degree >= 2 && num_roots == 0 {
            break;
        }
    }
    let gauss = GaussLegendre::new();
    for (mode, &(degree, xi)) in out.iter_mut().zip(&found[..count]) {
        *mode = SphereMode {
            degree,
            xi,
            pole_shape: pole_shape(degree, kappa, xi, &gauss),
        };
    }
    count
}

/// κ = c_p/c_s = √(2(1−ν)/(1−2ν)) for Poisson's ratio `nu` clamped to 0 … 0.49 (NaN taken as 0).
fn wave_speed_ratio(nu: f64) -> f64 {
    let nu = if nu.is_nan() {
        0.0
    } else {
        nu.clamp(0.0, MAX_POISSON)
    };
    (2.0 * (1.0 - nu) / (1.0 - 2.0 * nu)).sqrt()
}

/// Insert `item` (degree, ξ) into the first `count` entries of `list`, kept ascending in ξ,
/// dropping the highest when `list` is full; returns the new count.
fn insert_sorted(list: &mut [(u32, f64)], count: usize, item: (u32, f64)) -> usize {
    let position = list[..count]
        .iter()
        .position(|entry| entry.1 > item.1)
        .unwrap_or(count);
    if position >= list.len() {
        return count;
    }
    let new_count = (count + 1).min(list.len());
    list.copy_within(position..new_count - 1, position + 1);
    list[position] = item;
    new_count
}

/// The roots ξ of degree `n`'s frequency equation (2) between XI_START and `xi_max`, ascending,
/// at most `out.len()` of them: the sign changes on a grid of step XI_STEP, each bisected.
/// Returns how many were written.
fn degree_roots(n: u32, kappa: f64, xi_max: f64, out: &mut [f64]) -> usize {
    let mut count = 0;
    let mut lo = XI_START;
    let mut f_lo = frequency_function(n, kappa, lo);
    while lo < xi_max && count < out.len() {
        let hi = lo + XI_STEP;
        let f_hi = frequency_function(n, kappa, hi);
        if (f_lo < 0.0) != (f_hi < 0.0) {
            let xi = bisect(n, kappa, lo, hi, f_lo);
            if xi < xi_max {
                out[count] = xi;
                count += 1;
            }
        }
        lo = hi;
        f_lo = f_hi;
    }
    count
}

/// The root of degree `n`'s frequency equation (2) between `lo` and `hi`, where it changes sign
/// (`f_lo` its value at `lo`), by bisection.
fn bisect(n: u32, kappa: f64, mut lo: f64, mut hi: f64, f_lo: f64) -> f64 {
    let lo_negative = f_lo < 0.0;
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if (frequency_function(n, kappa, mid) < 0.0) == lo_negative {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Lamb's frequency equation (2) for degree `n` at ξ = `xi`: the determinant of the stress-free
/// matrix for n ≥ 1; for n = 0 its σ_rr entry alone, (2/x)·[(1 − κ²x²/4)·sin x − x·cos x]
/// (Lamb's eq. 59).
fn frequency_function(n: u32, kappa: f64, xi: f64) -> f64 {
    let [[a11, a12], [a21, a22]] = boundary_matrix(n, kappa, xi);
    if n == 0 {
        a11
    } else {
        a11 * a22 - a12 * a21
    }
}

/// The stress-free conditions (2) at ξ = `xi`: rows σ_rr and σ_rθ (times R²/(2G)), columns the
/// potentials' amplitudes A and B of (1).
fn boundary_matrix(n: u32, kappa: f64, xi: f64) -> [[f64; 2]; 2] {
    let (x, y) = (xi / kappa, xi);
    let (jx, jx1) = bessel_pair(n, x);
    let (jy, jy1) = bessel_pair(n, y);
    let nf = f64::from(n);
    [
        [
            (nf * nf - nf - 0.5 * y * y) * jx + 2.0 * x * jx1,
            nf * (nf + 1.0) * ((nf - 1.0) * jy - y * jy1),
        ],
        [
            (nf - 1.0) * jx - x * jx1,
            (nf * nf - 1.0 - 0.5 * y * y) * jy + y * jy1,
        ],
    ]
}

/// jₙ(z) and jₙ₊₁(z), the spherical Bessel functions of the first kind, for z ≥ 0: below
/// z = n + 1 by their power series (Abramowitz & Stegun 10.1.2), above by the upward recurrence
/// jₘ₊₁ = (2m+1)/z·jₘ − jₘ₋₁ (10.1.19) from j₀ = sin z/z, j₁ = sin z/z² − cos z/z (10.1.11),
/// which is stable there.
fn bessel_pair(n: u32, z: f64) -> (f64, f64) {
    if z < f64::from(n) + 1.0 {
        return (bessel_series(n, z), bessel_series(n + 1, z));
    }
    let (sin, cos) = z.sin_cos();
    let mut previous = sin / z;
    let mut current = (sin / z - cos) / z;
    if n == 0 {
        return (previous, current);
    }
    for m in 1..n {
        let next = f64::from(2 * m + 1) / z * current - previous;
        previous = current;
        current = next;
    }
    (current, f64::from(2 * n + 1) / z * current - previous)
}

/// jₙ(z) = zⁿ/(2n+1)!! · Σₖ (−z²/2)ᵏ / (k!·(2n+3)(2n+5)…(2n+2k+1)) (Abramowitz & Stegun 10.1.2).
fn bessel_series(n: u32, z: f64) -> f64 {
    let mut lead = 1.0;
    for m in 1..=n {
        lead *= z / f64::from(2 * m + 1);
    }
    let half_z2 = -0.5 * z * z;
    let (mut term, mut sum) = (1.0, 1.0);
    for k in 1..=SERIES_TERMS {
        term *= half_z2 / (f64::from(k) * f64::from(2 * n + 2 * k + 1));
        sum += term;
        if term.abs() <= 1e-17 * sum.abs() {
            break;
        }
    }
    lead * sum
}

/// A mode's radial functions (1): degree, the wavenumbers x = hR and y = kR = ξ, and the
/// potentials' amplitudes (A, B), a null vector of the matrix (2) (for n = 0, φ alone).
struct ModeShape {
    degree: u32,
    x: f64,
    y: f64,
    a: f64,
    b: f64,
}

impl ModeShape {
    /// The shape of degree `n` at its root ξ = `xi`: (A, B) from the row of (2) with the larger
    /// entries (the other is then nearly a multiple of it).
    fn new(n: u32, kappa: f64, xi: f64) -> Self {
        let (a, b) = if n == 0 {
            (1.0, 0.0)
        } else {
            let [[a11, a12], [a21, a22]] = boundary_matrix(n, kappa, xi);
            if a11.abs() + a12.abs() >= a21.abs() + a22.abs() {
                (a12, -a11)
            } else {
                (a22, -a21)
            }
        };
        Self {
            degree: n,
            x: xi / kappa,
            y: xi,
            a,
            b,
        }
    }

    /// (r·U(r), r·V(r)) of (1) at radius `r` (R = 1).
    fn radial(&self, r: f64) -> (f64, f64) {
        let n = f64::from(self.degree);
        let (hr, kr) = (self.x * r, self.y * r);
        let (jh, jh1) = bessel_pair(self.degree, hr);
        let (jk, jk1) = bessel_pair(self.degree, kr);
        (
            self.a * (n * jh - hr * jh1) + self.b * n * (n + 1.0) * jk,
            self.a * jh + self.b * ((n + 1.0) * jk - kr * jk1),
        )
    }
}

/// The pole's radial shape φ of degree `n`'s mode at its root ξ = `xi`, normalised by (4):
/// |U(1)| / √(3/(2n+1)·∫₀¹((rU)² + n(n+1)(rV)²)dr), the integral by Gauss–Legendre quadrature.
fn pole_shape(n: u32, kappa: f64, xi: f64, gauss: &GaussLegendre) -> f64 {
    let shape = ModeShape::new(n, kappa, xi);
    let nf = f64::from(n);
    let degeneracy = nf * (nf + 1.0);
    let integral = gauss.integrate(panels_for(xi), |r| {
        let (ru, rv) = shape.radial(r);
        ru * ru + degeneracy * rv * rv
    });
    let norm = 3.0 * integral / (2.0 * nf + 1.0);
    if norm > 0.0 {
        shape.radial(1.0).0.abs() / norm.sqrt()
    } else {
        0.0
    }
}

/// Quadrature panels over 0 … R for a mode of frequency ξ = `xi`: one per PANEL_XI.
fn panels_for(xi: f64) -> usize {
    (1 + (xi / PANEL_XI) as usize).min(MAX_PANELS)
}

/// Gauss–Legendre nodes and weights on [−1, 1], ascending.
struct GaussLegendre {
    points: [(f64, f64); GAUSS_POINTS],
}

impl GaussLegendre {
    /// The roots x of P_N (N = GAUSS_POINTS) by Newton's method from cos(π(i + ¾)/(N + ½)), with
    /// weights 2/((1 − x²)·P_N′(x)²) (Abramowitz & Stegun 25.4.29).
    fn new() -> Self {
        let half = GAUSS_POINTS / 2;
        let points = std::array::from_fn(|i| {
            // The i-th node from the left mirrors the (N−1−i)-th, both from the same positive root.
            let k = if i < half { i } else { GAUSS_POINTS - 1 - i };
            let mut x = (PI * (k as f64 + 0.75) / (GAUSS_POINTS as f64 + 0.5)).cos();
            for _ in 0..NEWTON_STEPS {
                let (p, dp) = legendre(x);
                let step = p / dp;
                x -= step;
                if step.abs() <= 1e-15 {
                    break;
                }
            }
            let (_, dp) = legendre(x);
            let weight = 2.0 / ((1.0 - x * x) * dp * dp);
            (if i < half { -x } else { x }, weight)
        });
        Self { points }
    }

    /// ∫₀¹ f(r) dr over `panels` equal panels.
    fn integrate(&self, panels: usize, f: impl Fn(f64) -> f64) -> f64 {
        let width = 1.0 / panels as f64;
        let mut sum = 0.0;
        for panel in 0..panels {
            let middle = (panel as f64 + 0.5) * width;
            for &(node, weight) in &self.points {
                sum += weight * f(middle + 0.5 * width * node);
            }
        }
        0.5 * width * sum
    }
}

/// P_N(x) and P_N′(x) (N = GAUSS_POINTS) by Bonnet's recurrence (k+1)·Pₖ₊₁ = (2k+1)·x·Pₖ − k·Pₖ₋₁,
/// P_N′ = N·(x·P_N − P_{N−1})/(x² − 1) (Abramowitz & Stegun 22.7.10, 22.8.5), for |x| < 1.
fn legendre(x: f64) -> (f64, f64) {
    let (mut previous, mut current) = (1.0, x);
    for k in 1..GAUSS_POINTS {
        let kf = k as f64;
        let next = ((2.0 * kf + 1.0) * x * current - kf * previous) / (kf + 1.0);
        previous = current;
        current = next;
    }
    let n = GAUSS_POINTS as f64;
    (current, n * (x * current - previous) / (x * x - 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modes(nu: f64) -> ([SphereMode; MAX_SPHERE_MODES], usize) {
        let mut out = [SphereMode {
            degree: 0,
            xi: 0.0,
            pole_shape: 0.0,
        }; MAX_SPHERE_MODES];
        let count = sphere_modes(nu, &mut out);
        (out, count)
    }

    /// Σ φ²/ξ² over degree `n`'s modes: those below ξ = 80, plus the tail beyond, where the
    /// modes that move the pole are the dilatational overtones, πκ apart in ξ with φ² → 2(2n+1)/3
    /// (rU → A·cos(hr − …), so U(1)² → A² and ∫(rU)² → A²/2): ≈ 2(2n+1)/(3πκ·80).
    fn static_modal_sum(n: u32, nu: f64) -> f64 {
        const XI_END: f64 = 80.0;
        let kappa = wave_speed_ratio(nu);
        let gauss = GaussLegendre::new();
        let mut roots = [0.0; 64];
        let count = degree_roots(n, kappa, XI_END, &mut roots);
        assert!(count < roots.len());
        let sum: f64 = roots[..count]
            .iter()
            .map(|&xi| (pole_shape(n, kappa, xi, &gauss) / xi).powi(2))
            .sum();
        let nf = f64::from(n);
        sum + 2.0 * (2.0 * nf + 1.0) / (3.0 * PI * kappa * XI_END)
    }

    #[test]
    fn the_ellipsoidal_mode_is_lambs() {
        // Lamb (1882), quoted by Love (Treatise, ch. XII): for σ = ¼ the gravest mode of degree 2
        // is at kR/π = 0.8403 (k = ω/c_s), the lowest of all; and (p. 211) a steel ball's at
        // kR/π = .842, which is ν ≈ 0.3.
        for (nu, expected, tolerance) in [(0.25, 0.8403, 1e-4), (0.3, 0.842, 5e-4)] {
            let (out, count) = modes(nu);
            assert_eq!(count, MAX_SPHERE_MODES);
            assert_eq!(out[0].degree, 2);
            let found = out[0].xi / PI;
            assert!(
                (found - expected).abs() < tolerance,
                "ν = {nu}: kR/π = {found}, Lamb {expected}"
            );
        }
    }

    #[test]
    fn the_breathing_roots_are_loves() {
        // Love (Treatise, ch. XII), radial vibrations for σ = ¼: hR/π = 0.8160, 1.9285, 2.9539
        // (h = ω/c_p).
        let kappa = wave_speed_ratio(0.25);
        let mut roots = [0.0; 3];
        assert_eq!(degree_roots(0, kappa, 20.0, &mut roots), 3);
        for (xi, expected) in roots.into_iter().zip([0.8160, 1.9285, 2.9539]) {
            let found = xi / (kappa * PI);
            assert!(
                (found - expected).abs() < 1e-4,
                "hR/π = {found}, Love {expected}"
            );
        }
    }

    #[test]
    fn the_breathing_roots_solve_lambs_closed_form() {
        // tan x / x = 1/(1 − κ²x²/4), x = hR (Lamb's eq. 59): (1 − κ²x²/4)·sin x − x·cos x
        // changes sign across every root.
        for nu in [0.0, 0.2, 0.3, 0.45, 0.49] {
            let kappa = wave_speed_ratio(nu);
            let closed_form = |x: f64| (1.0 - 0.25 * kappa * kappa * x * x) * x.sin() - x * x.cos();
            let mut roots = [0.0; 4];
            let count = degree_roots(0, kappa, 30.0, &mut roots);
            assert!(count >= 1);
            for &xi in &roots[..count] {
                let x = xi / kappa;
                assert!(
                    closed_form(x - 1e-8) * closed_form(x + 1e-8) < 0.0,
                    "ν = {nu}: x = {x} is no root"
                );
            }
        }
    }

    #[test]
    fn a_rigid_translation_has_unit_shape() {
        // As ξ → 0, degree 1 becomes the rigid translation u = e_z, whose shape normalised to the
        // mass is 1 everywhere.
        let gauss = GaussLegendre::new();
        for nu in [0.0, 0.3, 0.49] {
            let phi = pole_shape(1, wave_speed_ratio(nu), 1e-3, &gauss);
            assert!((phi - 1.0).abs() < 1e-5, "ν = {nu}: φ = {phi}");
        }
    }

    #[test]
    fn the_breathing_modes_sum_to_the_static_compliance() {
        // A static radial force F at the pole is the surface traction Σₙ F(2n+1)/(4πR²)·Pₙ(cos θ);
        // degree n's part moves the pole by F(2n+1)/(4πR²)·sₙ (sₙ: the pole's displacement under
        // the traction Pₙ), and its modes by F·Σ φ²/(MΩ²) with MΩ² = (4π/3)·G·R·ξ², so
        // Σ φ²/ξ² = (2n+1)·G·sₙ/(3R). For n = 0 a uniform tension T stretches the sphere
        // uniformly: s₀ = R(1 − 2ν)/E = R(1 − 2ν)/(2G(1 + ν)).
        for nu in [0.0, 0.25, 0.3, 0.45] {
            let expected = (1.0 - 2.0 * nu) / (6.0 * (1.0 + nu));
            let found = static_modal_sum(0, nu);
            assert!(
                (found / expected - 1.0).abs() < 3e-3,
                "ν = {nu}: Σφ²/ξ² = {found}, static {expected}"
            );
        }
    }

    #[test]
    fn the_quadrupole_modes_sum_to_the_static_compliance() {
        // As above for n = 2, with sₙ from the regular static solution of degree n (Love,
        // Treatise, ch. XI): u = a·∇χ + b·(r²∇χ + α·χ·r), χ = rⁿPₙ, which solves Navier's
        // equation for α = −(2n + (4n+2)(1−2ν))/(n + 5 − 4ν). With G = R = 1, λ = 2ν/(1−2ν):
        // σ_rr/Pₙ = 2a·n(n−1) + b·(λ(2n + α(n+3)) + 2(n+α)(n+1)) = 1,
        // σ_rθ/Pₙ′ = a·(2n−2) + b·(2n + α) = 0, and sₙ = u_r/Pₙ = a·n + b·(n + α).
        let n: f64 = 2.0;
        for nu in [0.0, 0.25, 0.3, 0.45] {
            let lambda = 2.0 * nu / (1.0 - 2.0 * nu);
            let alpha = -(2.0 * n + (4.0 * n + 2.0) * (1.0 - 2.0 * nu)) / (n + 5.0 - 4.0 * nu);
            let (m11, m12) = (
                2.0 * n * (n - 1.0),
                lambda * (2.0 * n + alpha * (n + 3.0)) + 2.0 * (n + alpha) * (n + 1.0),
            );
            let (m21, m22) = (2.0 * n - 2.0, 2.0 * n + alpha);
            let det = m11 * m22 - m12 * m21;
            let (a, b) = (m22 / det, -m21 / det);
            let expected = (2.0 * n + 1.0) * (a * n + b * (n + alpha)) / 3.0;
            let found = static_modal_sum(2, nu);
            assert!(
                (found / expected - 1.0).abs() < 3e-3,
                "ν = {nu}: Σφ²/ξ² = {found}, static {expected}"
            );
        }
    }

    #[test]
    fn modes_of_a_degree_are_orthogonal() {
        // ∫ρ·uᵢ·uⱼ dV ∝ ∫₀¹(rUᵢ·rUⱼ + n(n+1)·rVᵢ·rVⱼ)dr = 0 for two modes of one degree.
        let gauss = GaussLegendre::new();
        for nu in [0.2, 0.3, 0.45] {
            let kappa = wave_speed_ratio(nu);
            for n in [0, 1, 2, 3] {
                let mut roots = [0.0; 2];
                assert_eq!(degree_roots(n, kappa, 30.0, &mut roots), 2);
                let (p, q) = (
                    ModeShape::new(n, kappa, roots[0]),
                    ModeShape::new(n, kappa, roots[1]),
                );
                let degeneracy = f64::from(n * (n + 1));
                let inner = |s: &ModeShape, t: &ModeShape| {
                    gauss.integrate(panels_for(roots[1]), |r| {
                        let ((su, sv), (tu, tv)) = (s.radial(r), t.radial(r));
                        su * tu + degeneracy * sv * tv
                    })
                };
                let cosine = inner(&p, &q) / (inner(&p, &p) * inner(&q, &q)).sqrt();
                assert!(cosine.abs() < 1e-9, "ν = {nu}, n = {n}: cos = {cosine}");
            }
        }
    }

    #[test]
    fn the_bessel_functions_match_their_closed_forms() {
        // j₂ = (3/z³ − 1/z)·sin z − 3·cos z/z², j₃ = (15/z⁴ − 6/z²)·sin z − (15/z³ − 1/z)·cos z
        // (Abramowitz & Stegun 10.1.11 and the recurrence), on both sides of the switch at
        // z = n + 1; and jₙ(z) → zⁿ/(2n+1)!! as z → 0.
        for z in [1.0_f64, 2.5, 2.9, 3.1, 4.5, 7.0, 12.0, 30.0] {
            let (sin, cos) = z.sin_cos();
            let j2 = (3.0 / z.powi(3) - 1.0 / z) * sin - 3.0 * cos / (z * z);
            let j3 = (15.0 / z.powi(4) - 6.0 / (z * z)) * sin - (15.0 / z.powi(3) - 1.0 / z) * cos;
            let (found2, found3) = bessel_pair(2, z);
            assert!(
                (found2 - j2).abs() < 1e-13 && (found3 - j3).abs() < 1e-13,
                "z = {z}"
            );
        }
        let z = 1e-3;
        let (j5, j6) = bessel_pair(5, z);
        assert!((j5 / (z.powi(5) / 10395.0) - 1.0).abs() < 1e-6);
        assert!((j6 / (z.powi(6) / 135_135.0) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn gauss_legendre_is_exact_for_polynomials() {
        // 16 points integrate degree 31 exactly: ∫₀¹ r³¹ dr = 1/32; and ∫₀¹ sin²(20r) dr =
        // ½ − sin 40/80 on panels.
        let gauss = GaussLegendre::new();
        assert!((gauss.integrate(1, |r| r.powi(31)) - 1.0 / 32.0).abs() < 1e-15);
        let expected = 0.5 - 40.0_f64.sin() / 80.0;
        assert!(
            (gauss.integrate(panels_for(20.0), |r| (20.0 * r).sin().powi(2)) - expected).abs()
                < 1e-13
        );
    }

    #[test]
    fn the_modes_are_the_lowest_sorted_and_finite() {
        for step in 0..=49 {
            let nu = 0.01 * f64::from(step);
            let (out, count) = modes(nu);
            assert_eq!(count, MAX_SPHERE_MODES, "ν = {nu}");
            assert_eq!(out[0].degree, 2, "ν = {nu}");
            assert!(
                out.iter().any(|m| m.degree == 1),
                "ν = {nu}: no elastic n = 1 mode"
            );
            for pair in out.windows(2) {
                assert!(pair[0].xi < pair[1].xi, "ν = {nu}: {pair:?}");
            }
            for mode in &out {
                assert!(mode.xi > 2.0 && mode.xi < XI_MAX, "ν = {nu}: {mode:?}");
                assert!(
                    mode.pole_shape.is_finite() && mode.pole_shape >= 0.0,
                    "ν = {nu}: {mode:?}"
                );
            }
            // Fewer slots get the lowest modes.
            let mut few = [out[0]; 3];
            assert_eq!(sphere_modes(nu, &mut few), 3);
            assert_eq!(few[..], out[..3]);
        }
        assert_eq!(sphere_modes(0.3, &mut []), 0);
        assert_eq!(modes(f64::NAN), modes(0.0));
        assert_eq!(modes(-0.5), modes(0.0));
        assert_eq!(modes(0.5), modes(MAX_POISSON));
    }
}
