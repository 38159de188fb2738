//! The slide scene's parameters: the slider's force and drive, and the friction law (the surface it is drawn over is the surface group's).

use super::choices::{SpeedSourceChoice, StrokeChoice};
use super::{float, ids, linear, log_float, pow10, skewed, v, Controllers, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::friction::{FrictionLaw, ROUGHNESS_BAND_HZ};
use urto_dsp::voice::{Patch, Slide};

/// The slide scene. IDs are stable once released: never rename them.
#[derive(Params)]
pub struct SlideParams {
    /// Normal force pressing the slider on, stored as log₁₀(N).
    #[id = "slide-force"]
    pub force_log10: FloatParam,
    #[id = "slide-speed"]
    pub speed_m_per_s: FloatParam,
    #[id = "slide-source"]
    pub source: EnumParam<SpeedSourceChoice>,
    #[id = "slide-stroke"]
    pub stroke: EnumParam<StrokeChoice>,
    #[id = "stroke-length"]
    pub stroke_length_m: FloatParam,
    #[id = "slide-coupling"]
    pub coupling: FloatParam,
    #[id = "slide-edge"]
    pub against_edge: BoolParam,
    #[id = "slide-in-place"]
    pub in_place: BoolParam,
    /// Radius of the slider's tip, stored as log₁₀(m).
    #[id = "slider-tip"]
    pub tip_log10: FloatParam,
    #[id = "mu-static"]
    pub mu_static: FloatParam,
    #[id = "mu-kinetic"]
    pub mu_kinetic: FloatParam,
    /// Stribeck velocity, stored as log₁₀(m/s).
    #[id = "stribeck"]
    pub stribeck_log10: FloatParam,
    /// Bristle stiffness σ₀, stored as log₁₀(N/m).
    #[id = "bristle-stiffness"]
    pub bristle_stiffness_log10: FloatParam,
    #[id = "bristle-damping"]
    pub bristle_damping_n_s_per_m: FloatParam,
    #[id = "viscous-friction"]
    pub viscous_n_s_per_m: FloatParam,
    #[id = "breakaway"]
    pub breakaway: FloatParam,
    /// Roughness noise as the relative RMS of µ over 20 kHz, %.
    #[id = "friction-noise"]
    pub noise_percent: FloatParam,
}

impl Default for SlideParams {
    fn default() -> Self {
        let d = Patch::default().slide;
        let law = d.friction;
        Self {
            force_log10: log_float("Slide force", d.force_n, 1e-2, 100.0, " N"),
            speed_m_per_s: float(
                "Slide speed",
                d.speed_m_per_s,
                skewed(0.0, 5.0, -1.0),
                " m/s",
                3,
            ),
            source: EnumParam::new("Slide speed source", SpeedSourceChoice::ModWheel),
            stroke: EnumParam::new("Stroke", StrokeChoice::Forward),
            stroke_length_m: float(
                "Stroke length",
                d.stroke_length_m,
                skewed(0.01, 2.0, -1.0),
                " m",
                3,
            ),
            coupling: float(
                "Tangential coupling",
                d.coupling,
                skewed(0.0, 1.0, -1.0),
                "",
                3,
            ),
            against_edge: BoolParam::new("Against an edge", d.against_edge),
            in_place: BoolParam::new("Slide in place", d.in_place),
            tip_log10: log_float("Slider tip radius", d.tip_radius_m, 1e-5, 1e-2, " m"),
            mu_static: float("Static friction", law.mu_static, linear(0.0, 3.0), "", 2),
            mu_kinetic: float("Kinetic friction", law.mu_kinetic, linear(0.0, 3.0), "", 2),
            stribeck_log10: log_float("Stribeck velocity", law.stribeck_m_per_s, 1e-4, 1.0, " m/s"),
            bristle_stiffness_log10: log_float(
                "Bristle stiffness",
                law.bristle_stiffness_n_per_m,
                1e2,
                1e9,
                " N/m",
            ),
            bristle_damping_n_s_per_m: float(
                "Bristle damping",
                law.bristle_damping_n_s_per_m,
                skewed(0.0, 1000.0, -2.0),
                " N·s/m",
                2,
            ),
            viscous_n_s_per_m: float(
                "Viscous friction",
                law.viscous_n_s_per_m,
                skewed(0.0, 10.0, -2.0),
                " N·s/m",
                3,
            ),
            breakaway: float("Break-away", law.breakaway, linear(0.0, 0.99), "", 2),
            noise_percent: float(
                "Friction noise",
                100.0 * law.roughness_per_sqrt_hz * ROUGHNESS_BAND_HZ.sqrt(),
                skewed(0.0, 20.0, -1.0),
                " %",
                2,
            ),
        }
    }
}

impl SlideParams {
    /// Set the patch's slide, its speed's share from the controller the source names.
    pub fn apply(&self, patch: &mut Patch, controllers: &Controllers) {
        patch.slide = Slide {
            friction: FrictionLaw {
                mu_static: v(&self.mu_static),
                mu_kinetic: v(&self.mu_kinetic),
                stribeck_m_per_s: pow10(&self.stribeck_log10),
                bristle_stiffness_n_per_m: pow10(&self.bristle_stiffness_log10),
                bristle_damping_n_s_per_m: v(&self.bristle_damping_n_s_per_m),
                viscous_n_s_per_m: v(&self.viscous_n_s_per_m),
                breakaway: v(&self.breakaway),
                roughness_per_sqrt_hz: 0.01 * v(&self.noise_percent) / ROUGHNESS_BAND_HZ.sqrt(),
            },
            force_n: pow10(&self.force_log10),
            speed_m_per_s: v(&self.speed_m_per_s),
            speed_fraction: self.source.value().fraction(controllers),
            stroke: self.stroke.value().stroke(),
            stroke_length_m: v(&self.stroke_length_m),
            coupling: v(&self.coupling),
            against_edge: self.against_edge.value(),
            in_place: self.in_place.value(),
            tip_radius_m: pow10(&self.tip_log10),
            ..patch.slide
        };
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("slide_force_n", "slide-force", Kind::Log10),
            PresetKey::new("slide_speed_m_per_s", "slide-speed", Kind::Float),
            PresetKey::new(
                "slide_speed_source",
                "slide-source",
                Kind::Enum(ids::<SpeedSourceChoice>()),
            ),
            PresetKey::new("stroke", "slide-stroke", Kind::Enum(ids::<StrokeChoice>())),
            PresetKey::new("stroke_length_m", "stroke-length", Kind::Float),
            PresetKey::new("tangential_coupling", "slide-coupling", Kind::Float),
            PresetKey::new("against_an_edge", "slide-edge", Kind::Bool),
            PresetKey::new("slide_in_place", "slide-in-place", Kind::Bool),
            PresetKey::new("slider_tip_radius_m", "slider-tip", Kind::Log10),
            PresetKey::new("mu_static", "mu-static", Kind::Float),
            PresetKey::new("mu_kinetic", "mu-kinetic", Kind::Float),
            PresetKey::new("stribeck_m_per_s", "stribeck", Kind::Log10),
            PresetKey::new(
                "bristle_stiffness_n_per_m",
                "bristle-stiffness",
                Kind::Log10,
            ),
            PresetKey::new("bristle_damping_n_s_per_m", "bristle-damping", Kind::Float),
            PresetKey::new(
                "viscous_friction_n_s_per_m",
                "viscous-friction",
                Kind::Float,
            ),
            PresetKey::new("breakaway", "breakaway", Kind::Float),
            PresetKey::new("friction_noise_percent", "friction-noise", Kind::Float),
        ]
    }
}
