//! The surface group: the profile a slider is drawn over, a ball rolls on and a dropped body slides on (kind, height, slope, ridges, grain), one group for the three scenes.

use super::choices::{RidgeShapeChoice, SurfaceChoice};
use super::{float, ids, linear, log_float, pow10, v, Kind, PresetKey};
use nice_plug::prelude::*;
use urto_dsp::surface::{RidgeShape, SurfaceSettings};
use urto_dsp::voice::Patch;

/// The range of Surface height, m.
pub const SURFACE_HEIGHT_RANGE_M: (f64, f64) = (1e-8, 1e-3);

/// The surface, shared by Slide, Roll and Drop. IDs are stable once released: never rename them (they
/// were the slide's before the roll shared them).
#[derive(Params)]
pub struct SurfaceParams {
    #[id = "surface"]
    pub surface: EnumParam<SurfaceChoice>,
    /// RMS roughness or ridge height, stored as log₁₀(m).
    #[id = "surface-height"]
    pub height_log10: FloatParam,
    #[id = "surface-slope"]
    pub slope: FloatParam,
    /// Ridge spacing, stored as log₁₀(m).
    #[id = "ridge-spacing"]
    pub ridge_spacing_log10: FloatParam,
    #[id = "ridge-shape"]
    pub ridge_shape: EnumParam<RidgeShapeChoice>,
    #[id = "ridge-duty"]
    pub ridge_duty: FloatParam,
    /// Grain size, stored as log₁₀(m).
    #[id = "grain-size"]
    pub grain_log10: FloatParam,
}

impl Default for SurfaceParams {
    /// The marble's wooden floor: the default roll's track.
    fn default() -> Self {
        let track = Patch::default().roll.settings.track;
        Self {
            surface: EnumParam::new("Surface", SurfaceChoice::Fractal),
            height_log10: log_float(
                "Surface height",
                track.height_m,
                SURFACE_HEIGHT_RANGE_M.0,
                SURFACE_HEIGHT_RANGE_M.1,
                " m",
            ),
            slope: float("Surface slope", track.slope, linear(0.0, 5.0), "", 2),
            ridge_spacing_log10: log_float(
                "Ridge spacing",
                track.ridge_spacing_m,
                1e-4,
                0.05,
                " m",
            ),
            ridge_shape: EnumParam::new("Ridge shape", RidgeShapeChoice::Rounded),
            ridge_duty: float("Tooth width", 0.3, linear(0.05, 0.95), "", 2),
            grain_log10: log_float("Grain size", track.grain_m, 1e-5, 1e-2, " m"),
        }
    }
}

impl SurfaceParams {
    /// Set the surface the slider is drawn over, the ball rolls on, and a dropped body slides
    /// and rolls on once landed (each note seeds it).
    pub fn apply(&self, patch: &mut Patch) {
        let surface = SurfaceSettings {
            kind: self.surface.value().kind(),
            height_m: pow10(&self.height_log10),
            slope: v(&self.slope),
            ridge_spacing_m: pow10(&self.ridge_spacing_log10),
            ridge_shape: match self.ridge_shape.value() {
                RidgeShapeChoice::Rounded => RidgeShape::Rounded,
                RidgeShapeChoice::Saw => RidgeShape::Saw,
                RidgeShapeChoice::Teeth => RidgeShape::Teeth {
                    duty: v(&self.ridge_duty),
                },
            },
            grain_m: pow10(&self.grain_log10),
            seed: 0,
        };
        patch.slide.surface = surface;
        patch.roll.settings.track = surface;
        patch.drop.surface = surface;
    }

    /// Its preset keys: physical name with unit, parameter id, how the value is stored.
    pub fn preset_keys() -> Vec<PresetKey> {
        vec![
            PresetKey::new("surface", "surface", Kind::Enum(ids::<SurfaceChoice>())),
            PresetKey::new("surface_height_m", "surface-height", Kind::Log10),
            PresetKey::new("surface_slope", "surface-slope", Kind::Float),
            PresetKey::new("ridge_spacing_m", "ridge-spacing", Kind::Log10),
            PresetKey::new(
                "ridge_shape",
                "ridge-shape",
                Kind::Enum(ids::<RidgeShapeChoice>()),
            ),
            PresetKey::new("tooth_width", "ridge-duty", Kind::Float),
            PresetKey::new("grain_size_m", "grain-size", Kind::Log10),
        ]
    }
}
