"""Exact (far-field) modal radiation efficiency of a baffled simply supported
rectangular plate, Wallace (1972):

  sigma_mn = 64 k^2 a b / (pi^6 m^2 n^2) * Int_0^{pi/2} Int_0^{pi/2}
             F_m(alpha) F_n(beta) sin(theta) dtheta dphi
  alpha = k a sin(theta) cos(phi),  beta = k b sin(theta) sin(phi)
  F_m(x) = { cos(x/2) [m odd] | sin(x/2) [m even] }^2 / ((x/(m pi))^2 - 1)^2

Removable singularity at x = m pi handled exactly by the identity
  F_m(x) = (m pi)^4 / (4 (x + m pi)^2) * sinc^2((x - m pi)/2),  sinc(u)=sin(u)/u
(valid for both parities, since cos(x/2) = -sin(m pi/2) sin((x-m pi)/2) for m odd
and sin(x/2) = cos(m pi/2) sin((x-m pi)/2) for m even).

Quadrature: composite Gauss-Legendre in theta and phi, panel count grows with k*max(a,b).
"""
import numpy as np
from numpy.polynomial.legendre import leggauss


def F(x, m):
    mp = m * np.pi
    u = 0.5 * (x - mp)
    s = np.sinc(u / np.pi)  # numpy sinc(t) = sin(pi t)/(pi t)
    return mp ** 4 / (4.0 * (x + mp) ** 2) * s * s


def _composite(npan, nq, lo, hi):
    xg, wg = leggauss(nq)
    edges = np.linspace(lo, hi, npan + 1)
    h = np.diff(edges)
    mid = 0.5 * (edges[1:] + edges[:-1])
    x = (mid[:, None] + 0.5 * h[:, None] * xg[None, :]).ravel()
    w = (0.5 * h[:, None] * wg[None, :]).ravel()
    return x, w


def grid(k, a, b, refine=1.0, nq=16):
    L = k * max(a, b)
    npan = int(np.ceil(refine * (4 + L / 3.0)))
    th, wt = _composite(npan, nq, 0.0, np.pi / 2)
    ph, wp = _composite(npan, nq, 0.0, np.pi / 2)
    T, P = np.meshgrid(th, ph, indexing="ij")
    W = (wt[:, None] * wp[None, :]) * np.sin(T)
    al = k * a * np.sin(T) * np.cos(P)
    be = k * b * np.sin(T) * np.sin(P)
    return al.ravel(), be.ravel(), W.ravel()


def sigma_exact_many(k, a, b, ms, ns, refine=1.0, nq=16):
    """Matrix sigma[i,j] for m=ms[i], n=ns[j] at one k."""
    al, be, W = grid(k, a, b, refine, nq)
    ms = np.atleast_1d(ms)
    ns = np.atleast_1d(ns)
    Fm = np.array([F(al, m) for m in ms])          # (M,P)
    Fn = np.array([F(be, n) for n in ns]) * W      # (N,P)
    I = Fm @ Fn.T
    pref = 64 * k * k * a * b / (np.pi ** 6 * (ms[:, None] ** 2) * (ns[None, :] ** 2))
    return pref * I


def sigma_exact(m, n, a, b, k, refine=1.0, nq=16):
    return float(sigma_exact_many(k, a, b, [m], [n], refine, nq)[0, 0])


if __name__ == "__main__":
    # convergence check
    for (m, n, a, b, k) in [(1, 1, 1, .7, .1), (2, 2, 1, .7, .1), (3, 1, 1, .2, 5.0),
                            (5, 2, 1, .7, 18.0), (8, 8, 1, .2, 50.0), (4, 7, 1, .7, 100.0),
                            (1, 1, 1, 0.7, 100.0), (2, 3, 1, .2, 30.0)]:
        v = [sigma_exact(m, n, a, b, k, refine=r, nq=q) for r, q in [(1, 16), (2, 16), (4, 24)]]
        print(m, n, a, b, k, ["%.10g" % x for x in v], "rel diff %.2e %.2e" % (abs(v[0] / v[2] - 1), abs(v[1] / v[2] - 1)))
