//! Fixed-capacity dense matrices and the minimum-norm least-squares solve (the Moore–Penrose pseudoinverse's solution, by a complete orthogonal decomposition) that PLUS's Algorithm 1 needs.

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

/// Workspace of [`min_norm_solve`]: the triangular factor and the Householder vectors of the
/// two QR factorizations.
#[derive(Clone, Debug)]
pub struct SolveWorkspace {
    /// B P = Q R: R in the upper triangle, the Householder vectors of Q below it, by columns
    /// (`r[j]` is column j).
    r: [[f64; MAX_ROWS]; MAX_ROWS],
    /// The column permutation P: column j of B P is column `perm[j]` of B.
    perm: [usize; MAX_ROWS],
    /// [R₁₁ R₁₂]ᵀ = Q₂ R₂, stored the same way (`c[j]` is column j of [R₁₁ R₁₂]ᵀ).
    c: [[f64; MAX_ROWS]; MAX_ROWS],
}

impl Default for SolveWorkspace {
    fn default() -> Self {
        Self {
            r: [[0.0; MAX_ROWS]; MAX_ROWS],
            perm: [0; MAX_ROWS],
            c: [[0.0; MAX_ROWS]; MAX_ROWS],
        }
    }
}

/// Relative size below which a diagonal entry of the pivoted R counts as zero: the rank
/// decision that makes redundant contact constraints (four corners of a flat brick) share their
/// load (PLUS §3a).
const RANK_TOLERANCE: f64 = 1e-10;

/// Householder reflection of `col[k..n]` onto a multiple of e_k: the vector is left in
/// `col[k..n]` (its first entry in `col[k]`), and the new diagonal entry is returned. A column
/// already zero below and at k gives 0 and the identity (a zero vector).
fn householder(col: &mut [f64; MAX_ROWS], k: usize, n: usize) -> f64 {
    let norm = col[k..n].iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm == 0.0 {
        return 0.0;
    }
    let alpha = if col[k] > 0.0 { -norm } else { norm };
    col[k] -= alpha;
    let v_norm = col[k..n].iter().map(|x| x * x).sum::<f64>().sqrt();
    col[k..n].iter_mut().for_each(|x| *x /= v_norm);
    alpha
}

/// y ← (I − 2 v vᵀ) y on entries k..n, v the unit Householder vector in `v[k..n]`.
fn reflect(v: &[f64; MAX_ROWS], k: usize, n: usize, y: &mut [f64; MAX_ROWS]) {
    let dot: f64 = v[k..n].iter().zip(&y[k..n]).map(|(a, b)| a * b).sum();
    y[k..n]
        .iter_mut()
        .zip(&v[k..n])
        .for_each(|(y, v)| *y -= 2.0 * dot * v);
}

/// Householder QR with column pivoting of the `rows` × `cols` matrix held by columns in `m`
/// (`m[j]` is column j): the largest remaining column first, R's diagonal left in `diag`, the
/// Householder vector of step k in `m[k][k..rows]`, R's entries above the diagonal in place.
/// With `perm`, the pivoting is recorded there; without, columns are taken in order. Returns
/// the number of steps taken (min(rows, cols)).
fn qr(
    m: &mut [[f64; MAX_ROWS]; MAX_ROWS],
    rows: usize,
    cols: usize,
    mut perm: Option<&mut [usize; MAX_ROWS]>,
    diag: &mut [f64; MAX_ROWS],
) -> usize {
    let steps = rows.min(cols);
    for k in 0..steps {
        if let Some(perm) = perm.as_deref_mut() {
            // Each remaining column's squared norm below row k, once.
            let mut remaining = [0.0f64; MAX_ROWS];
            for j in k..cols {
                remaining[j] = m[j][k..rows].iter().map(|x| x * x).sum::<f64>();
            }
            let best = (k..cols)
                .max_by(|&a, &b| remaining[a].total_cmp(&remaining[b]))
                .unwrap_or(k);
            m.swap(k, best);
            perm.swap(k, best);
        }
        let (head, tail) = m.split_at_mut(k + 1);
        let v = &mut head[k];
        diag[k] = householder(v, k, rows);
        for col in tail.iter_mut().take(cols - k - 1) {
            reflect(v, k, rows, col);
        }
    }
    steps
}

