//! Engine tests: velocity response, voice lifetime, polyphony, release, expression, no subnormal
//! output (block sizes, replays and all sound off: tests/modes.rs, for every mode).

use super::*;
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::interaction::{ContactSetup, Damping, Gravity};
use crate::resonator::ObjectKind;

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
fn harder_strikes_are_louder() {
    let patch = Patch::default();
    let mut peaks = Vec::new();
    for velocity in [0.2, 0.5, 1.0] {
        let mut e = Engine::new(48_000.0);
        e.note_on(&patch, 64, velocity);
        peaks.push(peak(&render(&mut e, &patch, 4800, 256)));
    }
    assert!(peaks[0] > 0.0);
    assert!(peaks.windows(2).all(|w| w[1] > w[0]), "{peaks:?}");
}

#[test]
fn voices_end_after_their_tail() {
    let patch = Patch::default();
    let mut e = Engine::new(44_100.0);
    e.note_on(&patch, 72, 0.7);
    assert_eq!(e.active_voices(), 1);
    // The fundamental's T60 is 1.5 s, so −120 dB takes 3 s; allow 4 s.
    render(&mut e, &patch, 4 * 44_100, 512);
    assert_eq!(e.active_voices(), 0);
}

#[test]
fn polyphony_is_capped_and_steals() {
    let patch = Patch::default();
    let mut e = Engine::new(44_100.0);
    for note in 0..(DEFAULT_POLYPHONY as u8 + 10) {
        e.note_on(&patch, note + 20, 0.5);
        render(&mut e, &patch, 64, 64);
    }
    assert_eq!(e.active_voices(), DEFAULT_POLYPHONY);
    e.set_polyphony(MAX_VOICES);
    for note in 0..(MAX_VOICES as u8) {
        e.note_on(&patch, note + 20, 0.5);
    }
    assert_eq!(e.active_voices(), MAX_VOICES);
}

#[test]
fn release_damps_the_object() {
    let ring = Patch::default();
    let damped = Patch {
        release_fraction: 0.05,
        ..ring
    };
    let tail = |patch: &Patch| {
        let mut e = Engine::new(44_100.0);
        e.note_on(patch, 60, 0.8);
        render(&mut e, patch, 4410, 441);
        e.note_off(patch, 60);
        let y = render(&mut e, patch, 44_100, 441);
        peak(&y[22_050..])
    };
    assert!(tail(&damped) < 1e-3 * tail(&ring));
}

#[test]
fn extreme_contacts_stay_finite() {
    for stiffness in [MIN_STIFFNESS, 1e7, MAX_STIFFNESS] {
        for mu_s_per_m in [0.0, MAX_MU_S_PER_M] {
            for alpha in [MIN_ALPHA, MAX_ALPHA] {
                for method in Method::ALL {
                    let mut patch = Patch::default();
                    patch.contact.law = HuntCrossley {
                        stiffness,
                        mu_s_per_m,
                        alpha,
                    };
                    patch.contact.method = method;
                    for fs in [8_000.0, 192_000.0] {
                        let mut e = Engine::new(fs);
                        e.note_on(&patch, 100, 1.0);
                        e.note_on(&patch, 20, 1.0);
                        let y = render(&mut e, &patch, 4000, 512);
                        assert!(y.iter().all(|s| s.is_finite()));
                        assert_eq!(
                            e.non_finite_resets(),
                            0,
                            "k {stiffness} μ {mu_s_per_m} α {alpha} {method:?}"
                        );
                    }
                }
            }
        }
    }
}

fn patch_in(mode: PlayMode) -> Patch {
    let mut patch = Patch {
        mode,
        hammer_mass_kg: 0.005,
        ..Patch::default()
    };
    patch.object.num_modes = 16;
    patch.object.t60_s = 0.3;
    patch.fall.height_m = 0.05;
    patch.bounce.irregularity = 0.3;
    patch
}

#[test]
fn a_bouncing_ball_comes_to_rest_and_its_voice_ends() {
    let patch = patch_in(PlayMode::Bounce);
    let mut e = Engine::new(48_000.0);
    e.note_on(&patch, 60, 0.2);
    let y = render(&mut e, &patch, 48_000 * 12, 512);
    assert!(y.iter().all(|s| s.is_finite()));
    assert_eq!(e.active_voices(), 0);
}

