//! One-pole smoothing that lands on its target, instead of creeping towards it by ever smaller steps into subnormal numbers.

/// A speed this close to its target is at its target, m/s: a nanometre in a quarter of an hour.
pub const SPEED_RESOLUTION_M_PER_S: f64 = 1e-12;

/// One step of the one-pole y[n] = t + k·(y[n−1] − t) (time constant −dt/ln k) from `now`
/// towards `target` with `keep` = k, or `target` itself once the step lands within
/// `resolution` of it: a value smoothed towards 0 becomes exactly 0 rather than a subnormal
/// number that rounding holds still (slow on many processors for as long as it lasts).
#[inline]
pub fn approach(now: f64, target: f64, keep: f64, resolution: f64) -> f64 {
    let next = target + keep * (now - target);
    if (next - target).abs() <= resolution {
        target
    } else {
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_smoothed_to_zero_lands_on_zero_within_its_resolution_time() {
        // From 1 m/s towards 0 with a 30 ms time constant at 8 kHz: within the resolution after
        // τ·ln(1/1e-12) = 0.83 s (6630 samples), then exactly 0; never a subnormal number.
        let keep = (-1.0 / (8_000.0 * 0.03f64)).exp();
        let expected = (1e-12f64.ln() / keep.ln()).ceil() as usize;
        let mut v = 1.0;
        let mut landed = None;
        for n in 1..=100_000 {
            v = approach(v, 0.0, keep, SPEED_RESOLUTION_M_PER_S);
            assert!(!v.is_subnormal(), "sample {n}");
            if v == 0.0 && landed.is_none() {
                landed = Some(n);
            }
        }
        assert_eq!(landed, Some(expected));
    }
}
