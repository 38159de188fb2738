//! The hammer against closed forms: the rigid limit must reproduce eq. (6); energy never rises.

use super::*;
use crate::resonator::Mode;

const FS: f64 = 44_100.0;

/// A very heavy object with one very stiff mode: a rigid wall to the hammer.
fn rigid_object() -> Box<ModalBank> {
    let mut bank = ModalBank::new(1e9);
    let mode = Mode {
        freq_hz: 20_000.0,
        t60_s: 10.0,
        strike_shape: 1.0,
        pickup_shape: 1.0,
        side_shape: 0.0,
    };
    bank.set_modes(&[mode], FS);
    bank
}

/// Strike the object with `setup` at `v_in`; run until the first contact ends.
fn exit_velocity(setup: ContactSetup, bank: &mut ModalBank, v_in: f64) -> (f64, ContactStats) {
    let mut hammer = Hammer::new(0.01, setup);
    hammer.strike(bank, v_in, 0.0, 0.01);
    for _ in 0..100_000 {
        hammer.process_sample(&setup, bank, 1.0 / FS);
        if hammer.stats().v_out_m_per_s.is_finite() {
            break;
        }
    }
    (hammer.stats().v_out_m_per_s, *hammer.stats())
}

/// Strike the rigid object (AM1 with the guard) over every combination of the given parameters
/// whose rigid-wall contact (eq. 9) lasts `samples_range` samples at 44.1 kHz, and assert the exit
/// velocity within 0.1% of eq. (6). Returns (impacts checked, worst relative error).
fn sweep_rigid_wall(
    stiffnesses: &[f64],
    alphas: &[f64],
    mu_vs: &[f64],
    v_ins: &[f64],
    samples_range: impl std::ops::RangeBounds<f64>,
) -> (usize, f64) {
    let (mut checked, mut worst) = (0, 0.0f64);
    for &stiffness in stiffnesses {
        for &alpha in alphas {
            for &mu_v in mu_vs {
                for &v_in in v_ins {
                    let mu = mu_v / v_in;
                    let impact = Impact {
                        stiffness,
                        mu_s_per_m: mu,
                        alpha,
                        mass_kg: 0.01,
                        v_in_m_per_s: v_in,
                    };
                    let samples = impact.contact_time_s() * FS;
                    if !samples_range.contains(&samples) {
                        continue;
                    }
                    let law = HuntCrossley {
                        stiffness,
                        mu_s_per_m: mu,
                        alpha,
                    };
                    let setup = ContactSetup {
                        law,
                        method: Method::Am1,
                        guard: true,
                        exit_correction: true,
                        damping: Damping::HuntCrossley,
                        restitution: None,
                    };
                    let (v_out, _) = exit_velocity(setup, &mut rigid_object(), v_in);
                    let exact = impact.v_out_exact_m_per_s();
                    let error = (v_out / exact - 1.0).abs();
                    assert!(error < 1e-3, "k {stiffness} α {alpha} μv {mu_v} v {v_in} ({samples:.2} samples): {v_out} vs {exact}");
                    worst = worst.max(error);
                    checked += 1;
                }
            }
        }
    }
    (checked, worst)
}

#[test]
fn rigid_limit_reproduces_the_exact_exit_velocity() {
    let (checked, worst) = sweep_rigid_wall(
        &[1e7, 1e8, 1e9, 1e10, 1e11],
        &[1.2, 1.5, 2.5],
        &[0.01, 0.5, 2.0, 5.0, 20.0],
        &[0.2, 1.0, 4.0],
        1.0..=100.0,
    );
    println!(
        "rigid limit: {checked} impacts, worst |err(v_out)| = {:.2e} %",
        100.0 * worst
    );
    assert!(checked >= 40, "only {checked} impacts in range");
}

#[test]
fn sub_sample_contacts_are_resolved_too() {
    // Contacts shorter than a sample (stiff hammers): down to a quarter sample, sub-steps still
    // give at least MIN_STEPS_PER_CONTACT steps.
    let (checked, _) = sweep_rigid_wall(
        &[1e10, 1e11, 1e12],
        &[1.0, 1.5],
        &[0.01, 2.0, 20.0],
        &[0.5, 4.0, 20.0],
        0.25..1.0,
    );
    assert!(checked >= 10, "only {checked} impacts in range");
}

#[test]
fn no_contact_step_raises_the_energy() {
    // A light, lively object: energy flows back and forth between hammer and modes.
    for method in Method::ALL {
        for guard in [true, false] {
            if !guard && method != Method::Am1 {
                continue;
            }
            let mut bank = ModalBank::new(0.02);
            let modes: Vec<Mode> = (1..=8)
                .map(|i| Mode {
                    freq_hz: 180.0 * f64::from(i) * 1.3,
                    t60_s: 3.0,
                    strike_shape: 1.0 / f64::from(i),
                    pickup_shape: 1.0,
                    side_shape: 0.0,
                })
                .collect();
            bank.set_modes(&modes, FS);
            let setup = ContactSetup {
                law: HuntCrossley {
                    stiffness: 1e6,
                    mu_s_per_m: 0.05,
                    alpha: 1.5,
                },
                method,
                guard,
                exit_correction: true,
                damping: Damping::HuntCrossley,
                restitution: None,
            };
            let mut hammer = Hammer::new(0.01, setup);
            hammer.strike(&bank, 1.5, 0.0, 0.01);
            let mut previous = hammer.total_energy_j(&bank);
            for n in 0..2000 {
                hammer.process_sample(&setup, &mut bank, 1.0 / FS);
                let energy = hammer.total_energy_j(&bank);
                assert!(
                    energy <= previous * (1.0 + 1e-12),
                    "{method:?} guard {guard} sample {n}: {energy} > {previous}"
                );
                previous = energy;
            }
        }
    }
}

/// A target restitution e sets each contact's damping from its own v_in: on a rigid floor with the
/// exact exit correction, |v_out| = e·v_in to round-off (eq. 6 inverted); in the rigid limit of a
/// modal object, within the 0.1 % of the rigid-limit test; with the linear damper's c_opt (a fit,
/// restitution paper eq. 49), within a few per cent.
#[test]
fn a_target_restitution_is_met() {
    let law = HuntCrossley {
        stiffness: 1e8,
        mu_s_per_m: 0.0,
        alpha: 1.5,
    };
    for (e, v_in) in [(0.3, 0.5), (0.7, 2.0), (0.95, 0.05)] {
        let hc = ContactSetup {
            restitution: Some(e),
            ..ContactSetup::hunt_crossley(law, Method::Am1)
        };
        let mut floor = ModalBank::new(1e12);
        floor.set_modes(&[], FS);
        let (v_out, _) = exit_velocity(hc, &mut floor, v_in);
        assert!(
            (-v_out / v_in / e - 1.0).abs() < 1e-9,
            "floor e {e}: {}",
            -v_out / v_in
        );
        let (v_out, _) = exit_velocity(hc, &mut rigid_object(), v_in);
        assert!(
            (-v_out / v_in / e - 1.0).abs() < 1e-3,
            "object e {e}: {}",
            -v_out / v_in
        );
        let linear = ContactSetup {
            damping: Damping::Linear { n_s_per_m: 0.0 },
            ..hc
        };
        let (v_out, _) = exit_velocity(linear, &mut rigid_object(), v_in);
        assert!(
            (-v_out / v_in / e - 1.0).abs() < 0.05,
            "linear e {e}: {}",
            -v_out / v_in
        );
    }
}
