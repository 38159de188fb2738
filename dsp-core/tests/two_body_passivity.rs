//! Property: a striker with modes of its own hitting a modal object never raises the total energy
//! (striker rigid and modal, object, contact potential): with AM1 alone, and with every
//! integrator under the energy guard; random modes, masses, laws, speeds and rates 8–384 kHz.

mod common;

use common::{energy_never_rises, log_range};
use proptest::prelude::*;
use urto_dsp::contact::HuntCrossley;
use urto_dsp::integrate::Method;
use urto_dsp::interaction::{ContactSetup, Damping, Hammer};
use urto_dsp::resonator::{object_modes, ModalBank, Mode, ObjectKind, ObjectSpec, MAX_MODES};

/// The modes of an object of `kind` with `num_modes` modes from `f0_hz`, struck at `strike`.
fn modes(kind: ObjectKind, num_modes: usize, f0_hz: f64, strike: f64) -> Vec<Mode> {
    let spec = ObjectSpec {
        kind,
        num_modes,
        f0_hz,
        strike_position: strike,
        ..ObjectSpec::marimba(f0_hz)
    };
    let mut modes = [Mode::SILENT; MAX_MODES];
    // Energy only: the size the modes radiate from is not heard here.
    let count = object_modes(&spec, 0.4, &mut modes);
    modes[..count].to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..ProptestConfig::with_cases(10_000)
    })]

    #[test]
    fn two_ringing_bodies_never_gain_energy(
        (object_kind, object_modes_n, object_f0_hz) in (prop::sample::select(ObjectKind::ALL.to_vec()), 1usize..=64, log_range(30.0, 3000.0)),
        (striker_kind, striker_modes_n, striker_f0_hz, striker_point) in (prop::sample::select(ObjectKind::ALL.to_vec()), 1usize..=16, log_range(200.0, 30_000.0), 0.0f64..0.5),
        object_mass_kg in log_range(1e-3, 10.0),
        striker_mass_kg in log_range(1e-4, 1.0),
        (stiffness, mu, alpha) in (log_range(1e2, 1e12), log_range(1e-3, 10.0), 1.0f64..3.0),
        v_in in log_range(1e-3, 20.0),
        sample_rate_hz in log_range(8_000.0, 384_000.0),
        method in prop::sample::select(Method::ALL.to_vec()),
        guard in any::<bool>(),
        linear_damping in prop::option::of(log_range(1e-3, 1e3)),
    ) {
        // Without the guard only AM1 is held to passivity (the explicit schemes gain energy).
        let guard = guard || method != Method::Am1;
        let mut bank = ModalBank::new(object_mass_kg);
        bank.set_modes(&modes(object_kind, object_modes_n, object_f0_hz, 0.3), sample_rate_hz);
        let damping = linear_damping.map_or(Damping::HuntCrossley, |n_s_per_m| Damping::Linear { n_s_per_m });
        let setup = ContactSetup { law: HuntCrossley { stiffness, mu_s_per_m: mu, alpha }, method, guard, exit_correction: true, damping, restitution: None };
        let mut hammer = Hammer::new(striker_mass_kg, setup);
        let striker = modes(striker_kind, striker_modes_n, striker_f0_hz, striker_point);
        hammer.set_striker_modes(&striker, striker_mass_kg, sample_rate_hz);
        hammer.set_striker_level(1.0);
        hammer.strike(&bank, v_in, 0.0, striker_mass_kg);
        energy_never_rises(&mut hammer, &setup, &mut bank, sample_rate_hz)?;
    }
}
