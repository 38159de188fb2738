//! Closed forms of the Hunt–Crossley mass–wall impact and the paper's error metrics (Papetti,
//! Avanzini, Rocchesso, Section II-A and eqs. 27–28).
//!
//! Everything is written through h(y) = y − ln(1 + y), evaluated without cancellation, because
//! eq. (3), (4), (6) and (20) all subtract nearly equal logarithms when μ·v is small.

/// h(y)/y² with h(y) = y − ln(1 + y), for y > −1: the series 1/2 − y/3 + y²/4 − … near 0, the
/// closed form elsewhere.
#[inline]
pub fn h_over_y2(y: f64) -> f64 {
    if y.abs() < 1e-2 {
        // Σ_{j≥2} (−1)^j y^(j−2)/j, to y⁶ (truncation below 1e-16 for |y| < 1e-2).
        let mut sum = 0.0;
        for j in (2..=8).rev() {
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            sum = sum * y + sign / f64::from(j);
        }
        sum
    } else {
        (y - y.ln_1p()) / (y * y)
    }
}

/// h(y) = y − ln(1 + y) without cancellation near 0.
#[inline]
pub fn h(y: f64) -> f64 {
    y * y * h_over_y2(y)
}

/// A mass–wall impact: mass `mass_kg` reaching the wall at `v_in_m_per_s` > 0 through
/// Hunt–Crossley with `stiffness` (N/m^α), `mu_s_per_m` and `alpha`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    pub stiffness: f64,
    pub mu_s_per_m: f64,
    pub alpha: f64,
    pub mass_kg: f64,
    pub v_in_m_per_s: f64,
}

impl Impact {
    /// Compression x(v) in metres on the trajectory through (0, v_in) (eq. 3).
    pub fn x_of_v_m(&self, v_m_per_s: f64) -> f64 {
        self.compression_curve().x_m(v_m_per_s)
    }

    /// Eq. (3) with this impact's constants folded, for evaluation every sample.
    pub fn compression_curve(&self) -> CompressionCurve {
        let (mu, v_in) = (self.mu_s_per_m, self.v_in_m_per_s);
        CompressionCurve {
            scale: self.mass_kg * (self.alpha + 1.0) / self.stiffness,
            bracket_in: v_in * v_in * h_over_y2(mu * v_in),
            mu_s_per_m: mu,
            inv_exponent: 1.0 / (self.alpha + 1.0),
            stiffness: self.stiffness,
        }
    }

    /// |x − x(v)| in metres, the deviation that eq. (28) maximises.
    ///
    /// Past the exit velocity (or past v_in) the bracket b of eq. (3) turns negative and the curve
    /// has no real point. The paper's tables evidently evaluate b^(1/(α+1)) there in complex
    /// arithmetic, |b|^p·e^(iπp), and take the modulus of x − x(v): that reading reproduces Table I's
    /// AM1 %dev(x) = 0.255 (clamping b at 0 gives 0.197) and leaves every other entry unchanged.
    pub fn x_deviation_m(&self, x_m: f64, v_m_per_s: f64) -> f64 {
        let (mu, v_in) = (self.mu_s_per_m, self.v_in_m_per_s);
        let b =
            v_in * v_in * h_over_y2(mu * v_in) - v_m_per_s * v_m_per_s * h_over_y2(mu * v_m_per_s);
        let p = 1.0 / (self.alpha + 1.0);
        let modulus = (self.mass_kg * (self.alpha + 1.0) / self.stiffness * b.abs()).powf(p);
        if b >= 0.0 {
            (x_m - modulus).abs()
        } else {
            let (im, re) = (std::f64::consts::PI * p).sin_cos();
            (x_m - modulus * re).hypot(modulus * im)
        }
    }

    /// Maximum compression x_max = x(0) in metres (eq. 4).
    pub fn x_max_m(&self) -> f64 {
        self.x_of_v_m(0.0)
    }

    /// Exact exit velocity in m/s (negative), the root of eq. (6) other than v_in.
    pub fn v_out_exact_m_per_s(&self) -> f64 {
        let u = self.mu_s_per_m * self.v_in_m_per_s;
        if u < 1e-12 {
            return -self.v_in_m_per_s;
        }
        let mut w = self.ln_exit_gap().exp_m1();
        if u < 1.0 {
            // Near the branch point of W₀ (small u) the closed form keeps only about half the
            // digits of u; polish with Newton on the cancellation-free h(w) = h(u), h' = w/(1 + w).
            let target = h(u);
            for _ in 0..2 {
                let step = (h(w) - target) * (1.0 + w) / w;
                if step.is_finite() && w - step < 0.0 && w - step > -1.0 {
                    w -= step;
                }
            }
        }
        w / self.mu_s_per_m
    }

