//! The radiation efficiency of a simply supported rectangular plate's mode in a rigid baffle (Wallace, JASA 51, 1972).
//!
//! Wallace's double integral over the radiated hemisphere is folded into one integral over the
//! x wavenumber, ∫₀^{ka} F_m(α)·y_n(kb·√(1 − α²/(ka)²)) dα, with y_n the normalised efficiency
//! of a baffled strip. That integral is replaced by 2-point Gauss rules built from the exact
//! moments of F_m (main lobe and rest apart), y_n by a closed form with a coincidence cap, and
//! the result is symmetrised over the two axis orderings (the derivation in docs/physics.md,
//! "What the listener hears", and docs/radiation/). The constants marked "(fitted)" were fitted
//! against the exact integral for m, n ≤ 8, b/a = 0.7 and 0.2, ka from 0.02 to 100.
//! No allocation, no quadrature in two dimensions: a few microseconds per call.

use num_complex::Complex64;
use std::f64::consts::PI;

/// Euler–Mascheroni constant γ, in Cin(x) = γ + ln x − Ci(x).
const EULER: f64 = 0.577_215_664_901_532_9;
/// Coincidence cap's peak coefficient (the sinc²-peak asymptote) (fitted).
const CAP_PEAK: f64 = 0.094;
/// Coincidence cap's 1/n correction (fitted).
const CAP_PER_ORDER: f64 = 0.05;
/// Cap on a node spread over s (the √-singularity averaged): KS·N/√s (fitted).
const CAP_SPREAD: f64 = 0.354;
/// Exponent p of the soft minimum (x⁻ᵖ + c⁻ᵖ)^(−1/p) (fitted).
const SOFT_MIN_POWER: i32 = 4;
/// Lowest Y/N where the bridge to the cap starts (fitted).
const BRIDGE_MIN_RATIO: f64 = 0.7;
/// β of the bridge's start r·(1 − r²)·N = β (fitted).
const BRIDGE_BETA: f64 = 4.0;
/// Scale of the stationary-phase blend z = (Y·g/scale)² (fitted).
const PHASE_BLEND: f64 = 2.0;
/// Half width of the main spectral lobe in α = k_x·a (fitted).
const LOBE: f64 = 2.0 * PI;
/// Power q of the symmetrisation weight w = ½·(k_small/k_large)^q (fitted).
const SYM_POWER: i32 = 2;
/// Below this argument the Bessel combinations use their cancellation-free power series.
const SERIES_MAX: f64 = 2.0;
/// Up to this α the spectral moments are summed by Gauss–Legendre (their closed forms cancel).
const QUADRATURE_MAX: f64 = 12.0;

