//! Surfaces: height profiles h(x) read at the contact's position x = ∫v dt, as sums of spatial partials, band-limited at every speed.
//!
//! A surface is a sum of cosines h(x) = Σ aᵢ·cos(kᵢ·x + φᵢ) (van den Doel, Kry & Pai,
//! FoleyAutomatic, SIGGRAPH 2001, read the profile at the contact's position; here it is built
//! of partials so that it can be band-limited exactly). Read at speed v, the partial of
//! wavenumber k sounds at f = |v|·k/2π: a partial is kept whole below 0.40·fs, faded by a raised
//! cosine to nothing at 0.48·fs and left out above, so nothing reaches Nyquist at any speed and
//! the profile reads the same at every sample rate below that.

mod partials;
mod reader;
mod scrape;
#[cfg(test)]
mod tests;

pub use partials::{Partials, RidgeShape, SurfaceKind, SurfaceSettings, MAX_PARTIALS};
pub use reader::{ProfileSample, SurfaceReader, BLOCK_SAMPLES};
pub use scrape::{scrape, Scrape};

/// Partials sounding below this fraction of the sample rate are kept whole.
pub const PASS_FRACTION: f64 = 0.40;
/// Partials sounding at or above this fraction are left out.
pub const STOP_FRACTION: f64 = 0.48;

/// The gain of a partial sounding at `freq_hz` at `sample_rate_hz`: 1 up to
/// [`PASS_FRACTION`]·fs, a raised cosine down to 0 at [`STOP_FRACTION`]·fs, 0 above.
#[inline]
pub fn band_gain(freq_hz: f64, sample_rate_hz: f64) -> f64 {
    let u = (freq_hz / sample_rate_hz - PASS_FRACTION) / (STOP_FRACTION - PASS_FRACTION);
    if u <= 0.0 {
        1.0
    } else if u >= 1.0 {
        0.0
    } else {
        0.5 + 0.5 * (std::f64::consts::PI * u).cos()
    }
}
