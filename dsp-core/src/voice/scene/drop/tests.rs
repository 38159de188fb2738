//! Drop-mode voice tests: the micro contacts deliver the macro impulses, drops end, renders repeat.

use super::*;
use crate::body::DropBody;
use crate::material;
use crate::resonator::ObjectKind;
use crate::voice::{Engine, Level, PlayMode};

/// A drop patch: `body` of `material` on an oak plank, at the physical level, let fall from
/// `height_m`.
pub(crate) fn drop_patch(body: DropBody, material: &str, height_m: f64) -> Patch {
    let mut patch = Patch {
        mode: PlayMode::Drop,
        ..Patch::default()
    };
    patch.drop.body = body;
    patch.drop.size_m = body.usual_size_m();
    patch.striker.material = material::by_id(material).expect("a material of the table");
    patch.object = ObjectSpec {
        kind: ObjectKind::Plank,
        num_modes: 32,
        t60_s: 0.4,
        strike_position: 0.3,
        ..patch.object
    };
    patch.object_material = material::by_id("oak").expect("oak");
    patch.object_mass_kg = 2.0;
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = 180.0;
    patch.level = Level::Physical;
    patch.fall.height_m = height_m;
    patch.resolved()
}

/// Render `seconds` of `note` at full velocity, returning the output.
fn play(engine: &mut Engine, patch: &Patch, note: u8, seconds: f64) -> Vec<f32> {
    engine.note_on(patch, note, 1.0);
    let mut out = vec![0.0; (seconds * 48_000.0) as usize];
    for block in out.chunks_mut(256) {
        engine.process(patch, block);
    }
    out
}

/// Every micro-impact of a drop delivers the normal impulse its macro impact took (Jia–Wang's
/// for one point, PLUS's for several) within 5 %, for the bodies that ring as balls and coins.
/// A rod's, spoon's or ring's end (modes of a free bar, far more compliant) chatters against the
/// floor, and a slow approach onto its ringing end is decided by the vibration, not the mass:
/// the trials cannot always meet those impulses, which are only printed (`--nocapture`).
#[test]
fn micro_impacts_deliver_the_macro_impulses() {
    for (body, material, asserted) in [
        (DropBody::Die, "abs", true),
        (DropBody::Coin, "brass", true),
        (DropBody::Brick, "ceramic", true),
        (DropBody::Sphere, "steel", true),
        (DropBody::Spoon, "steel", false),
        (DropBody::Rod, "pine", false),
        (DropBody::Ring, "brass", false),
    ] {
        let patch = drop_patch(body, material, 0.2);
        let mut engine = Engine::new(48_000.0);
        let y = play(&mut engine, &patch, 60, 3.0);
        assert!(y.iter().all(|s| s.is_finite()));
        let voice = &mut engine.voices[0];
        voice.scenes.drop.close(&voice.bodies.hammer);
        let drop = &voice.scenes.drop;
        let impacts = &drop.record[..drop.recorded];
        assert!(impacts.len() >= 3, "{body:?}: {} impacts", impacts.len());
        let errors = impacts
            .iter()
            .map(|i| i.delivered_n_s / i.normal_impulse_n_s - 1.0);
        let within = errors.clone().filter(|e| e.abs() < 0.05).count();
        let worst = errors.fold(0.0f64, |w, e| if e.abs() > w.abs() { e } else { w });
        eprintln!(
            "{body:?}: {within} of {} micro-impacts within 5 % of the macro impulse, worst {:+.1} %",
            impacts.len(),
            100.0 * worst
        );
        if asserted {
            let bad: Vec<_> = impacts
                .iter()
                .enumerate()
                .filter(|(_, i)| (i.delivered_n_s / i.normal_impulse_n_s - 1.0).abs() >= 0.05)
                .collect();
            assert_eq!(within, impacts.len(), "{body:?}: {bad:#?}");
        }
    }
}

/// A drop rests, its voice ends, and the same note renders the same drop again; another key
/// (another seed) drops differently.
#[test]
fn drops_end_and_repeat() {
    let patch = drop_patch(DropBody::Die, "abs", 0.15);
    let mut a = Engine::new(48_000.0);
    let mut b = Engine::new(48_000.0);
    let ya = play(&mut a, &patch, 60, 6.0);
    let yb = play(&mut b, &patch, 60, 6.0);
    assert_eq!(ya, yb);
    assert!(ya.iter().any(|s| s.abs() > 1e-4));
    assert_eq!(
        a.active_voices(),
        0,
        "the die rested and the plank fell silent"
    );
    let mut c = Engine::new(48_000.0);
    let yc = play(&mut c, &patch, 61, 6.0);
    assert_ne!(ya, yc);
}
