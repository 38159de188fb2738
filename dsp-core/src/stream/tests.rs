//! Tests of the event streams against the laws they draw from: Kolmogorov–Smirnov on the waits, maximum likelihood on the energies.

use super::*;

/// The stream's events over `seconds`, taken sample by sample at `rate_hz` as a voice takes
/// them, each with the sample it falls in.
fn drive(stream: &mut EventStream, rate_hz: f64, seconds: f64) -> Vec<(usize, Event)> {
    let mut events = Vec::new();
    for n in 0..(seconds * rate_hz) as usize {
        let end_s = (n + 1) as f64 / rate_hz;
        while let Some(event) = stream.next_before(end_s) {
            events.push((n, event));
        }
    }
    events
}

fn crumpling(rate_per_s: f64, seed: u64) -> EventStream {
    let law = EnergyLaw::power_law(1.45, 1e-6, Some(1e-4)).unwrap();
    EventStream::new(StreamSettings::new(law), rate_per_s, seed)
}

/// The Kolmogorov–Smirnov statistic of `samples` against the distribution function `cdf`, and
/// its p-value by the asymptotic Kolmogorov distribution with Stephens' correction (Numerical
/// Recipes, 2nd ed., §14.3: Q_KS(λ) = 2·Σ(−1)^(j−1)·e^(−2j²λ²), λ = (√n + 0.12 + 0.11/√n)·D).
pub(super) fn kolmogorov_smirnov(mut samples: Vec<f64>, cdf: impl Fn(f64) -> f64) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let n = samples.len() as f64;
    let d = samples
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n).max((i + 1) as f64 / n - f)
        })
        .fold(0.0, f64::max);
    let lambda = (n.sqrt() + 0.12 + 0.11 / n.sqrt()) * d;
    let q: f64 = (1..=100)
        .map(|j| {
            let j = j as f64;
            let sign = if j % 2.0 == 1.0 { 2.0 } else { -2.0 };
            sign * (-2.0 * j * j * lambda * lambda).exp()
        })
        .sum();
    (d, q.clamp(0.0, 1.0))
}

fn waits_s(events: &[(usize, Event)]) -> Vec<f64> {
    events
        .windows(2)
        .map(|pair| pair[1].1.time_s - pair[0].1.time_s)
        .collect()
}

#[test]
fn the_waits_are_exponential_and_the_events_the_same_at_every_sample_rate() {
    let rate_per_s = 1000.0;
    let seconds = 10.5;
    let at_44k = drive(&mut crumpling(rate_per_s, 7), 44_100.0, seconds);
    assert!(at_44k.len() > 10_000, "{} events", at_44k.len());
    for rate_hz in [44_100.0, 48_000.0, 96_000.0] {
        let events = drive(&mut crumpling(rate_per_s, 7), rate_hz, seconds);
        let (d, p) = kolmogorov_smirnov(waits_s(&events), |t| 1.0 - (-rate_per_s * t).exp());
        assert!(p > 0.05, "at {rate_hz} Hz: D = {d}, p = {p}");
        let list: Vec<Event> = events.iter().map(|&(_, e)| e).collect();
        let list_44k: Vec<Event> = at_44k.iter().map(|&(_, e)| e).collect();
        assert_eq!(list, list_44k, "the events at {rate_hz} Hz");
    }
}

#[test]
fn the_waits_of_another_rate_fail_the_test() {
    // The test's power: waits drawn at 1000/s are not those of 1050/s.
    let events = drive(&mut crumpling(1000.0, 7), 48_000.0, 10.5);
    let (_, p) = kolmogorov_smirnov(waits_s(&events), |t| 1.0 - (-1050.0 * t).exp());
    assert!(p < 0.05, "p = {p}");
}

