//! Strategies shared by the property tests.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use urto_dsp::interaction::{ContactSetup, Hammer};
use urto_dsp::resonator::ModalBank;

/// Values spread evenly in log scale over [lo, hi).
pub fn log_range(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.log10()..hi.log10()).prop_map(|e| 10f64.powf(e))
}

/// Run the struck `hammer` on `bank` at `sample_rate_hz` through its contacts and 20 samples
/// after, failing if the output or the total energy is not finite, or the energy ever rises
/// beyond round-off: the compression is the difference of two positions that can be 10⁵ times
/// larger than it, so the contact potential carries relative errors near 1e-11.
#[allow(dead_code)]
pub fn energy_never_rises(
    hammer: &mut Hammer,
    setup: &ContactSetup,
    bank: &mut ModalBank,
    sample_rate_hz: f64,
) -> Result<(), TestCaseError> {
    let mut previous = hammer.total_energy_j(bank);
    let mut after_contact = 0;
    for n in 0..4000 {
        let pickup = hammer.process_sample(setup, bank, 1.0 / sample_rate_hz);
        prop_assert!(pickup.mid_pa.is_finite());
        let energy = hammer.total_energy_j(bank);
        prop_assert!(energy.is_finite());
        prop_assert!(
            energy <= previous * (1.0 + 1e-9) + 1e-300,
            "sample {}: {} > {}",
            n,
            energy,
            previous
        );
        previous = energy;
        if !hammer.in_contact() {
            after_contact += 1;
            if after_contact > 20 {
                break;
            }
        }
    }
    Ok(())
}
