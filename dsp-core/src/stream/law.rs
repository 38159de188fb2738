//! The energy an event of a stream releases: a power law measured on crumpling sheets, or the reference toolkit's clipped exponential.

/// SDT's crumpling draws each event's energy as its crushing energy times an exponential variate
/// of rate 1.45, clipped to [0.1, 10] (SDTControl.c, `SDTCrumpling_dsp`).
const SDT_RATE: f64 = 1.45;
const SDT_UNDERSHOOT: f64 = 0.1;
const SDT_OVERSHOOT: f64 = 10.0;
/// The widest energy range a power law may span (max/min), and the lowest energy, J: far beyond
/// any audible stream, and where (max/min)^(1−α) stays a normal number.
const MAX_DECADES: f64 = 12.0;
const MIN_ENERGY_J: f64 = 1e-15;

/// How the energies of a stream's events are distributed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EnergyLaw {
    /// p(E) ∝ E^(−exponent) for min_j ≤ E ≤ max_j (max_j infinite only with exponent > 1): the
    /// acoustic emission of crumpling sheets, exponent ≈ 1.3–1.6 (Houle & Sethna, Phys. Rev. E 54,
    /// 1996).
    PowerLaw {
        exponent: f64,
        min_j: f64,
        max_j: f64,
    },
    /// The reference toolkit's law, for comparison: scale_j · clip(X, 0.1, 10), X exponential of
    /// rate 1.45 (SDT's crumpling and breaking).
    Exponential { scale_j: f64 },
}

impl EnergyLaw {
    /// A power law, or the reason it is refused: energies must be positive and finite (the
    /// maximum may be infinite), the maximum above the minimum and within 12 decades of it, and
    /// without a maximum the exponent above 1 (below, the law has no normalisation).
    pub fn power_law(exponent: f64, min_j: f64, max_j: Option<f64>) -> Result<Self, String> {
        if !exponent.is_finite() {
            return Err(format!(
                "the energy exponent must be finite, not {exponent}"
            ));
        }
        if !(min_j >= MIN_ENERGY_J && min_j.is_finite()) {
            return Err(format!(
                "the minimum energy must be finite and at least {MIN_ENERGY_J:e} J, not {min_j} J"
            ));
        }
        let max_j = match max_j {
            None if exponent <= 1.0 => {
                return Err(format!(
                    "an energy exponent of {exponent} (≤ 1) needs a maximum energy: without one \
                     the power law cannot be normalised"
                ))
            }
            None => f64::INFINITY,
            Some(max_j) if !(max_j > min_j) => {
                return Err(format!(
                    "the maximum energy {max_j} J must exceed the minimum {min_j} J"
                ))
            }
            Some(max_j) if max_j / min_j > 10f64.powf(MAX_DECADES) => {
                return Err(format!(
                    "the energies may span at most {MAX_DECADES} decades, not {min_j} to {max_j} J"
                ))
            }
            Some(max_j) => max_j,
        };
        Ok(Self::PowerLaw {
            exponent,
            min_j,
            max_j,
        })
    }

    /// The reference toolkit's law at `scale_j` (its crushing energy), or the reason it is refused.
    pub fn sdt(scale_j: f64) -> Result<Self, String> {
        if !(scale_j >= MIN_ENERGY_J && scale_j.is_finite()) {
            return Err(format!(
                "the energy scale must be finite and at least {MIN_ENERGY_J:e} J, not {scale_j} J"
            ));
        }
        Ok(Self::Exponential { scale_j })
    }

    /// The energy whose cumulative probability is `u` in [0, 1), J: the law's inverse
    /// distribution function ([`power_law_quantile`] for the power law).
    pub fn energy_j(&self, u: f64) -> f64 {
        match *self {
            Self::PowerLaw {
                exponent,
                min_j,
                max_j,
            } => power_law_quantile(exponent, min_j, max_j, u),
            Self::Exponential { scale_j } => {
                let x = -(1.0 - u).ln() / SDT_RATE;
                scale_j * x.clamp(SDT_UNDERSHOOT, SDT_OVERSHOOT)
            }
        }
    }

    /// The mean energy of an event, J: for the power law ∫E^(1−α)dE / ∫E^(−α)dE over its
    /// range (infinite without a maximum at α ≤ 2); for the reference toolkit's, by quadrature.
    pub fn mean_j(&self) -> f64 {
        match *self {
            Self::PowerLaw {
                exponent,
                min_j,
                max_j,
            } => {
                power_integral(1.0 - exponent, min_j, max_j)
                    / power_integral(-exponent, min_j, max_j)
            }
            Self::Exponential { .. } => {
                const STEPS: usize = 4096;
                let sum: f64 = (0..STEPS)
                    .map(|i| self.energy_j((i as f64 + 0.5) / STEPS as f64))
                    .sum();
                sum / STEPS as f64
            }
        }
    }

    /// The energy of an event that breaks the whole object loose (size 1) when the stream's
    /// settings name none, J: the law's largest energy, or two decades above its smallest when
    /// it has none (the range crumpling measurements span).
    pub fn whole_object_j(&self) -> f64 {
        match *self {
            Self::PowerLaw { max_j, .. } if max_j.is_finite() => max_j,
            Self::PowerLaw { min_j, .. } => 100.0 * min_j,
            Self::Exponential { scale_j } => SDT_OVERSHOOT * scale_j,
        }
    }
}

/// The value whose cumulative probability is `u` in [0, 1) under p(x) ∝ x^(−exponent) on
/// [min, max]: with a = 1 − α, x = x₀·(1 + u·((x₁/x₀)^a − 1))^(1/a), x = x₀·(1 − u)^(1/a)
/// without a maximum, and x = x₀·(x₁/x₀)^u at α = 1.
pub fn power_law_quantile(exponent: f64, min: f64, max: f64, u: f64) -> f64 {
    let a = 1.0 - exponent;
    if a.abs() < 1e-9 {
        min * (max / min).powf(u)
    } else if max.is_infinite() {
        min * (1.0 - u).powf(1.0 / a)
    } else {
        let span = (max / min).powf(a) - 1.0;
        (min * (1.0 + u * span).powf(1.0 / a)).clamp(min, max)
    }
}

/// ∫ x^p dx over [min, max] (max may be infinite where the integral converges, p < −1).
fn power_integral(p: f64, min: f64, max: f64) -> f64 {
    let q = p + 1.0;
    if q.abs() < 1e-9 {
        (max / min).ln()
    } else {
        (max.powf(q) - min.powf(q)) / q
    }
}
