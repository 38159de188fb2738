//! A band's modes and the onset's click refined together by Levenberg–Marquardt, after RELAX has brought them near.

use super::refine::{BandMode, Fit, CLICK_TERMS};
use nalgebra::{DMatrix, DVector};
use num_complex::Complex64;

/// At most this many Levenberg–Marquardt steps.
const MAX_STEPS: usize = 12;
/// Beyond this damping a step is too short to matter: the fit has converged.
const MAX_LAMBDA: f64 = 1e8;
/// Converged when a step lowers the residual's energy by less than this fraction.
const CONVERGED: f64 = 1e-9;

impl Fit<'_> {
    /// Refine all `modes` and the click at once: the model Σᵢ cᵢ·φᵢ(m; sᵢ) + Σ_q a_q·b_q(m), its
    /// Jacobian columns φᵢ, cᵢ·∂φᵢ/∂sᵢ and b_q, and steps (JᴴJ + λ·diag JᴴJ)·Δ = Jᴴr kept while
    /// the residual's energy falls (Marquardt 1963), λ raised tenfold after a step refused, up to
    /// [`MAX_LAMBDA`]. Returns the residual.
    pub fn joint(&self, modes: &mut [BandMode]) -> Vec<Complex64> {
        let mut click = DVector::<Complex64>::zeros(CLICK_TERMS);
        let mut r = self.joint_residual(modes, &click);
        let mut cost = energy(&r);
        let mut lambda = 1e-6;
        for _ in 0..MAX_STEPS {
            let (j, extents) = self.jacobian(modes);
            let (gram, gradient) = normal_equations(&j, &extents, &r);
            let mut improved = false;
            while lambda <= MAX_LAMBDA {
                let mut damped = gram.clone();
                for d in 0..damped.nrows() {
                    damped[(d, d)] *= 1.0 + lambda;
                }
                let Some(step) = damped.lu().solve(&gradient) else {
                    lambda *= 10.0;
                    continue;
                };
                let (trial, trial_click) = apply(modes, &click, &step);
                let trial_r = self.joint_residual(&trial, &trial_click);
                let trial_cost = energy(&trial_r);
                if trial_cost <= cost {
                    let gain = (cost - trial_cost) / cost.max(f64::MIN_POSITIVE);
                    modes.copy_from_slice(&trial);
                    (click, r, cost) = (trial_click, trial_r, trial_cost);
                    lambda = (lambda / 10.0).max(1e-12);
                    improved = gain > CONVERGED;
                    break;
                }
                lambda *= 10.0;
            }
            if !improved {
                break;
            }
        }
        r
    }

    /// The data less the modes and the click.
    fn joint_residual(&self, modes: &[BandMode], click: &DVector<Complex64>) -> Vec<Complex64> {
        let mut r = self.residual(modes);
        for m in self.first..=self.last {
            if let Some(basis) = self.click_basis(self.tau(m)) {
                let value: Complex64 = basis.iter().zip(click.iter()).map(|(b, a)| a * b).sum();
                r[m - self.first] -= value;
            }
        }
        r
    }

    /// J: a row per band sample, columns (φᵢ, cᵢ·∂φᵢ/∂sᵢ) for each mode, then the click's b_q;
    /// and each column's rows that are not zero, [start, end).
    fn jacobian(&self, modes: &[BandMode]) -> (DMatrix<Complex64>, Vec<(usize, usize)>) {
        let rows = self.last - self.first + 1;
        let columns = 2 * modes.len() + CLICK_TERMS;
        let mut j = DMatrix::<Complex64>::zeros(rows, columns);
        let mut extents = vec![(rows, 0); columns];
        for (i, mode) in modes.iter().enumerate() {
            self.model(mode.s, |row, phi, dphi| {
                j[(row, 2 * i)] = phi;
                j[(row, 2 * i + 1)] = mode.c * dphi;
                extents[2 * i] = (extents[2 * i].0.min(row), row + 1);
            });
            extents[2 * i + 1] = extents[2 * i];
        }
        let base = 2 * modes.len();
        for m in self.first..=self.last {
            if let Some(basis) = self.click_basis(self.tau(m)) {
                let row = m - self.first;
                for (q, b) in basis.iter().enumerate() {
                    j[(row, base + q)] = Complex64::new(*b, 0.0);
                    extents[base + q] = (extents[base + q].0.min(row), row + 1);
                }
            }
        }
        (j, extents)
    }
}

/// JᴴJ and Jᴴr, each entry summed over the rows where both its columns are not zero.
fn normal_equations(
    j: &DMatrix<Complex64>,
    extents: &[(usize, usize)],
    r: &[Complex64],
) -> (DMatrix<Complex64>, DVector<Complex64>) {
    let n = j.ncols();
    let mut gram = DMatrix::<Complex64>::zeros(n, n);
    let mut gradient = DVector::<Complex64>::zeros(n);
    for a in 0..n {
        let (a0, a1) = extents[a];
        let column_a = j.column(a);
        let col_a = column_a.as_slice();
        gradient[a] = (a0..a1).map(|row| col_a[row].conj() * r[row]).sum();
        for b in a..n {
            let (lo, hi) = (a0.max(extents[b].0), a1.min(extents[b].1));
            let column_b = j.column(b);
            let col_b = column_b.as_slice();
            let sum: Complex64 = (lo..hi.max(lo))
                .map(|row| col_a[row].conj() * col_b[row])
                .sum();
            gram[(a, b)] = sum;
            gram[(b, a)] = sum.conj();
        }
    }
    (gram, gradient)
}

/// The modes and click after a step Δ = (Δc₁, Δs₁, …, Δa).
fn apply(
    modes: &[BandMode],
    click: &DVector<Complex64>,
    step: &DVector<Complex64>,
) -> (Vec<BandMode>, DVector<Complex64>) {
    let moved = modes
        .iter()
        .enumerate()
        .map(|(i, m)| BandMode {
            c: m.c + step[2 * i],
            s: m.s + step[2 * i + 1],
        })
        .collect();
    let base = 2 * modes.len();
    let click = DVector::from_iterator(
        CLICK_TERMS,
        (0..CLICK_TERMS).map(|q| click[q] + step[base + q]),
    );
    (moved, click)
}

fn energy(r: &[Complex64]) -> f64 {
    r.iter().map(|v| v.norm_sqr()).sum()
}