#[test]
fn a_rolling_ball_stops_or_lifts_at_note_off() {
    for lift in [false, true] {
        let mut patch = patch_in(PlayMode::Roll);
        patch.roll.lift_on_release = lift;
        let mut e = Engine::new(48_000.0);
        e.note_on(&patch, 60, 0.5);
        let rolling = render(&mut e, &patch, 24_000, 256);
        assert!(peak(&rolling[12_000..]) > 1e-5, "rolling is audible");
        e.note_off(&patch, 60);
        let y = render(&mut e, &patch, 48_000 * 10, 256);
        assert!(y.iter().all(|s| s.is_finite()));
        assert_eq!(e.active_voices(), 0, "lift {lift}");
    }
}

#[test]
fn the_last_strike_is_traced_for_the_live_view() {
    let patch = Patch::default();
    let mut e = Engine::new(48_000.0);
    assert!(e.trace().is_none());
    e.note_on(&patch, 60, 0.5);
    render(&mut e, &patch, 4800, 256);
    let trace = e.trace().expect("a trace");
    let v_in = e.prepared().calibration().strike(&patch, 0.5).v_in_m_per_s;
    assert!(
        (trace.v_in_m_per_s / v_in - 1.0).abs() < 1e-6,
        "{}",
        trace.v_in_m_per_s
    );
    assert!(trace.v_out_m_per_s < 0.0 && trace.contact_samples > 0);
    assert_eq!(trace.onset_count, 1);
    let points = trace.points();
    assert!(points.len() >= 32, "{} points", points.len());
    // Compression rises from 0 and comes back; the force is positive inside.
    let peak = points.iter().map(|p| p.x_m).fold(0.0f32, f32::max);
    assert!(peak > 0.0 && points.last().unwrap().x_m < 0.5 * peak);
    // A bouncing ball records its rebounds.
    let mut bounce = patch_in(PlayMode::Bounce);
    bounce.bounce.irregularity = 0.0;
    e.note_on(&bounce, 62, 0.2);
    render(&mut e, &bounce, 48_000 * 2, 256);
    assert!(e.trace().unwrap().onset_count > 5);
}

#[test]
fn all_notes_off_is_a_note_off_for_each_held_note() {
    let patch = Patch {
        release_fraction: 0.05,
        ..patch_in(PlayMode::Roll)
    };
    let play = |each: bool| {
        let mut e = Engine::new(44_100.0);
        for note in [50, 62, 69] {
            e.note_on(&patch, note, 0.7);
        }
        let mut y = render(&mut e, &patch, 2000, 500);
        if each {
            [50, 62, 69].iter().for_each(|&n| e.note_off(&patch, n));
        } else {
            e.all_notes_off(&patch);
        }
        y.extend(render(&mut e, &patch, 20_000, 500));
        y
    };
    let all = play(false);
    assert!(peak(&all[2000..]) > 0.0);
    assert_eq!(all, play(true));
}

#[test]
fn a_choke_silences_only_its_note() {
    let patch = Patch::default();
    let mut e = Engine::new(44_100.0);
    e.note_on(&patch, 60, 0.8);
    e.note_on(&patch, 64, 0.8);
    render(&mut e, &patch, 441, 441);
    e.choke(NoteTarget::key(60));
    render(&mut e, &patch, 1323, 441);
    assert_eq!(e.active_voices(), 1);
    // The voice left is note 64's: striking 64 again reuses it.
    e.note_on(&patch, 64, 0.8);
    assert_eq!(e.active_voices(), 1);
}

#[test]
fn a_long_tail_never_holds_subnormal_numbers() {
    // A low note on a 128-mode object whose fundamental rings 30 s while damping ∝ f² kills its
    // high modes within milliseconds: without flushing, those pass through the subnormal range.
    let mut patch = Patch::default();
    patch.object.num_modes = 128;
    patch.object.t60_s = 30.0;
    patch.object.damping_slope = 1.0;
    for fs in [8_000.0, 48_000.0] {
        let mut e = Engine::new(fs);
        e.note_on(&patch, 24, 1.0);
        let mut out = vec![0.0f32; 512];
        let mut seconds = 0.0;
        while e.active_voices() > 0 {
            e.process(&patch, &mut out);
            seconds += out.len() as f64 / fs;
            assert!(
                e.voices
                    .iter()
                    .all(|v| !v.bodies.bank.has_subnormal_state()),
                "{fs} Hz: subnormal state after {seconds:.3} s"
            );
            assert!(out.iter().all(|y| !y.is_subnormal()), "{fs} Hz output");
            assert!(seconds < 70.0, "the voice ends");
        }
    }
}

