//! The modal bank's tests: exact transitions, decay, retuning, preloads and held forces, flushing, lanes.

use super::*;

const FS: f64 = 48_000.0;

fn one_mode(freq_hz: f64, t60_s: f64) -> Box<ModalBank> {
    let mut bank = ModalBank::new(0.1);
    bank.set_modes(&[mode(freq_hz, t60_s)], FS);
    bank
}

/// A mode struck and heard with unit shapes.
fn mode(freq_hz: f64, t60_s: f64) -> Mode {
    Mode {
        freq_hz,
        t60_s,
        strike_shape: 1.0,
        pickup_shape: 1.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::Velocity,
    }
}

/// The free response from (q0, p0) of q'' + 2σq' + ω₀²q = 0 past critical damping, from its
/// two real roots −σ ± β: q = A·e^(r₁t) + B·e^(r₂t).
fn overdamped_displacement(sigma: f64, omega0: f64, q0: f64, p0: f64, t: f64) -> f64 {
    let beta = (sigma * sigma - omega0 * omega0).sqrt();
    let (r1, r2) = (-sigma + beta, -sigma - beta);
    let a = (p0 - r2 * q0) / (r1 - r2);
    let b = q0 - a;
    a * (r1 * t).exp() + b * (r2 * t).exp()
}

#[test]
fn an_overdamped_mode_follows_its_continuous_solution() {
    // Choked to a 10 ms T60 (σ = 691/s), a 20 Hz mode (ω₀ = 126 rad/s) stops at critical
    // damping; a release fraction of 1/1000 then asks for σ far beyond, which stays at
    // critical. Set past critical by hand, the mode follows the two real roots.
    let mut bank = one_mode(20.0, 1.0);
    bank.advance(Slot::Full, 10.0);
    let omega0 = bank.setup.omega0_sq[0].sqrt();
    bank.limit_t60(0.01, FS);
    assert!((bank.setup.sigma[0] - omega0).abs() <= 1e-12 * omega0);
    bank.scale_decay(1e-3, FS, false);
    assert!((bank.setup.sigma[0] - omega0).abs() <= 1e-12 * omega0);
    for sigma in [1.000_001 * omega0, 5.5 * omega0, 1e6] {
        bank.setup.sigma[0] = sigma;
        bank.retransition(FS, false);
        let (q0, p0) = (bank.q[0], bank.p[0]);
        for n in 1..500 {
            bank.advance(Slot::Full, 0.0);
            let t = n as f64 / FS;
            let expected = overdamped_displacement(sigma, omega0, q0, p0, t);
            assert!(
                (bank.q[0] - expected).abs() <= 1e-9 * q0.abs().max(p0.abs() / omega0),
                "σ = {sigma}, n = {n}: {} vs {expected}",
                bank.q[0]
            );
        }
    }
}

#[test]
fn damping_a_displaced_mode_never_adds_energy() {
    // A choke or a release adds a damper: the energy at that instant is unchanged, and it
    // only falls after, even for a mode far below the choke's rate and held far from rest.
    for f_hz in [0.05, 20.0, 110.0, 1000.0] {
        for fraction in [None, Some(0.5), Some(1e-3)] {
            let mut bank = one_mode(f_hz, 2.0);
            bank.q[0] = 0.01;
            bank.p[0] = 0.3;
            let before = bank.energy_j();
            match fraction {
                None => bank.limit_t60(0.01, FS),
                Some(fraction) => bank.scale_decay(fraction, FS, false),
            }
            assert_eq!(bank.energy_j(), before);
            let mut last = before;
            for _ in 0..4800 {
                bank.advance(Slot::Full, 0.0);
                let energy = bank.energy_j();
                assert!(energy <= last * (1.0 + 1e-12), "{f_hz} Hz {fraction:?}");
                last = energy;
            }
        }
    }
}

