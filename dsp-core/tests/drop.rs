//! Drop mode over many random drops: the macro scene never gains energy and always rests; the engine plays drops of every body on every floor without a non-finite sample and ends every voice.

use urto_dsp::body::DropBody;
use urto_dsp::material::{self, MATERIALS};
use urto_dsp::resonator::ObjectKind;
use urto_dsp::rigid::drop::{DropScene, Launch};
use urto_dsp::rigid::plus::Settings;
use urto_dsp::voice::{Engine, Level, Patch, PlayMode};

/// Macro step, s (the voice's at 48 kHz: 12 samples).
const STEP_S: f64 = 12.0 / 48_000.0;

/// 1 000 random drops — every body, sizes from half to twice the usual, densities of the
/// material table, heights up to 40 cm, spin up to 60 rad/s, drift, friction 0.1…1, pair
/// restitution 0.2…0.9 — under the real-time settings the voice uses:
/// - between contacts (free flight) the mechanical energy stays within the rotation
///   splitting's bounded oscillation (10⁻⁴ of it; the translation is exact);
/// - no step ever lifts it above the energy the body was dropped with (beyond that same
///   oscillation);
/// - every drop comes to rest (within 20 s; the longest is printed), its state finite.
#[test]
fn a_thousand_random_drops_never_gain_energy_and_rest() {
    let mut rng = fastrand::Rng::with_seed(16);
    let mut longest = (0.0f64, None);
    for drop_index in 0..1000 {
        let body = DropBody::ALL[rng.usize(..DropBody::ALL.len())];
        let material = &MATERIALS[rng.usize(..MATERIALS.len())];
        let drop = Launch {
            shape: body.shape(body.usual_size_m() * (0.5 + 1.5 * rng.f64())),
            density_kg_per_m3: material.density_kg_per_m3,
            height_m: 0.4 * rng.f64(),
            throw_m_per_s: 0.0,
            spin_rad_per_s: 60.0 * rng.f64(),
            drift_m_per_s: 0.2 * rng.f64(),
            mu: 0.1 + 0.9 * rng.f64(),
        };
        let e_min = 0.2 + 0.7 * rng.f64();
        let seed = rng.u64(..);
        let mut scene = DropScene::dropped(&drop, Settings::real_time(e_min), seed);
        let dropped_j = scene.energy_j();
        let scale_j = dropped_j.abs().max(scene.body.mass_kg * 9.81 * 1e-3);
        let mut before_j = dropped_j;
        while !scene.at_rest && scene.time_s < 20.0 {
            let mut contact = false;
            scene
                .step(STEP_S, &mut |_| contact = true)
                .unwrap_or_else(|e| panic!("drop {drop_index} ({drop:?}): {e}"));
            let now_j = scene.energy_j();
            assert!(
                scene.body.position_m.is_finite()
                    && scene.body.velocity_m_per_s.is_finite()
                    && scene.body.angular_velocity_rad_per_s.is_finite(),
                "drop {drop_index} ({drop:?}) at {} s",
                scene.time_s
            );
            assert!(
                now_j <= dropped_j + 1e-4 * scale_j,
                "drop {drop_index} ({drop:?}) at {} s: {now_j} J above the dropped {dropped_j} J",
                scene.time_s
            );
            if !contact {
                assert!(
                    (now_j - before_j).abs() <= 1e-4 * scale_j,
                    "drop {drop_index} ({drop:?}) at {} s: flight {before_j} → {now_j} J",
                    scene.time_s
                );
            }
            before_j = now_j;
        }
        assert!(
            scene.at_rest,
            "drop {drop_index} ({drop:?}, e_min {e_min}, seed {seed}) still moving after 20 s: {:?}",
            scene.body
        );
        if scene.time_s > longest.0 {
            longest = (scene.time_s, Some(drop));
        }
    }
    eprintln!(
        "the longest of 1000 drops rested after {:.2} s: {:?}",
        longest.0, longest.1
    );
}

/// 200 drop notes of random bodies, materials and floors, four at a time on one engine,
/// rendered in blocks of odd sizes: every sample finite, and every voice ends.
#[test]
fn drop_notes_of_every_kind_are_finite_and_end() {
    let mut rng = fastrand::Rng::with_seed(17);
    let floors = [
        (ObjectKind::Plank, "oak"),
        (ObjectKind::RectangularPlate, "glass"),
        (ObjectKind::CircularPlate, "steel"),
        (ObjectKind::RectangularPlate, "ceramic"),
        (ObjectKind::Membrane, "abs"),
        (ObjectKind::Bell, "bronze"),
    ];
    let mut engine = Engine::new(48_000.0);
    let mut out = vec![0.0f32; 1000];
    for round in 0..50 {
        let mut patch = Patch {
            mode: PlayMode::Drop,
            ..Patch::default()
        };
        let (kind, floor) = floors[rng.usize(..floors.len())];
        patch.object.kind = kind;
        patch.object.num_modes = 32;
        patch.object_material = material::by_id(floor).expect("a floor material");
        patch.drop.body = DropBody::ALL[rng.usize(..DropBody::ALL.len())];
        patch.drop.size_m = patch.drop.body.usual_size_m() * (0.5 + rng.f64());
        patch.drop.spin_rad_per_s = 50.0 * rng.f64();
        patch.drop.lift_on_release = rng.bool();
        patch.striker.material = &MATERIALS[rng.usize(..MATERIALS.len())];
        patch.fall.height_m = 0.3 * rng.f64();
        patch.level = if rng.bool() {
            Level::Physical
        } else {
            Level::Calibrated
        };
        let patch = patch.resolved();
        for note in 0..4u8 {
            engine.note_on(&patch, 40 + 7 * note + round % 5, rng.f32());
        }
        for _ in 0..60 {
            let len = 1 + rng.usize(..out.len());
            engine.process(&patch, &mut out[..len]);
            assert!(out[..len].iter().all(|y| y.is_finite()), "round {round}");
            if rng.u8(..20) == 0 {
                engine.note_off(&patch, 40 + round % 5);
            }
        }
    }
    // Every drop rests and its floor falls silent.
    let patch = Patch {
        mode: PlayMode::Drop,
        ..Patch::default()
    }
    .resolved();
    for _ in 0..60 * 48 {
        engine.process(&patch, &mut out);
        assert!(out.iter().all(|y| y.is_finite()));
        if engine.active_voices() == 0 {
            break;
        }
    }
    assert_eq!(engine.active_voices(), 0, "a drop voice was left sounding");
    assert_eq!(engine.non_finite_resets(), 0);
}