/// x = B⁺ w: the least-squares solution of B x = w of smallest norm (PLUS Table 1, Algorithm 1
/// line "Compute π ← B⁺w using the Moore–Penrose pseudoinverse").
///
/// A complete orthogonal decomposition (Golub & Van Loan §5.5.2): QR with column pivoting,
/// B P = Q [R₁₁ R₁₂; 0 R₂₂], the rank r where |R_kk| falls below [`RANK_TOLERANCE`] × |R₀₀|;
/// then the minimum-norm solution of [R₁₁ R₁₂] y = (Qᵀ w)₁..r by a second QR,
/// [R₁₁ R₁₂]ᵀ = Q₂ R₂, y = Q₂ R₂⁻ᵀ (Qᵀ w)₁..r, and x = P y. Exact for a regular B; for a
/// rank-deficient one the same solution as the SVD's pseudoinverse when the rank gap is clear
/// (the tests compare it with a one-sided Jacobi SVD). About twenty times fewer operations than
/// that SVD for PLUS's 12-row systems.
pub fn min_norm_solve(b: &Matrix, w: &[f64; MAX_ROWS], ws: &mut SolveWorkspace) -> [f64; MAX_ROWS] {
    let n = b.n;
    for j in 0..n {
        for i in 0..n {
            ws.r[j][i] = b.a[i][j];
        }
        ws.perm[j] = j;
    }
    let mut diag = [0.0; MAX_ROWS];
    qr(&mut ws.r, n, n, Some(&mut ws.perm), &mut diag);
    // Qᵀ w.
    let mut qtw = *w;
    for k in 0..n {
        reflect(&ws.r[k], k, n, &mut qtw);
    }
    let largest = diag[..n].first().map_or(0.0, |d| d.abs());
    let rank = diag[..n]
        .iter()
        .position(|d| !(d.abs() > RANK_TOLERANCE * largest))
        .unwrap_or(n);
    // C = [R₁₁ R₁₂] (rank × n), its transpose held by columns: column i of Cᵀ is row i of C.
    for i in 0..rank {
        for j in 0..n {
            ws.c[i][j] = match j.cmp(&i) {
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => diag[i],
                std::cmp::Ordering::Greater => ws.r[j][i],
            };
        }
    }
    let mut diag2 = [0.0; MAX_ROWS];
    qr(&mut ws.c, n, rank, None, &mut diag2);
    // R₂ᵀ u = (Qᵀ w)₁..r by forward substitution (R₂'s entry (i, j), i < j, is in c[j][i]).
    let mut y = [0.0; MAX_ROWS];
    for j in 0..rank {
        let sum: f64 = (0..j).map(|i| ws.c[j][i] * y[i]).sum();
        y[j] = (qtw[j] - sum) / diag2[j];
    }
    // y = Q₂ [u; 0]: the reflections in reverse order.
    for k in (0..rank).rev() {
        reflect(&ws.c[k], k, n, &mut y);
    }
    let mut x = [0.0; MAX_ROWS];
    for j in 0..n {
        x[ws.perm[j]] = y[j];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: one-sided Jacobi (Hestenes) SVD, B V = U Σ, and x = V Σ⁺ Uᵀ w, dropping
    /// singular values below [`RANK_TOLERANCE`] × the largest (the solve PLUS used first).
    struct SvdWorkspace {
        u: [[f64; MAX_ROWS]; MAX_ROWS],
        v: [[f64; MAX_ROWS]; MAX_ROWS],
    }

    fn jacobi_svd_solve(b: &Matrix, w: &[f64; MAX_ROWS]) -> [f64; MAX_ROWS] {
        let mut ws = SvdWorkspace {
            u: [[0.0; MAX_ROWS]; MAX_ROWS],
            v: [[0.0; MAX_ROWS]; MAX_ROWS],
        };
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

    /// 2 000 random systems of 1 … 24 rows, regular or of every rank below (products of random
    /// n × r and r × n factors, so the rank gap is clear), with consistent and inconsistent
    /// right-hand sides: the decomposition gives the SVD's minimum-norm least-squares solution.
    #[test]
    fn the_decomposition_agrees_with_the_svd() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut ws = SolveWorkspace::default();
        for case in 0..2000 {
            let n = 1 + rng.usize(..MAX_ROWS);
            let rank = if rng.bool() { n } else { rng.usize(..=n) };
            let mut left = [[0.0; MAX_ROWS]; MAX_ROWS];
            let mut right = [[0.0; MAX_ROWS]; MAX_ROWS];
            for i in 0..n {
                for k in 0..rank {
                    left[i][k] = 2.0 * rng.f64() - 1.0;
                    right[k][i] = 2.0 * rng.f64() - 1.0;
                }
            }
            let mut b = Matrix::zeros(n);
            for i in 0..n {
                for j in 0..n {
                    b.a[i][j] = (0..rank).map(|k| left[i][k] * right[k][j]).sum();
                }
            }
            let mut w = [0.0; MAX_ROWS];
            w[..n].iter_mut().for_each(|x| *x = 2.0 * rng.f64() - 1.0);
            let x = min_norm_solve(&b, &w, &mut ws);
            let expected = jacobi_svd_solve(&b, &w);
            let scale = expected.iter().fold(1.0f64, |m, x| m.max(x.abs()));
            for i in 0..n {
                assert!(
                    (x[i] - expected[i]).abs() < 1e-7 * scale,
                    "case {case} (n {n}, rank {rank}): {:?} vs {:?}",
                    &x[..n],
                    &expected[..n]
                );
            }
        }
    }

    /// A full-rank system is solved exactly.
    #[test]
    fn a_regular_system_is_solved() {
        let mut b = Matrix::zeros(3);
        b.a[0][..3].copy_from_slice(&[4.0, 1.0, 0.5]);
        b.a[1][..3].copy_from_slice(&[-1.0, 3.0, 2.0]);
        b.a[2][..3].copy_from_slice(&[0.2, 0.0, -5.0]);
        let mut w = [0.0; MAX_ROWS];
        w[..3].copy_from_slice(&[1.0, -2.0, 3.0]);
        let x = min_norm_solve(&b, &w, &mut SolveWorkspace::default());
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
        let x = min_norm_solve(&b, &w, &mut SolveWorkspace::default());
        assert!(
            (x[0] - 1.0).abs() < 1e-12 && (x[1] - 1.0).abs() < 1e-12,
            "{x:?}"
        );
        w[1] = 4.0;
        let x = min_norm_solve(&b, &w, &mut SolveWorkspace::default());
        assert!(
            (x[0] - 1.5).abs() < 1e-12 && (x[1] - 1.5).abs() < 1e-12,
            "{x:?}"
        );
    }
}
