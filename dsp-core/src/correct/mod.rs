//! The paper's two closed-form corrections (Section IV-A): the hybrid x(v) correction during
//! contact and the exit-velocity constraint at release, with a choice of exit-velocity formula.

use crate::analytic::Impact;

/// Which corrections are applied to a Hunt–Crossley impact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Correction {
    None,
    /// Section IV-A1: during contact, x_n is replaced by x(v_n) of eq. (3).
    Hybrid,
    /// Section IV-A2: at the end of contact, v = v_out and x = 0.
    Exit,
    /// Both of the above.
    Both,
}

impl Correction {
    pub const ALL: [Correction; 4] = [
        Correction::None,
        Correction::Hybrid,
        Correction::Exit,
        Correction::Both,
    ];

    pub fn hybrid(self) -> bool {
        matches!(self, Correction::Hybrid | Correction::Both)
    }

    pub fn exit(self) -> bool {
        matches!(self, Correction::Exit | Correction::Both)
    }

    /// Lower-case name as used on command lines.
    pub fn name(self) -> &'static str {
        match self {
            Correction::None => "none",
            Correction::Hybrid => "hybrid",
            Correction::Exit => "exit",
            Correction::Both => "both",
        }
    }

    pub fn from_name(name: &str) -> Option<Correction> {
        Correction::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Where the exit-velocity constraint takes v_out from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExitVelocity {
    /// The paper's ṽ_out (eqs. 7–8), always.
    Approx,
    /// The exact root of eq. (6), through Lambert W, always.
    Exact,
    /// ṽ_out where its error is known to stay below the threshold, the exact value elsewhere.
    Auto(ApproxRange),
}

impl ExitVelocity {
    /// The exit velocity in m/s (negative) to impose on `impact`.
    pub fn v_out_m_per_s(&self, impact: &Impact) -> f64 {
        match self {
            ExitVelocity::Approx => impact.v_out_approx_m_per_s(),
            ExitVelocity::Exact => impact.v_out_exact_m_per_s(),
            ExitVelocity::Auto(range)
                if range.approx_is_good(impact.mu_s_per_m * impact.v_in_m_per_s) =>
            {
                impact.v_out_approx_m_per_s()
            }
            ExitVelocity::Auto(_) => impact.v_out_exact_m_per_s(),
        }
    }
}

/// The values of u = μ·v_in where ṽ_out errs by less than a threshold (Fig. 3): the error vanishes
/// at both ends and peaks near u ≈ 3, so the good set is u < `below` together with u > `above`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ApproxRange {
    /// ṽ_out is within the threshold for every u below this.
    pub below: f64,
    /// ṽ_out is within the threshold for every u above this.
    pub above: f64,
}

impl ApproxRange {
    /// Scan |%err(ṽ_out)| on a fine logarithmic grid of u = μ·v_in in [1e-4, 1e3] and return the
    /// outermost points of the region where it reaches `threshold_pct`. Not for the audio thread
    /// (about 10⁴ Lambert W evaluations).
    pub fn for_threshold(threshold_pct: f64) -> Self {
        const STEPS: usize = 14_000;
        let (log_lo, log_hi) = (-4.0f64, 3.0f64);
        let u_at = |i: usize| 10f64.powf(log_lo + (log_hi - log_lo) * i as f64 / STEPS as f64);
        let bad = |u: f64| approx_error_pct(u).abs() >= threshold_pct;
        let first_bad = (0..=STEPS).find(|&i| bad(u_at(i)));
        let last_bad = (0..=STEPS).rev().find(|&i| bad(u_at(i)));
        match (first_bad, last_bad) {
            (Some(first), Some(last)) => Self {
                below: u_at(first.saturating_sub(1)),
                above: u_at((last + 1).min(STEPS)),
            },
            _ => Self {
                below: f64::INFINITY,
                above: f64::INFINITY,
            },
        }
    }

    /// Whether ṽ_out may be used at u = μ·v_in.
    #[inline]
    pub fn approx_is_good(&self, u: f64) -> bool {
        u < self.below || u > self.above
    }
}

/// %err of ṽ_out against the exact v_out at u = μ·v_in (v_in = 1 m/s, μ = u; the error depends on
/// u only, eq. 6).
pub fn approx_error_pct(u: f64) -> f64 {
    let impact = Impact {
        stiffness: 1.0,
        mu_s_per_m: u,
        alpha: 1.5,
        mass_kg: 1.0,
        v_in_m_per_s: 1.0,
    };
    100.0 * (impact.v_out_approx_m_per_s() / impact.v_out_exact_m_per_s() - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_range_separates_good_from_bad() {
        for threshold in [1.0, 0.1] {
            let range = ApproxRange::for_threshold(threshold);
            assert!(range.below < range.above);
            for i in 0..2000 {
                let u = 10f64.powf(-4.0 + 7.0 * i as f64 / 2000.0);
                if range.approx_is_good(u) {
                    assert!(
                        approx_error_pct(u).abs() < threshold,
                        "u {u}: {}",
                        approx_error_pct(u)
                    );
                }
            }
            // Inside the bad region the threshold is exceeded somewhere.
            let peak = (0..200)
                .map(|i| range.below + (range.above - range.below) * i as f64 / 199.0)
                .map(|u| approx_error_pct(u).abs())
                .fold(0.0, f64::max);
            assert!(peak >= threshold);
        }
    }

    #[test]
    fn names_round_trip() {
        for c in Correction::ALL {
            assert_eq!(Correction::from_name(c.name()), Some(c));
        }
    }
}
