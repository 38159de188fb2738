//! Tests of a break's plan against closed forms: its ledger, its crack's rising rate (time rescaling), its fragments' bounces, and their onsets' lack of a period.

use super::*;

fn glass(seed_settings: u64) -> BreakSettings {
    let mut rng = fastrand::Rng::with_seed(seed_settings);
    BreakSettings {
        stored_j: 10f64.powf(-4.0 + 4.0 * rng.f64()),
        crack_share: rng.f64(),
        crack_s: 0.005 + 0.5 * rng.f64(),
        fragments: rng.usize(1..=MAX_FRAGMENTS),
        mass_exponent: 1.0 + rng.f64(),
        mass_kg: 0.01 + 0.5 * rng.f64(),
        restitution: 0.2 + 0.7 * rng.f64(),
        gravity_m_per_s2: 9.81,
    }
}

/// Every event of `plan`, taken at the end of each sample at `rate_hz`.
fn take(plan: &mut BreakPlan, rate_hz: f64) -> Vec<BreakEvent> {
    let mut events = Vec::new();
    let mut n = 1u64;
    while !plan.is_over() {
        while let Some(event) = plan.next_before(n as f64 / rate_hz) {
            events.push(event);
        }
        n += 1;
        assert!(n < 600 * rate_hz as u64, "a break that never ends");
    }
    events
}

