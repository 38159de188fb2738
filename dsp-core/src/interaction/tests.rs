//! The hammer against closed forms: the rigid limit must reproduce eq. (6); energy never rises.

use super::*;
use crate::analytic::Impact;
use crate::contact::{ContactLaw, HuntCrossley};
use crate::radiation::Radiator;
use crate::resonator::Mode;
use resting::RestingContact;

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
        tangent_shape: 0.0,
        radiator: Radiator::Velocity,
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
                    tangent_shape: 0.0,
                    radiator: Radiator::Velocity,
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

/// A striker with modes of its own against an object with modes: the state both integrate.
struct TwoBody {
    striker_mass_kg: f64,
    striker: Mode,
    object_mass_kg: f64,
    object: Mode,
    law: HuntCrossley,
}

impl TwoBody {
    fn rates(mode: &Mode) -> (f64, f64) {
        let sigma = 1000f64.ln() / mode.t60_s;
        let omega_d = std::f64::consts::TAU * mode.freq_hz;
        (sigma, omega_d * omega_d + sigma * sigma)
    }

    /// d/dt of [y, u, q_s, p_s, q_o, p_o] (rigid position and velocity of the striker, its mode,
    /// the object's mode) with the contact force of the law on x = y + φ_s·q_s − φ_o·q_o.
    fn derivative(&self, s: &[f64; 6]) -> [f64; 6] {
        let (ss, ws) = Self::rates(&self.striker);
        let (so, wo) = Self::rates(&self.object);
        let (phi_s, phi_o) = (self.striker.strike_shape, self.object.strike_shape);
        let x = s[0] + phi_s * s[2] - phi_o * s[4];
        let v = s[1] + phi_s * s[3] - phi_o * s[5];
        let f = self.law.force_n(x, v);
        [
            s[1],
            -f / self.striker_mass_kg,
            s[3],
            -2.0 * ss * s[3] - ws * s[2] - phi_s * f / self.striker_mass_kg,
            s[5],
            -2.0 * so * s[5] - wo * s[4] + phi_o * f / self.object_mass_kg,
        ]
    }

