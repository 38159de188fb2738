"""Check Wallace's low-frequency closed forms against the exact integral.
Series derivation (small alpha, beta), with <.> = hemisphere average:
  odd  m: F_m ~ 1 - (alpha^2/4)(1 - 8/(m pi)^2)
  even m: F_m ~ (alpha^2/4) [1 - (alpha^2/12)(1 - 24/(m pi)^2)]
  <s_x^2> = 1/3, <s_x^4> = 1/5, <s_x^2 s_y^2> = 1/15, <s_x^4 s_y^2> = 1/35
  (s_x = sin th cos ph, s_y = sin th sin ph)
=> even-even correction coefficient is k^2 a b / 28 (NOT 5 k^2 a b / 64).
"""
import numpy as np
from wallace_exact import sigma_exact_many

PI = np.pi


def lf_recalled(m, n, a, b, k, eecoef=5 / 64):
    cm8, cn8 = 1 - 8 / (m * PI) ** 2, 1 - 8 / (n * PI) ** 2
    cm24, cn24 = 1 - 24 / (m * PI) ** 2, 1 - 24 / (n * PI) ** 2
    K = k * k * a * b
    if m % 2 and n % 2:
        return 32 * K / (PI ** 5 * m * m * n * n) * (1 - K / 12 * (cm8 * a / b + cn8 * b / a))
    if (m % 2 == 0) and n % 2:
        return 8 * k ** 4 * a ** 3 * b / (3 * PI ** 5 * m * m * n * n) * (1 - K / 20 * (cm24 * a / b + cn8 * b / a))
    if m % 2 and n % 2 == 0:   # mirror of even-odd
        return 8 * k ** 4 * a * b ** 3 / (3 * PI ** 5 * m * m * n * n) * (1 - K / 20 * (cm8 * a / b + cn24 * b / a))
    return 2 * k ** 6 * a ** 3 * b ** 3 / (15 * PI ** 5 * m * m * n * n) * (1 - eecoef * K * (cm24 * a / b + cn24 * b / a))


def lf_corrected(m, n, a, b, k):
    return lf_recalled(m, n, a, b, k, eecoef=1 / 28)


def lf_leading(m, n, a, b, k):
    return lf_recalled(m, n, a, b, 1e-3 * k) * 1e3 ** (2 + 2 * (m % 2 == 0) + 2 * (n % 2 == 0))


if __name__ == "__main__":
    modes = [(1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (3, 3), (4, 2)]
    kas = [0.05, 0.1, 0.2, 0.5, 1.0]
    a = 1.0
    for b in [0.7, 0.2]:
        print(f"\n### a = 1, b = {b}")
        print("| (m,n) | ka | sigma exact | closed form (as recalled) | rel.err | closed form (corrected) | rel.err | leading term only rel.err |")
        print("|---|---|---|---|---|---|---|---|")
        for (m, n) in modes:
            for ka in kas:
                k = ka / a
                s = sigma_exact_many(k, a, b, [m], [n])[0, 0]
                r = lf_recalled(m, n, a, b, k)
                c = lf_corrected(m, n, a, b, k)
                l = lf_leading(m, n, a, b, k)
                print(f"| ({m},{n}) | {ka} | {s:.5e} | {r:.5e} | {r / s - 1:+.2e} | {c:.5e} | {c / s - 1:+.2e} | {l / s - 1:+.2e} |")
    # 1 % range: largest ka (fine scan) below which |corrected/exact - 1| < 1 %
    print("\n1 % validity limit of corrected closed form (and of leading term alone), ka_max:")
    kag = np.linspace(0.02, 4.0, 400)
    for b in [0.7, 0.2]:
        for (m, n) in modes + [(5, 5), (8, 8), (1, 8), (8, 1)]:
            ec, el = [], []
            for ka in kag:
                s = sigma_exact_many(ka, a, b, [m], [n])[0, 0]
                ec.append(abs(lf_corrected(m, n, a, b, ka) / s - 1))
                el.append(abs(lf_leading(m, n, a, b, ka) / s - 1))
            ec, el = np.array(ec), np.array(el)
            lc = kag[np.argmax(ec > 0.01)] if (ec > 0.01).any() else kag[-1]
            ll = kag[np.argmax(el > 0.01)] if (el > 0.01).any() else kag[-1]
            print(f"  b={b} ({m},{n}): corrected within 1% for ka < {lc:.2f} (k sqrt(ab) < {lc * np.sqrt(b):.2f}); leading only: ka < {ll:.2f}")