#[test]
fn the_ledger_balances_and_each_fragment_bounces_as_its_restitution_says() {
    for case in 0..500 {
        let settings = glass(case);
        let mut plan = BreakPlan::new(settings, 1000 + case);
        let events = take(&mut plan, 48_000.0);
        let crack_j: f64 = events
            .iter()
            .filter(|e| e.piece == Piece::Crack)
            .map(|e| e.event.energy_j)
            .sum();
        let launched_j: f64 = plan.fragments().iter().map(|f| f.launch_energy_j).sum();
        let ledger = plan.ledger();
        assert_eq!(ledger.stored_j, settings.stored_j);
        let balance = crack_j + launched_j + ledger.remaining_j - settings.stored_j;
        assert!(
            balance.abs() <= 1e-9 * settings.stored_j,
            "case {case}: {balance:e}"
        );
        assert!(ledger.remaining_j >= 0.0);
        assert!(((ledger.released_j - crack_j - launched_j) / settings.stored_j).abs() < 1e-12);
        let mass_kg: f64 = plan.fragments().iter().map(|f| f.mass_kg).sum();
        assert!((mass_kg / settings.mass_kg - 1.0).abs() < 1e-12);
        for (n, fragment) in plan.fragments().iter().enumerate() {
            let impacts: Vec<&Event> = events
                .iter()
                .filter(|e| e.piece == Piece::Fragment(n))
                .map(|e| &e.event)
                .collect();
            assert_eq!(impacts.len() as u32, fragment.impacts);
            assert!(impacts.len() as u32 <= MAX_IMPACTS);
            if let Some(first) = impacts.first() {
                assert!(first.energy_j <= fragment.launch_energy_j * (1.0 + 1e-12));
            }
            // Between landings at v and e·v it flies 2·e·v/g, and lands with e² the energy.
            for pair in impacts.windows(2) {
                let ratio = pair[1].energy_j / pair[0].energy_j;
                let e2 = fragment.restitution * fragment.restitution;
                assert!((ratio / e2 - 1.0).abs() < 1e-9, "case {case}");
                let v_m_per_s = (2.0 * pair[1].energy_j / fragment.mass_kg).sqrt();
                let flight_s = 2.0 * v_m_per_s / settings.gravity_m_per_s2;
                assert!((pair[1].time_s - pair[0].time_s - flight_s).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn a_break_is_the_same_at_every_sample_rate() {
    for case in 0..20 {
        let at = |rate_hz| take(&mut BreakPlan::new(glass(case), case), rate_hz);
        let events = at(44_100.0);
        assert!(events.len() > 1);
        assert_eq!(events, at(48_000.0));
        assert_eq!(events, at(96_000.0));
    }
}

/// The crack's intensity integrated from 0 to `t_s`, Λ(t) = λ₀·τ·(e^((t−T)/τ) − e^(−T/τ)), its
/// peak λ₀ from the budget and the mean of the crack's law computed here by quadrature.
fn crack_intensity(settings: &BreakSettings) -> impl Fn(f64) -> f64 {
    let budget_j = settings.stored_j * settings.crack_share;
    let (min_j, max_j) = (1e-3 * budget_j, 0.2 * budget_j);
    // Mean of p(E) ∝ E^(−1.5) on [min, max] by the midpoint rule in ln E.
    let steps = 100_000;
    let (mut first, mut zeroth) = (0.0, 0.0);
    for i in 0..steps {
        let e = min_j * (max_j / min_j).powf((i as f64 + 0.5) / steps as f64);
        zeroth += e.powf(-1.5) * e;
        first += e.powf(-1.5) * e * e;
    }
    let expected = 1.25 * budget_j / (first / zeroth);
    let tau = settings.crack_s / 3.0;
    let peak = expected / (tau * (1.0 - (-3.0f64).exp()));
    let crack_s = settings.crack_s;
    move |t_s| peak * tau * (((t_s - crack_s) / tau).exp() - (-crack_s / tau).exp())
}

#[test]
fn the_crack_rate_rises_as_its_exponential() {
    let settings = BreakSettings {
        stored_j: 0.1,
        crack_share: 0.5,
        crack_s: 0.05,
        fragments: 8,
        mass_exponent: 1.35,
        mass_kg: 0.2,
        restitution: 0.5,
        gravity_m_per_s2: 9.81,
    };
    // Time rescaling: Λ(t_k) − Λ(t_{k−1}) are unit exponential draws.
    let intensity = crack_intensity(&settings);
    let mut rescaled = Vec::new();
    let mut seed = 0;
    while rescaled.len() < 10_000 {
        let events = take(&mut BreakPlan::new(settings, seed), 48_000.0);
        let mut last = 0.0;
        for e in events.iter().filter(|e| e.piece == Piece::Crack) {
            let now = intensity(e.event.time_s);
            rescaled.push(now - last);
            last = now;
        }
        seed += 1;
    }
    let (d, p) = super::tests::kolmogorov_smirnov(rescaled.clone(), |x| 1.0 - (-x).exp());
    assert!(p > 0.05, "D = {d}, p = {p}");
    // A constant rate over the crack fails the same test.
    let (_, p) = super::tests::kolmogorov_smirnov(rescaled, |x| 1.0 - (-1.3 * x).exp());
    assert!(p < 1e-3, "a wrong rate passed: p = {p}");
}

/// The autocorrelation of the fragments' onsets binned at 1 ms, over its value at lag 0.
fn onset_autocorrelation(events: &[BreakEvent]) -> Vec<f64> {
    let onsets: Vec<f64> = events
        .iter()
        .filter(|e| matches!(e.piece, Piece::Fragment(_)))
        .map(|e| e.event.time_s)
        .collect();
    let last = onsets.iter().fold(0.0f64, |a, &b| a.max(b));
    let mut train = vec![0.0; (last / 1e-3) as usize + 1];
    for t in onsets {
        train[(t / 1e-3) as usize] += 1.0;
    }
    let at = |lag: usize| -> f64 { train.iter().zip(&train[lag..]).map(|(a, b)| a * b).sum() };
    let zero = at(0);
    (1..train.len()).map(|lag| at(lag) / zero).collect()
}

/// A break as things break on a floor: fragments flung at 1–3 m/s, restitution 0.4–0.8.
fn shattering(seed_settings: u64) -> BreakSettings {
    let mut rng = fastrand::Rng::with_seed(seed_settings);
    let (mass_kg, speed_m_per_s, crack_share) = (
        0.05 + 0.5 * rng.f64(),
        1.0 + 2.0 * rng.f64(),
        0.5 * rng.f64(),
    );
    BreakSettings {
        stored_j: 0.5 * mass_kg * speed_m_per_s * speed_m_per_s / (1.0 - crack_share),
        crack_share,
        crack_s: 0.005 + 0.1 * rng.f64(),
        fragments: rng.usize(4..=MAX_FRAGMENTS),
        mass_exponent: 1.2 + 0.5 * rng.f64(),
        mass_kg,
        restitution: 0.4 + 0.4 * rng.f64(),
        gravity_m_per_s2: 9.81,
    }
}

#[test]
fn the_fragments_onsets_have_no_single_period() {
    for case in 0..200 {
        let events = take(&mut BreakPlan::new(shattering(case), case), 48_000.0);
        let peak = onset_autocorrelation(&events)
            .into_iter()
            .fold(0.0, f64::max);
        assert!(peak <= 0.5, "case {case}: a peak of {peak} past lag 0");
    }
    // One ball bouncing in a lossless way has one period, and fails the test.
    let train: Vec<BreakEvent> = (0..20)
        .map(|k| BreakEvent {
            event: Event {
                time_s: 0.05 * k as f64 + 0.0005,
                energy_j: 1.0,
                size: 1.0,
            },
            piece: Piece::Fragment(0),
        })
        .collect();
    assert!(onset_autocorrelation(&train)[49] > 0.5);
}

#[test]
fn bad_settings_are_refused_with_their_reason() {
    let good = glass(1);
    assert!(good.checked().is_ok());
    let bad = [
        (
            BreakSettings {
                stored_j: -1.0,
                ..good
            },
            "stored energy",
        ),
        (
            BreakSettings {
                crack_share: 1.5,
                ..good
            },
            "crack's share",
        ),
        (
            BreakSettings {
                fragments: 0,
                ..good
            },
            "fragments",
        ),
        (
            BreakSettings {
                crack_s: 0.0,
                ..good
            },
            "crack's length",
        ),
        (
            BreakSettings {
                restitution: 1.0,
                ..good
            },
            "restitution",
        ),
    ];
    for (settings, reason) in bad {
        let refused = settings.checked().unwrap_err();
        assert!(refused.contains(reason), "{refused}");
    }
}
