//! A band's modes fitted to its signal by least squares, the filter's onset transient included.

use super::bands::Band;
use nalgebra::{DMatrix, DVector};
use num_complex::Complex64;

/// One mode as a band sees it: s = ln v, v its pole per full-rate sample at baseband (the
/// band's centre taken off), and c its complex amplitude at the onset (see [`Fit::model`]).
#[derive(Clone, Copy, Debug)]
pub struct BandMode {
    pub s: Complex64,
    pub c: Complex64,
}

/// Below this |G(s)| a mode lies in the band's stop-band: it stays in the model as found, and
/// a neighbouring band fits it.
pub(super) const FROZEN_GAIN: f64 = 1e-3;
/// The click's terms: g and its first four differences.
pub(super) const CLICK_TERMS: usize = 5;
/// RELAX has converged when no mode's phase over its duration moves by more than this.
const CONVERGED_RAD: f64 = 1e-4;
/// A mode's sums stop where its envelope has fallen this far.
const NEGLIGIBLE: f64 = 1e-9;

/// The band's data and the range of it the modes are fitted over.
pub struct Fit<'a> {
    pub band: &'a Band,
    /// The onset, in full-rate samples from the recording's start.
    pub onset: usize,
    /// The band samples used: from the first the onset reaches through the filter to the last
    /// the recording's end does not.
    pub first: usize,
    pub last: usize,
}

