//! Mode tables of struck objects: frequencies as ratios of the fundamental, decay and shapes.

use super::Mode;

/// Frequency ratios of the first three bending modes of a free–free (Euler–Bernoulli) bar:
/// (βₙL/β₁L)² with βL = 4.7300, 7.8532, 10.9956 (Fletcher & Rossing, *The Physics of Musical
/// Instruments*, §2.14).
pub const FREE_FREE_BAR_RATIOS: [f64; 3] = [1.0, 2.7565, 5.4039];

/// A three-mode free–free bar with fundamental `f0_hz`, struck and picked up near one end.
///
/// The fundamental rings for `t60_s`; higher modes decay faster in proportion to their frequency
/// ratio, as internal losses in wood and metal grow with frequency. The shape values fall with the
/// mode number so the fundamental dominates, as when a bar is struck near a node of its upper modes.
pub fn free_free_bar(f0_hz: f64, t60_s: f64) -> [Mode; 3] {
    const SHAPES: [f64; 3] = [1.0, 0.6, 0.4];
    std::array::from_fn(|i| Mode {
        freq_hz: f0_hz * FREE_FREE_BAR_RATIOS[i],
        t60_s: t60_s / FREE_FREE_BAR_RATIOS[i],
        strike_shape: SHAPES[i],
        pickup_shape: SHAPES[i],
    })
}
