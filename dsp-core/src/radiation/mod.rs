//! Sound radiation: the pressure a body's mode sends to the listener, from the body's size against the wavelength and the mode's shape.
//!
//! A mode of surface velocity v (m/s, its mean square ⟨v²⟩ over the radiating area S) radiates
//! the power W = ρc·S·σ·⟨v²⟩, σ its radiation efficiency (Fahy, *Sound and Structural
//! Vibration*, §2.4). Spread over a sphere of radius r, that is the mean-square far-field
//! pressure ⟨p²⟩ = ρc·W/(4π·r²), so p = ρc·√(S·σ/(4π))·v/r. The listener is one direction: the
//! mode's shape at the pickup, which has the shape's own mean square over the body, stands for
//! the mode's directivity there (at a ball's pole, the axis of its Legendre pattern).

use num_complex::Complex64;
use std::f64::consts::PI;

mod plate;

/// Density of air at 20 °C and 101.325 kPa, kg/m³.
pub const AIR_DENSITY_KG_PER_M3: f64 = 1.204;
/// Speed of sound in air at 20 °C, m/s.
pub const SPEED_OF_SOUND_M_PER_S: f64 = 343.2;
/// Where the listener is, m from the bodies: the physical level's pascals are there.
pub const LISTENER_DISTANCE_M: f64 = 1.0;
/// Highest multipole order evaluated: past it the recurrence's terms leave f64's range at the
/// smallest k·a a mode of the product reaches (1e-4), and σ is below 1e-300 there anyway.
const MAX_ORDER: u32 = 60;

/// How one mode radiates (see [`Radiator::efficiency`] for each law and its source).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Radiator {
    /// A spherical harmonic of degree `order` on a sphere of `radius_m` (its surface velocity ∝
    /// P_order(cos θ)), radiating from `area_m2`: exactly a ball's Lamb mode; a compact body's
    /// mode (a bell's, a glass's, a drum head's, a free plate's or a free bar's, a soundboard's)
    /// as the multipole of its order on the sphere round it.
    Multipole {
        order: u32,
        radius_m: f64,
        area_m2: f64,
    },
    /// Mode (m, n) of a simply supported `a_m` × `b_m` plate set in a rigid baffle (a plate in
    /// its frame, a plank or a tile on the floor), radiating from one face into a half space.
    BaffledPlate { m: u32, n: u32, a_m: f64, b_m: f64 },
    /// Not radiated: the pickup hears the mode's velocity itself, 1 per m/s (a sensor on the
    /// body rather than a listener; the hand-made modes of tests).
    Velocity,
}

impl Radiator {
    /// A mode that radiates nothing (a placeholder's).
    pub const SILENT: Radiator = Radiator::Multipole {
        order: 0,
        radius_m: 0.0,
        area_m2: 0.0,
    };

    /// The mode's radiation efficiency σ at `freq_hz`:
    /// - [`Radiator::Multipole`]: σ_ℓ = 1/((ka)²·|h_ℓ′(ka)|²), h_ℓ the spherical Hankel function
    ///   of the first kind (Junger & Feit, *Sound, Structures, and Their Interaction*, §4: the
    ///   radiation resistance of a sphere vibrating in the harmonic P_ℓ; ℓ = 0 is the pulsating
    ///   sphere, (ka)²/(1 + (ka)²)), for a body of area S on the sphere of area 4πa²:
    ///   σ = f·σ_ℓ/(1 − (1 − f)·min(σ_ℓ, 1)), f = S/(4πa²). At the same mean-square velocity a
    ///   body of area S carries f of the sphere's multipole moment, so below ka ≈ ℓ it radiates
    ///   f² of the sphere's power, σ → f·σ_ℓ (for a patch pulsating alike, exactly the monopole
    ///   of its volume velocity, ρc·k²·(S·v)²/(4π)); where the sphere radiates fully, each part
    ///   radiates alone, σ → σ_ℓ.
    /// - [`Radiator::BaffledPlate`]: see [`plate::efficiency`] (Wallace, JASA 51, 1972).
    pub fn efficiency(&self, freq_hz: f64) -> f64 {
        let k = wavenumber_per_m(freq_hz);
        match *self {
            Radiator::Multipole {
                order,
                radius_m,
                area_m2,
            } => {
                let sphere = sphere_efficiency(order, k * radius_m);
                let share = (area_m2 / (4.0 * PI * radius_m * radius_m)).clamp(0.0, 1.0);
                let sigma = share * sphere / (1.0 - (1.0 - share) * sphere.min(1.0));
                if sigma.is_finite() {
                    sigma
                } else {
                    0.0
                }
            }
            Radiator::BaffledPlate { m, n, a_m, b_m } => plate::efficiency(m, n, k * a_m, k * b_m),
            Radiator::Velocity => 1.0,
        }
    }

    /// The area S of the power law W = ρc·S·σ·⟨v²⟩ as heard over a whole sphere, m²: a baffled
    /// plate's one face radiates into half the space, which for the same power puts twice the
    /// mean-square pressure there, so it counts twice.
    pub fn area_m2(&self) -> f64 {
        match *self {
            Radiator::Multipole { area_m2, .. } => area_m2,
            Radiator::BaffledPlate { a_m, b_m, .. } => 2.0 * a_m * b_m,
            Radiator::Velocity => 0.0,
        }
    }

    /// What the listener hears per m/s of the mode's velocity at the pickup: the pressure at
    /// [`LISTENER_DISTANCE_M`], ρc·√(S·σ/(4π))/r in Pa·s/m (1 for [`Radiator::Velocity`]).
    pub fn pressure_per_velocity(&self, freq_hz: f64) -> f64 {
        if *self == Radiator::Velocity {
            return 1.0;
        }
        let sigma = self.efficiency(freq_hz).max(0.0);
        AIR_DENSITY_KG_PER_M3
            * SPEED_OF_SOUND_M_PER_S
            * (self.area_m2().max(0.0) * sigma / (4.0 * PI)).sqrt()
            / LISTENER_DISTANCE_M
    }
}

/// The acoustic wavenumber k = 2πf/c, 1/m.
pub fn wavenumber_per_m(freq_hz: f64) -> f64 {
    2.0 * PI * freq_hz.max(0.0) / SPEED_OF_SOUND_M_PER_S
}

/// σ = 1/(x²·|h_ℓ′(x)|²) at x = ka (see [`Radiator::efficiency`]). h_ℓ by its upward
/// recurrence h_{ℓ+1} = (2ℓ+1)/x·h_ℓ − h_{ℓ−1} from h₀ = −i·e^{ix}/x, h₁ = −e^{ix}·(x + i)/x²
/// (stable: |h_ℓ| grows with ℓ), and h_ℓ′ = h_{ℓ−1} − (ℓ+1)/x·h_ℓ (h₀′ = −h₁).
pub fn sphere_efficiency(order: u32, ka: f64) -> f64 {
    if !(ka > 1e-4) {
        return 0.0;
    }
    let order = order.min(MAX_ORDER);
    let x = ka;
    let phase = Complex64::from_polar(1.0, x);
    let mut before = -Complex64::i() * phase / x;
    let mut now = -phase * Complex64::new(x, 1.0) / (x * x);
    if order == 0 {
        return 1.0 / (x * x * now.norm_sqr());
    }
    for l in 1..order {
        let next = f64::from(2 * l + 1) / x * now - before;
        (before, now) = (now, next);
    }
    let derivative = before - f64::from(order + 1) / x * now;
    let sigma = 1.0 / (x * x * derivative.norm_sqr());
    if sigma.is_finite() {
        sigma
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests;
