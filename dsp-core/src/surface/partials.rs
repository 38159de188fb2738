//! The partials of each kind of surface: ridges as the Fourier series of their shape, fractal and grain roughness as seeded octaves of partials.

use std::f64::consts::{PI, TAU};

/// Most partials a surface has.
pub const MAX_PARTIALS: usize = 128;
/// Partials per octave of a rough surface, at these fixed ratios within the octave (spread so
/// that no two octaves' partials coincide: the profile has no period shorter than the coarsest
/// wavelength's 2⁸ multiple).
const OCTAVE_RATIOS: [f64; 6] = [1.0, 1.12, 1.27, 1.41, 1.59, 1.78];
/// Octaves of a fractal surface, from its coarsest wavelength down by halves.
const FRACTAL_OCTAVES: usize = 14;
/// Coarsest wavelength of a fractal surface, m.
const FRACTAL_COARSEST_M: f64 = 0.05;
/// A grain surface spans from 64 grain sizes down to a quarter of one.
const GRAIN_OCTAVES: usize = 8;

/// What a surface is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SurfaceKind {
    /// No profile.
    Smooth,
    /// Rough at every scale: a power spectrum ∝ k^(−β) from 5 cm down to 3 µm.
    Fractal,
    /// Evenly spaced ridges of one shape.
    Ridges,
    /// Sandpaper: grains of one size, a flat spectrum from 64 grain sizes down to one grain,
    /// falling as k⁻⁴ below.
    Grain,
}

/// The shape of one ridge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RidgeShape {
    /// Rounded crests meeting in sharp troughs, |sin|: a washboard's corrugation.
    Rounded,
    /// A ramp up and a sheer drop: a guiro's teeth (they sound differently each way).
    Saw,
    /// Flat-topped teeth a fraction `duty` of the spacing wide: a zip, a comb.
    Teeth { duty: f64 },
}

/// A surface as the user sets it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceSettings {
    pub kind: SurfaceKind,
    /// RMS height of a rough surface, or the height of a ridge (trough to crest), m.
    pub height_m: f64,
    /// Spectral slope β of a fractal surface (power ∝ k^(−β); 1…3 is natural).
    pub slope: f64,
    /// Ridge spacing, m.
    pub ridge_spacing_m: f64,
    pub ridge_shape: RidgeShape,
    /// Grain size of a grain surface, m.
    pub grain_m: f64,
    pub seed: u64,
}

impl SurfaceSettings {
    /// A smooth surface.
    pub fn smooth() -> Self {
        Self {
            kind: SurfaceKind::Smooth,
            height_m: 0.0,
            slope: 2.0,
            ridge_spacing_m: 3e-3,
            ridge_shape: RidgeShape::Rounded,
            grain_m: 1e-4,
            seed: 1,
        }
    }

    /// A fractal surface of spectral slope `beta` whose partials of wavelength up to
    /// `longest_m` have the RMS height `rms_m` (in expectation over seeds; the whole surface is
    /// taller by its longer wavelengths). Its octave of index j carries the power 2^(j·(1 − β))
    /// of the coarsest's ([`Partials::new`]), so the share of the mean square at wavelengths up
    /// to `longest_m` is Σ over those partials of 2^(j·(1 − β)) over the same sum over all.
    pub fn fractal_rms_below(rms_m: f64, beta: f64, longest_m: f64, seed: u64) -> Self {
        let count = rough_count(FRACTAL_OCTAVES);
        let power = |i: usize| 2f64.powf((i / OCTAVE_RATIOS.len()) as f64 * (1.0 - beta));
        let below: f64 = (0..count)
            .filter(|&i| rough_wavelength_m(FRACTAL_COARSEST_M, i) <= longest_m)
            .map(power)
            .sum();
        let share = below / (0..count).map(power).sum::<f64>();
        Self {
            kind: SurfaceKind::Fractal,
            height_m: if share > 0.0 {
                rms_m / share.sqrt()
            } else {
                0.0
            },
            slope: beta,
            seed,
            ..Self::smooth()
        }
    }
}

/// Partials of a rough surface of `octaves` octaves.
fn rough_count(octaves: usize) -> usize {
    (octaves * OCTAVE_RATIOS.len()).min(MAX_PARTIALS)
}

/// Wavelength of partial `i` of a rough surface whose coarsest wavelength is `coarsest_m`, m.
fn rough_wavelength_m(coarsest_m: f64, i: usize) -> f64 {
    let (octave, within) = (i / OCTAVE_RATIOS.len(), i % OCTAVE_RATIOS.len());
    coarsest_m / 2f64.powi(octave as i32) / OCTAVE_RATIOS[within]
}

/// A surface's partials: wavenumber k (rad/m, ascending), amplitude (m) and phase at x = 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Partials {
    pub count: usize,
    pub wavenumber_per_m: [f64; MAX_PARTIALS],
    pub amplitude_m: [f64; MAX_PARTIALS],
    pub phase: [f64; MAX_PARTIALS],
    /// Partials in harmonic order (kᵢ = (i + 1)·k₀: ridges): their phasors follow by products.
    pub harmonic: bool,
}