    /// Brute force: RK4 at `steps_per_s` from first touch at `v_in` until the compression turns
    /// negative; returns the striker's rigid exit velocity (constant in the flight that follows)
    /// and its vibration energy then.
    fn reference(&self, v_in: f64, steps_per_s: f64) -> (f64, f64) {
        let h = 1.0 / steps_per_s;
        let mut s = [0.0, v_in, 0.0, 0.0, 0.0, 0.0];
        let (phi_s, phi_o) = (self.striker.strike_shape, self.object.strike_shape);
        for _ in 0..100_000_000u64 {
            let add = |a: &[f64; 6], k: &[f64; 6], c: f64| std::array::from_fn(|i| a[i] + c * k[i]);
            let k1 = self.derivative(&s);
            let k2 = self.derivative(&add(&s, &k1, 0.5 * h));
            let k3 = self.derivative(&add(&s, &k2, 0.5 * h));
            let k4 = self.derivative(&add(&s, &k3, h));
            s = std::array::from_fn(|i| {
                s[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
            });
            let x = s[0] + phi_s * s[2] - phi_o * s[4];
            if x <= 0.0 {
                let (_, ws) = Self::rates(&self.striker);
                let energy = 0.5 * self.striker_mass_kg * (s[3] * s[3] + ws * s[2] * s[2]);
                return (s[1], energy);
            }
        }
        panic!("the reference contact did not end");
    }

    /// The hammer with the striker's mode at `fs` with `method`: the striker's rigid exit velocity
    /// after the first contact and its vibration energy then.
    fn simulate(&self, v_in: f64, fs: f64, method: Method, guard: bool) -> (f64, f64) {
        let setup = ContactSetup {
            law: self.law,
            method,
            guard,
            exit_correction: false,
            damping: Damping::HuntCrossley,
            restitution: None,
        };
        let mut object = ModalBank::new(self.object_mass_kg);
        object.set_modes(&[self.object], fs);
        let mut hammer = Hammer::new(self.striker_mass_kg, setup);
        hammer.set_striker_modes(&[self.striker], self.striker_mass_kg, fs);
        hammer.strike(&object, v_in, 0.0, self.striker_mass_kg);
        for _ in 0..1_000_000 {
            hammer.process_sample(&setup, &mut object, 1.0 / fs);
            if hammer.stats().v_out_m_per_s.is_finite() {
                return (hammer.velocity_m_per_s(), hammer.striker_energy_j());
            }
        }
        panic!("the contact did not end");
    }
}

/// A mode heard at the mid pickup only, through its velocity.
pub(super) fn mode(freq_hz: f64, t60_s: f64, strike_shape: f64) -> Mode {
    Mode {
        freq_hz,
        t60_s,
        strike_shape,
        pickup_shape: 1.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::Velocity,
    }
}

/// The brute-force comparisons' systems and impact speeds: a steel ball's first mode on a light
/// plate (α = 1.5), a wooden stick on a bar (α = 1), a damped contact with a low striker mode.
fn two_body_cases() -> [(TwoBody, f64); 3] {
    let case =
        |striker_mass_kg, striker, object_mass_kg, object, stiffness, alpha, mu_s_per_m| TwoBody {
            striker_mass_kg,
            striker,
            object_mass_kg,
            object,
            law: HuntCrossley {
                stiffness,
                mu_s_per_m,
                alpha,
            },
        };
    [
        (
            case(
                0.02,
                mode(9_000.0, 0.5, 1.3),
                0.3,
                mode(1_200.0, 2.0, 1.0),
                1e8,
                1.5,
                0.0,
            ),
            1.0,
        ),
        (
            case(
                0.05,
                mode(2_500.0, 0.2, 1.6),
                0.5,
                mode(440.0, 1.0, 0.8),
                3e6,
                1.0,
                0.0,
            ),
            0.5,
        ),
        (
            case(
                0.01,
                mode(1_500.0, 0.1, 1.0),
                0.1,
                mode(800.0, 0.8, 1.2),
                1e7,
                1.5,
                0.3,
            ),
            2.0,
        ),
    ]
}

/// Two ringing bodies against a brute-force integration of the same equations (RK4 at 100 MHz):
/// with AM1 at 96 kHz, the striker's exit velocity agrees within 0.1 % of v_in, and the energy
/// its own mode carries away within 3 % (0.13 dB; the scheme is second order: 1.8 % with
/// 80 steps per contact on a 9 kHz striker mode, 0.03 % with 1280).
#[test]
fn two_ringing_bodies_match_a_brute_force_integration() {
    for (system, v_in) in two_body_cases() {
        let (v_ref, e_ref) = system.reference(v_in, 1e8);
        assert!(
            e_ref > 1e-4 * 0.5 * system.striker_mass_kg * v_in * v_in,
            "the striker barely rings"
        );
        let (v_out, e_out) = system.simulate(v_in, 96_000.0, Method::Am1, false);
        println!("v_out {v_out:.6} vs {v_ref:.6}; striker energy {e_out:.4e} vs {e_ref:.4e} J");
        assert!((v_out - v_ref).abs() < 1e-3 * v_in, "{v_out} vs {v_ref}");
        assert!((e_out / e_ref - 1.0).abs() < 3e-2, "{e_out} vs {e_ref}");
    }
}

/// A striker whose own modes are far stiffer than the contact (their periods a few per cent of
/// the contact's), on a rigid object: the mass–wall impact, whose exact exit velocity is eq. (6).
#[test]
fn a_stiff_ringing_striker_on_a_rigid_object_reproduces_eq_6() {
    let fs = 384_000.0;
    let mut worst = 0.0f64;
    let mut checked = 0;
    for stiffness in [1e6, 1e7, 1e8] {
        for alpha in [1.0, 1.5, 2.5] {
            for mu_v in [0.01, 0.5, 2.0] {
                for v_in in [0.2, 1.0, 4.0] {
                    let mass_kg = 0.05;
                    let impact = Impact {
                        stiffness,
                        mu_s_per_m: mu_v / v_in,
                        alpha,
                        mass_kg,
                        v_in_m_per_s: v_in,
                    };
                    let contact_s = impact.contact_time_s();
                    // Striker modes at least 50 times faster than the contact, below Nyquist.
                    let f_hz = 50.0 / contact_s;
                    if f_hz > 0.4 * fs {
                        continue;
                    }
                    let setup = ContactSetup::hunt_crossley(impact_law(&impact), Method::Am1);
                    let mut object = ModalBank::new(1e9);
                    object.set_modes(&[mode(150_000.0, 10.0, 1.0)], fs);
                    let mut hammer = Hammer::new(mass_kg, setup);
                    let modes = [mode(f_hz, 0.3, 1.4), mode(2.7 * f_hz, 0.2, 1.1)];
                    hammer.set_striker_modes(&modes, mass_kg, fs);
                    hammer.strike(&object, v_in, 0.0, mass_kg);
                    while !hammer.stats().v_out_m_per_s.is_finite() {
                        hammer.process_sample(&setup, &mut object, 1.0 / fs);
                    }
                    let exact = impact.v_out_exact_m_per_s();
                    let error = (hammer.stats().v_out_m_per_s / exact - 1.0).abs();
                    worst = worst.max(error);
                    checked += 1;
                    assert!(
                        error < 1e-3,
                        "k {stiffness} α {alpha} μv {mu_v} v {v_in}: {error:e}"
                    );
                }
            }
        }
    }
    println!(
        "stiff striker, rigid object: {checked} impacts, worst {:.3} %",
        100.0 * worst
    );
    assert!(checked >= 30, "only {checked} impacts in range");
}

fn impact_law(impact: &Impact) -> HuntCrossley {
    HuntCrossley {
        stiffness: impact.stiffness,
        mu_s_per_m: impact.mu_s_per_m,
        alpha: impact.alpha,
    }
}

/// With every integrator (the explicit ones under the guard) the two bodies' total energy never
/// rises, through the contact and while both ring on.
#[test]
fn two_ringing_bodies_never_gain_energy() {
    for method in Method::ALL {
        let setup = ContactSetup {
            law: HuntCrossley {
                stiffness: 3e7,
                mu_s_per_m: 0.05,
                alpha: 1.5,
            },
            method,
            guard: true,
            exit_correction: true,
            damping: Damping::HuntCrossley,
            restitution: None,
        };
        let mut object = ModalBank::new(0.05);
        let modes: Vec<Mode> = (1..=8)
            .map(|i| mode(300.0 * f64::from(i) * 1.3, 2.0, 1.0 / f64::from(i)))
            .collect();
        object.set_modes(&modes, FS);
        let mut hammer = Hammer::new(0.02, setup);
        let striker: Vec<Mode> = (1..=4)
            .map(|i| mode(2_000.0 * f64::from(i).powf(1.7), 0.5, 1.2))
            .collect();
        hammer.set_striker_modes(&striker, 0.02, FS);
        hammer.strike(&object, 1.5, 0.0, 0.02);
        let mut previous = hammer.total_energy_j(&object);
        for n in 0..4000 {
            hammer.process_sample(&setup, &mut object, 1.0 / FS);
            let energy = hammer.total_energy_j(&object);
            assert!(
                energy <= previous * (1.0 + 1e-12),
                "{method:?} sample {n}: {energy} > {previous}"
            );
            previous = energy;
        }
        assert!(
            hammer.striker_energy_j() > 0.0,
            "{method:?}: the striker does not ring"
        );
    }
}

/// The explicit schemes couple the two bodies with the same signs, without the guard's help:
/// at 384 kHz the striker's exit velocity agrees with the brute-force integration within 0.2 %
/// of v_in and the energy its mode carries away within 5 %. (The bodies advance under the force
/// of the step's start, a zero-order hold: first order in the step. At 96 kHz the worst of the
/// cases below is 0.5 % and 6.5 %; at 384 kHz 0.13 % and 3 %.)
#[test]
fn the_explicit_schemes_couple_two_ringing_bodies() {
    for (system, v_in) in two_body_cases() {
        let (v_ref, e_ref) = system.reference(v_in, 1e8);
        for method in [Method::Verlet, Method::Heun, Method::Rk4] {
            let (v_out, e_out) = system.simulate(v_in, 384_000.0, method, false);
            assert!(
                (v_out - v_ref).abs() < 2e-3 * v_in,
                "{method:?}: {v_out} vs {v_ref}"
            );
            assert!(
                (e_out / e_ref - 1.0).abs() < 5e-2,
                "{method:?}: {e_out} vs {e_ref}"
            );
        }
    }
}

/// The resting contact's stiffness is the slope of Hertz's law where it carries the weight
/// (a central difference of k·x^α about x = (W/k)^(1/α)), and its resistance meets the
/// series spring–dashpot–object closed forms: c on a rigid object (G = 0); without the
/// contact's own damping, G/(G² + (ω/k_c)²), which tends to the object's 1/G as the contact
/// stiffens, and G/((y + G)² + (ω/k_c)²) driven through a body of mobility y.
#[test]
fn a_resting_contact_is_the_linearised_law_in_series_with_the_object() {
    let law = HuntCrossley {
        stiffness: 3e9,
        mu_s_per_m: 0.0,
        alpha: 1.5,
    };
    let weight_n = 0.08;
    let x_m = (weight_n / law.stiffness).powf(1.0 / law.alpha);
    let dx = 1e-4 * x_m;
    let slope = law.stiffness * ((x_m + dx).powf(1.5) - (x_m - dx).powf(1.5)) / (2.0 * dx);
    let contact = RestingContact::hunt_crossley(law, 0.4, weight_n);
    assert!((contact.stiffness_n_per_m / slope - 1.0).abs() < 1e-6);
    assert!((contact.damping_n_s_per_m - 0.4 * weight_n).abs() < 1e-15);

    for omega in [2e3, 2e4, 2e5] {
        let rigid = contact.resistance_n_s_per_m(omega, 0.0, 0.0);
        assert!((rigid / contact.damping_n_s_per_m - 1.0).abs() < 1e-12);
        let spring = RestingContact {
            damping_n_s_per_m: 0.0,
            ..contact
        };
        let g = 2e-3;
        let expected = g / (g * g + (omega / spring.stiffness_n_per_m).powi(2));
        assert!((spring.resistance_n_s_per_m(omega, g, 0.0) / expected - 1.0).abs() < 1e-12);
        // Driven through the body's own mobility y: Re{Y₂}/|y + Y₂|², Y₂ = G + jω/k_c.
        let y = 5e-3;
        let through = g / ((y + g).powi(2) + (omega / spring.stiffness_n_per_m).powi(2));
        assert!((spring.resistance_n_s_per_m(omega, g, y) / through - 1.0).abs() < 1e-12);
        let stiff = RestingContact {
            stiffness_n_per_m: 1e6 * spring.stiffness_n_per_m,
            ..spring
        };
        assert!((stiff.resistance_n_s_per_m(omega, g, 0.0) * g - 1.0).abs() < 1e-6);
    }
}

/// A hammer of `mass_kg` pressed by `accel_m_per_s2` onto a two-mode object of modal mass
/// `object_kg` (440 Hz and `second_hz`), laid on at the object's loaded equilibrium.
fn pressed(
    setup: &ContactSetup,
    object_kg: f64,
    second_hz: f64,
    mass_kg: f64,
    accel_m_per_s2: f64,
) -> (Box<ModalBank>, Hammer) {
    let mut bank = ModalBank::new(object_kg);
    bank.set_modes(&[mode(440.0, 1.0, 1.0), mode(second_hz, 0.5, 0.7)], FS);
    bank.preload(mass_kg * accel_m_per_s2);
    let mut hammer = Hammer::new(mass_kg, *setup);
    hammer.set_gravity(Gravity {
        accel_m_per_s2,
        in_contact: true,
        capture_m_per_s: 0.0,
    });
    hammer.place(&bank, setup, mass_kg);
    (bank, hammer)
}

/// A stiff light body pressed onto a ringing object (the parameters' bounds: k = 10¹² and a
/// 0.1 g slider pressed with 30 of its weights; its well rings at 16 MHz with α = 1, 108 kHz
/// with α = 1.5, and is resolved at 850 Hz with α = 3, where the explicit schemes run as chosen)
/// is stepped at most 15 times a sample with any integrator chosen, and presses on the object
/// with its press: over a second the contact's impulse is the press's, ∫F dt = m·g·T − m·Δv.
/// Landing again after a hop (at 1 cm/s, an impact faster than the well's bouncing) is
/// stepped no finer.
#[test]
fn a_stiff_light_pressed_body_is_stepped_within_the_audio_band() {
    let mass_kg = 1e-4;
    let accel_m_per_s2 = 30.0 * 9.81;
    for alpha in [1.0, 1.5, 3.0] {
        let law = HuntCrossley {
            stiffness: 1e12,
            mu_s_per_m: 0.1,
            alpha,
        };
        for method in Method::ALL {
            let setup = ContactSetup::hunt_crossley(law, method);
            let (mut bank, mut hammer) = pressed(&setup, 0.05, 2_300.0, mass_kg, accel_m_per_s2);
            let duration_s = 1.0;
            let mut impulse_n_s = 0.0;
            for _ in 0..(duration_s * FS) as usize {
                hammer.process_sample(&setup, &mut bank, 1.0 / FS);
                impulse_n_s += hammer.force_n() / FS;
            }
            let stats = hammer.stats();
            let press_n_s = mass_kg * (accel_m_per_s2 * duration_s - hammer.velocity_m_per_s());
            let case = format!("α = {alpha}, {method:?}");
            assert!(stats.substeps <= 15, "{case}: {} sub-steps", stats.substeps);
            assert!(
                (impulse_n_s / press_n_s - 1.0).abs() < 0.01,
                "{case}: impulse {impulse_n_s} N·s, press {press_n_s} N·s"
            );
            hammer.strike(&bank, 0.01, 0.0, mass_kg);
            for _ in 0..(0.1 * FS) as usize {
                hammer.process_sample(&setup, &mut bank, 1.0 / FS);
            }
            let landing = hammer.stats();
            assert!(landing.onsets > 0, "{case}: no landing");
            assert!(
                landing.substeps <= 15,
                "{case}: landing at {} sub-steps",
                landing.substeps
            );
        }
    }
}

/// A retune under a pressed contact (an expression between blocks, a semitone up) gives the
/// object new transitions: after [`Hammer::object_changed`] the contact's next step is the one a hammer
/// that never keeps a force-free prediction takes, not one predicted with the old transitions.
#[test]
fn a_contact_goes_on_with_the_modes_a_retune_gave_the_object() {
    let mass_kg = 0.01;
    let accel_m_per_s2 = 100.0;
    let law = HuntCrossley {
        stiffness: 1e8,
        mu_s_per_m: 0.1,
        alpha: 1.5,
    };
    let setup = ContactSetup::hunt_crossley(law, Method::Am1);
    let start = || pressed(&setup, 0.02, 1_210.0, mass_kg, accel_m_per_s2);
    // `kept` keeps its prediction from step to step; `fresh` has it made afresh before each
    // step, by a push of no force (which reads it with the transitions the bank has then).
    let (mut kept_bank, mut kept) = start();
    let (mut fresh_bank, mut fresh) = start();
    for n in 0..400 {
        if n == 200 {
            // A semitone up, the press under way.
            assert!(kept.in_contact() && fresh.in_contact());
            let ratio = 2f64.powf(1.0 / 12.0);
            kept_bank.retune(ratio, FS, 0.1, true);
            kept.object_changed(&kept_bank);
            fresh_bank.retune(ratio, FS, 0.1, true);
        }
        kept.process_sample(&setup, &mut kept_bank, 1.0 / FS);
        fresh.push_tangent(&mut fresh_bank, 0.0);
        fresh.process_sample(&setup, &mut fresh_bank, 1.0 / FS);
        let (a, b) = (kept.force_n(), fresh.force_n());
        assert_eq!(kept.in_contact(), fresh.in_contact(), "sample {n}");
        assert!(
            (a - b).abs() <= 1e-9 * b.abs(),
            "sample {n}: {a} N against {b} N"
        );
    }
}

/// What [`landing_in_a_well`] saw, sample by sample.
struct Landing {
    /// Sub-steps of the contact after each sample (0: none).
    counts: Vec<usize>,
    /// The landing's predicted length, s.
    after_s: f64,
    /// Largest distance of the compression from the reference's, and the reference's deepest, m.
    worst_m: f64,
    deepest_m: f64,
    onsets: u32,
}

/// A 10 g ball landing at 0.2 m/s on a rigid wall (k = 10¹⁰, α = 1.5, damping `mu_s_per_m`)
/// under 100 m/s² of gravity, whose well rings at 4.2 kHz (4 sub-steps a sample), and a track
/// pressing it on with 2000 m/s² more, as a rolling ball's does; 50 ms beside a Runge–Kutta
/// integration of the same mass on the same wall at a thousand steps a sample.
fn landing_in_a_well(mu_s_per_m: f64) -> Landing {
    let (mass_kg, gravity_m_per_s2, track_m_per_s2, v_in) = (0.01, 100.0, 2000.0, 0.2);
    let law = HuntCrossley {
        stiffness: 1e10,
        mu_s_per_m,
        alpha: 1.5,
    };
    let setup = ContactSetup::hunt_crossley(law, Method::Am1);
    let mut bank = rigid_object();
    let mut hammer = Hammer::new(mass_kg, setup);
    hammer.set_gravity(Gravity {
        accel_m_per_s2: gravity_m_per_s2,
        in_contact: true,
        capture_m_per_s: 0.0,
    });
    hammer.strike(&bank, v_in, 0.0, mass_kg);
    hammer.set_track_acceleration(track_m_per_s2);
    // The reference: y the compression, ÿ = g + a_track − F(y, ẏ)/m, from y = 0, ẏ = v_in.
    let per_sample = 1000;
    let h = 1.0 / (FS * per_sample as f64);
    let accel = |y: f64, v: f64| gravity_m_per_s2 + track_m_per_s2 - law.force_n(y, v) / mass_kg;
    let (mut y, mut v) = (0.0f64, v_in);
    let mut landing = Landing {
        counts: Vec::new(),
        after_s: f64::NAN,
        worst_m: 0.0,
        deepest_m: 0.0,
        onsets: 0,
    };
    for _ in 0..(0.05 * FS) as usize {
        hammer.process_sample(&setup, &mut bank, 1.0 / FS);
        let contact = hammer.contact;
        landing.counts.push(contact.map_or(0, |c| c.sub_steps));
        if let Some(settle) = contact.and_then(|c| c.settle) {
            landing.after_s = settle.after_s;
        }
        for _ in 0..per_sample {
            let (k1y, k1v) = (v, accel(y, v));
            let (k2y, k2v) = (
                v + 0.5 * h * k1v,
                accel(y + 0.5 * h * k1y, v + 0.5 * h * k1v),
            );
            let (k3y, k3v) = (
                v + 0.5 * h * k2v,
                accel(y + 0.5 * h * k2y, v + 0.5 * h * k2v),
            );
            let (k4y, k4v) = (v + h * k3v, accel(y + h * k3y, v + h * k3v));
            y += h / 6.0 * (k1y + 2.0 * k2y + 2.0 * k3y + k4y);
            v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        }
        let compression_m = hammer.position_m - hammer.contact_point().0;
        landing.worst_m = landing.worst_m.max((compression_m - y).abs());
        landing.deepest_m = landing.deepest_m.max(y);
    }
    landing.onsets = hammer.stats().onsets;
    landing
}

/// A landing that stays (nearly plastic, μ·v_in = 6): eq. (9) resolves the 3.1-sample impact with
/// 13 sub-steps, and once it has lasted that long the contact is stepped at the well's 4; its
/// compression over 50 ms stays within 0.1 % of its deepest of the reference's (0.084 %; stepped
/// once a sample after the landing, 0.114 %). A landing that leaves (μ·v_in = 0.002) is never
/// stepped at the well's count: it is never bound in the well.
#[test]
fn a_landing_that_stays_is_stepped_as_its_well_once_it_is_over() {
    let stays = landing_in_a_well(30.0);
    assert_eq!(stays.onsets, 1, "the ball stays");
    assert_eq!(stays.counts[0], 13, "the landing's sub-steps");
    assert_eq!(stays.counts.last(), Some(&4), "the well's sub-steps");
    let settled = stays.counts.iter().position(|&c| c == 4).unwrap_or(0);
    assert!(
        (settled + 1) as f64 >= stays.after_s * FS,
        "settled after {} samples, the landing lasts {} samples",
        settled + 1,
        stays.after_s * FS
    );
    assert!(
        stays.worst_m < 1e-3 * stays.deepest_m,
        "off the reference by {:e} m, deepest {:e} m",
        stays.worst_m,
        stays.deepest_m
    );
    let leaves = landing_in_a_well(0.01);
    assert!(leaves.onsets > 1, "the ball bounces");
    assert!(
        leaves.counts.iter().all(|&c| c != 4),
        "a bouncing ball was stepped as resting"
    );
}

/// An object of 13 modes from `object_f1_hz` (overtones as n^1.3, struck less as 1/n) and a
/// striker of 5 from `striker_f1_hz` (as n^1.7), ringing for `object_t60_s` and
/// `striker_t60_s`.
fn ringing_pair(
    object_f1_hz: f64,
    object_t60_s: f64,
    striker_f1_hz: f64,
    striker_t60_s: f64,
) -> (Vec<Mode>, Vec<Mode>) {
    let object = (1..=13)
        .map(|i| {
            mode(
                object_f1_hz * f64::from(i).powf(1.3),
                object_t60_s,
                1.0 / f64::from(i),
            )
        })
        .collect();
    let striker = (1..=5)
        .map(|i| mode(striker_f1_hz * f64::from(i).powf(1.7), striker_t60_s, 1.2))
        .collect();
    (object, striker)
}

/// A retired hammer with a ringing striker heard at 0.6 of its level, rung a sample at a time
/// (`process_sample`) and in blocks of odd lengths (`ring_block`): the same bits, sample by
/// sample.
#[test]
fn a_retired_ringing_hammer_rings_the_same_bits_in_blocks() {
    let law = HuntCrossley {
        stiffness: 3e7,
        mu_s_per_m: 0.05,
        alpha: 1.5,
    };
    let setup = ContactSetup::hunt_crossley(law, Method::Am1);
    let (object_modes, striker_modes) = ringing_pair(210.0, 1.5, 1_700.0, 0.4);
    let make = || {
        let mut object = ModalBank::new(0.05);
        object.set_modes(&object_modes, FS);
        let mut hammer = Hammer::new(0.02, setup);
        hammer.set_striker_modes(&striker_modes, 0.02, FS);
        hammer.set_striker_level(0.6);
        hammer.strike(&object, 1.5, 0.0, 0.02);
        for _ in 0..400 {
            hammer.process_sample(&setup, &mut object, 1.0 / FS);
        }
        hammer.retire();
        (hammer, object)
    };
    let (mut by_sample, mut object_a) = make();
    let (mut by_block, mut object_b) = make();
    assert!(by_sample.striker_energy_j() > 0.0, "the striker rings");
    let expected: Vec<Pickup> = (0..700)
        .map(|_| by_sample.process_sample(&setup, &mut object_a, 1.0 / FS))
        .collect();
    let (mut mid, mut side) = (vec![0.0; 700], vec![0.0; 700]);
    let mut start = 0;
    for len in [1, 7, 16, 17, 63, 64, 65, 200, 267] {
        by_block.ring_block(
            &mut object_b,
            &mut mid[start..start + len],
            &mut side[start..start + len],
        );
        start += len;
    }
    for (k, e) in expected.iter().enumerate() {
        assert_eq!(mid[k].to_bits(), e.mid_pa.to_bits(), "mid, sample {k}");
        assert_eq!(side[k].to_bits(), e.side_pa.to_bits(), "side, sample {k}");
    }
}

/// The hammer's μ for a target restitution is eq. (6) inverted at each contact's speed, whether
/// the preparation holds its e, the last e met does, or neither: e changing at every other call
/// and the speed at every call (it fails with the kept μ·v_in not renewed for a new e).
#[test]
fn the_kept_restitution_gives_each_e_its_own_mu() {
    let law = HuntCrossley {
        stiffness: 1e8,
        mu_s_per_m: 0.0,
        alpha: 1.5,
    };
    let setup = ContactSetup::hunt_crossley(law, Method::Am1);
    let mut hammer = Hammer::new(0.01, setup);
    let mut prep = ContactPrep::default();
    prep.update(&setup.hertz(1e8, 0.7), MIN_STEPS_PER_CONTACT);
    hammer.set_prepared(&prep);
    for (k, e) in [0.7, 0.3, 0.3, 0.55, 0.7, 0.55, 0.3, 0.999, 1.0]
        .into_iter()
        .enumerate()
    {
        let v_in = 0.1 + 0.37 * k as f64;
        let expected = crate::restitution::mu_for_restitution(e, v_in);
        assert_eq!(hammer.mu_for(e, v_in), expected, "e = {e}, v_in = {v_in}");
    }
}

/// The slow strikes both tests below follow: the `k`-th (0…39) of a hammer struck slowly and
/// softly on a light object and a striker both left ringing hard by an earlier strike (their
/// surfaces swing far enough to catch a receding striker); the contact they share.
fn slow_strike_on_ringing_surfaces(k: u32) -> (Box<ModalBank>, Hammer, ContactSetup) {
    let law = HuntCrossley {
        stiffness: 1e7,
        mu_s_per_m: 0.0,
        alpha: 1.5,
    };
    let setup = ContactSetup {
        restitution: Some(0.3),
        ..ContactSetup::hunt_crossley(law, Method::Am1)
    };
    let (object_modes, striker_modes) = ringing_pair(180.0, 2.0, 900.0, 1.0);
    let mut object = ModalBank::new(0.01);
    object.set_modes(&object_modes, FS);
    let mut hammer = Hammer::new(0.02, setup);
    hammer.set_striker_modes(&striker_modes, 0.02, FS);
    // A hard strike leaves both ringing; the slow one is the one followed.
    hammer.strike(&object, 3.0, 0.0, 0.05);
    for _ in 0..(50 + 37 * k) {
        hammer.process_sample(&setup, &mut object, 1.0 / FS);
    }
    hammer.strike(&object, 0.01 + 0.004 * f64::from(k), 0.0, 0.02);
    (object, hammer, setup)
}

/// A hammer gone for good never touches again and keeps its velocity: each slow strike
/// ([`slow_strike_on_ringing_surfaces`]) is followed 20 ms past the first sample it counts as
/// gone (it fails with the surfaces' reach left out).
#[test]
fn a_hammer_gone_for_good_never_touches_again() {
    let mut gone = 0;
    for k in 0..40 {
        let (mut object, mut hammer, setup) = slow_strike_on_ringing_surfaces(k);
        let mut since: Option<(usize, f64, u32)> = None;
        for n in 0..4800 {
            hammer.process_sample(&setup, &mut object, 1.0 / FS);
            match since {
                None if hammer.is_gone_for_good() => {
                    since = Some((n, hammer.velocity_m_per_s(), hammer.stats().onsets));
                }
                Some((at, v, onsets)) => {
                    assert!(
                        hammer.stats().onsets == onsets && hammer.velocity_m_per_s() == v,
                        "strike {k}: gone at sample {at}, touched again by sample {n}"
                    );
                    if n > at + 960 {
                        break;
                    }
                }
                None => {}
            }
        }
        gone += usize::from(since.is_some());
    }
    assert!(gone >= 20, "{gone} of 40 strikes went for good");
}

/// A hammer that may not touch within a span does not: after each slow strike
/// ([`slow_strike_on_ringing_surfaces`]), every sample out of contact claims
/// spans of 1 to 480 samples, and no contact begins inside a span claimed free. Some strikes
/// touch again after a claim was refused (the claims are near the edge); it fails with the
/// surfaces' top speed left out.
#[test]
fn a_hammer_that_may_not_touch_within_a_span_does_not() {
    let dt_s = 1.0 / FS;
    let (mut claims, mut refused_then_touched) = (0, 0);
    for k in 0..40 {
        let (mut object, mut hammer, setup) = slow_strike_on_ringing_surfaces(k);
        // The last sample a claim says is free of onsets, and whether a claim was refused.
        let (mut free_until, mut refused) = (None::<usize>, false);
        for n in 0..4800 {
            let onsets = hammer.stats().onsets;
            hammer.process_sample(&setup, &mut object, dt_s);
            if hammer.stats().onsets > onsets {
                assert!(
                    free_until.is_none_or(|last| n > last),
                    "strike {k}: touched at sample {n}, claimed free to {free_until:?}"
                );
                refused_then_touched += usize::from(refused && onsets > 0);
                refused = false;
            }
            if hammer.in_contact() || hammer.stats().onsets == 0 {
                continue;
            }
            for span in [1, 8, 60, 480] {
                if hammer.may_touch_within(&object, span, dt_s) {
                    refused = true;
                } else {
                    free_until = free_until.max(Some(n + span));
                    claims += 1;
                }
            }
        }
    }
    assert!(claims > 1000, "{claims} spans claimed free");
    assert!(
        refused_then_touched >= 10,
        "{refused_then_touched} strikes touched after a refusal"
    );
}

/// A stretch the hammer surely flies free is flown in a block to the same bits as a sample at a
/// time: each slow strike ([`slow_strike_on_ringing_surfaces`]) is played twice for 100 ms,
/// once a sample at a time and once in a block wherever [`Hammer::free_flight_samples`] grants
/// one (up to 96 samples); every sample's pickups and the compression after it agree to the
/// bit. A grant is the longest span [`Hammer::may_touch_within`] refuses, and some blocks stop
/// early, at the sample the hammer retires in (it fails if a block flies on past it).
#[test]
fn a_free_flight_block_is_the_flight_a_sample_at_a_time() {
    let dt_s = 1.0 / FS;
    let (mut blocks, mut retired_in_a_block) = (0, 0);
    for k in 0..40 {
        let (mut object, mut hammer, setup) = slow_strike_on_ringing_surfaces(k);
        let (mut blocked, mut in_blocks, _) = slow_strike_on_ringing_surfaces(k);
        let mut n = 0;
        while n < 4800 {
            let granted = in_blocks.free_flight_samples(&blocked, 96, dt_s);
            let (mut mid, mut side) = ([0.0; 96], [0.0; 96]);
            let flown = if granted > 0 {
                assert!(!in_blocks.may_touch_within(&blocked, granted, dt_s));
                assert!(granted == 96 || in_blocks.may_touch_within(&blocked, granted + 1, dt_s));
                let (m, s) = (&mut mid[..granted], &mut side[..granted]);
                let flown = in_blocks.fly_block(&mut blocked, m, s, dt_s);
                blocks += 1;
                retired_in_a_block += usize::from(flown < granted);
                flown
            } else {
                let pickup = in_blocks.process_sample(&setup, &mut blocked, dt_s);
                (mid[0], side[0]) = (pickup.mid_pa, pickup.side_pa);
                1
            };
            for i in 0..flown {
                let pickup = hammer.process_sample(&setup, &mut object, dt_s);
                let bits = |a: f64, b: f64| (a.to_bits(), b.to_bits());
                assert_eq!(
                    bits(pickup.mid_pa, pickup.side_pa),
                    bits(mid[i], side[i]),
                    "strike {k}, sample {}",
                    n + i
                );
            }
            n += flown;
            let (x, x_blocked) = (
                hammer.compression_m(&object),
                in_blocks.compression_m(&blocked),
            );
            assert_eq!(x.to_bits(), x_blocked.to_bits(), "strike {k}, sample {n}");
            assert_eq!(
                hammer.is_retired(),
                in_blocks.is_retired(),
                "strike {k}, sample {n}"
            );
        }
    }
    assert!(blocks > 200, "{blocks} blocks");
    assert!(retired_in_a_block > 0, "no block ended at a retirement");
}

/// A hammer in flight over an object retuned down still finds it: a retune to a fifth of the
/// frequencies keeps each mode's state, so its amplitude √(q² + q̇²/ω₀²) grows up to fivefold,
/// past the reach the hammer took at its contact's end. After each slow strike
/// ([`slow_strike_on_ringing_surfaces`]) has parted, the object is retuned (as
/// `Bodies::retune_holding` does, the hammer told); no sample may end with the surfaces
/// pressed into each other while the hammer counts itself out of contact, and a few touch
/// again. It fails with the reach not taken again.
#[test]
fn a_hammer_in_flight_over_an_object_retuned_down_still_finds_it() {
    let dt_s = 1.0 / FS;
    let mut touched_after = 0;
    for k in 0..40 {
        let (mut object, mut hammer, setup) = slow_strike_on_ringing_surfaces(k);
        let mut apart = 0;
        while apart < 20 + k {
            hammer.process_sample(&setup, &mut object, dt_s);
            apart = if hammer.in_contact() { 0 } else { apart + 1 };
        }
        object.retune(0.2, FS, 0.05, false);
        hammer.object_changed(&object);
        let onsets = hammer.stats().onsets;
        for n in 0..4800 {
            hammer.process_sample(&setup, &mut object, dt_s);
            let x = hammer.compression_m(&object);
            assert!(
                hammer.in_contact() || hammer.is_retired() || x <= 1e-12,
                "strike {k}: pressed {x} m in at sample {n}, out of contact"
            );
        }
        touched_after += usize::from(hammer.stats().onsets > onsets);
    }
    assert!(
        touched_after >= 3,
        "{touched_after} of 40 touched again after the retune"
    );
}