impl Fit<'_> {
    /// τ_m = m·D − onset: band sample m's time from the onset, in full-rate samples.
    pub(super) fn tau(&self, m: usize) -> i64 {
        (m * self.band.decimation) as i64 - self.onset as i64
    }

    /// The first band sample whose filter has seen only the ringing modes, τ ≥ h.
    pub fn steady(&self) -> usize {
        let h = self.band.half_taps() as i64;
        let d = self.band.decimation as i64;
        ((self.onset as i64 + h + d - 1) / d).max(self.first as i64) as usize
    }

    /// φ(m) and dφ/ds for a mode b·vⁿ⁻ᵒⁿˢᵉᵗ that starts at the onset (n ≥ onset):
    /// φ(m) = Σ_{k=−h}^{min(h, τ)} g[k]·e^{s(τ−k)}, the filter's partial sum while it reaches
    /// before the onset, G(s)·e^{sτ} once it does not; the band sees c·φ(m), c = b·e^{−iω_c·onset}.
    /// Calls `each(index into first..=last, φ, dφ/ds)` until the envelope is negligible.
    pub(super) fn model(&self, s: Complex64, mut each: impl FnMut(usize, Complex64, Complex64)) {
        let h = self.band.half_taps() as i64;
        let (sums, dsums) = self.partial_sums(s);
        let (g_s, dg_s) = (sums[sums.len() - 1], dsums[dsums.len() - 1]);
        let step = (s * self.band.decimation as f64).exp();
        let mut steady: Option<Complex64> = None;
        for m in self.first..=self.last {
            let tau = self.tau(m);
            if tau < -h {
                continue;
            }
            if tau < h {
                // e^{sτ}·P(τ) and e^{sτ}·(τ·P(τ) + Q(τ)): the sums up to k = τ.
                let e = (s * tau as f64).exp();
                let j = (tau + h) as usize;
                each(
                    m - self.first,
                    e * sums[j],
                    e * (sums[j] * tau as f64 + dsums[j]),
                );
                continue;
            }
            let e = match steady {
                Some(previous) => previous * step,
                None => (s * tau as f64).exp(),
            };
            steady = Some(e);
            if e.norm_sqr() < NEGLIGIBLE * NEGLIGIBLE {
                break;
            }
            each(m - self.first, g_s * e, (g_s * tau as f64 + dg_s) * e);
        }
    }

    /// P(j) = Σ_{k=−h}^{j} g[k]·e^{−sk} and Q(j) = Σ_{k=−h}^{j} −k·g[k]·e^{−sk} for j = −h…h
    /// (index j + h): the filter's partial sums, P(h) = G(s) and Q(h) = dG/ds.
    fn partial_sums(&self, s: Complex64) -> (Vec<Complex64>, Vec<Complex64>) {
        let zero = Complex64::new(0.0, 0.0);
        self.band
            .terms(s)
            .scan((zero, zero), |(p, q), (t, dt)| {
                (*p, *q) = (*p + t, *q + dt);
                Some((*p, *q))
            })
            .unzip()
    }

    /// The band's data over the fitted range.
    pub fn data(&self) -> &[Complex64] {
        &self.band.signal[self.first..=self.last]
    }

    /// The residual of the data after `modes`.
    pub fn residual(&self, modes: &[BandMode]) -> Vec<Complex64> {
        let mut r = self.data().to_vec();
        for mode in modes {
            self.model(mode.s, |i, phi, _| r[i] -= mode.c * phi);
        }
        r
    }

    /// The amplitudes of modes at `poles` (ζ per band sample) by joint least squares over the
    /// steady data from `start` for `len` samples: the Gram matrix Σᵤ ζ̄ᵢᵘ·ζⱼᵘ in closed form
    /// (geometric sums), then c = β/(G(s)·e^{s·τ_start}).
    pub fn amplitudes(&self, poles: &[Complex64], start: usize, len: usize) -> Vec<BandMode> {
        let d = self.band.decimation as f64;
        let sigma: Vec<Complex64> = poles.iter().map(|z| z.ln()).collect();
        let p = poles.len();
        let gram = DMatrix::from_fn(p, p, |i, j| geometric_sum(sigma[i].conj() + sigma[j], len));
        let y = &self.band.signal[start..start + len];
        let rhs = DVector::from_iterator(
            p,
            poles.iter().map(|z| {
                let (mut e, mut sum) = (Complex64::new(1.0, 0.0), Complex64::new(0.0, 0.0));
                for &v in y {
                    sum += e.conj() * v;
                    e *= z;
                }
                sum
            }),
        );
        let beta = if p == 0 {
            DVector::zeros(0)
        } else {
            gram.lu().solve(&rhs).unwrap_or_else(|| DVector::zeros(p))
        };
        let tau = self.tau(start) as f64;
        sigma
            .iter()
            .zip(beta.iter())
            .map(|(&sig, &b)| {
                let s = sig / d;
                let (g_s, _) = self.band.transfer(s);
                BandMode {
                    s,
                    c: b / (g_s * (s * tau).exp()),
                }
            })
            .filter(|m| m.s.is_finite() && m.c.is_finite())
            .collect()
    }

    /// Refine every mode in turn (RELAX: Li & Stoica 1996), each by two Gauss–Newton steps on its
    /// (c, s) against the data less all the others and the onset's click, sweep after sweep
    /// until no mode's phase over its own duration, |Δs|·min(L, 1/δ), moves by [`CONVERGED_RAD`]
    /// (at most `max_sweeps`). Returns the residual.
    pub fn relax(&self, modes: &mut Vec<BandMode>, max_sweeps: usize) -> Vec<Complex64> {
        let mut r = self.residual(modes);
        let limit = std::f64::consts::PI / self.band.decimation as f64;
        let span = ((self.last - self.first + 1) * self.band.decimation) as f64;
        let mut click = [Complex64::new(0.0, 0.0); CLICK_TERMS];
        for _ in 0..max_sweeps {
            self.fit_click(&mut click, &mut r);
            let mut moved: f64 = 0.0;
            for i in 0..modes.len() {
                if self.band.transfer(modes[i].s).0.norm() < FROZEN_GAIN {
                    continue;
                }
                let before = modes[i].s;
                let mut trace = self.trace(modes[i].s);
                for _ in 0..2 {
                    (modes[i], trace) = self.gauss_newton(modes[i], trace, &mut r);
                }
                let duration = span.min(1.0 / (-modes[i].s.re).max(1e-12));
                moved = moved.max((modes[i].s - before).norm() * duration);
            }
            let before = modes.len();
            modes.retain(|m| m.s.im.abs() < limit && m.c.is_finite() && m.s.is_finite());
            if modes.len() < before {
                // The dropped modes' models leave the residual with them.
                r = self.residual(modes);
                self.fit_click(&mut click, &mut r);
            }
            if moved < CONVERGED_RAD {
                break;
            }
        }
        r
    }

    /// The click every mode outside the band makes as it starts: at the band samples whose
    /// filter reaches the onset (|τ| ≤ h) its response Σ_{k≤τ} g[k]·e^{iθ(τ−k)} to a mode at a
    /// stop-band frequency θ is, by summation by parts, a combination of g[τ] and its
    /// differences; the first [`CLICK_TERMS`] of them are fitted by least squares to `r` plus
    /// the click fitted so far, and `r` is left without the new click.
    fn fit_click(&self, click: &mut [Complex64; CLICK_TERMS], r: &mut [Complex64]) {
        let rows: Vec<(usize, [f64; CLICK_TERMS])> = (self.first..=self.last)
            .filter_map(|m| self.click_basis(self.tau(m)).map(|b| (m - self.first, b)))
            .collect();
        if rows.len() <= 2 * CLICK_TERMS {
            return;
        }
        let mut gram = DMatrix::<Complex64>::zeros(CLICK_TERMS, CLICK_TERMS);
        let mut rhs = DVector::<Complex64>::zeros(CLICK_TERMS);
        for (i, basis) in &rows {
            let old: Complex64 = basis.iter().zip(click.iter()).map(|(b, c)| c * b).sum();
            r[*i] += old;
            for a in 0..CLICK_TERMS {
                rhs[a] += r[*i] * basis[a];
                for b in 0..CLICK_TERMS {
                    gram[(a, b)] += Complex64::new(basis[a] * basis[b], 0.0);
                }
            }
        }
        let Some(solution) = gram.lu().solve(&rhs) else {
            return;
        };
        click.copy_from_slice(solution.as_slice());
        for (i, basis) in &rows {
            let new: Complex64 = basis.iter().zip(click.iter()).map(|(b, c)| c * b).sum();
            r[*i] -= new;
        }
    }

    /// g[τ] and its central differences of orders 1 to 4, or None where the filter does not
    /// reach the onset.
    pub(super) fn click_basis(&self, tau: i64) -> Option<[f64; CLICK_TERMS]> {
        let h = self.band.half_taps() as i64;
        if tau.abs() > h {
            return None;
        }
        let g = |k: i64| {
            if k.abs() > h {
                0.0
            } else {
                self.band.filter[(k + h) as usize]
            }
        };
        let (m2, m1, z, p1, p2) = (g(tau - 2), g(tau - 1), g(tau), g(tau + 1), g(tau + 2));
        Some([
            z,
            0.5 * (p1 - m1),
            p1 - 2.0 * z + m1,
            0.5 * (p2 - 2.0 * p1 + 2.0 * m1 - m2),
            p2 - 4.0 * p1 + 6.0 * z - 4.0 * m1 + m2,
        ])
    }

    /// A mode's model over its extent: φ and dφ/ds at `s` ([`Fit::model`]).
    fn trace(&self, s: Complex64) -> Trace {
        let mut trace = Trace {
            start: 0,
            phi: Vec::new(),
            dphi: Vec::new(),
        };
        self.model(s, |i, phi, dphi| {
            if trace.phi.is_empty() {
                trace.start = i;
            }
            trace.phi.push(phi);
            trace.dphi.push(dphi);
        });
        trace
    }

    /// One Gauss–Newton step of one mode, kept only if the residual's energy falls (else a half
    /// step, then none); `trace` is the mode's model, `r` the residual of all modes, updated.
    /// Returns the mode and its model.
    fn gauss_newton(&self, mode: BandMode, trace: Trace, r: &mut [Complex64]) -> (BandMode, Trace) {
        let zero = Complex64::new(0.0, 0.0);
        let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, zero, 0.0, zero, zero);
        let residual = &r[trace.start..];
        for ((phi, dphi), r) in trace.phi.iter().zip(&trace.dphi).zip(residual) {
            a11 += phi.norm_sqr();
            a12 += phi.conj() * dphi;
            a22 += dphi.norm_sqr();
            b1 += phi.conj() * r;
            b2 += dphi.conj() * r;
        }
        // J = [φ, c·φ'] → JᴴJ = [[a11, c·a12], [c̄·ā12, |c|²·a22]], Jᴴr = [b1, c̄·b2].
        let c = mode.c;
        let (m11, m12, m22) = (a11, c * a12, c.norm_sqr() * a22);
        let (r1, r2) = (b1, c.conj() * b2);
        let det = m11 * m22 - m12.norm_sqr();
        if !(det > 1e-300) {
            return (mode, trace);
        }
        let dc = (m22 * r1 - m12 * r2) / det;
        let ds = (m11 * r2 - m12.conj() * r1) / det;
        for fraction in [1.0, 0.5] {
            let trial = BandMode {
                s: mode.s + ds * fraction,
                c: mode.c + dc * fraction,
            };
            let trial_trace = self.trace(trial.s);
            if replace(mode.c, &trace, trial.c, &trial_trace, r) {
                return (trial, trial_trace);
            }
        }
        (mode, trace)
    }
}