    /// ln(1 + μ·v_out), the logarithm of the exit velocity's gap to v_lim = −1/μ:
    /// 1 + μ·v_out = −W₀(−z·e^(−z)) with z = 1 + μ·v_in (eq. 6 through the Lambert W function).
    ///
    /// For z > 30, W₀(y) = y·(1 + O(y)) with |y| < 10⁻¹¹, so the gap is z·e^(−z) and its logarithm
    /// ln z − z, which stays exact where e^(−z) underflows (μ·v_in beyond about 745).
    pub fn ln_exit_gap(&self) -> f64 {
        let z = 1.0 + self.mu_s_per_m * self.v_in_m_per_s;
        if z > 30.0 {
            return z.ln() - z;
        }
        (-lambert_w::lambert_w0(-z * (-z).exp())).ln()
    }

    /// The paper's approximation ṽ_out in m/s (eqs. 7–8, n = 4):
    /// v_lim·[1 − (1 + u + 2u²/3 + 2u³/9 + 14u⁴/135)·e^(−2u)] with u = μ·v_in, v_lim = −1/μ.
    pub fn v_out_approx_m_per_s(&self) -> f64 {
        let (mu, v_in) = (self.mu_s_per_m, self.v_in_m_per_s);
        let u = mu * v_in;
        if u < 1e-12 {
            return -v_in;
        }
        // 1 − P(u)e^(−2u) = −expm1(−2u) − (P(u) − 1)·e^(−2u).
        let p_minus_1 = u * (1.0 + u * (2.0 / 3.0 + u * (2.0 / 9.0 + u * 14.0 / 135.0)));
        let one_minus = -(-2.0 * u).exp_m1() - p_minus_1 * (-2.0 * u).exp();
        -one_minus / mu
    }

    /// Hamiltonian on the analytic trajectory as a function of velocity, in joules (eq. 20):
    /// H(v) = m·v²/2 + k·x(v)^(α+1)/(α+1) = m·v²/2 + m·[h(μv_in) − h(μv)]/μ².
    pub fn hamiltonian_of_v_j(&self, v_m_per_s: f64) -> f64 {
        let bracket = self
            .compression_curve()
            .signed_bracket_over_mu2(v_m_per_s)
            .max(0.0);
        self.mass_kg * (0.5 * v_m_per_s * v_m_per_s + bracket)
    }

    /// Energy lost in the impact, ΔH_τ = m(v_out² − v_in²)/2 < 0 (eq. 18), with the exact v_out.
    pub fn delta_h_tau_j(&self) -> f64 {
        let v_out = self.v_out_exact_m_per_s();
        0.5 * self.mass_kg * (v_out * v_out - self.v_in_m_per_s * self.v_in_m_per_s)
    }

    /// Contact time τ in seconds (eq. 9), as ∫ m·dv / f(x(v), v) from v_out to v_in.
    ///
    /// The integrand has integrable singularities at both ends, where x → 0 linearly in the
    /// integration variable; each half (compression, restitution) is mapped by
    /// t = t_end ± s^(α+1), which makes it bounded, and integrated by Gauss–Legendre. For
    /// μ·v_in ≥ 1 the variable is s = ln(1 + μ·v) instead of v: when μ·v_in is large the mass spends
    /// most of the restitution within 10⁻¹⁶ of v_lim, where v cannot resolve the trajectory but
    /// ln(1 + μv) can. There dt = m/(μ·k)·ds/x^α with
    /// x^(α+1) = m(α+1)/(kμ²)·[w_in − e^s − ln w_in + s], w_in = 1 + μ·v_in.
    pub fn contact_time_s(&self) -> f64 {
        let (k, mu, a, m) = (self.stiffness, self.mu_s_per_m, self.alpha, self.mass_kg);
        let q = a + 1.0;
        // ∫ over [t_end, 0] (or [0, t_end]) of g(t) dt, with t = t_end + sign·s^q.
        let half = |t_end: f64, g: &dyn Fn(f64) -> f64| -> f64 {
            let sign = -t_end.signum();
            gauss_legendre(0.0, t_end.abs().powf(1.0 / q), |s| {
                g(t_end + sign * s.powf(q)) * q * s.powf(q - 1.0)
            })
        };
        if mu * self.v_in_m_per_s < 1.0 {
            let dt_dv = |v: f64| {
                let f = k * self.x_of_v_m(v).powf(a) * (1.0 + mu * v);
                if f > 0.0 {
                    m / f
                } else {
                    0.0
                }
            };
            return half(self.v_in_m_per_s, &dt_dv) + half(self.v_out_exact_m_per_s(), &dt_dv);
        }
        let w_in = 1.0 + mu * self.v_in_m_per_s;
        let (s_in, s_out) = (w_in.ln(), self.ln_exit_gap());
        let dt_ds = |s: f64| {
            let bracket = (w_in - s.exp() - s_in + s).max(0.0);
            let x_pow = (m * q / (k * mu * mu) * bracket).powf(a / q);
            if x_pow > 0.0 {
                m / (mu * k * x_pow)
            } else {
                0.0
            }
        };
        half(s_in, &dt_ds) + half(s_out, &dt_ds)
    }
}

