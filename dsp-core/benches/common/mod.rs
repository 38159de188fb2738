//! Criterion settings shared by the benchmarks: short warm-up and measurement, so
//! `cargo xtask bench` finishes in about two minutes on two cores.

use criterion::Criterion;
use std::time::Duration;

pub fn config(measurement_s: u64) -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(measurement_s))
}