/// 8-point Gauss–Legendre nodes and weights on [−1, 1].
const GL8: [(f64, f64); 8] = [
    (-0.960_289_856_497_536_3, 0.101_228_536_290_376_3),
    (-0.796_666_477_413_626_7, 0.222_381_034_453_374_5),
    (-0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (-0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (0.796_666_477_413_626_7, 0.222_381_034_453_374_5),
    (0.960_289_856_497_536_3, 0.101_228_536_290_376_3),
];

/// σ of mode (m, n) at k·a = `ka`, k·b = `kb`: the geometric blend of both axis orderings,
/// weighted by the bending wavenumbers' ratio (see docs/radiation/).
pub fn efficiency(m: u32, n: u32, ka: f64, kb: f64) -> f64 {
    if !(ka > 0.0 && kb > 0.0) {
        return 0.0;
    }
    let (m, n) = (m.max(1), n.max(1));
    let (kx, ky) = (f64::from(m) * PI / ka, f64::from(n) * PI / kb);
    let along_a = sigma_ordered(m, n, ka, kb);
    let along_b = sigma_ordered(n, m, kb, ka);
    let (natural, other) = if kx <= ky {
        (along_a, along_b)
    } else {
        (along_b, along_a)
    };
    let w = 0.5 * (kx.min(ky) / kx.max(ky)).powi(SYM_POWER);
    let sigma = natural.max(0.0).powf(1.0 - w) * other.max(0.0).powf(w);
    if sigma.is_finite() {
        sigma
    } else {
        0.0
    }
}

/// σ with (m, ka) as the outer direction: the x spectrum's lobe and rest, each averaged over
/// its 2-point Gauss rule in w = 1 − α²/(ka)² (Wallace 1972's integral; the spectral split of
/// the derivation in docs/physics.md, "What the listener hears").
fn sigma_ordered(m: u32, n: u32, ka: f64, kb: f64) -> f64 {
    let big_m = f64::from(m) * PI;
    let cos_m = if m % 2 == 1 { -1.0 } else { 1.0 };
    let total = spectral_moments(big_m, cos_m, ka);
    let (lo, hi) = ((big_m - LOBE).max(0.0), big_m + LOBE);
    let peak = if ka > lo {
        let upper = spectral_moments(big_m, cos_m, ka.min(hi));
        difference(upper, spectral_moments(big_m, cos_m, lo))
    } else {
        [0.0; 4]
    };
    let rest = difference(total, peak);
    let strip = Strip::new(n);
    let acc: f64 = [peak, rest]
        .iter()
        .map(|part| part_sum(part, total[0], ka, kb, &strip))
        .sum();
    let nf = f64::from(n);
    4.0 * kb / (PI * PI * nf * nf) * 8.0 * acc / (PI * big_m * big_m)
}

/// Element-wise a − b of two moment sets.
fn difference(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let mut out = a;
    for (o, v) in out.iter_mut().zip(b) {
        *o -= v;
    }
    out
}

/// One spectral part's ∫F_m·y_n: its mass times the strip function at the two Gauss nodes in
/// w, matched to the part's moments of w (see docs/radiation/).
fn part_sum(part: &[f64; 4], total_mass: f64, ka: f64, kb: f64, strip: &Strip) -> f64 {
    let [i0, i1, i2, i3] = *part;
    if !(i0 > 1e-15 * total_mass) {
        return 0.0;
    }
    let x2 = ka * ka;
    let (e2, e4, e6) = (
        i1 / (x2 * i0),
        i2 / (x2 * x2 * i0),
        i3 / (x2 * x2 * x2 * i0),
    );
    let c1 = 1.0 - e2;
    let c2 = 1.0 - 2.0 * e2 + e4;
    let c3 = 1.0 - 3.0 * e2 + 3.0 * e4 - e6;
    let std_w = (c2 - c1 * c1).max(0.0).sqrt();
    gauss2(c1, c2, c3)
        .iter()
        .filter(|&&(_, weight)| weight != 0.0)
        .map(|&(node, weight)| {
            let spread = (kb / strip.big_n) * std_w / (2.0 * node.max(1e-12).sqrt());
            i0 * weight * strip.efficiency(kb * node.sqrt(), spread)
        })
        .sum()
}

/// The 2-point Gauss rule (nodes clamped to [0, 1], weights) of a distribution on [0, 1] with
/// moments c1, c2, c3; one node (the other weighted 0) when its variance vanishes.
fn gauss2(c1: f64, c2: f64, c3: f64) -> [(f64, f64); 2] {
    let var = c2 - c1 * c1;
    if !(var > 1e-14 * c2.max(1e-300)) {
        return [(c1, 1.0), (c1, 0.0)];
    }
    let al = (c1 * c2 - c3) / var;
    let be = -c2 - al * c1;
    let sq = (al * al - 4.0 * be).max(0.0).sqrt();
    let (xp, xm) = (0.5 * (-al + sq), 0.5 * (-al - sq));
    let wp = (c1 - xm) / (xp - xm);
    [(xp.clamp(0.0, 1.0), wp), (xm.clamp(0.0, 1.0), 1.0 - wp)]
}

/// The moments I_j = ∫₀^X α^{2j}·F_m(α) dα, j = 0..3, of mode m's x spectrum (M = mπ,
/// cos M = `cos_m`): by quadrature up to [`QUADRATURE_MAX`], else in closed form (the
/// derivation in docs/physics.md, "What the listener hears").
fn spectral_moments(big_m: f64, cos_m: f64, x: f64) -> [f64; 4] {
    if !(x > 0.0) {
        [0.0; 4]
    } else if x <= QUADRATURE_MAX {
        moments_by_quadrature(big_m, x)
    } else {
        moments_closed(big_m, cos_m, x)
    }
}

/// I_0..I_3 by 8-point Gauss–Legendre on ⌈X/3⌉ panels (no cancellation at small X).
fn moments_by_quadrature(big_m: f64, x: f64) -> [f64; 4] {
    let panels = (x / 3.0).ceil().clamp(1.0, 4.0) as u32;
    let mut moments = [0.0; 4];
    for p in 0..panels {
        let lo = f64::from(p) * x / f64::from(panels);
        let hi = f64::from(p + 1) * x / f64::from(panels);
        for (t, w) in GL8 {
            let al = 0.5 * (lo + hi) + 0.5 * (hi - lo) * t;
            let f = 0.5 * (hi - lo) * w * spectrum(al, big_m);
            let a2 = al * al;
            let mut power = 1.0;
            for moment in moments.iter_mut() {
                *moment += f * power;
                power *= a2;
            }
        }
    }
    moments
}

/// I_0..I_3 in closed form: Si/Cin at X ∓ M for I_0, I_1, then I_2, I_3 from
/// ∫(1 − cos(α − M)) and ∫α²(1 − cos(α − M)) (see docs/radiation/).
fn moments_closed(big_m: f64, cos_m: f64, x: f64) -> [f64; 4] {
    let (si_d, cin_d) = si_cin((x - big_m).abs());
    let (si_s, cin_s) = si_cin(x + big_m);
    let s = lobe_a(x - big_m, si_d) + lobe_a(x + big_m, si_s);
    let cd = cin_d - cin_s;
    let m2 = big_m * big_m;
    let m4 = m2 * m2;
    let i0 = m2 / 8.0 * s - big_m / 8.0 * cd;
    let i1 = m4 / 8.0 * s + m2 * big_m / 8.0 * cd;
    let (sin_x, cos_x) = x.sin_cos();
    let k0 = x - cos_m * sin_x;
    let k2 = x * x * x / 3.0 - cos_m * ((x * x - 2.0) * sin_x + 2.0 * x * cos_x);
    let i2 = m4 / 2.0 * k0 + 2.0 * m2 * i1 - m4 * i0;
    let i3 = m4 / 2.0 * (k2 + 2.0 * m2 * k0) + 3.0 * m4 * i1 - 2.0 * m4 * m2 * i0;
    [i0, i1, i2, i3]
}

/// F_m(α) = M⁴·sinc²((α − M)/2)/(4(α + M)²), mode m's x spectral density: Wallace 1972's
/// (cos or sin of α/2)²/((α/M)² − 1)², written without its removable 0/0.
fn spectrum(al: f64, big_m: f64) -> f64 {
    let u = 0.5 * (al - big_m);
    let s = if u != 0.0 { u.sin() / u } else { 1.0 };
    let m2 = big_m * big_m;
    m2 * m2 / (4.0 * (al + big_m) * (al + big_m)) * s * s
}

/// A(x) = Si(x) − (1 − cos x)/x for either sign of x, from `si_abs` = Si(|x|).
fn lobe_a(x: f64, si_abs: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let half_sin = (0.5 * x).sin();
    si_abs.copysign(x) - 2.0 * half_sin * half_sin / x
}

/// (Si(x), Cin(x)) for x ≥ 0, Cin(x) = ∫₀ˣ (1 − cos t)/t dt = γ + ln x − Ci(x): the power
/// series below 2, above from E1(ix) = −Ci(x) + i(Si(x) − π/2) (Abramowitz & Stegun 5.2.23).
fn si_cin(x: f64) -> (f64, f64) {
    if !(x > 0.0) {
        (0.0, 0.0)
    } else if x < 2.0 {
        si_cin_series(x)
    } else {
        let h = e1_imaginary(x);
        (PI / 2.0 + h.im, EULER + x.ln() + h.re)
    }
}

/// Si(x) and Cin(x) by their power series Σ±x^j/(j·j!) (A&S 5.2.14, 5.2.16), for small x.
fn si_cin_series(x: f64) -> (f64, f64) {
    let (mut si, mut cin, mut t) = (0.0, 0.0, x);
    for j in 1..60u32 {
        let jf = f64::from(j);
        if j > 1 {
            t *= x / jf;
        }
        let positive = (j / 2) % 2 != j % 2;
        let term = if positive { t / jf } else { -t / jf };
        if j % 2 == 1 {
            si += term;
        } else {
            cin += term;
        }
        if t < 1e-18 {
            break;
        }
    }
    (si, cin)
}

/// E1(ix) for x ≥ 2 by its continued fraction, evaluated with the modified Lentz method
/// (Numerical Recipes §6.3, 5.2).
fn e1_imaginary(x: f64) -> Complex64 {
    let mut b = Complex64::new(1.0, x);
    // Lentz's "huge" start; 1e150 keeps |c|² inside f64 in the complex division.
    let mut c = Complex64::new(1e150, 0.0);
    let mut d = b.inv();
    let mut h = d;
    for i in 1..200u32 {
        let an = -f64::from(i * i);
        b += 2.0;
        d = (an * d + b).inv();
        c = b + an / c;
        let delta = c * d;
        h *= delta;
        if (delta.re - 1.0).abs() + delta.im.abs() < 1e-16 {
            break;
        }
    }
    h * Complex64::new(x.cos(), -x.sin())
}

/// The strip direction's per-mode constants: N = nπ, parity, coincidence cap and bridge start.
struct Strip {
    big_n: f64,
    odd: bool,
    cap: f64,
    bridge_start: f64,
}

impl Strip {
    /// The constants of strip mode n (cap N^{3/2}·(0.094 + 0.05/n); the derivation in
    /// docs/physics.md, "What the listener hears").
    fn new(n: u32) -> Self {
        let big_n = f64::from(n) * PI;
        Strip {
            big_n,
            odd: n % 2 == 1,
            cap: big_n * big_n.sqrt() * (CAP_PEAK + CAP_PER_ORDER / f64::from(n)),
            bridge_start: bridge_start(big_n),
        }
    }

    /// The normalised strip efficiency y_n(Y), for a node standing for a spread `spread` of
    /// Y/N: below, bridge to the cap, or the capped infinite-strip asymptote above coincidence
    /// (the strip function of the derivation in docs/physics.md, "What the listener hears").
    fn efficiency(&self, y: f64, spread: f64) -> f64 {
        let big_n = self.big_n;
        let cap = if spread > 0.0 {
            self.cap.min(CAP_SPREAD * big_n / spread.sqrt())
        } else {
            self.cap
        };
        if y <= self.bridge_start * big_n {
            y_below(big_n, self.odd, y)
        } else if y < big_n {
            self.bridge(y, cap)
        } else if !(y > big_n) {
            cap
        } else {
            let asymptote = big_n * big_n / (4.0 * (y * y - big_n * big_n).sqrt());
            soft_min(asymptote, cap)
        }
    }

    /// y_n between the bridge start and coincidence: y₁ = y(r_b·N) rising as
    /// ((1 − r_b²)/(1 − r²))^{3/2} towards the cap (see docs/radiation/).
    fn bridge(&self, y: f64, cap: f64) -> f64 {
        let (big_n, rb) = (self.big_n, self.bridge_start);
        let y1 = y_below(big_n, self.odd, rb * big_n);
        let r = y / big_n;
        let ratio = (1.0 - rb * rb) / (1.0 - r * r);
        let h = ratio * ratio.sqrt() - 1.0;
        if cap >= y1 {
            let t = y1 * h;
            if t > 0.0 {
                y1 + soft_min(t, cap - y1)
            } else {
                y1
            }
        } else {
            y1 - (y1 - cap) * h / (1.0 + h)
        }
    }
}

/// The soft minimum (x⁻ᵖ + c⁻ᵖ)^(−1/p) (see docs/radiation/).
fn soft_min(x: f64, c: f64) -> f64 {
    (x.powi(-SOFT_MIN_POWER) + c.powi(-SOFT_MIN_POWER)).powf(-1.0 / f64::from(SOFT_MIN_POWER))
}

/// Where the bridge starts, r_b = max(0.7, the root of r(1 − r²) = β/N) by fixed-point
/// iteration (see docs/radiation/).
fn bridge_start(big_n: f64) -> f64 {
    let mut r: f64 = 1.0;
    for _ in 0..30 {
        let v = 1.0 - BRIDGE_BETA / (big_n * r);
        if v <= 0.0 {
            return BRIDGE_MIN_RATIO;
        }
        r = v.sqrt();
    }
    r.max(BRIDGE_MIN_RATIO)
}

/// y_n(Y) below coincidence: the mean of D = (1 − r²sin²ψ)⁻², its projection on sin²ψ and the
/// stationary-phase term D(1)·J0, blended in (the strip function of the derivation in
/// docs/physics.md, "What the listener hears").
fn y_below(big_n: f64, odd: bool, y: f64) -> f64 {
    let r2 = (y / big_n) * (y / big_n);
    let g = 1.0 - r2;
    let g15 = g * g.sqrt();
    let mean = (2.0 - r2) / (2.0 * g15);
    let lam = 2.0 * r2 / g15;
    let lam2 = 2.0 / (g * g) - (2.0 + r2) / g15;
    let z = (y * g / PHASE_BLEND) * (y * g / PHASE_BLEND);
    let corr = lam * half_j0_minus_j1_over_x(y) + lam2 * z / (1.0 + z) * 0.5 * libm::j0(y);
    if odd {
        0.5 * (mean * (2.0 - one_minus_j0(y)) + corr)
    } else {
        0.5 * (mean * one_minus_j0(y) - corr)
    }
}

/// 1 − J0(x): the power series Σ −(−x²/4)^k/(k!)² (A&S 9.1.10) below [`SERIES_MAX`], where
/// 1 − libm's J0 would cancel; 1 − libm::j0 above.
fn one_minus_j0(x: f64) -> f64 {
    let x = x.abs();
    if x >= SERIES_MAX {
        return 1.0 - libm::j0(x);
    }
    let t = 0.25 * x * x;
    let (mut term, mut sum) = (1.0, 0.0);
    for k in 1..40u32 {
        let kf = f64::from(k);
        term *= -t / (kf * kf);
        sum -= term;
        if term.abs() <= 1e-17 * sum.abs() {
            break;
        }
    }
    sum
}

/// J0(x)/2 − J1(x)/x = Σ_k ½·(−x²/4)^k·k/((k!)²(k + 1)) (from A&S 9.1.10), its series below
/// [`SERIES_MAX`] (no cancellation), libm's J0 and J1 above.
fn half_j0_minus_j1_over_x(x: f64) -> f64 {
    let x = x.abs();
    if x >= SERIES_MAX {
        return 0.5 * libm::j0(x) - libm::j1(x) / x;
    }
    let t = 0.25 * x * x;
    let (mut c, mut sum) = (1.0, 0.0);
    for k in 1..40u32 {
        let kf = f64::from(k);
        c *= -t / (kf * kf);
        let term = 0.5 * c * kf / (kf + 1.0);
        sum += term;
        if term.abs() <= 1e-17 * sum.abs() {
            break;
        }
    }
    sum
}
