"""Per-mode radiation efficiency sigma_mn(k) of a baffled simply supported a x b plate,
all frequencies, closed form (no 2-D quadrature).  Pure Python (math only) so it ports
line-by-line to Rust.  See REPORT.md for derivation and error tables.

    sigma_mode(m, n, a, b, k) -> sigma        (k = omega/c, a,b in the same length unit)

Exact starting point (rewriting of Wallace's integral, u = kx/k):
    sigma = (4 k b / (pi^2 n^2)) * (8/(pi M^2)) * int_0^{ka} F_m(al) y_n(k b sqrt(1-(al/ka)^2)) d al
    F_m(al) = M^4 (1 - cos(al - M)) / (2 (al^2 - M^2)^2),   M = m pi, N = n pi
    y_n(Y)  = (2/pi) int_0^{pi/2} F_n(Y sin psi) d psi      (normalised strip efficiency)
Approximations: the al-integral is split into the main lobe |al - M| < 2 pi and the rest,
each replaced by a 2-point Gauss rule built from its exact moments (Si/Ci closed forms);
y_n is replaced by a closed form (J0, J1, rational) with a coincidence cap; the result is
symmetrised over the two axis orderings.
"""
import math

PI = math.pi
EULER = 0.5772156649015329
# tuned constants
C0, C1 = 0.094, 0.05     # strip coincidence cap  Ycap = N^1.5 (C0 + C1/n)
P_SOFT = 4.0             # soft-min exponent
R1, BETA = 0.7, 4.0      # start of the coincidence bridge: max(R1, r with Y(1-r^2)=BETA)
CPHI = 2.0               # stationary-phase blend scale in y_A
LOBE = 2.0 * PI          # half width of the main spectral lobe (in al = kx a)
KS = 0.354               # cap reduction for a spread argument: Ycap <= KS N / sqrt(spread)
SYM_Q = 2.0              # symmetrisation weight w = 0.5 (k_small/k_large)^SYM_Q

GL8 = ((-0.9602898564975363, 0.1012285362903763), (-0.7966664774136267, 0.2223810344533745),
       (-0.5255324099163290, 0.3137066458778873), (-0.1834346424956498, 0.3626837833783620),
       (0.1834346424956498, 0.3626837833783620), (0.5255324099163290, 0.3137066458778873),
       (0.7966664774136267, 0.2223810344533745), (0.9602898564975363, 0.1012285362903763))


# ---------------------------------------------------------------- special functions
def one_minus_j0(x):
    x = abs(x)
    if x < 8.0:
        t, term, s = x * x / 4.0, 1.0, 0.0
        for k in range(1, 60):
            term *= -t / (k * k)
            s -= term
            if abs(term) < 1e-17 * abs(s):
                break
        return s
    return 1.0 - j0(x)


def j0(x):
    x = abs(x)
    if x < 8.0:
        return 1.0 - one_minus_j0(x)
    y = 3.0 / x      # A&S 9.4.3
    f = (0.79788456 - 0.00000077 * y - 0.00552740 * y ** 2 - 0.00009512 * y ** 3
         + 0.00137237 * y ** 4 - 0.00072805 * y ** 5 + 0.00014476 * y ** 6)
    th = (x - 0.78539816 - 0.04166397 * y - 0.00003954 * y ** 2 + 0.00262573 * y ** 3
          - 0.00054125 * y ** 4 - 0.00029333 * y ** 5 + 0.00013558 * y ** 6)
    return f / math.sqrt(x) * math.cos(th)


def j1(x):
    x = abs(x)       # only used for x >= 8 here (A&S 9.4.6)
    y = 3.0 / x
    f = (0.79788456 + 0.00000156 * y + 0.01659667 * y ** 2 + 0.00017105 * y ** 3
         - 0.00249511 * y ** 4 + 0.00113653 * y ** 5 - 0.00020033 * y ** 6)
    th = (x - 2.35619449 + 0.12499612 * y + 0.00005650 * y ** 2 - 0.00637879 * y ** 3
          + 0.00074348 * y ** 4 + 0.00079824 * y ** 5 - 0.00029166 * y ** 6)
    return f / math.sqrt(x) * math.cos(th)


def half_j0_minus_j1_over_x(x):
    """J0(x)/2 - J1(x)/x = -x^2/16 + ...  (series without cancellation for x < 8)."""
    x = abs(x)
    if x < 8.0:
        t, c, s = x * x / 4.0, 1.0, 0.0
        for k in range(1, 60):
            c *= -t / (k * k)
            term = 0.5 * c * k / (k + 1)
            s += term
            if abs(term) < 1e-17 * abs(s):
                break
        return s
    return 0.5 * j0(x) - j1(x) / x


