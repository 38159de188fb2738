//! The contact group: k, μ, α, the law, the damping's source, the integrator, the guard and the correction.

use super::choices::{DampingFromChoice, IntegratorChoice, LawChoice};
use super::{float, ids, linear, log_float, pow10, skewed, v, Kind, PresetKey, POLY_STIFFNESS};
use nice_plug::prelude::*;
use urto_dsp::contact::{
    HuntCrossley, MAX_ALPHA, MAX_MU_S_PER_M, MAX_STIFFNESS, MIN_ALPHA, MIN_STIFFNESS,
};
use urto_dsp::interaction::{ContactSetup, Damping};
use urto_dsp::voice::Patch;

/// The contact between striker and object: its law, stiffness, dissipation, shape and how it is
/// integrated. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct ContactParams {
    /// Contact stiffness k, stored as log₁₀(k / (N/m^α)) so the knob is logarithmic; text shows k.
    #[id = "k"]
    pub stiffness_log10: FloatParam,
    /// Contact dissipation μ in s/m.
    #[id = "mu"]
    pub mu_s_per_m: FloatParam,
    /// Contact-shape exponent α.
    #[id = "alpha"]
    pub alpha: FloatParam,
    #[id = "integrator"]
    pub integrator: EnumParam<IntegratorChoice>,
    #[id = "law"]
    pub law: EnumParam<LawChoice>,
    #[id = "damping-from"]
    pub damping_from: EnumParam<DampingFromChoice>,
    /// Target coefficient of restitution e (with "damping from" = restitution).
    #[id = "restitution"]
    pub restitution: FloatParam,
    /// Linear damping c of the Hertz + damper law, stored as log₁₀(N·s/m).
    #[id = "linear-damping"]
    pub linear_damping_log10: FloatParam,
    /// The paper's exit correction with the exact v_out (rigid objects).
    #[id = "corrections"]
    pub corrections: BoolParam,
    /// The energy guard on contact steps (the corrections for a modal object).
    #[id = "guard"]
    pub guard: BoolParam,
}

impl Default for ContactParams {
    fn default() -> Self {
        let contact = Patch::default().contact;
        let law = contact.law;
        Self {
            stiffness_log10: log_float(
                "Stiffness",
                law.stiffness,
                MIN_STIFFNESS,
                MAX_STIFFNESS,
                " N/m^α",
            )
            .with_poly_modulation_id(POLY_STIFFNESS),
            mu_s_per_m: float(
                "Dissipation",
                law.mu_s_per_m,
                skewed(0.0, MAX_MU_S_PER_M, -2.0),
                " s/m",
                3,
            ),
            alpha: float(
                "Contact shape",
                law.alpha,
                linear(MIN_ALPHA, MAX_ALPHA),
                "",
                2,
            ),
            integrator: EnumParam::new("Integrator", IntegratorChoice::Am1),
            law: EnumParam::new("Contact law", LawChoice::HuntCrossley),
            damping_from: EnumParam::new("Damping from", DampingFromChoice::Dissipation),
            restitution: float("Restitution", 0.7, linear(0.01, 0.999), "", 3),
            linear_damping_log10: log_float("Linear damping", 1.0, 1e-3, 1e4, " N·s/m"),
            corrections: BoolParam::new("Exit correction", contact.exit_correction),
            guard: BoolParam::new("Energy guard", contact.guard),
        }
    }
}

impl ContactParams {
    /// Set the patch's contact.
    pub fn apply(&self, patch: &mut Patch) {
        patch.contact = ContactSetup {
            law: HuntCrossley {
                stiffness: pow10(&self.stiffness_log10),
                mu_s_per_m: v(&self.mu_s_per_m),
                alpha: v(&self.alpha),
            },
            method: self.integrator.value().method(),
            guard: self.guard.value(),
            exit_correction: self.corrections.value(),
            damping: match self.law.value() {
                LawChoice::HuntCrossley => Damping::HuntCrossley,
                LawChoice::HertzDamper => Damping::Linear {
                    n_s_per_m: pow10(&self.linear_damping_log10),
                },
            },
            restitution: match self.damping_from.value() {
                DampingFromChoice::Dissipation => None,
                DampingFromChoice::Restitution => Some(v(&self.restitution)),
            },
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("stiffness_n_per_m_alpha", "k", Kind::Log10),
            PresetKey::new("dissipation_s_per_m", "mu", Kind::Float),
            PresetKey::new("contact_shape_alpha", "alpha", Kind::Float),
            PresetKey::new(
                "integrator",
                "integrator",
                Kind::Enum(ids::<IntegratorChoice>()),
            ),
            PresetKey::new("contact_law", "law", Kind::Enum(ids::<LawChoice>())),
            PresetKey::new(
                "damping_from",
                "damping-from",
                Kind::Enum(ids::<DampingFromChoice>()),
            ),
            PresetKey::new("restitution", "restitution", Kind::Float),
            PresetKey::new("linear_damping_n_s_per_m", "linear-damping", Kind::Log10),
            PresetKey::new("exit_correction", "corrections", Kind::Bool),
            PresetKey::new("energy_guard", "guard", Kind::Bool),
        ]
    }
}
