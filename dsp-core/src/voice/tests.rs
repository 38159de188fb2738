//! Engine tests: block-size independence, velocity response, extremes stay finite.

use super::*;

fn render(engine: &mut Engine, patch: &Patch, samples: usize, block: usize) -> Vec<f32> {
    let mut out = vec![0.0; samples];
    for chunk in out.chunks_mut(block) {
        engine.process(patch, chunk);
    }
    out
}

fn peak(x: &[f32]) -> f32 {
    x.iter().fold(0.0, |m, s| m.max(s.abs()))
}

#[test]
fn output_does_not_depend_on_block_size() {
    let patch = Patch::default();
    let mut a = Engine::new(44_100.0);
    let mut b = Engine::new(44_100.0);
    a.note_on(60, 0.8);
    b.note_on(60, 0.8);
    let ya = render(&mut a, &patch, 10_000, 1);
    let yb = render(&mut b, &patch, 10_000, 1000);
    assert_eq!(ya, yb);
}

#[test]
fn harder_strikes_are_louder() {
    let patch = Patch::default();
    let mut peaks = Vec::new();
    for velocity in [0.2, 0.5, 1.0] {
        let mut e = Engine::new(48_000.0);
        e.note_on(64, velocity);
        peaks.push(peak(&render(&mut e, &patch, 4800, 256)));
    }
    assert!(peaks[0] > 0.0);
    assert!(peaks.windows(2).all(|w| w[1] > w[0]), "{peaks:?}");
}

#[test]
fn extreme_contacts_stay_finite_and_bounded() {
    // The stiffest, most lossless, most and least curved contacts at the hardest strike, at the
    // lowest and a high sample rate.
    for (stiffness, mu_s_per_m, alpha, fs) in corners() {
        {
            {
                let patch = Patch {
                    contact: HuntCrossley {
                        stiffness,
                        mu_s_per_m,
                        alpha,
                    },
                };
                let mut e = Engine::new(fs);
                e.note_on(100, 1.0);
                e.note_on(20, 1.0);
                let y = render(&mut e, &patch, 20_000, 512);
                assert!(y.iter().all(|s| s.is_finite()));
                let p = peak(&y);
                assert!(
                    p < 2.0,
                    "k {stiffness} μ {mu_s_per_m} α {alpha} fs {fs}: {p}"
                );
                assert_eq!(e.non_finite_resets(), 0);
            }
        }
    }
}

#[test]
fn voices_end_after_their_tail() {
    let patch = Patch::default();
    let mut e = Engine::new(44_100.0);
    e.note_on(72, 0.7);
    assert_eq!(e.active_voices(), 1);
    // The fundamental's T60 is 1.5 s, so −120 dB takes 3 s; allow 4 s.
    render(&mut e, &patch, 4 * 44_100, 512);
    assert_eq!(e.active_voices(), 0);
}

#[test]
fn polyphony_is_capped_and_steals() {
    let patch = Patch::default();
    let mut e = Engine::new(44_100.0);
    for note in 0..(MAX_VOICES as u8 + 10) {
        e.note_on(note + 20, 0.5);
        render(&mut e, &patch, 64, 64);
    }
    assert_eq!(e.active_voices(), MAX_VOICES);
}

/// Every combination of the corners of the parameter ranges and two sample rates.
fn corners() -> impl Iterator<Item = (f64, f64, f64, f64)> {
    [MIN_STIFFNESS, 1e6, MAX_STIFFNESS]
        .into_iter()
        .flat_map(|k| {
            [0.0, MAX_MU_S_PER_M].into_iter().flat_map(move |mu| {
                [MIN_ALPHA, MAX_ALPHA]
                    .into_iter()
                    .flat_map(move |a| [8_000.0, 192_000.0].map(|fs| (k, mu, a, fs)))
            })
        })
}
