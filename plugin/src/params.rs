//! Urto's host-visible parameters, in physical units, with text conversions that round-trip.

use nice_plug::prelude::*;
use std::sync::Arc;
use urto_dsp::contact::HuntCrossley;
use urto_dsp::voice::{Patch, MAX_ALPHA, MAX_MU_S_PER_M, MAX_STIFFNESS, MIN_ALPHA, MIN_STIFFNESS};

/// The parameters. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct UrtoParams {
    /// Contact stiffness k, stored as log₁₀(k / (N/m^α)) so the knob is logarithmic; text shows k.
    #[id = "k"]
    pub stiffness_log10: FloatParam,
    /// Contact dissipation μ in s/m.
    #[id = "mu"]
    pub mu_s_per_m: FloatParam,
    /// Contact-shape exponent α.
    #[id = "alpha"]
    pub alpha: FloatParam,
}

impl Default for UrtoParams {
    fn default() -> Self {
        let default = Patch::default().contact;
        Self {
            stiffness_log10: FloatParam::new(
                "Stiffness",
                default.stiffness.log10() as f32,
                FloatRange::Linear {
                    min: MIN_STIFFNESS.log10() as f32,
                    max: MAX_STIFFNESS.log10() as f32,
                },
            )
            .with_unit(" N/m^α")
            .with_value_to_string(Arc::new(|log10_k| format_stiffness(log10_k)))
            .with_string_to_value(Arc::new(parse_stiffness)),
            mu_s_per_m: FloatParam::new(
                "Dissipation",
                default.mu_s_per_m as f32,
                FloatRange::Skewed {
                    min: 0.0,
                    max: MAX_MU_S_PER_M as f32,
                    factor: FloatRange::skew_factor(-2.0),
                },
            )
            .with_unit(" s/m")
            .with_value_to_string(Arc::new(|mu| format!("{mu:.3}")))
            .with_string_to_value(Arc::new(|s| parse_number(s, " s/m"))),
            alpha: FloatParam::new(
                "Contact shape",
                default.alpha as f32,
                FloatRange::Linear {
                    min: MIN_ALPHA as f32,
                    max: MAX_ALPHA as f32,
                },
            )
            .with_value_to_string(Arc::new(|alpha| format!("{alpha:.2}")))
            .with_string_to_value(Arc::new(|s| parse_number(s, ""))),
        }
    }
}

impl UrtoParams {
    /// The engine settings for the current parameter values.
    pub fn patch(&self) -> Patch {
        Patch {
            contact: HuntCrossley {
                stiffness: 10f64.powf(f64::from(self.stiffness_log10.value())),
                mu_s_per_m: f64::from(self.mu_s_per_m.value()),
                alpha: f64::from(self.alpha.value()),
            },
        }
    }
}

/// k in scientific notation with three significant digits, e.g. "1.00e8".
fn format_stiffness(log10_k: f32) -> String {
    format!("{:.2e}", 10f64.powf(f64::from(log10_k)))
}

/// Parse k ("1e8", "1.00e8 N/m^α", "100000000") into log₁₀ k.
fn parse_stiffness(text: &str) -> Option<f32> {
    parse_number(text, " N/m^α")
        .filter(|k| *k > 0.0)
        .map(f32::log10)
}

/// Parse a number, with or without its unit suffix.
fn parse_number(text: &str, unit: &str) -> Option<f32> {
    let text = text.trim();
    let text = text.strip_suffix(unit.trim()).unwrap_or(text).trim();
    text.parse::<f32>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter's text survives value → text → value → text unchanged, across its range.
    #[test]
    fn text_conversions_round_trip() {
        let params = UrtoParams::default();
        for param in [&params.stiffness_log10, &params.mu_s_per_m, &params.alpha] {
            for i in 0..=100 {
                let normalized = i as f32 / 100.0;
                let text = param.normalized_value_to_string(normalized, true);
                let back = param
                    .string_to_normalized_value(&text)
                    .unwrap_or_else(|| panic!("{} cannot parse {text:?}", param.name()));
                assert_eq!(param.normalized_value_to_string(back, true), text);
            }
        }
    }

    #[test]
    fn stiffness_text_is_k_itself() {
        assert_eq!(format_stiffness(8.0), "1.00e8");
        assert_eq!(parse_stiffness("2.5e9 N/m^α"), Some(2.5e9f32.log10()));
        assert_eq!(parse_stiffness("-3"), None);
        assert_eq!(parse_number("0.25 s/m", " s/m"), Some(0.25));
        assert_eq!(parse_number("abc", ""), None);
    }
}