#[test]
fn a_runaway_unguarded_voice_is_silenced_before_it_is_heard() {
    // Explicit Verlet without the energy guard, a stiff linear damper between a 1 kg hammer and a
    // 1 g object: c·dt/m ≈ 1250 ≫ 2, far past the explicit damper's stability limit.
    let mut patch = Patch::default();
    patch.contact.method = Method::Verlet;
    patch.contact.guard = false;
    patch.contact.exit_correction = false;
    patch.contact.damping = Damping::Linear { n_s_per_m: 1e4 };
    patch.contact.law = HuntCrossley {
        stiffness: 100.0,
        mu_s_per_m: 0.0,
        alpha: 1.0,
    };
    patch.hammer_mass_kg = 1.0;
    patch.object_mass_kg = 1e-3;
    patch.object.num_modes = 1;
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = 20.0;
    patch.velocity.min_m_per_s = 1.0;
    patch.velocity.max_m_per_s = 1.0;
    let mut e = Engine::new(8_000.0);
    e.note_on(&patch, 60, 1.0);
    let y = render(&mut e, &patch, 8_000, 64);
    // The energy bound of the one strike: ½·m·v² into a single mode of pickup shape ψ.
    let psi = e.voices[0].bodies.bank.pickup_abs_sum();
    let bound = OUTPUT_PER_PA * psi * (2.0 * 0.5 / 1e-3f64).sqrt();
    assert!(
        f64::from(peak(&y)) <= RUNAWAY_AMPLITUDE * bound,
        "peak {} against the bound {bound}",
        peak(&y)
    );
    assert_eq!(e.non_finite_resets(), 1, "the voice was silenced");
}

#[test]
fn a_string_struck_and_heard_at_its_end_is_exact_silence() {
    // The set-up clap-validator found emitting a subnormal sample: both points on a node of every
    // mode (sin(nπ) ≈ 1e-16, not 0), 128 modes, in each play mode. A node is exactly zero, so the
    // output is exact zeros, never a subnormal number.
    for mode in PlayMode::ALL {
        let mut patch = Patch::default();
        patch.object.kind = ObjectKind::String;
        patch.object.strike_position = 1.0;
        patch.object.pickup_position = 1.0;
        patch.object.num_modes = 128;
        patch.mode = mode;
        // A slider kept on the node (drawn along the string, it would leave it).
        patch.slide.in_place = true;
        let mut e = Engine::new(44_100.0);
        e.note_on(&patch, 60, 1.0);
        let y = render(&mut e, &patch, 44_100, 512);
        assert!(
            y.iter().all(|&s| s == 0.0 || s.abs() >= f32::MIN_POSITIVE),
            "{mode:?}: a subnormal sample"
        );
        // A dropped body lands off the node (and rings itself): only the others stay silent.
        if mode != PlayMode::Drop {
            assert!(y.iter().all(|&s| s == 0.0), "{mode:?}: peak {}", peak(&y));
        }
    }
}

#[test]
fn subnormal_samples_are_flushed_to_zero() {
    assert_eq!(flush_subnormal(1e-39), 0.0);
    assert_eq!(flush_subnormal(-1e-45), 0.0);
    assert_eq!(flush_subnormal(-2e-38), -2e-38);
    assert_eq!(flush_subnormal(0.5), 0.5);
}

/// Render `note` at velocity 0.8 in stereo and in mono for `samples` samples.
fn stereo_and_mono(patch: &Patch, note: u8, samples: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut left, mut right, mut mono) =
        (vec![0.0; samples], vec![0.0; samples], vec![0.0; samples]);
    let mut e = Engine::new(48_000.0);
    e.note_on(patch, note, 0.8);
    for (l, r) in left.chunks_mut(300).zip(right.chunks_mut(300)) {
        e.process_stereo(patch, l, r);
    }
    let mut e = Engine::new(48_000.0);
    e.note_on(patch, note, 0.8);
    for m in mono.chunks_mut(300) {
        e.process(patch, m);
    }
    (left, right, mono)
}

fn rms64(x: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = x.fold((0.0, 0usize), |(s, n), y| (s + y * y, n + 1));
    (sum / n.max(1) as f64).sqrt()
}