#[test]
fn free_decay_matches_the_continuous_solution() {
    // Kick the mode with one sample of force, then compare every later sample with the
    // continuous free response through the state after the kick.
    let (f_hz, t60) = (1234.5, 0.8);
    let mut bank = one_mode(f_hz, t60);
    bank.advance(Slot::Full, 10.0);
    let (q0, p0) = (bank.q[0], bank.p[0]);
    let wd = std::f64::consts::TAU * f_hz;
    let sg = 1000f64.ln() / t60;
    for n in 1..2000 {
        bank.advance(Slot::Full, 0.0);
        let t = n as f64 / FS;
        // q(t) = e^(−σt)[q0·cos + (p0 + σq0)/ω_d·sin]
        let expected =
            (-sg * t).exp() * (q0 * (wd * t).cos() + (p0 + sg * q0) / wd * (wd * t).sin());
        assert!(
            (bank.q[0] - expected).abs() <= 1e-9 * q0.abs().max(1e-12),
            "n = {n}"
        );
    }
}

#[test]
fn constant_force_settles_at_static_deflection() {
    // Static deflection under force F: q = φF/(M·ω₀²).
    let mut bank = one_mode(200.0, 0.05);
    for _ in 0..(FS as usize) {
        bank.advance(Slot::Full, 3.0);
    }
    let w0_sq = (std::f64::consts::TAU * 200.0f64).powi(2) + (1000f64.ln() / 0.05).powi(2);
    let expected = 3.0 / (0.1 * w0_sq);
    assert!((bank.strike_displacement_m() / expected - 1.0).abs() < 1e-9);
}

#[test]
fn modes_at_or_above_nyquist_are_skipped_and_counted() {
    let mut bank = ModalBank::new(0.1);
    let m = |f| Mode {
        freq_hz: f,
        t60_s: 1.0,
        strike_shape: 1.0,
        pickup_shape: 1.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::Velocity,
    };
    bank.set_modes(&[m(1000.0), m(24_000.0), m(30_000.0), m(5000.0)], FS);
    assert_eq!(bank.num_modes(), 2);
    assert_eq!(bank.skipped_modes(), 2);
}

