//! ESPRIT on one band's signal: the signal subspace of its covariance, the order by ESTER, the poles.

use nalgebra::{DMatrix, Schur, SymmetricEigen};
use num_complex::Complex64;

/// The largest covariance (and so signal-subspace) dimension n: its eigendecomposition costs n³.
pub const MAX_DIMENSION: usize = 128;
/// ESTER's threshold: the order is the largest p whose J(p) = 1/‖E(p)‖₂² reaches it.
const ESTER_THRESHOLD: f64 = 10.0;

/// The decaying poles ζ (per decimated sample) that ESPRIT finds in `y`, of the order ESTER chose.
pub fn poles(y: &[Complex64]) -> Vec<Complex64> {
    let n = MAX_DIMENSION.min(y.len() / 3);
    if n < 4 {
        return Vec::new();
    }
    let Some((values, vectors)) = subspace(&covariance(y, n)) else {
        return Vec::new();
    };
    // ESTER's invariance holds trivially as p nears n: look no further than n/3.
    let max_order = n / 3;
    let noise = noise_eigenvalue(&values);
    // Only directions above the noise can carry a mode; ESTER picks among them.
    let above = values.iter().take_while(|&&v| v > 2.0 * noise).count();
    let order = ester_order(&vectors, max_order.min(above));
    if order == 0 {
        return Vec::new();
    }
    let phi = rotation(&vectors.columns(0, order).into_owned());
    eigenvalues(phi)
}

/// R = (1/L)·Σₖ yₖ·yₖᴴ over the L = len − n + 1 snapshots yₖ = (y[k] … y[k+n−1]): its first row
/// by direct sums, the rest by R[i+1][j+1] = R[i][j] + y[L+i]·ȳ[L+j] − y[i]·ȳ[j].
fn covariance(y: &[Complex64], n: usize) -> DMatrix<Complex64> {
    let snapshots = y.len() - n + 1;
    let mut r = DMatrix::<Complex64>::zeros(n, n);
    for j in 0..n {
        r[(0, j)] = (0..snapshots).map(|k| y[k] * y[k + j].conj()).sum();
    }
    for i in 0..n - 1 {
        for j in i..n - 1 {
            r[(i + 1, j + 1)] =
                r[(i, j)] + y[snapshots + i] * y[snapshots + j].conj() - y[i] * y[j].conj();
        }
    }
    for i in 0..n {
        for j in 0..i {
            r[(i, j)] = r[(j, i)].conj();
        }
    }
    r.unscale(snapshots as f64)
}

/// The eigenvalues of R, largest first, and their eigenvectors as columns in the same order
/// (None when the iteration does not converge, as on a matrix that is not finite).
fn subspace(r: &DMatrix<Complex64>) -> Option<(Vec<f64>, DMatrix<Complex64>)> {
    let eigen = SymmetricEigen::try_new(r.clone(), f64::EPSILON, 30 * r.nrows())?;
    let mut order: Vec<usize> = (0..r.nrows()).collect();
    order.sort_by(|&a, &b| eigen.eigenvalues[b].total_cmp(&eigen.eigenvalues[a]));
    let values = order.iter().map(|&i| eigen.eigenvalues[i]).collect();
    let vectors = DMatrix::from_fn(r.nrows(), r.ncols(), |row, col| {
        eigen.eigenvectors[(row, order[col])]
    });
    Some((values, vectors))
}

/// The noise's eigenvalue: the median of the smaller half (a mode raises at most one each).
fn noise_eigenvalue(values: &[f64]) -> f64 {
    let tail = &values[values.len() / 2..];
    tail[tail.len() / 2].max(f64::MIN_POSITIVE)
}

/// ESTER (Badeau, David & Richard 2006, eq. (8)): for each candidate order p, the error of the
/// rotational invariance E(p) = W↑(p) − W↓(p)·Φ(p) of the first p eigenvectors, and
/// J(p) = 1/‖E(p)‖₂²; the order is the largest p with J(p) ≥ [`ESTER_THRESHOLD`].
fn ester_order(vectors: &DMatrix<Complex64>, max_order: usize) -> usize {
    let mut order = 0;
    for p in 1..=max_order {
        let w = vectors.columns(0, p).into_owned();
        let phi = rotation(&w);
        let n = w.nrows();
        let error = w.rows(1, n - 1) - w.rows(0, n - 1) * phi;
        let norm2 = spectral_norm_squared(&error);
        if norm2 * ESTER_THRESHOLD <= 1.0 {
            order = p;
        }
    }
    order
}

/// ‖E‖₂² = the largest eigenvalue of Eᴴ·E.
fn spectral_norm_squared(e: &DMatrix<Complex64>) -> f64 {
    let gram = e.adjoint() * e;
    let n = gram.nrows();
    SymmetricEigen::try_new(gram, f64::EPSILON, 30 * n)
        .map_or(f64::INFINITY, |g| g.eigenvalues.max())
}

/// Φ = W↓⁺·W↑, the least-squares solution of W↓·Φ = W↑ (W↓: W without its last row, W↑:
/// without its first), through the normal equations W↓ᴴW↓·Φ = W↓ᴴW↑ (W's columns are
/// orthonormal, so W↓ᴴW↓ = I − wₙᴴwₙ is well conditioned).
fn rotation(w: &DMatrix<Complex64>) -> DMatrix<Complex64> {
    let n = w.nrows();
    let down = w.rows(0, n - 1);
    let up = w.rows(1, n - 1);
    let gram = down.adjoint() * down;
    let rhs = down.adjoint() * up;
    gram.clone()
        .lu()
        .solve(&rhs)
        .unwrap_or_else(|| DMatrix::zeros(gram.nrows(), gram.ncols()))
}

/// The eigenvalues of Φ that decay: the diagonal of its complex Schur form, |ζ| < 1 (none when
/// the Schur iteration does not converge).
fn eigenvalues(phi: DMatrix<Complex64>) -> Vec<Complex64> {
    let n = phi.nrows();
    let Some(schur) = Schur::try_new(phi, f64::EPSILON, 30 * n) else {
        return Vec::new();
    };
    let (_, t) = schur.unpack();
    (0..n)
        .map(|i| t[(i, i)])
        .filter(|z| z.is_finite() && z.norm() < 1.0 && z.norm() > 0.0)
        .collect()
}