#[test]
fn any_number_of_events_may_fall_in_one_sample() {
    let rate_per_s = 200_000.0;
    let events = drive(&mut crumpling(rate_per_s, 3), 44_100.0, 1.0);
    let mut most = 0;
    for run in events.chunk_by(|a, b| a.0 == b.0) {
        most = most.max(run.len());
    }
    assert!(most >= 5, "at most {most} events in a sample");
    // A Poisson count: within five standard deviations of the rate.
    let count = events.len() as f64;
    assert!(
        (count - rate_per_s).abs() < 5.0 * rate_per_s.sqrt(),
        "{count} events"
    );
}

#[test]
fn a_changing_rate_rescales_time() {
    // The rate jumps among five values at random moments (as a gesture's would): by the
    // time-rescaling theorem the integrated rate between events is a unit exponential.
    let mut stream = crumpling(500.0, 11);
    let mut rng = fastrand::Rng::with_seed(5);
    let rates = [50.0, 500.0, 3000.0, 0.0, 1200.0];
    let (mut now_s, mut integral, mut last) = (0.0, 0.0, None);
    let mut rescaled_waits = Vec::new();
    while rescaled_waits.len() < 10_000 {
        let until_s = now_s + 0.004 * rng.f64();
        while let Some(event) = stream.next_before(until_s) {
            let at = integral + stream.rate_per_s() * (event.time_s - now_s);
            if let Some(before) = last {
                rescaled_waits.push(at - before);
            }
            last = Some(at);
        }
        integral += stream.rate_per_s() * (until_s - now_s);
        now_s = until_s;
        stream.set_rate(now_s, rates[rng.usize(..rates.len())]);
    }
    let (d, p) = kolmogorov_smirnov(rescaled_waits, |w| 1.0 - (-w).exp());
    assert!(p > 0.05, "D = {d}, p = {p}");
}

/// The maximum-likelihood exponent of a power law on [min, max] (infinite max allowed) for
/// `energies`: the log-likelihood n·ln((α − 1)/(min^(1−α) − max^(1−α))) − α·Σ ln E is concave
/// in α (an exponential family in ln E), so a golden-section search finds its maximum.
fn fitted_exponent(energies: &[f64], min: f64, max: f64) -> f64 {
    let n = energies.len() as f64;
    let sum_ln: f64 = energies.iter().map(|e| e.ln()).sum();
    let log_likelihood = |alpha: f64| {
        let a = 1.0 - alpha;
        let norm = if max.is_infinite() {
            -min.powf(a) / a
        } else {
            (max.powf(a) - min.powf(a)) / a
        };
        -n * norm.ln() - alpha * sum_ln
    };
    let (mut lo, mut hi) = (1.0001, 3.0);
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 1e-7 {
        let (a, b) = (hi - golden * (hi - lo), lo + golden * (hi - lo));
        if log_likelihood(a) < log_likelihood(b) {
            lo = a;
        } else {
            hi = b;
        }
    }
    0.5 * (lo + hi)
}

fn energies(law: EnergyLaw, count: usize, seed: u64) -> Vec<f64> {
    let mut stream = EventStream::new(StreamSettings::new(law), 1000.0, seed);
    (0..count)
        .map(|_| stream.next_before(f64::INFINITY).unwrap().energy_j)
        .collect()
}

#[test]
fn the_energies_follow_the_power_law_over_two_decades() {
    for (seed, exponent) in [(1, 1.3), (2, 1.45), (3, 1.6)] {
        let (min, max) = (2e-6, 2e-4);
        let law = EnergyLaw::power_law(exponent, min, Some(max)).unwrap();
        let drawn = energies(law, 10_000, seed);
        assert!(drawn.iter().all(|&e| (min..=max).contains(&e)));
        let fitted = fitted_exponent(&drawn, min, max);
        assert!(
            (fitted - exponent).abs() < 0.03,
            "{exponent}: fitted {fitted}"
        );
    }
}