/// Points per decade of λ = μ·v_in in a [`ContactTimes`] table.
const CONTACT_TIME_POINTS_PER_DECADE: usize = 16;
/// The table spans λ from 10^LOG10_LAMBDA_MIN to 10^LOG10_LAMBDA_MAX.
const LOG10_LAMBDA_MIN: f64 = -4.0;
const LOG10_LAMBDA_MAX: f64 = 4.0;
const CONTACT_TIME_POINTS: usize =
    (LOG10_LAMBDA_MAX - LOG10_LAMBDA_MIN) as usize * CONTACT_TIME_POINTS_PER_DECADE + 1;

/// Eq. (9)'s contact time for one contact shape α, tabulated so that a contact's start costs a
/// power and an interpolation instead of a quadrature.
///
/// With x = X·ξ, t = T·s, X = (m·v_in²/k)^(1/(α+1)) and T = X/v_in, eq. (1) becomes
/// ξ'' = −ξ^α·(1 + λ·ξ'), ξ(0) = 0, ξ'(0) = 1, λ = μ·v_in: the contact time is T·τ̂(α, λ), and τ̂
/// depends on λ alone once α is fixed. The table holds ln τ̂ at 16 points per decade of λ from 10⁻⁴
/// to 10⁴ (eq. 9 with k = m = v_in = 1), interpolated linearly in (ln λ, ln τ̂): within 0.1% of the
/// quadrature (`contact_times_match_the_quadrature`). Below 10⁻⁴ the first point stands (τ̂ moves
/// by O(λ) there); beyond 10⁴ the quadrature itself is used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactTimes {
    alpha: f64,
    ln_tau: [f64; CONTACT_TIME_POINTS],
}

impl Default for ContactTimes {
    /// A table for no α (NaN): every lookup falls back to the quadrature.
    fn default() -> Self {
        Self {
            alpha: f64::NAN,
            ln_tau: [0.0; CONTACT_TIME_POINTS],
        }
    }
}

impl ContactTimes {
    /// The table for `alpha`: 129 quadratures, for a thread other than the audio thread.
    pub fn new(alpha: f64) -> Self {
        let mut ln_tau = [0.0; CONTACT_TIME_POINTS];
        for (i, ln_tau) in ln_tau.iter_mut().enumerate() {
            let log10_lambda = LOG10_LAMBDA_MIN + i as f64 / CONTACT_TIME_POINTS_PER_DECADE as f64;
            *ln_tau = Impact {
                stiffness: 1.0,
                mu_s_per_m: 10f64.powf(log10_lambda),
                alpha,
                mass_kg: 1.0,
                v_in_m_per_s: 1.0,
            }
            .contact_time_s()
            .ln();
        }
        Self { alpha, ln_tau }
    }

