//! The pool against closed forms and its own single contact: eq. (6) on a rigid object, two strikers at once as one, no energy gained over random overlapping streams.

use super::*;
use crate::analytic::Impact;
use crate::interaction::tests::mode;

const FS: f64 = 48_000.0;
const DT: f64 = 1.0 / FS;

fn object(mass_kg: f64, modes: &[Mode]) -> Box<ModalBank> {
    let mut bank = ModalBank::new(mass_kg);
    bank.set_modes(modes, FS);
    bank
}

fn strike<'a>(v_in: f64, mass_kg: f64, stiffness: f64, modes: &'a [Mode]) -> PoolStrike<'a> {
    PoolStrike {
        v_in_m_per_s: v_in,
        mass_kg,
        modal_mass_kg: mass_kg,
        gap_m: 0.0,
        stiffness,
        alpha: 1.5,
        restitution: 0.7,
        modes,
    }
}

#[test]
fn one_striker_on_a_rigid_object_leaves_as_eq_6_says() {
    // A very heavy object with one very stiff mode is a rigid wall: the exit speed is eq. (6)'s
    // for the μ that restitutes e = 0.7 at v_in; the softest contact lasts hundreds of samples and
    // is taken in whole samples.
    for (stiffness, v_in) in [(1e7, 1.0), (3e6, 0.3), (1e8, 2.0), (1e4, 0.3)] {
        let mut bank = object(1e9, &[mode(20_000.0, 10.0, 1.0)]);
        let mut pool = StrikerPool::new();
        pool.start(&mut bank, DT, 1.0);
        let hit = strike(v_in, 0.01, stiffness, &[]);
        assert!(pool.strike(&bank, &hit, FS));
        let law = pool.strikers[0].setup.law;
        let impact = Impact {
            stiffness,
            mu_s_per_m: law.mu_s_per_m,
            alpha: 1.5,
            mass_kg: 0.01,
            v_in_m_per_s: v_in,
        };
        let samples = impact.contact_time_s() / DT;
        assert!(samples > 4.0, "{samples} samples of contact");
        assert_eq!(pool.strikers[0].long_contact, samples > 300.0);
        for _ in 0..2000 {
            pool.process_sample(&mut bank, DT);
        }
        let v_out = -pool.strikers[0].velocity_m_per_s;
        let expected = impact.v_out_exact_m_per_s().abs();
        assert!((expected - 0.7 * v_in).abs() < 1e-6 * v_in, "{expected}");
        assert!(
            (v_out - expected).abs() < 0.005 * expected,
            "k {stiffness}, v_in {v_in}: {v_out} against {expected} ({samples:.1} samples)"
        );
        // A point mass has nothing to ring with: it falls idle once it has flown off.
        assert_eq!(pool.strikers[0].phase, Phase::Idle);
    }
}

#[test]
fn two_strikers_at_once_act_as_one_of_twice_the_mass_and_stiffness() {
    // Two equal strikers landing together push the object with twice one's force at one
    // compression: a single striker of twice the mass with twice the stiffness (and the same μ,
    // as e and v_in are the same). The pool solves the pair through its sum of forces, the
    // single one through its own contact.
    let object_modes = [
        mode(310.0, 1.0, 1.0),
        mode(870.0, 0.5, -0.8),
        mode(2300.0, 0.3, 0.6),
    ];
    let striker_modes = [mode(4100.0, 0.2, 1.2), mode(9700.0, 0.1, -0.7)];
    let render = |pairs: &[(f64, f64)]| {
        let mut bank = object(0.05, &object_modes);
        let mut pool = StrikerPool::new();
        // The object alone is compared: two strikers ringing are heard twice.
        pool.start(&mut bank, DT, 0.0);
        for &(mass_kg, stiffness) in pairs {
            let hit = PoolStrike {
                gap_m: 0.3 * 0.8 * DT,
                ..strike(0.8, mass_kg, stiffness, &striker_modes)
            };
            assert!(pool.strike(&bank, &hit, FS));
        }
        (0..400)
            .map(|_| pool.process_sample(&mut bank, DT).mid_pa)
            .collect::<Vec<_>>()
    };
    let pair = render(&[(0.004, 2e6), (0.004, 2e6)]);
    let single = render(&[(0.008, 4e6)]);
    let peak = single.iter().fold(0.0f64, |a, &b| a.max(b.abs()));
    assert!(peak > 0.0);
    for (n, (a, b)) in pair.iter().zip(&single).enumerate() {
        assert!((a - b).abs() < 1e-9 * peak, "sample {n}: {a} against {b}");
    }
}