#[test]
fn ringing_is_a_forceless_step_with_its_output() {
    let modes: Vec<Mode> = (1..=7)
        .map(|i| Mode {
            freq_hz: 311.0 * f64::from(i),
            t60_s: 1.0 / f64::from(i),
            strike_shape: 1.0 / f64::from(i),
            pickup_shape: (-1f64).powi(i),
            side_shape: 0.0,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect();
    let mut a = ModalBank::new(0.1);
    let mut b = ModalBank::new(0.1);
    a.set_modes(&modes, FS);
    b.set_modes(&modes, FS);
    a.advance(Slot::Full, 7.0);
    b.advance(Slot::Full, 7.0);
    for _ in 0..500 {
        a.advance(Slot::Full, 0.0);
        let out = b.ring().mid_pa;
        assert!((out - a.pickup_pa()).abs() <= 1e-15 * out.abs().max(1e-9));
    }
    // Fewer modes after more: the old modes' shapes must not leak into the padded lanes.
    b.set_modes(&modes[..2], FS);
    b.advance(Slot::Full, 1.0);
    let expected = b.pickup_pa();
    assert_eq!(b.num_modes(), 2);
    assert!(
        (b.p[0] * modes[0].pickup_shape + b.p[1] * modes[1].pickup_shape - expected).abs() < 1e-18
    );
}

#[test]
fn a_held_force_moves_the_strike_point_by_the_compliance() {
    let mut bank = one_mode(700.0, 0.3);
    bank.advance(Slot::Full, 2.0);
    bank.prepare(Slot::OneOff, 0.37 / FS);
    // The same step force-free, on a twin.
    let mut free = one_mode(700.0, 0.3);
    free.advance(Slot::Full, 2.0);
    free.prepare(Slot::OneOff, 0.37 / FS);
    free.advance(Slot::OneOff, 0.0);
    let w_dot_free = free.strike_velocity_m_per_s();
    let w_free = bank.predict_free(Slot::OneOff);
    assert!((free.strike_displacement_m() - w_free).abs() <= 1e-15 * w_free.abs());
    let (g, g_v) = bank.compliance(Slot::OneOff);
    let surface = bank.advance(Slot::OneOff, 5.0);
    assert!((bank.strike_displacement_m() - (w_free + 5.0 * g)).abs() < 1e-15);
    // The prediction read in the same pass is the next force-free step's.
    let w_next = bank.predict_free(Slot::OneOff);
    assert!((surface.next_free_displacement_m - w_next).abs() <= 1e-15 * w_next.abs());
    assert!((bank.strike_velocity_m_per_s() - (w_dot_free + 5.0 * g_v)).abs() < 1e-12);
    assert!(g > 0.0 && g_v > 0.0);
}

/// A one-off step prepared again for the same length is taken from the last only while the
/// modes are the ones it was made for: after each way of changing them (a retune, a new strike
/// point, a note-off's decay, a choke, a damper put on or taken off, a new modal mass, new
/// modes, a copy of another bank) the step held under a force is, to the bit, a fresh bank's
/// with those modes; with no change, too.
#[test]
fn a_prepared_step_is_kept_only_for_its_modes() {
    let dt_s = 0.37 / FS;
    let changes: [fn(&mut ModalBank); 10] = [
        |_| {},
        |b| b.retune(1.5, FS, 0.05, false),
        |b| b.restrike(|_| 0.5, FS),
        |b| b.scale_decay(0.5, FS, false),
        |b| b.limit_t60(0.01, FS),
        |b| b.add_strike_damper(|_| 3.0),
        |b| {
            b.add_strike_damper(|_| 3.0);
            b.prepare(Slot::OneOff, 0.37 / FS);
            b.remove_strike_damper();
        },
        |b| b.set_mass_kg(0.3),
        |b| b.set_modes(&[mode(900.0, 0.2)], FS),
        |b| b.copy_from(&one_mode(1100.0, 0.4)),
    ];
    for (k, change) in changes.iter().enumerate() {
        let (mut kept, mut fresh) = (one_mode(700.0, 0.3), one_mode(700.0, 0.3));
        kept.prepare(Slot::OneOff, dt_s);
        change(&mut kept);
        change(&mut fresh);
        kept.prepare(Slot::OneOff, dt_s);
        fresh.prepare(Slot::OneOff, dt_s);
        let (a, b) = (
            kept.advance(Slot::OneOff, 3.0),
            fresh.advance(Slot::OneOff, 3.0),
        );
        assert_eq!(
            a.displacement_m.to_bits(),
            b.displacement_m.to_bits(),
            "change {k}"
        );
        assert_eq!(
            a.velocity_m_per_s.to_bits(),
            b.velocity_m_per_s.to_bits(),
            "change {k}"
        );
    }
}

#[test]
fn sub_steps_compose_to_a_full_step() {
    // n sub-steps of T/n with zero force equal one exact step of T.
    let mut a = one_mode(3000.0, 0.5);
    let mut b = one_mode(3000.0, 0.5);
    a.advance(Slot::Full, 5.0);
    b.advance(Slot::Full, 5.0);
    b.prepare(Slot::Sub, 1.0 / (7.0 * FS));
    a.advance(Slot::Full, 0.0);
    for _ in 0..7 {
        b.advance(Slot::Sub, 0.0);
    }
    assert!((a.q[0] - b.q[0]).abs() < 1e-12 * a.q[0].abs());
    assert!((a.p[0] - b.p[0]).abs() < 1e-12 * a.p[0].abs());
}

/// Skudrzyk's mean value over the 48 lowest modes of a simply supported steel plate (40 × 28 cm,
/// 4 mm; modes f_mn = (π/2)·√(D/(ρh))·((m/a)² + (n/b)²), computed here) is the infinite plate's
/// point conductance 1/(8√(D·ρh)) (Cremer, Heckl & Petersson) within 5 %, in the band and an
/// octave above it: the plate's edges leave its top octave 3 % short of the asymptotic count
/// (S/2)·√(ρh/D) per Hz.
#[test]
fn the_mean_mobility_of_a_plates_modes_is_the_infinite_plates() {
    const MODES: usize = 48;
    let (e, nu, rho): (f64, f64, f64) = (200e9, 0.29, 7850.0);
    let (a, b, h): (f64, f64, f64) = (0.4, 0.28, 0.004);
    let rigidity = e * h * h * h / (12.0 * (1.0 - nu * nu));
    let per_area = rho * h;
    let wave = (rigidity / per_area).sqrt();
    let mut freqs: Vec<f64> = (1..40)
        .flat_map(|m| (1..40).map(move |n| (m, n)))
        .map(|(m, n)| {
            let (m, n) = (m as f64, n as f64);
            0.5 * std::f64::consts::PI * wave * ((m / a).powi(2) + (n / b).powi(2))
        })
        .collect();
    freqs.sort_by(f64::total_cmp);
    let modes: Vec<Mode> = freqs[..MODES]
        .iter()
        .map(|&freq_hz| Mode {
            freq_hz,
            t60_s: 1.0,
            strike_shape: 1.0,
            pickup_shape: 1.0,
            side_shape: 0.0,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect();
    let mut bank = ModalBank::new(per_area * a * b);
    bank.set_modes(&modes, 4.0 * FS);
    let infinite = 1.0 / (8.0 * (rigidity * per_area).sqrt());
    let top_hz = freqs[MODES - 1];
    for freq_hz in [0.5 * top_hz, top_hz, 2.0 * top_hz] {
        let ratio = bank.mean_mobility().m_per_n_s(freq_hz) / infinite;
        assert!(
            (ratio - 1.0).abs() < 0.05,
            "{freq_hz:.0} Hz: {ratio:.3} of the infinite plate's"
        );
    }
}

/// A dashpot R at the strike point takes a lone mode's energy at the rate φ²·R/M (the decay
/// rate σ rises by φ²·R/(2M)): measured from the energy after 0.1 s of ringing; a second one
/// replaces the first, and taken away the mode decays by its own T60 again.
#[test]
fn a_strike_point_damper_adds_its_decay_rate() {
    let (t60_s, shape, resistance) = (2.0, 0.7, 0.05);
    let mut bank = ModalBank::new(0.1);
    let mode = Mode {
        freq_hz: 440.0,
        t60_s,
        strike_shape: shape,
        pickup_shape: 1.0,
        side_shape: 0.0,
        tangent_shape: 0.0,
        radiator: Radiator::Velocity,
    };
    bank.set_modes(&[mode], FS);
    bank.advance(Slot::Full, 1.0);
    bank.add_strike_damper(|_| resistance);
    let decay_rate = |bank: &mut ModalBank| {
        let e0 = bank.energy_j();
        let samples = (0.1 * FS) as usize;
        for _ in 0..samples {
            bank.ring();
        }
        -(bank.energy_j() / e0).ln() / (2.0 * samples as f64 / FS)
    };
    let own = 1000f64.ln() / t60_s;
    let expected = own + shape * shape * resistance / (2.0 * bank.mass_kg());
    // The energy of a damped mode ripples at twice its frequency about the exponential.
    let measured = decay_rate(&mut bank);
    assert!(
        (measured / expected - 1.0).abs() < 0.01,
        "σ {measured:.4}/s, expected {expected:.4}/s"
    );
    // A second damper takes the first's place; taken away, the mode decays as its own.
    bank.add_strike_damper(|_| resistance);
    let measured = decay_rate(&mut bank);
    assert!(
        (measured / expected - 1.0).abs() < 0.01,
        "σ {measured:.4}/s twice"
    );
    bank.remove_strike_damper();
    let measured = decay_rate(&mut bank);
    assert!(
        (measured / own - 1.0).abs() < 0.01,
        "σ {measured:.4}/s, its own {own:.4}/s"
    );
}

#[test]
fn a_tangential_force_pushed_after_a_step_is_that_force_held_over_it() {
    // With the tangential shape equal to the strike shape, a step under F equals a free step
    // with F pushed tangentially afterwards (the response is linear), to rounding.
    let modes: Vec<Mode> = (1..=20)
        .map(|i| Mode {
            freq_hz: 97.0 * f64::from(i).powf(1.3),
            t60_s: 2.0 / f64::from(i),
            strike_shape: (0.7 * f64::from(i)).sin(),
            pickup_shape: (1.3 * f64::from(i)).cos(),
            side_shape: 0.1,
            tangent_shape: (0.7 * f64::from(i)).sin(),
            radiator: Radiator::Velocity,
        })
        .collect();
    let (mut held, mut pushed) = (ModalBank::new(0.2), ModalBank::new(0.2));
    held.set_modes(&modes, FS);
    pushed.set_modes(&modes, FS);
    assert!(
        (held.compliance(Slot::Full).0 / pushed.tangent_compliance_m_per_n() - 1.0).abs() < 1e-12
    );
    let close = |a: f64, b: f64, scale: f64| (a - b).abs() < 1e-9 * scale;
    for n in 0..500 {
        let force = (n as f64 * 0.37).sin() * 3.0;
        let a = held.advance(Slot::Full, force);
        let mut b = pushed.advance(Slot::Full, 0.0).pickup;
        let after = pushed.push_tangent(force, Slot::Full);
        b.mid_pa += after.added.mid_pa;
        b.side_pa += after.added.side_pa;
        let scale = a.pickup.mid_pa.abs().max(1e-9);
        assert!(close(a.pickup.mid_pa, b.mid_pa, scale), "sample {n}");
        assert!(close(
            a.pickup.side_pa,
            b.side_pa,
            scale.max(a.pickup.side_pa.abs())
        ));
        // What the push's pass reads is what the held step's pass read.
        let read = after.surface;
        assert!(
            close(read.pickup.mid_pa, a.pickup.mid_pa, scale),
            "sample {n}"
        );
        let w = a.displacement_m;
        let w_scale = w.abs().max(1e-12);
        assert!(close(read.displacement_m, w, w_scale), "sample {n}");
        assert!(close(after.tangent_m, w, w_scale), "sample {n}");
        let v = a.velocity_m_per_s;
        assert!(
            close(read.velocity_m_per_s, v, v.abs().max(1e-9)),
            "sample {n}"
        );
        let next = a.next_free_displacement_m;
        assert!(
            close(read.next_free_displacement_m, next, next.abs().max(1e-12)),
            "sample {n}"
        );
    }
}

/// How the modes of [`falling_bank`] fall.
#[derive(Clone, Copy, Debug)]
enum Falling {
    /// At the shortest T60 a mode can have (0.1 ms).
    Fastest,
    /// Damped by hand far past critical.
    Overdamped,
    /// Ringing for 10 s, then choked to 0.1 ms after ten steps.
    Choked,
}

/// 128 modes from 50 Hz up to 0.45·`fs`, falling as `falling` says.
fn falling_bank(fs: f64, falling: Falling) -> Box<ModalBank> {
    let mut bank = ModalBank::new(0.01);
    let t60_s = match falling {
        Falling::Choked => 10.0,
        _ => 1e-4,
    };
    let modes: Vec<Mode> = (0..MAX_MODES)
        .map(|i| Mode {
            freq_hz: 50.0 + (0.45 * fs - 50.0) * i as f64 / MAX_MODES as f64,
            t60_s,
            strike_shape: 1.0,
            pickup_shape: 1.0,
            side_shape: 0.5,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect();
    bank.set_modes(&modes, fs);
    if let Falling::Overdamped = falling {
        for i in 0..MAX_MODES {
            bank.setup.sigma[i] = 3.0 * bank.setup.omega0_sq[i].sqrt();
        }
        bank.retransition(fs, false);
    }
    bank
}

/// `bank` struck with `force_n` for one sample, then rung for `steps` steps (a sub-step of a
/// contact every seventh) while `check(step, bank)` looks at it after each; `choke` chokes it
/// to a 0.1 ms T60 after ten steps.
fn strike_and_ring(
    bank: &mut ModalBank,
    fs: f64,
    force_n: f64,
    steps: usize,
    choke: bool,
    mut check: impl FnMut(usize, &ModalBank),
) {
    bank.prepare(Slot::Sub, 0.25 / fs);
    bank.advance(Slot::Full, force_n);
    for n in 0..steps {
        if choke && n == 10 {
            bank.limit_t60(1e-4, fs);
        }
        if n % 7 == 0 {
            bank.advance(Slot::Sub, 0.0);
        } else {
            bank.ring();
        }
        check(n, bank);
    }
}

#[test]
fn a_falling_bank_never_holds_a_subnormal_state_however_fast_its_modes_fall() {
    // Rung on its own (a bank outside a voice flushes too), struck from 1 kN down to where its
    // state starts below NEGLIGIBLE_STATE (so its modes cross the subnormal range at every phase
    // of the flushes), at sample rates from 1 kHz (30 decades a sample for a 0.1 ms T60) to
    // 192 kHz: after every step, no q or p is subnormal, and the fastest bank ends at zeros.
    for fs in [1_000.0, 8_000.0, 44_100.0, 192_000.0] {
        for falling in [Falling::Fastest, Falling::Overdamped, Falling::Choked] {
            for decades in (0..130).step_by(3) {
                let force_n = 1e3 * 10f64.powi(-decades);
                let mut bank = falling_bank(fs, falling);
                let mut born = ModalBank::new(0.01);
                born.copy_from(&bank);
                born.advance(Slot::Full, force_n);
                if born.max_state() < NEGLIGIBLE_STATE {
                    continue;
                }
                let choke = matches!(falling, Falling::Choked);
                strike_and_ring(&mut bank, fs, force_n, 3_000, choke, |n, bank| {
                    assert!(
                        !bank.has_subnormal_state(),
                        "{fs} Hz, {falling:?}, {force_n} N: subnormal after {n} steps"
                    );
                });
                // Modes at or past critical damping are still creeping back.
                if matches!(falling, Falling::Fastest) {
                    assert_eq!(bank.max_state(), 0.0, "{fs} Hz, {falling:?}, {force_n} N");
                }
            }
        }
    }
}

#[test]
fn a_bank_put_below_the_negligible_state_is_zero_within_a_flush_period() {
    // Struck at 1e-300 of 1 kN, or anywhere below NEGLIGIBLE_STATE: exact zeros after at most
    // MAX_FLUSH_STEPS steps, whatever its decay (here modes that barely decay: T60 1000 s).
    for fs in [8_000.0, 48_000.0] {
        for force_n in [1e-297, 1e-200, 1e-140] {
            let mut bank = one_mode(440.0, 1e3);
            let mut zero_after = None;
            strike_and_ring(&mut bank, fs, force_n, 200, false, |n, bank| {
                if zero_after.is_none() && bank.max_state() == 0.0 {
                    zero_after = Some(n + 1);
                }
            });
            let steps = zero_after.expect("flushed");
            assert!(
                steps <= MAX_FLUSH_STEPS as usize,
                "{fs} Hz, {force_n} N: {steps} steps"
            );
        }
    }
}

#[test]
fn a_quiet_mode_is_not_flushed_while_it_is_above_the_negligible_state() {
    // An undamped mode at 1e-100 m rings on at its closed-form amplitude: the flush takes
    // nothing from a state above NEGLIGIBLE_STATE, however long it rings.
    let mut bank = one_mode(440.0, 1e12);
    bank.advance(Slot::Full, 1e-90);
    let omega0_sq = bank.setup.omega0_sq[0];
    let energy = |b: &ModalBank| b.p[0] * b.p[0] + omega0_sq * b.q[0] * b.q[0];
    let start = energy(&bank);
    for _ in 0..10_000 {
        bank.ring();
    }
    assert!(start.sqrt() > 1e3 * NEGLIGIBLE_STATE);
    assert!((energy(&bank) / start - 1.0).abs() < 1e-9);
}

/// `count` modes from `f1_hz` at `spacing_hz` apart, every fifth falling below the negligible
/// state within 1000 samples, struck with 2 N for a sample.
fn struck_bank(count: usize, f1_hz: f64, spacing_hz: f64) -> Box<ModalBank> {
    let modes: Vec<Mode> = (0..count)
        .map(|i| Mode {
            freq_hz: f1_hz + spacing_hz * i as f64,
            t60_s: if i % 5 == 0 {
                1e-4
            } else {
                0.002 + 0.05 * i as f64
            },
            strike_shape: 1.0 / (1.0 + i as f64),
            pickup_shape: if i % 2 == 0 { 1.0 } else { -0.7 },
            side_shape: 0.3 - 0.02 * i as f64,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect();
    let mut bank = ModalBank::new(0.05);
    bank.set_modes(&modes, FS);
    bank.advance(Slot::Full, 2.0);
    bank
}

#[test]
fn a_block_rung_is_the_same_bits_as_a_sample_at_a_time() {
    // 37 modes (four whole lane groups and a part), struck, then rung for 1000 samples a sample
    // at a time and in blocks of odd lengths (longer and shorter than a ring block, and across
    // the flushes): every output sample and the state after are bit-identical.
    let mut by_sample = struck_bank(37, 90.0, 611.0);
    let mut by_block = ModalBank::new(0.05);
    by_block.copy_from(&by_sample);
    let expected: Vec<Pickup> = (0..1000).map(|_| by_sample.ring()).collect();
    let (mut mid, mut side) = (vec![0.0; 1000], vec![0.0; 1000]);
    let mut start = 0;
    for len in [1, 63, 64, 65, 200, 7, 3, 30, 300, 300].into_iter().cycle() {
        let end = (start + len).min(1000);
        by_block.ring_block(&mut mid[start..end], &mut side[start..end]);
        start = end;
        if start == 1000 {
            break;
        }
    }
    for (k, e) in expected.iter().enumerate() {
        assert_eq!(
            (mid[k].to_bits(), side[k].to_bits()),
            (e.mid_pa.to_bits(), e.side_pa.to_bits()),
            "sample {k}"
        );
    }
    let bits =
        |b: &ModalBank| -> Vec<u64> { b.q.iter().chain(&b.p).map(|x| x.to_bits()).collect() };
    assert_eq!(bits(&by_block), bits(&by_sample));
}

#[test]
fn two_banks_rung_together_sound_as_each_alone_at_its_gain() {
    // An object of 37 modes and a striker of 5 rung 17 samples before (flushed on other
    // steps), rung in one pass for 1000 samples in blocks of odd lengths, the striker heard at
    // 0.6: each bank's state is bit-identical to ringing alone, and what the pickups hear is the
    // object's plus 0.6 times the striker's, each rung alone, to rounding.
    let (mut object, mut striker) = (struck_bank(37, 90.0, 611.0), struck_bank(5, 1500.0, 2300.0));
    for _ in 0..17 {
        striker.ring();
    }
    let (mut object_alone, mut striker_alone) = (ModalBank::new(0.05), ModalBank::new(0.05));
    object_alone.copy_from(&object);
    striker_alone.copy_from(&striker);
    let expected: Vec<Pickup> = (0..1000)
        .map(|_| {
            let (o, s) = (object_alone.ring(), striker_alone.ring());
            Pickup {
                mid_pa: o.mid_pa + 0.6 * s.mid_pa,
                side_pa: o.side_pa + 0.6 * s.side_pa,
            }
        })
        .collect();
    let (mut mid, mut side) = (vec![0.0; 1000], vec![0.0; 1000]);
    let mut start = 0;
    for len in [1, 63, 64, 65, 200, 7, 3, 30, 300, 300].into_iter().cycle() {
        let end = (start + len).min(1000);
        let banks = &mut [(&mut *object, 1.0), (&mut *striker, 0.6)];
        ring_heard(banks, &mut mid[start..end], &mut side[start..end]);
        start = end;
        if start == 1000 {
            break;
        }
    }
    let scale = |of: fn(&Pickup) -> f64| expected.iter().map(|e| of(e).abs()).fold(0.0, f64::max);
    let (mid_scale, side_scale) = (scale(|e| e.mid_pa), scale(|e| e.side_pa));
    for (k, e) in expected.iter().enumerate() {
        assert!(
            (mid[k] - e.mid_pa).abs() <= 1e-14 * mid_scale,
            "mid, sample {k}"
        );
        assert!(
            (side[k] - e.side_pa).abs() <= 1e-14 * side_scale,
            "side, sample {k}"
        );
    }
    let bits =
        |b: &ModalBank| -> Vec<u64> { b.q.iter().chain(&b.p).map(|x| x.to_bits()).collect() };
    assert_eq!(bits(&object), bits(&object_alone));
    assert_eq!(bits(&striker), bits(&striker_alone));
}

#[test]
fn a_non_finite_state_is_not_flushed_away() {
    // The voice checks its banks for non-finite state at its decision points: a NaN mode must
    // still be there after the flushes, not silently zeroed.
    let mut bank = one_mode(440.0, 1e-3);
    bank.q[0] = f64::NAN;
    for _ in 0..(2 * MAX_FLUSH_STEPS) {
        bank.ring();
    }
    assert!(!bank.is_finite());
}

/// The strike point's reach and top speed ([`ModalBank::swing_bounds`]) bound every later
/// displacement and velocity of a freely ringing bank, the reach being Cauchy–Schwarz's bound
/// ([`ModalBank::max_excursion_m`]) at most: eight modes (two past critical damping) struck one
/// after another at their own samples (so their phases differ), then rung for a second. The
/// bound is also reached: one undamped mode's reach is its amplitude, within 10⁻³.
#[test]
fn a_free_bank_never_swings_beyond_its_reach() {
    let modes: Vec<Mode> = (0..8)
        .map(|i| Mode {
            freq_hz: 90.0 * 1.7f64.powi(i),
            t60_s: 3.0 / (1.0 + f64::from(i)),
            strike_shape: if i % 3 == 0 { -0.8 } else { 1.0 },
            pickup_shape: 1.0,
            side_shape: 0.0,
            tangent_shape: 0.0,
            radiator: Radiator::Velocity,
        })
        .collect();
    let mut bank = ModalBank::new(0.05);
    bank.set_modes(&modes, FS);
    bank.setup.sigma[6] = 2.0 * bank.setup.omega0_sq[6].sqrt();
    bank.setup.sigma[7] = 1.1 * bank.setup.omega0_sq[7].sqrt();
    bank.retransition(FS, false);
    for (n, force_n) in [3.0, -1.0, 7.0, 2.0].into_iter().enumerate() {
        bank.advance(Slot::Full, force_n);
        for _ in 0..(13 * n + 5) {
            bank.ring();
        }
    }
    let (reach_m, top_speed_m_per_s) = bank.swing_bounds();
    let cauchy_schwarz_m = bank.max_excursion_m();
    assert!(
        reach_m <= cauchy_schwarz_m,
        "{reach_m} > {cauchy_schwarz_m}"
    );
    let (mut farthest_m, mut fastest_m_per_s) = (0.0f64, 0.0f64);
    for _ in 0..FS as usize {
        bank.ring();
        farthest_m = farthest_m.max(bank.strike_displacement_m().abs());
        fastest_m_per_s = fastest_m_per_s.max(bank.strike_velocity_m_per_s().abs());
    }
    assert!(
        farthest_m <= reach_m,
        "swung {farthest_m} m beyond the reach {reach_m} m"
    );
    assert!(
        fastest_m_per_s <= top_speed_m_per_s,
        "moved at {fastest_m_per_s} m/s, over the bound {top_speed_m_per_s} m/s"
    );

    let mut one = one_mode(200.0, 1e6);
    one.advance(Slot::Full, 1.0);
    let reach_m = one.swing_bounds().0;
    let mut farthest_m = 0.0f64;
    for _ in 0..(FS / 100.0) as usize {
        one.ring();
        farthest_m = farthest_m.max(one.strike_displacement_m().abs());
    }
    assert!(
        (farthest_m / reach_m - 1.0).abs() < 1e-3,
        "{farthest_m} against {reach_m}"
    );
}