    /// The contact shape α this table is for (NaN for none).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Contact time of `impact` in seconds (eq. 9): from the table when `impact.alpha` is the
    /// table's, by quadrature otherwise.
    pub fn contact_time_s(&self, impact: &Impact) -> f64 {
        let lambda = impact.mu_s_per_m * impact.v_in_m_per_s;
        let position = (lambda.log10() - LOG10_LAMBDA_MIN) * CONTACT_TIME_POINTS_PER_DECADE as f64;
        if impact.alpha != self.alpha || !(position < (CONTACT_TIME_POINTS - 1) as f64) {
            return impact.contact_time_s();
        }
        // NaN (λ = 0 gives −∞) and λ below the table clamp to its first point.
        let position = position.max(0.0);
        let i = position as usize;
        let frac = position - i as f64;
        let ln_tau = self.ln_tau[i] + frac * (self.ln_tau[i + 1] - self.ln_tau[i]);
        let v_in = impact.v_in_m_per_s;
        let x_scale_m =
            (impact.mass_kg * v_in * v_in / impact.stiffness).powf(1.0 / (impact.alpha + 1.0));
        x_scale_m / v_in * ln_tau.exp()
    }
}

/// The compression curve x(v) of one impact (eq. 3): x^(α+1) = m(α+1)/k · [h(μv_in) − h(μv)]/μ².
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompressionCurve {
    /// m(α+1)/k.
    scale: f64,
    /// v_in²·h(μv_in)/(μv_in)² = h(μv_in)/μ².
    bracket_in: f64,
    mu_s_per_m: f64,
    /// 1/(α+1).
    inv_exponent: f64,
    stiffness: f64,
}

impl CompressionCurve {
    /// [h(μ·v_in) − h(μ·v)]/μ² in m²/s², the bracket of eq. (3) divided by μ²; negative outside
    /// [v_out, v_in]. μ = 0 gives (v_in² − v²)/2.
    #[inline]
    fn signed_bracket_over_mu2(&self, v_m_per_s: f64) -> f64 {
        self.bracket_in - v_m_per_s * v_m_per_s * h_over_y2(self.mu_s_per_m * v_m_per_s)
    }

    /// x(v) in metres (0 outside [v_out, v_in]).
    #[inline]
    pub fn x_m(&self, v_m_per_s: f64) -> f64 {
        (self.scale * self.signed_bracket_over_mu2(v_m_per_s).max(0.0)).powf(self.inv_exponent)
    }

    /// (x(v), f(x(v), v)): the point of the curve at v and its Hunt–Crossley force (eq. 1), with
    /// one power evaluation: x^α = x^(α+1)/x = m(α+1)/k·bracket/x.
    #[inline]
    pub fn x_and_force(&self, v_m_per_s: f64) -> (f64, f64) {
        let x_pow_q = self.scale * self.signed_bracket_over_mu2(v_m_per_s).max(0.0);
        let x = x_pow_q.powf(self.inv_exponent);
        if x > 0.0 {
            let force = self.stiffness * x_pow_q / x * (1.0 + self.mu_s_per_m * v_m_per_s);
            (x, force.max(0.0))
        } else {
            (0.0, 0.0)
        }
    }
}

/// ∫ₐᵇ g by composite 16-point Gauss–Legendre on 4 panels (exact for smooth g to far below the
/// accuracy any caller needs; nodes and weights from Abramowitz & Stegun, Table 25.4).
fn gauss_legendre(a: f64, b: f64, g: impl Fn(f64) -> f64) -> f64 {
    const NODES: [f64; 8] = [
        0.095_012_509_837_637_44,
        0.281_603_550_779_258_9,
        0.458_016_777_657_227_4,
        0.617_876_244_402_643_7,
        0.755_404_408_355_003,
        0.865_631_202_387_831_8,
        0.944_575_023_073_232_6,
        0.989_400_934_991_649_9,
    ];
    const WEIGHTS: [f64; 8] = [
        0.189_450_610_455_068_5,
        0.182_603_415_044_923_6,
        0.169_156_519_395_002_5,
        0.149_595_988_816_576_7,
        0.124_628_971_255_533_9,
        0.095_158_511_682_492_8,
        0.062_253_523_938_647_9,
        0.027_152_459_411_754_1,
    ];
    const PANELS: usize = 4;
    let width = (b - a) / PANELS as f64;
    let mut sum = 0.0;
    for panel in 0..PANELS {
        let mid = a + (panel as f64 + 0.5) * width;
        for (node, weight) in NODES.iter().zip(WEIGHTS) {
            let dx = 0.5 * width * node;
            sum += weight * (g(mid - dx) + g(mid + dx));
        }
    }
    0.5 * width * sum
}

#[cfg(test)]
mod tests;