impl Partials {
    pub fn new(settings: &SurfaceSettings) -> Self {
        let mut partials = Self {
            count: 0,
            wavenumber_per_m: [0.0; MAX_PARTIALS],
            amplitude_m: [0.0; MAX_PARTIALS],
            phase: [0.0; MAX_PARTIALS],
            harmonic: false,
        };
        let height = settings.height_m.max(0.0);
        match settings.kind {
            SurfaceKind::Smooth => {}
            SurfaceKind::Ridges => partials.ridges(settings, height),
            SurfaceKind::Fractal => partials.rough(
                settings.seed,
                FRACTAL_COARSEST_M,
                FRACTAL_OCTAVES,
                |_| settings.slope,
                height,
            ),
            SurfaceKind::Grain => {
                let grain = settings.grain_m.max(1e-6);
                partials.rough(
                    settings.seed,
                    64.0 * grain,
                    GRAIN_OCTAVES,
                    |wavelength| if wavelength >= grain { 0.0 } else { 4.0 },
                    height,
                );
            }
        }
        partials
    }

    /// The Fourier series of one ridge shape at spacing d, height H (k_n = 2πn/d):
    /// - |sin(πx/d)| = 2/π − (4/π)·Σ cos(2πnx/d)/(4n² − 1);
    /// - the saw x/d − ⌊x/d⌋ = ½ − (1/π)·Σ sin(2πnx/d)/n;
    /// - teeth of duty δ = δ + Σ (2/(πn))·sin(πnδ)·cos(2πnx/d).
    fn ridges(&mut self, settings: &SurfaceSettings, height: f64) {
        let spacing = settings.ridge_spacing_m.max(1e-6);
        self.harmonic = true;
        self.count = MAX_PARTIALS;
        for i in 0..MAX_PARTIALS {
            let n = (i + 1) as f64;
            self.wavenumber_per_m[i] = TAU * n / spacing;
            let (amplitude, phase) = match settings.ridge_shape {
                RidgeShape::Rounded => (4.0 / (PI * (4.0 * n * n - 1.0)), PI),
                RidgeShape::Saw => (1.0 / (PI * n), 0.5 * PI),
                RidgeShape::Teeth { duty } => {
                    let delta = duty.clamp(0.01, 0.99);
                    (2.0 * (PI * n * delta).sin() / (PI * n), 0.0)
                }
            };
            self.amplitude_m[i] = height * amplitude;
            self.phase[i] = phase;
        }
    }

    /// Seeded octaves of partials from `coarsest_m` down by halves, the power of the octave of
    /// wavelength λ ∝ k^(1 − β(λ)) (a spectrum ∝ k^(−β) integrated over the octave), each
    /// partial's amplitude drawn from a Rayleigh law and its phase uniform; scaled to the RMS
    /// height `rms_m` (a partial of amplitude a has mean square a²/2).
    fn rough(
        &mut self,
        seed: u64,
        coarsest_m: f64,
        octaves: usize,
        slope_at: impl Fn(f64) -> f64,
        rms_m: f64,
    ) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let per_octave = OCTAVE_RATIOS.len();
        self.count = rough_count(octaves);
        // Octave power, relative to the coarsest, accumulating each octave's own slope.
        let mut octave_power = 1.0;
        let mut mean_square = 0.0;
        for i in 0..self.count {
            let wavelength = rough_wavelength_m(coarsest_m, i);
            if i % per_octave == 0 && i > 0 {
                octave_power *= 2f64.powf(1.0 - slope_at(wavelength));
            }
            self.wavenumber_per_m[i] = TAU / wavelength;
            let rayleigh = (-2.0 * (1.0 - rng.f64()).ln()).sqrt() / std::f64::consts::SQRT_2;
            self.amplitude_m[i] = (octave_power / per_octave as f64).sqrt() * rayleigh;
            self.phase[i] = TAU * rng.f64();
            mean_square += 0.5 * self.amplitude_m[i] * self.amplitude_m[i];
        }
        // A slope so steep or so flat that the octave powers overflow leaves the surface flat.
        let scale = if mean_square > 0.0 && mean_square.is_finite() {
            rms_m / mean_square.sqrt()
        } else {
            0.0
        };
        self.amplitude_m[..self.count]
            .iter_mut()
            .for_each(|a| *a = if scale > 0.0 { *a * scale } else { 0.0 });
    }

    /// The profile as a tip of radius r feels it: a tip cannot reach into features much
    /// narrower than itself, so the profile is averaged over it, here by a Gaussian of standard
    /// deviation r, which multiplies the partial of wavenumber k by e^(−(k·r)²/2). (A reading:
    /// FoleyAutomatic ([10] in docs/physics.md) smooths the profile by the contact's size; a
    /// Gaussian is the
    /// average with no ringing of its own.) Partials it leaves below 10⁻⁶ of their height are
    /// left out: the wavenumbers ascend, so all from the first such on.
    pub fn felt_by(&mut self, tip_radius_m: f64) {
        let r = tip_radius_m.max(0.0);
        for i in 0..self.count {
            let gain = (-0.5 * (self.wavenumber_per_m[i] * r).powi(2)).exp();
            if gain < 1e-6 {
                self.count = i;
                break;
            }
            self.amplitude_m[i] *= gain;
        }
    }

    /// The height at `x_m`, summed directly (for tests and tools; [`super::SurfaceReader`]
    /// reads it band-limited, sample by sample).
    pub fn height_m(&self, x_m: f64) -> f64 {
        (0..self.count)
            .map(|i| self.amplitude_m[i] * (self.wavenumber_per_m[i] * x_m + self.phase[i]).cos())
            .sum()
    }
}