#[test]
fn overlapping_events_never_gain_energy() {
    // 10 000 random streams: up to 12 strikers of random mass, speed, stiffness, shape,
    // restitution and modes land on a random object within 2 ms, at random moments within their
    // samples. At every sample the object and the strikers hold no more than the launches put
    // in, less what flew off.
    let mut rng = fastrand::Rng::with_seed(28);
    let range = |rng: &mut fastrand::Rng, lo: f64, hi: f64| lo * (hi / lo).powf(rng.f64());
    let mut pool = StrikerPool::new();
    let mut overlapping = 0;
    for stream in 0..10_000 {
        // A quarter of the streams lose nothing (elastic contacts, modes that barely decay), so
        // that no loss elsewhere can hide a gain.
        let lossless = stream % 4 == 0;
        let t60 = |rng: &mut fastrand::Rng, lo, hi| if lossless { 1e3 } else { range(rng, lo, hi) };
        let object_modes: Vec<Mode> = (0..rng.usize(1..=6))
            .map(|_| {
                let shape = 2.0 * rng.f64() - 1.0;
                mode(
                    range(&mut rng, 80.0, 8000.0),
                    t60(&mut rng, 0.05, 3.0),
                    shape,
                )
            })
            .collect();
        let mut bank = object(range(&mut rng, 0.005, 2.0), &object_modes);
        pool.start(&mut bank, DT, 1.0);
        let events: Vec<(usize, PoolStrike<'static>, Vec<Mode>)> = (0..rng.usize(2..=12))
            .map(|_| {
                let modes: Vec<Mode> = (0..rng.usize(0..=4))
                    .map(|_| {
                        let freq_hz = range(&mut rng, 500.0, 20_000.0);
                        mode(freq_hz, t60(&mut rng, 0.01, 0.2), 2.0 * rng.f64() - 1.0)
                    })
                    .collect();
                let v_in = range(&mut rng, 1e-3, 30.0);
                let mass_kg = range(&mut rng, 1e-8, 0.1);
                let hit = PoolStrike {
                    v_in_m_per_s: v_in,
                    mass_kg,
                    modal_mass_kg: mass_kg * (0.5 + 4.0 * rng.f64()),
                    gap_m: rng.f64() * v_in * DT,
                    stiffness: range(&mut rng, 1e5, 1e11),
                    alpha: [1.0, 1.5, 2.0][rng.usize(..3)],
                    restitution: if lossless {
                        1.0
                    } else {
                        0.1 + 0.85 * rng.f64()
                    },
                    modes: &[],
                };
                (rng.usize(..96), hit, modes)
            })
            .collect();
        for n in 0..200 {
            for (at, hit, modes) in &events {
                if *at == n {
                    pool.strike(&bank, &PoolStrike { modes, ..*hit }, FS);
                }
            }
            let out = pool.process_sample(&mut bank, DT);
            assert!(out.mid_pa.is_finite() && out.side_pa.is_finite());
            let held = bank.energy_j() + pool.energy_j(&bank);
            let allowed = pool.net_energy_in_j();
            // Round-off: 10⁻⁸ of the energy that flowed (a tiny stiff striker's whole
            // contact can fall within one sub-step).
            assert!(
                held <= allowed + 1e-8 * pool.energy_in_j + 1e-18,
                "stream {stream}, sample {n}: {held} J held, {allowed} J put in"
            );
            let touching = pool.strikers.iter().filter(|s| s.force_n > 0.0).count();
            overlapping += usize::from(touching > 1);
        }
    }
    // The streams overlap: many samples have two contacts or more at once.
    assert!(
        overlapping > 10_000,
        "{overlapping} samples with overlapping contacts"
    );
}

#[test]
fn a_striker_in_flight_is_never_taken_and_a_quiet_one_is() {
    let mut bank = object(0.1, &[mode(440.0, 1.0, 1.0)]);
    let mut pool = StrikerPool::new();
    pool.start(&mut bank, DT, 1.0);
    let modes = [mode(3000.0, 0.5, 1.0)];
    let far = PoolStrike {
        gap_m: 0.002,
        ..strike(0.5, 0.001, 1e6, &modes)
    };
    for _ in 0..POOL_STRIKERS {
        assert!(pool.strike(&bank, &far, FS));
    }
    assert!(
        !pool.strike(&bank, &far, FS),
        "a seventeenth event in flight"
    );
    assert_eq!((pool.launched, pool.refused), (16, 1));
    // Once they have struck and flown off, ringing, a new event takes the quietest of them.
    for _ in 0..4800 {
        pool.process_sample(&mut bank, DT);
    }
    let phases: Vec<Phase> = pool.strikers.iter().map(|s| s.phase).collect();
    assert!(phases.iter().all(|&p| p == Phase::Ringing), "{phases:?}");
    pool.strikers[5].bank.scale_vibration(0.5);
    assert!(pool.strike(&bank, &strike(0.5, 0.001, 1e6, &modes), FS));
    assert_eq!(pool.strikers[5].phase, Phase::Flying);
}

#[test]
fn a_retuned_object_is_stepped_with_its_new_modes() {
    // A retune with no hammer in contact drops the object's sub-step transition; the pool's next
    // contact must step with the new one. The object is retuned at rest (its energy unchanged)
    // and struck elastically by undamped strikers: it then holds what they put in, no more.
    let modes = [mode(400.0, 1e3, 1.0), mode(1300.0, 1e3, -0.7)];
    let mut bank = object(0.02, &modes);
    let mut pool = StrikerPool::new();
    pool.start(&mut bank, DT, 1.0);
    bank.retune(0.25, FS, 0.1, false);
    let elastic = PoolStrike {
        restitution: 1.0,
        ..strike(0.6, 0.003, 3e6, &[])
    };
    for n in 0..2000 {
        if n % 400 == 0 {
            assert!(pool.strike(&bank, &elastic, FS));
        }
        pool.process_sample(&mut bank, DT);
        let held = bank.energy_j() + pool.energy_j(&bank);
        let allowed = pool.net_energy_in_j();
        assert!(
            held <= allowed + 1e-8 * pool.energy_in_j,
            "sample {n}: {held} J held, {allowed} J put in"
        );
    }
}

#[test]
fn the_contact_floor_lies_under_eq_9() {
    // The floor that lets a long contact take whole samples never exceeds the contact time the
    // quadrature of eq. (9) gives, damped or not, for every shape the pool is given.
    let mut rng = fastrand::Rng::with_seed(9);
    let range = |rng: &mut fastrand::Rng, lo: f64, hi: f64| lo * (hi / lo).powf(rng.f64());
    for _ in 0..2000 {
        let impact = Impact {
            stiffness: range(&mut rng, 1e3, 1e11),
            mu_s_per_m: 0.0,
            alpha: [1.0, 1.5, 2.0, 2.5][rng.usize(..4)],
            mass_kg: range(&mut rng, 1e-8, 10.0),
            v_in_m_per_s: range(&mut rng, 1e-3, 30.0),
        };
        let damped = Impact {
            mu_s_per_m: range(&mut rng, 1e-3, 30.0) / impact.v_in_m_per_s,
            ..impact
        };
        let (k, a, m, v) = (
            impact.stiffness,
            impact.alpha,
            impact.mass_kg,
            impact.v_in_m_per_s,
        );
        let floor = elastic_contact_floor_s(k, a, m, v);
        for case in [impact, damped] {
            let tau = case.contact_time_s();
            assert!(floor <= tau, "{case:?}: floor {floor} s over {tau} s");
        }
    }
}

#[test]
fn a_heavy_fragment_on_a_light_object_strikes_once() {
    // A striker ten times the object's modal mass drives its one mode and would meet it again and
    // again as it swings back; an event is one impact: once out of contact the striker is gone.
    let mut bank = object(0.01, &[mode(200.0, 1.0, 1.0)]);
    let mut pool = StrikerPool::new();
    pool.start(&mut bank, DT, 1.0);
    assert!(pool.strike(&bank, &strike(0.5, 0.1, 1e7, &[]), FS));
    let (mut onsets, mut was_touching) = (0, false);
    for _ in 0..(0.05 * FS) as usize {
        pool.process_sample(&mut bank, DT);
        let touching = pool.strikers[0].phase == Phase::Flying && pool.strikers[0].force_n > 0.0;
        onsets += usize::from(touching && !was_touching);
        was_touching = touching;
    }
    assert_eq!(onsets, 1);
    assert!(bank.energy_j() > 0.0);
}
