//! Every fixture analysed by the subspace analysis and by the comparison's peak picking: their strongest 8 partials agree.

use super::{reference_set, Kind};
use crate::compare::{self, cents, Sound};
use urto_dsp::analysis::{analyse, Mode, Options, Recording};

/// Two partials within this many cents are taken as one partial that both found.
const SAME_PARTIAL_CENTS: f64 = 50.0;
/// Issue 54: where both find one of their strongest 8 partials, they agree within 5 cents.
const AGREE_CENTS: f64 = 5.0;
/// ln 1000: a mode falls 60 dB in T60.
const LN_1000: f64 = 3.0 * std::f64::consts::LN_10;
/// The peak picking finds a partial to [`AGREE_CENTS`] where its reading moves less than that
/// when its window is this much shorter or longer (a neighbour it does not resolve moves it:
/// one a longer window begins to resolve, or an attack a shorter one weighs more).
const WINDOW_CHANGES: [f64; 2] = [0.8, 1.25];

/// The worst disagreement of one fixture over the pairs judged, and what was found.
struct Agreement {
    worst_cents: f64,
    /// Pairs both found whose partial the peak picking defines to [`AGREE_CENTS`].
    judged: usize,
    /// Pairs both found whose partial the peak picking does not define so (its reading moves).
    unstable: usize,
    detail: String,
}

/// The agreement of one fixture's analysis with its peak picking.
fn agreement(samples: &[f64], sample_rate_hz: f64) -> Result<Agreement, String> {
    let recording = Recording {
        samples: samples.to_vec(),
        sample_rate_hz,
    };
    let analysis = analyse(&recording, &Options::default()).map_err(|e| e.to_string())?;
    let sound = Sound {
        samples: samples.to_vec(),
        sample_rate_hz,
    };
    let options = compare::Options {
        max_partials: 8,
        ..compare::Options::default()
    };
    let description = compare::describe(&sound, &options).map_err(|e| e.to_string())?;
    let partials: Vec<f64> = frequencies(&description);
    let window_s = description.window_s;
    let modes = strongest_ringing(&analysis.modes, window_s, sample_rate_hz);
    let readings = WINDOW_CHANGES
        .iter()
        .map(|change| {
            let changed = compare::Options {
                min_window_s: change * window_s,
                max_window_s: change * window_s,
                max_partials: 16,
                ..options.clone()
            };
            compare::describe(&sound, &changed)
                .map(|d| frequencies(&d))
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut result = Agreement {
        worst_cents: 0.0,
        judged: 0,
        unstable: 0,
        detail: format!(" (window {:.0} ms)", window_s * 1e3),
    };
    for &partial in &partials {
        let Some(mode) = nearest(&modes, partial) else {
            continue;
        };
        // One partial found by both: each the other's nearest, within SAME_PARTIAL_CENTS.
        let c = cents(partial, mode);
        if nearest(&partials, mode) != Some(partial) || c.abs() > SAME_PARTIAL_CENTS {
            continue;
        }
        let moved = readings
            .iter()
            .map(|r| nearest(r, partial).map_or(f64::INFINITY, |p| cents(p, partial)))
            .max_by(|a, b| a.abs().total_cmp(&b.abs()))
            .unwrap_or(0.0);
        if moved.abs() < AGREE_CENTS {
            result.judged += 1;
            result.worst_cents = result.worst_cents.max(c.abs());
            result.detail += &format!(" {partial:.1} Hz {c:+.2}c");
        } else {
            result.unstable += 1;
            result.detail += &format!(" [{partial:.1} Hz {c:+.2}c, moves {moved:+.1}c]");
        }
    }
    Ok(result)
}

/// The analysis's strongest 8 partials as the peak picking's window reads them: a mode
/// A·e^{−δn} under the Gaussian window w of `window_s` from the onset peaks at
/// A·Σ wₙe^{−δn}/Σ wₙ (the picking's own scale), so an attack's short components, first by
/// their level at the onset, weigh as little there as they do in the picking. A partial rings:
/// 20 cycles within its T60, as issue 54 judges the synthetic modes.
fn strongest_ringing(modes: &[Mode], window_s: f64, sample_rate_hz: f64) -> Vec<f64> {
    let window = compare::gaussian((window_s * sample_rate_hz).round() as usize);
    let total: f64 = window.iter().sum();
    let windowed = |m: &Mode| {
        let step = (-LN_1000 / (m.t60_s * sample_rate_hz)).exp();
        let (mut envelope, mut sum) = (1.0, 0.0);
        for w in &window {
            sum += w * envelope;
            envelope *= step;
        }
        m.amplitude * sum / total
    };
    let mut by_peak: Vec<(f64, f64)> = modes
        .iter()
        .filter(|m| m.frequency_hz * m.t60_s >= 20.0)
        .map(|m| (windowed(m), m.frequency_hz))
        .collect();
    by_peak.sort_by(|a, b| b.0.total_cmp(&a.0));
    by_peak.iter().take(8).map(|&(_, f)| f).collect()
}

/// The partials' frequencies, strongest first.
fn frequencies(description: &compare::Description) -> Vec<f64> {
    description
        .partials
        .iter()
        .map(|p| p.frequency_hz)
        .collect()
}

/// The frequency of `list` nearest `to_hz` in cents.
fn nearest(list: &[f64], to_hz: f64) -> Option<f64> {
    list.iter()
        .copied()
        .min_by(|a, b| cents(to_hz, *a).abs().total_cmp(&cents(to_hz, *b).abs()))
}

#[test]
fn the_analysis_and_the_peak_picking_agree_on_every_fixture() {
    let set = reference_set().expect("the reference set is installed");
    let mut failures = Vec::new();
    for fixture in &set {
        match agreement(&fixture.samples, fixture.sample_rate_hz) {
            Ok(a) => {
                eprintln!(
                    "{:28} {:?}: {} judged, {} unstable, worst {:.2} cents:{}",
                    fixture.id, fixture.kind, a.judged, a.unstable, a.worst_cents, a.detail
                );
                if fixture.kind == Kind::Modal && (a.worst_cents > AGREE_CENTS || a.judged == 0) {
                    failures.push(format!(
                        "{}: {} judged, worst {:.2} cents",
                        fixture.id, a.judged, a.worst_cents
                    ));
                }
            }
            Err(why) => failures.push(format!("{}: {why}", fixture.id)),
        }
    }
    // Measured at this commit: 107 pairs judged on the 29 modal fixtures, all within 5 cents
    // (worst 4.74); 14 pairs not judged, the peak picking's reading moving 5.1–506 cents with a
    // 0.8× or 1.25× window, among them the wood blocks' 1232 and 1645 Hz, which the analysis
    // resolves into pairs 18 and 24 Hz apart that an 86 or 65 ms window cannot.
    assert!(
        failures.is_empty(),
        "{} fixtures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