/// Two pickups a spread apart hear every object differently (a strike off the centre, the
/// defaults); the mean of the channels is the mono output, sample for sample.
#[test]
fn two_pickups_make_the_stereo_image_and_sum_to_the_mono_output() {
    for kind in ObjectKind::ALL {
        let mut patch = Patch::default();
        patch.object.kind = kind;
        let (left, right, mono) = stereo_and_mono(&patch, 60, 9600);
        let difference = rms64(left.iter().zip(&right).map(|(l, r)| f64::from(l - r)));
        let sum = rms64(left.iter().zip(&right).map(|(l, r)| f64::from(l + r)));
        assert!(
            difference > 0.05 * sum,
            "{}: channels differ by {difference:e} against {sum:e}",
            kind.name()
        );
        for ((l, r), m) in left.iter().zip(&right).zip(&mono) {
            // Each channel is rounded to f32 on its own: the tolerance scales with them.
            let mean = 0.5 * (f64::from(*l) + f64::from(*r));
            assert!(
                (mean - f64::from(*m)).abs() <= 1e-6 * f64::from(l.abs() + r.abs()) + 1e-9,
                "{}: (L + R)/2 = {mean} but mono {m}",
                kind.name()
            );
        }
    }
}

/// No spread, or no width, is mono: both channels the same, bit for bit.
#[test]
fn no_spread_or_no_width_is_mono() {
    let mut no_spread = Patch::default();
    no_spread.object.right_pickup_position = no_spread.object.pickup_position;
    let mut no_width = Patch::default();
    no_width.stereo.width = 0.0;
    for patch in [no_spread, no_width] {
        let (left, right, _) = stereo_and_mono(&patch, 64, 4800);
        assert!(peak(&left) > 0.01);
        assert_eq!(left, right);
    }
}

/// Pan by key: a note four octaves above middle C is all right, four below all left, with
/// constant-sum gains (the mean of the channels is the unpanned mid).
#[test]
fn pan_by_key_places_the_outer_keys_at_the_sides() {
    let mut patch = Patch::default();
    patch.stereo.pan_by_key = 1.0;
    patch.stereo.width = 0.0;
    // Each side carries the whole sound at twice the mono mix (gains 1 ∓ pan); the other none.
    // (Key 12's 16 Hz bar radiates little: its level is far below key 108's.)
    let is_twice = |side: &[f32], mono: &[f32]| {
        let worst = side
            .iter()
            .zip(mono)
            .map(|(s, m)| (s - 2.0 * m).abs())
            .fold(0.0f32, f32::max);
        peak(side) > 0.0 && worst <= 1e-6 * peak(side)
    };
    let (left, right, mono) = stereo_and_mono(&patch, 108, 4800);
    assert!(peak(&left) == 0.0 && is_twice(&right, &mono));
    let (left, right, mono) = stereo_and_mono(&patch, 12, 4800);
    assert!(peak(&right) == 0.0 && is_twice(&left, &mono));
}

/// A ball laid on the object to roll starts without a jolt: the object is already deflected under
/// its weight, so a ball at rest on it (roll speed 0) is silent next to one rolling.
#[test]
fn a_ball_laid_on_the_object_starts_without_a_jolt() {
    let mut patch = patch_in(PlayMode::Roll);
    patch.object.t60_s = 5.0;
    let level = |fraction: f64| {
        let mut patch = patch;
        patch.roll.speed_fraction = fraction;
        let mut e = Engine::new(48_000.0);
        e.note_on(&patch, 60, 1.0);
        peak(&render(&mut e, &patch, 24_000, 256))
    };
    let (resting, rolling) = (level(0.0), level(1.0));
    assert!(rolling > 0.01, "rolling peak {rolling}");
    assert!(
        resting < 1e-4 * rolling,
        "resting {resting} against rolling {rolling}"
    );
}

/// Pressure presses the rolling ball: on average the contact carries what pulls the ball down
/// (its mean acceleration is zero), m·g·(1 + depth·pressure).
#[test]
fn pressure_presses_the_rolling_ball_with_its_share_of_the_depth() {
    let patch = patch_in(PlayMode::Roll);
    let mut e = Engine::new(48_000.0);
    e.note_on(&patch, 60, 1.0);
    let voice = e.voices.iter().position(|v| v.active).unwrap();
    let mean_force_n = |e: &mut Engine, samples: usize| {
        let mut out = [0.0f32; 1];
        let mut sum = 0.0;
        for _ in 0..samples {
            e.process(&patch, &mut out);
            sum += e.voices[voice].bodies.hammer.force_n();
        }
        sum / samples as f64
    };
    let weight_n = patch.hammer_mass_kg * patch.fall.gravity.accel_m_per_s2;
    mean_force_n(&mut e, 4800);
    let unpressed = mean_force_n(&mut e, 9600);
    e.express(&patch, NoteTarget::key(60), Change::Pressure(0.5));
    mean_force_n(&mut e, 2400);
    let pressed = mean_force_n(&mut e, 9600);
    let expected = weight_n * (1.0 + patch.press_depth * 0.5);
    assert!((unpressed / weight_n - 1.0).abs() < 0.03, "{unpressed} N");
    assert!(
        (pressed / expected - 1.0).abs() < 0.03,
        "{pressed} N, expected {expected}"
    );
}

