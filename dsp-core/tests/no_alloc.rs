//! The engine's audio path (note-on, expression, process, ended notes, a striker with modes of its
//! own) and the rigid-body impact solvers never allocate, checked by assert_no_alloc.

use assert_no_alloc::{assert_no_alloc, AllocDisabler};
use urto_dsp::body::{StrikerKind, StrikerSpec};
use urto_dsp::material::MATERIALS;
use urto_dsp::rigid::drop::DropScene;
use urto_dsp::rigid::jia_wang::{self, examples as jw, Method};
use urto_dsp::rigid::plus::{examples as plus, Plus, Settings};
use urto_dsp::rigid::shape::Shape;
use urto_dsp::rigid::RigidBody;
use urto_dsp::voice::{Change, Engine, Expression, NoteId, NoteTarget, Patch, PlayMode};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

#[test]
fn note_on_and_process_do_not_allocate() {
    let mut engine = Engine::new(48_000.0);
    let patch = Patch {
        release_fraction: 0.2,
        ..Patch::default()
    };
    let mut out = vec![0.0f32; 1024];
    assert_no_alloc(|| {
        for i in 0..200u8 {
            engine.note_on(&patch, 30 + i % 70, f32::from(i % 10) / 10.0);
            engine.note_off(&patch, 30 + (i + 35) % 70);
            engine.process(&patch, &mut out[..(1 + usize::from(i) * 5) % 1024]);
        }
    });
}

#[test]
fn expression_does_not_allocate() {
    for mode in PlayMode::ALL {
        let mut engine = Engine::new(48_000.0);
        let patch = Patch {
            mode,
            ..Patch::default()
        }
        .resolved();
        let mut out = vec![0.0f32; 512];
        let changes = [
            Change::Tuning(3.0),
            Change::Bend(-1.5),
            Change::Pressure(0.7),
            Change::Brightness(0.9),
            Change::Volume(0.5),
            Change::Pan(-0.3),
            Change::StiffnessDecades(0.5),
            Change::GainDb(-3.0),
            Change::Drive(0.4),
        ];
        assert_no_alloc(|| {
            for i in 0..100u8 {
                let note = NoteId {
                    key: 40 + i % 40,
                    channel: i % 16,
                    voice_id: Some(i32::from(i)),
                };
                engine.start_note(&patch, note, 0.8, &Expression::NEUTRAL);
                let change = changes[usize::from(i) % changes.len()];
                engine.express(&patch, NoteTarget::channel(i % 16), change);
                engine.process(&patch, &mut out[..(1 + usize::from(i) * 7) % 512]);
                engine.take_ended().for_each(drop);
            }
        });
    }
}

/// Dice dropped on a plank, one after the other and overlapping, rendered until they rest:
/// the macro scene, the micro-impacts and their trials, the lasting contacts, the note-offs.
#[test]
fn drops_do_not_allocate() {
    let mut patch = Patch {
        mode: PlayMode::Drop,
        ..Patch::default()
    };
    patch.object.kind = urto_dsp::resonator::ObjectKind::Plank;
    patch.fall.height_m = 0.1;
    patch.drop.lift_on_release = true;
    let patch = patch.resolved();
    let mut engine = Engine::new(48_000.0);
    let mut out = vec![0.0f32; 480];
    engine.note_on(&patch, 60, 0.5);
    engine.process(&patch, &mut out);
    assert_no_alloc(|| {
        for i in 0..400 {
            if i % 100 == 0 {
                engine.note_on(&patch, 60 + (i / 100) as u8, 0.8);
            }
            if i == 250 {
                engine.note_off(&patch, 61);
            }
            engine.process(&patch, &mut out);
        }
    });
}

#[test]
fn two_ringing_bodies_do_not_allocate() {
    // Every striker, its body prepared at the first note-on (inside the check) and rung.
    for kind in StrikerKind::ALL {
        let mut engine = Engine::new(48_000.0);
        let patch = Patch {
            striker: StrikerSpec {
                kind,
                material: &MATERIALS[0],
                size_m: 0.05,
            },
            striker_level: 1.0,
            contact_from_materials: true,
            release_fraction: 0.3,
            ..Patch::default()
        }
        .resolved();
        let mut out = vec![0.0f32; 512];
        assert_no_alloc(|| {
            for i in 0..60u8 {
                engine.note_on(&patch, 40 + i % 30, 0.9);
                if i % 7 == 0 {
                    engine.choke(NoteTarget::key(40 + (i + 3) % 30));
                }
                engine.note_off(&patch, 40 + (i + 11) % 30);
                engine.process(&patch, &mut out[..(1 + usize::from(i) * 9) % 512]);
            }
        });
    }
}

/// Jia–Wang's methods and PLUS (one body with four contacts, five bodies in a row) solve
/// without allocating once constructed: the drop mode runs them inside a voice.
#[test]
fn rigid_impacts_do_not_allocate() {
    let problem = jw::pin_ball().problem;
    let methods = [
        Method::Exact,
        Method::Algorithm1Fixed { step_n_s: 0.002 },
        jw::PAPER_VARIABLE_STEP,
        Method::Brute { step_n_s: 1e-3 },
    ];
    let mut solver = Plus::new();
    let flat = plus::flat_brick(glam::DVec3::new(-2.0, 0.0, -8.84));
    let cradle = plus::cradle();
    let (mu, e_min) = plus::TABLE_A1_MU_E_MIN[1];
    let brick = plus::corner_brick(mu, e_min, 0.05);
    assert_no_alloc(|| {
        for method in methods {
            assert!(jia_wang::solve(&problem, method).is_ok());
        }
        for scenario in [&flat, &cradle, &brick] {
            assert!(scenario.solve(&mut solver).is_ok());
        }
    });
}

/// A die dropped with spin tumbles, rattles and comes to rest without allocating.
#[test]
fn a_drop_scene_does_not_allocate() {
    let shape = Shape::RoundedBox {
        half_extents_m: glam::DVec3::splat(0.007),
        corner_m: 0.001,
    };
    let mut body = RigidBody::at_rest(0.004, shape.inertia_kg_m2(0.004));
    body.orientation = glam::DQuat::from_euler(glam::EulerRot::XYZ, 0.3, 0.8, -0.2);
    body.angular_velocity_rad_per_s = glam::DVec3::new(20.0, -10.0, 5.0);
    let mut scene = DropScene::new(body, shape, 0.3, Settings::paper(0.5));
    scene.body.position_m.z = 0.1 - scene.clearance_m();
    let mut contacts = 0usize;
    assert_no_alloc(|| {
        while !scene.at_rest && scene.time_s < 5.0 {
            assert!(scene.step(1.0 / 4000.0, &mut |_| contacts += 1).is_ok());
        }
    });
    assert!(scene.at_rest && contacts > 0);
}
