//! Strategies shared by the property tests.

use proptest::prelude::*;

/// Values spread evenly in log scale over [lo, hi).
pub fn log_range(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..hi.log10()).prop_map(|e| 10f64.powf(e))
}
