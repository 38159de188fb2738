"""Independent normalisation check: discrete Rayleigh-integral (radiation resistance
matrix) power of a baffled plate vibrating in mode (m,n), vs the Wallace integral.

  R_ij = rho c k^2 A_i A_j sinc(k r_ij) / (2 pi)      (baffled monopoles, real part)
  W    = 1/2 v^T R v                                   (v = complex velocity amplitudes)
  sigma = W / (1/2 rho c S <|v|^2>)  = v^T R v / (rho c S <v^2>)
Midpoint grid with N_x x N_y elements; Richardson extrapolation in h^2.
Also checks Parseval: Int_0^inf p_m(kx) dkx = 1, p_m = 8a/(pi^3 m^2) F_m(kx a).
"""
import numpy as np
from wallace_exact import sigma_exact, F
from numpy.polynomial.legendre import leggauss


def sigma_rayleigh(m, n, a, b, k, nx):
    ny = max(4, int(round(nx * b / a)))
    hx, hy = a / nx, b / ny
    x = (np.arange(nx) + 0.5) * hx
    y = (np.arange(ny) + 0.5) * hy
    X, Y = np.meshgrid(x, y, indexing="ij")
    X, Y = X.ravel(), Y.ravel()
    v = np.sin(m * np.pi * X / a) * np.sin(n * np.pi * Y / b)
    A = hx * hy
    r = np.hypot(X[:, None] - X[None, :], Y[:, None] - Y[None, :])
    R = k * k * A * A * np.sinc(k * r / np.pi) / (2 * np.pi)   # rho c = 1
    W2 = v @ R @ v                       # = 2 W
    S = a * b
    return W2 / (S * np.mean(v * v)), hx


if __name__ == "__main__":
    cases = [(1, 1, 1, .7, 0.5), (2, 1, 1, .7, 1.0), (1, 2, 1, .2, 2.0), (2, 2, 1, .7, 3.0),
             (3, 2, 1, .7, 8.0), (3, 1, 1, .2, 12.0), (1, 1, 1, .7, 15.0), (4, 3, 1, .7, 17.0)]
    print("m n a b k | sigma_Wallace | Rayleigh(N1) Rayleigh(N2) Richardson | rel.err")
    for (m, n, a, b, k) in cases:
        s_w = sigma_exact(m, n, a, b, k)
        s1, h1 = sigma_rayleigh(m, n, a, b, k, 40)
        s2, h2 = sigma_rayleigh(m, n, a, b, k, 60)
        sr = (s2 * h1 ** 2 - s1 * h2 ** 2) / (h1 ** 2 - h2 ** 2)
        print(f"{m} {n} {a} {b} {k:5.1f} | {s_w:.6g} | {s1:.6g} {s2:.6g} {sr:.6g} | {sr / s_w - 1:+.2e}")
    # Parseval check of the spectral density normalisation
    xg, wg = leggauss(64)
    for m in [1, 2, 3, 6]:
        # integrate F_m(u) du over [0, U] by panels, then tail analytically ~ 1/(2 U^3)*(m pi)^4
        U = 4000.0
        edges = np.linspace(0, U, 4001)
        tot = 0.0
        for lo, hi in zip(edges[:-1], edges[1:]):
            u = 0.5 * (lo + hi) + 0.5 * (hi - lo) * xg
            tot += 0.5 * (hi - lo) * np.sum(wg * F(u, m))
        tail = (m * np.pi) ** 4 / (2 * 3 * U ** 3)   # <cos^2>=1/2 times int u^-4
        print(f"m={m}: 8/(pi^3 m^2) * Int_0^inf F_m du = {8 / (np.pi ** 3 * m * m) * (tot + tail):.8f}")
    # high-k limit: sigma -> 1/sqrt(1-(kmn/k)^2)
    print("high-k check (a=1,b=0.7):")
    for (m, n) in [(1, 1), (2, 3), (5, 4)]:
        kmn = np.hypot(m * np.pi, n * np.pi / .7)
        for k in [2 * kmn, 4 * kmn, 10 * kmn, 30 * kmn]:
            s = sigma_exact(m, n, 1, .7, k)
            print(f"  ({m},{n}) k/kmn={k / kmn:4.0f}: sigma={s:.5f}  infinite-plate={1 / np.sqrt(1 - (kmn / k) ** 2):.5f}")