/// A ball at rest on the object, pressed, presses the object down: the press force is held on
/// the object, which answers with a soft thump and stays finite.
#[test]
fn pressure_on_a_resting_ball_moves_the_object() {
    let mut patch = patch_in(PlayMode::Bounce);
    patch.fall.height_m = 0.0;
    patch.fall.gravity.capture_m_per_s = 10.0;
    let run = |pressure: f64| {
        let mut e = Engine::new(48_000.0);
        e.note_on(&patch, 60, 0.01);
        render(&mut e, &patch, 2400, 256);
        let voice = e.voices.iter().position(|v| v.active).unwrap();
        assert!(e.voices[voice].bodies.hammer.is_at_rest());
        e.express(&patch, NoteTarget::key(60), Change::Pressure(pressure));
        let out = render(&mut e, &patch, 9600, 256);
        (out, e.voices[voice].bodies.held_press_n)
    };
    let ((resting, none_n), (pressed, held_n)) = (run(0.0), run(1.0));
    assert!(pressed.iter().all(|y| y.is_finite()));
    let thump = resting
        .iter()
        .zip(&pressed)
        .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
    assert!(thump > 1e-3 * peak(&resting), "thump {thump}");
    let expected_n = patch.hammer_mass_kg * patch.fall.gravity.accel_m_per_s2 * patch.press_depth;
    assert_eq!(none_n, 0.0);
    assert!((held_n / expected_n - 1.0).abs() < 1e-9, "{held_n} N");
}

/// A note prepared at its note-on sounds exactly as one whose patch the worker prepared first.
#[test]
fn a_note_prepared_inline_sounds_as_one_prepared_ahead() {
    for mode in PlayMode::ALL {
        let patch = patch_in(mode);
        let mut inline = Engine::new(48_000.0);
        let mut ahead = Engine::new(48_000.0);
        let mut prepared = Prepared::new(48_000.0);
        prepared.prepare(&patch);
        ahead.install(prepared);
        for e in [&mut inline, &mut ahead] {
            e.note_on(&patch, 60, 0.8);
            e.note_on(&patch, 67, 0.8);
        }
        let (a, b) = (
            render(&mut inline, &patch, 24_000, 256),
            render(&mut ahead, &patch, 24_000, 256),
        );
        let first = a.iter().zip(&b).position(|(x, y)| x != y);
        assert!(first.is_none(), "{mode:?}: differ from sample {first:?}");
    }
}

/// The engine fuzz's set-ups: a 1 kg ball through an unguarded AM1 contact of `stiffness`
/// (N/m^α) and `alpha` on a one-mode 1 kg free bar at 20 Hz, struck and heard at its end.
fn heavy_ball_on_a_one_mode_bar(stiffness: f64, alpha: f64) -> Patch {
    let mut patch = Patch {
        hammer_mass_kg: 1.0,
        object_mass_kg: 1.0,
        ..Patch::default()
    };
    patch.contact = ContactSetup {
        law: HuntCrossley {
            stiffness,
            mu_s_per_m: 0.0,
            alpha,
        },
        method: Method::Am1,
        guard: false,
        exit_correction: false,
        damping: Damping::HuntCrossley,
        restitution: None,
    };
    patch.object = ObjectSpec {
        kind: ObjectKind::FreeBar,
        num_modes: 1,
        t60_s: 1.0,
        damping_slope: 0.0,
        strike_position: 0.0,
        pickup_position: 0.0,
        ..patch.object
    };
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = 20.0;
    patch
}