/// A mode's model from band index `start` (into the fitted range) as far as its envelope lasts.
struct Trace {
    start: usize,
    phi: Vec<Complex64>,
    dphi: Vec<Complex64>,
}

/// Replace c_old·φ_old by c_new·φ_new in the residual `r` if that lowers its energy; say
/// whether it did. (Both models start at the same index, as far as each one's envelope lasts.)
fn replace(
    c_old: Complex64,
    old: &Trace,
    c_new: Complex64,
    new: &Trace,
    r: &mut [Complex64],
) -> bool {
    let start = if old.phi.is_empty() {
        new.start
    } else {
        old.start
    };
    let extent = old.phi.len().max(new.phi.len()).min(r.len() - start);
    let zero = Complex64::new(0.0, 0.0);
    let delta = |j: usize| {
        old.phi.get(j).map_or(zero, |p| c_old * p) - new.phi.get(j).map_or(zero, |p| c_new * p)
    };
    let gain: f64 = (0..extent)
        .map(|j| (r[start + j] + delta(j)).norm_sqr() - r[start + j].norm_sqr())
        .sum();
    if !(gain <= 0.0) {
        return false;
    }
    for j in 0..extent {
        r[start + j] += delta(j);
    }
    true
}

/// Σ_{u=0}^{L−1} e^{q·u} = expm1(L·q)/expm1(q), exact near q = 0 too.
fn geometric_sum(q: Complex64, len: usize) -> Complex64 {
    if q.norm() < 1e-300 {
        return Complex64::new(len as f64, 0.0);
    }
    expm1(q * len as f64) / expm1(q)
}

/// e^z − 1 without cancellation: (eˣ·cos y − 1) = expm1(x)·cos y − 2·sin²(y/2).
fn expm1(z: Complex64) -> Complex64 {
    let (x, y) = (z.re, z.im);
    let half = (0.5 * y).sin();
    Complex64::new(x.exp_m1() * y.cos() - 2.0 * half * half, x.exp() * y.sin())
}
