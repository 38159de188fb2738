//! Roughness noise: the dry friction's level modulated by white noise whose density per √Hz is the same at every sample rate.

/// Largest roughness density, 1/√Hz: the uniform draw's half-width √3·D·√(fs/2) stays below 1
/// up to 192 kHz, so the modulated friction never turns negative there (above, the half-width
/// is held at [`MAX_HALF_WIDTH`] and the density falls short of D).
pub const MAX_ROUGHNESS_PER_SQRT_HZ: f64 = 1.5e-3;

/// The audio band the user's roughness is stated over, Hz: a roughness ρ (relative RMS of µ
/// within it) is the density D = ρ/√(20 kHz).
pub const ROUGHNESS_BAND_HZ: f64 = 20_000.0;
/// Largest half-width of the draw: the factor stays above 0, so the contact never lets go.
const MAX_HALF_WIDTH: f64 = 0.99;

/// The factor 1 + r(t) that multiplies the dry friction (the Stribeck curve, through the normal
/// force the law sees): r white and uniform, of one-sided power spectral density D² (1/Hz) up to
/// fs/2. Its variance is D²·fs/2 (half-width √3·D·√(fs/2)), so any band's share of it, and the
/// force's spectrum per √Hz, do not change with the sample rate (SDT's noise is white per sample
/// at a fixed variance, so its level per √Hz falls as the rate rises: the Sound Design Toolkit,
/// docs/physics.md [11]). A modulated Stribeck curve
/// keeps the step passive: [`super::Bristle::step`]'s argument holds for every z_ss > 0.
#[derive(Clone, Debug)]
pub struct Roughness {
    /// Half-width of the uniform draw, h = √3·D·√(fs/2).
    half_width: f64,
    rng: fastrand::Rng,
}

impl Roughness {
    /// Noise of density `per_sqrt_hz` (clamped to [0, [`MAX_ROUGHNESS_PER_SQRT_HZ`]]) at
    /// `sample_rate_hz`, its draws seeded by `seed` (so renders repeat).
    pub fn new(per_sqrt_hz: f64, sample_rate_hz: f64, seed: u64) -> Self {
        let density = if per_sqrt_hz > 0.0 {
            per_sqrt_hz.min(MAX_ROUGHNESS_PER_SQRT_HZ)
        } else {
            0.0
        };
        Self {
            half_width: (3f64.sqrt() * density * (0.5 * sample_rate_hz.max(0.0)).sqrt())
                .min(MAX_HALF_WIDTH),
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// The next sample's factor 1 + r > 0.
    #[inline]
    pub fn next_factor(&mut self) -> f64 {
        if self.half_width == 0.0 {
            return 1.0;
        }
        1.0 + self.half_width * (2.0 * self.rng.f64() - 1.0)
    }
}