#[test]
fn the_energies_follow_the_power_law_without_a_maximum() {
    for (seed, exponent) in [(4, 1.3), (5, 1.6), (6, 2.2)] {
        let law = EnergyLaw::power_law(exponent, 1e-3, None).unwrap();
        let drawn = energies(law, 10_000, seed);
        // Clauset, Shalizi & Newman (SIAM Review 51, 2009), eq. 3.1: α̂ = 1 + n / Σ ln(E/E₀).
        let fitted = 1.0 + drawn.len() as f64 / drawn.iter().map(|e| (e / 1e-3).ln()).sum::<f64>();
        assert!(
            (fitted - exponent).abs() < 0.03,
            "{exponent}: fitted {fitted}"
        );
        // And the likelihood fit of the bounded test agrees with the closed form.
        assert!((fitted_exponent(&drawn, 1e-3, f64::INFINITY) - fitted).abs() < 1e-4);
    }
}

#[test]
fn an_exponent_of_one_is_log_uniform() {
    let drawn = energies(
        EnergyLaw::power_law(1.0, 1e-6, Some(1e-2)).unwrap(),
        10_000,
        8,
    );
    let (d, p) = kolmogorov_smirnov(drawn, |e| (e / 1e-6).ln() / 1e4f64.ln());
    assert!(p > 0.05, "D = {d}, p = {p}");
}

#[test]
fn the_reference_law_is_a_clipped_exponential() {
    // E[clip(X, a, b)] = a + (e^(−λa) − e^(−λb))/λ for X exponential of rate λ.
    let (rate, a, b) = (1.45_f64, 0.1_f64, 10.0_f64);
    let mean = a + ((-rate * a).exp() - (-rate * b).exp()) / rate;
    let drawn = energies(EnergyLaw::sdt(2.0).unwrap(), 10_000, 9);
    let measured = drawn.iter().sum::<f64>() / drawn.len() as f64;
    // The clipped variate's standard deviation is below the exponential's, 1/λ.
    let tolerance = 4.0 * 2.0 / rate / (drawn.len() as f64).sqrt();
    assert!(
        (measured - 2.0 * mean).abs() < tolerance,
        "{measured} vs {}",
        2.0 * mean
    );
    assert!(drawn.iter().all(|&e| (2.0 * a..=2.0 * b).contains(&e)));
}

#[test]
fn bad_laws_are_refused_with_their_reason() {
    let refusal = |law: Result<EnergyLaw, String>| law.unwrap_err();
    assert!(refusal(EnergyLaw::power_law(1.0, 1e-6, None)).contains("needs a maximum"));
    assert!(refusal(EnergyLaw::power_law(0.5, 1e-6, None)).contains("needs a maximum"));
    assert!(refusal(EnergyLaw::power_law(1.5, 0.0, None)).contains("minimum energy"));
    assert!(refusal(EnergyLaw::power_law(1.5, 1e-3, Some(1e-4))).contains("must exceed"));
    assert!(refusal(EnergyLaw::power_law(f64::NAN, 1e-3, None)).contains("exponent"));
    assert!(refusal(EnergyLaw::power_law(1.5, 1e-9, Some(1e9))).contains("decades"));
    assert!(refusal(EnergyLaw::sdt(-1.0)).contains("scale"));
    assert!(EnergyLaw::power_law(0.5, 1e-6, Some(1e-3)).is_ok());
}

#[test]
fn a_stream_without_rate_is_silent_and_takes_up_where_its_rate_returns() {
    let mut stream = crumpling(0.0, 1);
    assert_eq!(stream.next_before(1e9), None);
    stream.set_rate(2.0, 100.0);
    let first = stream.next_before(f64::INFINITY).unwrap();
    assert!(first.time_s >= 2.0);
    // NaN and negative rates stop it.
    stream.set_rate(first.time_s, f64::NAN);
    assert_eq!(stream.next_before(1e9), None);
}

#[test]
fn an_event_of_a_quarter_of_the_whole_energy_breaks_half_the_size() {
    // Griffith: E ∝ the new surface, ∝ size².
    let settings = StreamSettings::new(EnergyLaw::power_law(1.5, 1e-6, Some(1e-2)).unwrap());
    assert!((settings.size(0.25e-2) - 0.5).abs() < 1e-12);
    assert_eq!(settings.size(1.0), 1.0);
    assert_eq!(settings.size(1e-12), MIN_SIZE);
}
