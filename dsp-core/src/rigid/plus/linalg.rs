//! Fixed-capacity dense matrices and the minimum-norm least-squares solve (a Moore–Penrose pseudoinverse by one-sided Jacobi SVD) that PLUS's Algorithm 1 needs.

/// Largest system PLUS assembles: three rows (x, y, normal) per contact.
pub const MAX_ROWS: usize = 3 * super::MAX_CONTACTS;

/// A square matrix of up to [`MAX_ROWS`] rows, stored row-major in a fixed array.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub n: usize,
    pub a: [[f64; MAX_ROWS]; MAX_ROWS],
}

impl Matrix {
    pub const fn zeros(n: usize) -> Self {
        Self {
            n,
            a: [[0.0; MAX_ROWS]; MAX_ROWS],
        }
    }

    /// Row i of A times x.
    pub fn mul_row(&self, i: usize, x: &[f64; MAX_ROWS]) -> f64 {
        self.a[i]
            .iter()
            .zip(x)
            .take(self.n)
            .map(|(a, b)| a * b)
            .sum()
    }

    /// y = A x over the first n entries.
    pub fn mul_vec(&self, x: &[f64; MAX_ROWS]) -> [f64; MAX_ROWS] {
        let mut y = [0.0; MAX_ROWS];
        for (yi, row) in y.iter_mut().zip(&self.a).take(self.n) {
            *yi = row.iter().zip(x).take(self.n).map(|(a, b)| a * b).sum();
        }
        y
    }
}

/// Workspace of [`min_norm_solve`]: the columns being orthogonalised and the accumulated rotations.
#[derive(Clone, Debug)]
pub struct SvdWorkspace {
    /// Columns of U Σ, stored as rows (column j of B is `u[j]`).
    u: [[f64; MAX_ROWS]; MAX_ROWS],
    /// Columns of V, stored as rows.
    v: [[f64; MAX_ROWS]; MAX_ROWS],
}

impl Default for SvdWorkspace {
    fn default() -> Self {
        Self {
            u: [[0.0; MAX_ROWS]; MAX_ROWS],
            v: [[0.0; MAX_ROWS]; MAX_ROWS],
        }
    }
}

/// Relative size below which a singular value counts as zero: the rank decision that makes
/// redundant contact constraints (four corners of a flat brick) share their load (PLUS §3a).
const RANK_TOLERANCE: f64 = 1e-10;

/// x = B⁺ w: the least-squares solution of B x = w of smallest norm (PLUS Table 1, Algorithm 1
/// line "Compute π ← B⁺w using the Moore–Penrose pseudoinverse").
///
/// One-sided Jacobi (Hestenes) SVD: plane rotations orthogonalise B's columns, B V = U Σ; then
/// x = V Σ⁺ Uᵀ w, dropping singular values below [`RANK_TOLERANCE`] × the largest.
pub fn min_norm_solve(b: &Matrix, w: &[f64; MAX_ROWS], ws: &mut SvdWorkspace) -> [f64; MAX_ROWS] {
    let n = b.n;
    for j in 0..n {
        for i in 0..n {
            ws.u[j][i] = b.a[i][j];
            ws.v[j][i] = if i == j { 1.0 } else { 0.0 };
        }
    }
    for _sweep in 0..60 {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let (mut alpha, mut beta, mut gamma) = (0.0, 0.0, 0.0);
                for i in 0..n {
                    alpha += ws.u[p][i] * ws.u[p][i];
                    beta += ws.u[q][i] * ws.u[q][i];
                    gamma += ws.u[p][i] * ws.u[q][i];
                }
                if gamma.abs() <= 1e-15 * (alpha * beta).sqrt() || gamma == 0.0 {
                    continue;
                }
                rotated = true;
                let zeta = (beta - alpha) / (2.0 * gamma);
                let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = c * t;
                for m in [&mut ws.u, &mut ws.v] {
                    for i in 0..n {
                        let (x, y) = (m[p][i], m[q][i]);
                        m[p][i] = c * x - s * y;
                        m[q][i] = s * x + c * y;
                    }
                }
            }
        }
        if !rotated {
            break;
        }
    }
    let sigma = |j: usize, u: &[[f64; MAX_ROWS]; MAX_ROWS]| {
        u[j].iter().take(n).map(|x| x * x).sum::<f64>().sqrt()
    };
    let largest = (0..n).map(|j| sigma(j, &ws.u)).fold(0.0, f64::max);
    let mut x = [0.0; MAX_ROWS];
    for j in 0..n {
        let s = sigma(j, &ws.u);
        if s <= RANK_TOLERANCE * largest || s == 0.0 {
            continue;
        }
        // (Uᵀ w)_j / σ_j with U_j = (U Σ)_j / σ_j.
        let coefficient = ws.u[j]
            .iter()
            .zip(w)
            .take(n)
            .map(|(u, w)| u * w)
            .sum::<f64>()
            / (s * s);
        for (xi, vi) in x.iter_mut().zip(&ws.v[j]).take(n) {
            *xi += coefficient * vi;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full-rank system is solved exactly.
    #[test]
    fn a_regular_system_is_solved() {
        let mut b = Matrix::zeros(3);
        b.a[0][..3].copy_from_slice(&[4.0, 1.0, 0.5]);
        b.a[1][..3].copy_from_slice(&[-1.0, 3.0, 2.0]);
        b.a[2][..3].copy_from_slice(&[0.2, 0.0, -5.0]);
        let mut w = [0.0; MAX_ROWS];
        w[..3].copy_from_slice(&[1.0, -2.0, 3.0]);
        let x = min_norm_solve(&b, &w, &mut SvdWorkspace::default());
        let r = b.mul_vec(&x);
        for i in 0..3 {
            assert!((r[i] - w[i]).abs() < 1e-12, "{r:?}");
        }
    }

    /// Two copies of one equation x₀ + x₁ = 2: the minimum-norm solution splits it evenly, the
    /// load sharing of PLUS §3a; an inconsistent pair (= 2 and = 4) gives the least-squares mean.
    #[test]
    fn redundant_rows_share_and_inconsistent_rows_average() {
        let mut b = Matrix::zeros(2);
        b.a[0][..2].copy_from_slice(&[1.0, 1.0]);
        b.a[1][..2].copy_from_slice(&[1.0, 1.0]);
        let mut w = [0.0; MAX_ROWS];
        w[..2].copy_from_slice(&[2.0, 2.0]);
        let x = min_norm_solve(&b, &w, &mut SvdWorkspace::default());
        assert!(
            (x[0] - 1.0).abs() < 1e-12 && (x[1] - 1.0).abs() < 1e-12,
            "{x:?}"
        );
        w[1] = 4.0;
        let x = min_norm_solve(&b, &w, &mut SvdWorkspace::default());
        assert!(
            (x[0] - 1.5).abs() < 1e-12 && (x[1] - 1.5).abs() < 1e-12,
            "{x:?}"
        );
    }
}