def si_cin(x):
    """(Si(x), Cin(x)) for x >= 0;  Cin(x) = int_0^x (1 - cos t)/t dt = gamma + ln x - Ci(x)."""
    if x == 0.0:
        return 0.0, 0.0
    if x < 2.0:                          # power series
        si = cin = 0.0
        t = x
        for j in range(1, 60):
            if j > 1:
                t *= x / j               # t = x^j / j!
            if j % 2 == 1:
                si += (t if (j // 2) % 2 == 0 else -t) / j
            else:
                cin += (t if (j // 2) % 2 == 1 else -t) / j
            if t < 1e-18:
                break
        return si, cin
    b = complex(1.0, x)                  # continued fraction for E1(ix) (modified Lentz)
    c = complex(1e300, 0.0)
    d = 1.0 / b
    h = d
    for i in range(1, 200):
        an = -float(i * i)
        b += 2.0
        d = 1.0 / (an * d + b)
        c = b + an / c
        de = c * d
        h *= de
        if abs(de.real - 1.0) + abs(de.imag) < 1e-16:
            break
    h *= complex(math.cos(x), -math.sin(x))
    return PI / 2 + h.imag, EULER + math.log(x) + h.real      # Ci = -Re(h)


# ---------------------------------------------------------------- x-direction spectrum
def F_m(al, M):
    u = 0.5 * (al - M)
    s = math.sin(u) / u if u != 0.0 else 1.0
    return M ** 4 / (4.0 * (al + M) ** 2) * s * s


def _A(x):
    return 0.0 if x == 0.0 else si_cin(abs(x))[0] * (1 if x > 0 else -1) - 2.0 * math.sin(0.5 * x) ** 2 / x


def spectral_moments(m, X):
    """[I0..I3],  I_j = int_0^X al^(2j) F_m(al) d al   (exact)."""
    M = m * PI
    if X <= 0.0:
        return [0.0, 0.0, 0.0, 0.0]
    if X <= 12.0:                        # smooth / mildly oscillating: composite Gauss-Legendre
        I = [0.0] * 4
        npan = max(1, int(math.ceil(X / 3.0)))
        for p in range(npan):
            lo, hi = p * X / npan, (p + 1) * X / npan
            for t, w in GL8:
                al = 0.5 * (lo + hi) + 0.5 * (hi - lo) * t
                f = 0.5 * (hi - lo) * w * F_m(al, M)
                a2 = al * al
                I[0] += f
                I[1] += f * a2
                I[2] += f * a2 * a2
                I[3] += f * a2 * a2 * a2
        return I
    S = _A(X - M) + _A(X + M)
    Cd = si_cin(abs(X - M))[1] - si_cin(X + M)[1]
    I0 = M * M / 8 * S - M / 8 * Cd
    I1 = M ** 4 / 8 * S + M ** 3 / 8 * Cd
    sg = -1.0 if m % 2 else 1.0          # cos(M) = (-1)^m
    K0 = X - sg * math.sin(X)                                            # int (1-cos(al-M))
    K2 = X ** 3 / 3 - sg * ((X * X - 2) * math.sin(X) + 2 * X * math.cos(X))  # int al^2 (...)
    I2 = M ** 4 / 2 * K0 + 2 * M * M * I1 - M ** 4 * I0
    I3 = M ** 4 / 2 * (K2 + 2 * M * M * K0) + 3 * M ** 4 * I1 - 2 * M ** 6 * I0
    return [I0, I1, I2, I3]


def gauss2(c1, c2, c3):
    """2-point Gauss rule for a distribution on [0,1] with moments c1, c2, c3."""
    var = c2 - c1 * c1
    if var <= 1e-14 * max(c2, 1e-300):
        return ((c1, 1.0),)
    al = (c1 * c2 - c3) / var
    be = -c2 - al * c1
    sq = math.sqrt(max(al * al - 4 * be, 0.0))
    xp, xm = 0.5 * (-al + sq), 0.5 * (-al - sq)
    wp = (c1 - xm) / (xp - xm)
    return ((min(max(xp, 0.0), 1.0), wp), (min(max(xm, 0.0), 1.0), 1.0 - wp))


# ---------------------------------------------------------------- y-direction strip function
def y_below(n, Y):
    """y_n(Y) for Y < N away from coincidence (projection + stationary-phase terms)."""
    N = n * PI
    r2 = (Y / N) ** 2
    g = 1.0 - r2
    Eo = (2.0 - r2) / (2.0 * g ** 1.5)              # <D>,  D = (1 - r^2 sin^2)^-2
    lam = 2.0 * r2 / g ** 1.5                        # projection of D on sin^2
    lam2 = 2.0 / g ** 2 - (2.0 + r2) / g ** 1.5      # -> stationary-phase limit D(1) J0
    z = (Y * g / CPHI) ** 2
    corr = lam * half_j0_minus_j1_over_x(Y) + lam2 * z / (1.0 + z) * 0.5 * j0(Y)
    if n % 2:
        return 0.5 * (Eo * (2.0 - one_minus_j0(Y)) + corr)
    return 0.5 * (Eo * one_minus_j0(Y) - corr)


def bridge_start(n):
    N = n * PI
    r = 1.0
    for _ in range(30):
        v = 1.0 - BETA / (N * r)
        if v <= 0.0:
            return R1
        r = math.sqrt(v)
    return max(r, R1)


def y_strip(n, Y, spread=0.0):
    """normalised strip efficiency, all Y; 'spread' = std of Y/N represented by this node."""
    N = n * PI
    cap = N ** 1.5 * (C0 + C1 / n)
    if spread > 0.0:
        cap = min(cap, KS * N / math.sqrt(spread))
    p = P_SOFT
    rb = bridge_start(n)
    if Y <= rb * N:
        return y_below(n, Y)
    if Y < N:                                        # bridge to the cap
        y1 = y_below(n, rb * N)
        r = Y / N
        h = ((1 - rb * rb) / (1 - r * r)) ** 1.5 - 1.0
        if cap >= y1:
            t = y1 * h
            return y1 + (t ** -p + (cap - y1) ** -p) ** (-1.0 / p) if t > 0 else y1
        return y1 - (y1 - cap) * h / (1.0 + h)
    if Y == N:
        return cap
    ya = N * N / (4.0 * math.sqrt(Y * Y - N * N))   # infinite-strip asymptote
    return (ya ** -p + cap ** -p) ** (-1.0 / p)


# ---------------------------------------------------------------- plate
def sigma_ordered(m, n, a, b, k):
    """x = (m, a) is the 'outer' direction."""
    M, N, X = m * PI, n * PI, k * a
    Itot = spectral_moments(m, X)
    lo, hi = max(M - LOBE, 0.0), M + LOBE
    if X > lo:
        Ilo = spectral_moments(m, lo)            # per-mode constants: cacheable
        Ihi = spectral_moments(m, min(X, hi))
        Ipk = [u - v for u, v in zip(Ihi, Ilo)]
    else:
        Ipk = [0.0] * 4
    Irest = [u - v for u, v in zip(Itot, Ipk)]
    acc = 0.0
    for I in (Ipk, Irest):
        if I[0] <= 1e-15 * Itot[0]:
            continue
        e2, e4, e6 = I[1] / (X ** 2 * I[0]), I[2] / (X ** 4 * I[0]), I[3] / (X ** 6 * I[0])
        c1, c2, c3 = 1 - e2, 1 - 2 * e2 + e4, 1 - 3 * e2 + 3 * e4 - e6   # moments of w=1-u^2
        sw = math.sqrt(max(c2 - c1 * c1, 0.0))
        for x, w in gauss2(c1, c2, c3):
            spread = (k * b / N) * sw / (2.0 * math.sqrt(max(x, 1e-12)))
            acc += I[0] * w * y_strip(n, k * b * math.sqrt(x), spread)
    return 4.0 * k * b / (PI ** 2 * n * n) * 8.0 * acc / (PI * M * M)


def sigma_mode(m, n, a, b, k):
    if k <= 0.0:
        return 0.0
    kx, ky = m * PI / a, n * PI / b
    s_x = sigma_ordered(m, n, a, b, k)
    s_y = sigma_ordered(n, m, b, a, k)
    nat, oth = (s_x, s_y) if kx <= ky else (s_y, s_x)
    w = 0.5 * (min(kx, ky) / max(kx, ky)) ** SYM_Q
    return nat ** (1.0 - w) * oth ** w


if __name__ == "__main__":
    for args in [(1, 1, 1.0, 0.7, 0.1), (2, 2, 1.0, 0.7, 1.0), (3, 1, 1.0, 0.2, 5.0), (5, 4, 1.0, 0.7, 24.0)]:
        print(args, sigma_mode(*args))