/// The engine fuzz's case: a bouncing ball on a one-mode 20 Hz bar retuned down 109 semitones
/// (a near-free mass the ball pushes far from rest), then all sound off, then the key again. The
/// choke used to raise the decay at a fixed damped frequency, which stiffened the displaced mode
/// 10⁸-fold and ran away; a choke now adds damping at the mode's own stiffness.
#[test]
fn a_choke_after_a_deep_retune_down_stays_passive() {
    let mut patch = heavy_ball_on_a_one_mode_bar(23_617.4, 1.0);
    patch.velocity = VelocityCurve {
        min_m_per_s: 1.0,
        max_m_per_s: 1.0,
        range_db: 0.0,
        shape: 0.1,
    };
    patch.mode = PlayMode::Bounce;
    patch.fall.height_m = 0.0385;
    patch.fall.gravity = Gravity {
        accel_m_per_s2: 1.0,
        in_contact: false,
        capture_m_per_s: 0.0,
    };
    let mut engine = Engine::new(8_000.0);
    engine.set_polyphony(MAX_VOICES);
    let mut out = [0.0f32; 512];
    engine.note_on(&patch, 0, 0.0);
    engine.process(&patch, &mut out[..1]);
    engine.express(&patch, NoteTarget::default(), Change::Tuning(-108.89));
    engine.process(&patch, &mut out[..498]);
    engine.all_sound_off();
    engine.process(&patch, &mut out[..1]);
    engine.note_on(&patch, 0, 0.0);
    engine.process(&patch, &mut out[..11]);
    for _ in 0..100 {
        engine.process(&patch, &mut out);
        assert!(out.iter().all(|y| y.is_finite()));
    }
    assert_eq!(engine.non_finite_resets(), 0);
}

/// The engine fuzz's case: a 1 kg ball let go at the surface of a soft 20 Hz bar (height 0, a
/// soft α = 2.14 contact, 8 kHz) sinks millimetres into the contact and the bar under gravity,
/// which does far more work than the strike's ½·m·v²; struck again while it sinks. Counted
/// as it is done, gravity's work keeps the voice within its runaway limit.
#[test]
fn a_ball_sinking_into_a_soft_contact_is_not_taken_for_a_runaway() {
    let mut patch = heavy_ball_on_a_one_mode_bar(711_331.7, 2.136);
    patch.striker_level = 0.0;
    patch.velocity.min_m_per_s = 0.0017;
    patch.velocity.max_m_per_s = 1.0;
    patch.mode = PlayMode::Bounce;
    patch.fall.height_m = 0.0;
    patch.fall.gravity = Gravity {
        accel_m_per_s2: 10.4,
        in_contact: false,
        capture_m_per_s: 0.0,
    };
    patch.bounce.irregularity = 0.0;
    let mut e = Engine::new(8000.0);
    for (samples, key) in [(133, 0), (19, 1), (25, 1), (2000, 0)] {
        e.note_on(&patch, key, 0.0);
        let y = render(&mut e, &patch, samples, 64);
        assert!(y.iter().all(|s| s.is_finite()));
    }
    assert_eq!(e.non_finite_resets(), 0, "a passive voice was silenced");
}

/// A break note plays its plan (`stream::BreakPlan`, drawn here from the same seed, independently
/// of the voice): silence until the crack's first event, sound within a sample of it, the voice
/// in play until its last fragment has landed, and then its end.
#[test]
fn a_break_sounds_from_its_first_event_and_plays_until_its_last_landing() {
    let fs = 48_000.0;
    let patch = patch_in(PlayMode::Break);
    let mut plan =
        crate::stream::BreakPlan::new(break_settings(&patch.resolved()), note_seed(1, 60));
    let first_s = plan
        .next_before(f64::INFINITY)
        .expect("a first event")
        .event
        .time_s;
    let mut last_s = first_s;
    while let Some(event) = plan.next_before(f64::INFINITY) {
        last_s = event.event.time_s;
    }
    let mut e = Engine::new(fs);
    e.set_notes_struck(0);
    e.note_on(&patch, 60, 1.0);
    let until_last = (last_s * fs) as usize - 48;
    let y = render(&mut e, &patch, until_last, 256);
    let onset = y.iter().position(|s| *s != 0.0).expect("a sound");
    let due = (first_s * fs) as usize;
    assert!(
        (due..=due + 1).contains(&onset),
        "heard at {onset}, due at {due}"
    );
    assert_eq!(
        e.active_voices(),
        1,
        "the voice ended before its last landing"
    );
    render(&mut e, &patch, 30 * 48_000, 512);
    assert_eq!(e.active_voices(), 0);
}
