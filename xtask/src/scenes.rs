//! Bounce, roll and two-body demo scenes: WAVs rendered by dsp-core's voice engine (the plugin's
//! own DSP), PNG plots of the ball's height and of the rolling contact force, and spectrograms of
//! strikers with modes of their own on objects, the striker's modes marked.

use crate::media::{self, FS};
use anyhow::Result;
use std::path::{Path, PathBuf};
use urto_dsp::body::{Grip, StrikerKind, StrikerSpec, MAX_STRIKER_MODES};
use urto_dsp::contact::HuntCrossley;
use urto_dsp::integrate::Method;
use urto_dsp::interaction::{ContactSetup, Gravity, Hammer};
use urto_dsp::material::{by_id, MATERIALS};
use urto_dsp::resonator::{object_modes, ModalBank, Mode, ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::roll::{Rolling, Track};
use urto_dsp::voice::{Engine, Level, Patch, PlayMode};

/// A named scene: a patch, the note's velocity, how long the note is held and the render length.
struct Scene {
    name: &'static str,
    patch: Patch,
    velocity: f32,
    hold_s: f64,
    seconds: f64,
}

fn object(kind: ObjectKind, f0_hz: f64, t60_s: f64, modes: usize) -> ObjectSpec {
    ObjectSpec {
        kind,
        f0_hz,
        t60_s,
        num_modes: modes,
        ..ObjectSpec::marimba(f0_hz)
    }
}

fn scene(
    name: &'static str,
    mode: PlayMode,
    ball_kg: f64,
    law: HuntCrossley,
    spec: ObjectSpec,
    object_kg: f64,
) -> Scene {
    let mut patch = Patch {
        mode,
        hammer_mass_kg: ball_kg,
        object: spec,
        object_mass_kg: object_kg,
        ..Patch::default()
    };
    patch.contact.law = law;
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = spec.f0_hz;
    patch.velocity.min_m_per_s = 0.0;
    patch.velocity.max_m_per_s = 1e-3;
    Scene {
        name,
        patch,
        velocity: 0.0,
        hold_s: 0.1,
        seconds: 6.0,
    }
}

fn scenes() -> Vec<Scene> {
    let hc = |stiffness, mu_s_per_m| HuntCrossley {
        stiffness,
        mu_s_per_m,
        alpha: 1.5,
    };
    let mut ping_pong = scene(
        "ping-pong-ball",
        PlayMode::Bounce,
        0.0027,
        hc(2e6, 0.3),
        object(ObjectKind::Plank, 140.0, 0.25, 48),
        0.5,
    );
    ping_pong.patch.fall.height_m = 0.3;
    ping_pong.patch.bounce.irregularity = 0.2;
    let mut steel = scene(
        "steel-ball-on-plate",
        PlayMode::Bounce,
        0.03,
        hc(3e10, 0.05),
        object(ObjectKind::CircularPlate, 320.0, 3.0, 96),
        0.4,
    );
    steel.patch.fall.height_m = 0.08;
    steel.patch.fall.gravity.capture_m_per_s = 0.01;
    let mut rubber = scene(
        "rubber-ball",
        PlayMode::Bounce,
        0.05,
        hc(2e5, 1.5),
        object(ObjectKind::Plank, 95.0, 0.3, 48),
        1.0,
    );
    rubber.patch.fall.height_m = 0.6;
    let mut marble = scene(
        "marble-rolling-on-wood",
        PlayMode::Roll,
        0.005,
        hc(1e9, 0.3),
        object(ObjectKind::Plank, 180.0, 0.6, 48),
        0.3,
    );
    marble.patch.roll.speed_m_per_s = 0.6;
    marble.hold_s = 4.0;
    let mut all = vec![ping_pong, steel, rubber, marble];
    all.extend(two_body_scenes().into_iter().map(|(scene, _)| scene));
    all
}

/// The two-body scenes and their spectrograms' titles: a striker with modes of its own on an
/// object, the contact from the two materials, struck once at 0.5 m/s.
fn two_body_scenes() -> Vec<(Scene, &'static str)> {
    let spec = |kind, material: &str, size_m, grip| {
        let striker = StrikerSpec {
            kind,
            material: by_id(material).unwrap_or(&MATERIALS[0]),
            size_m,
        };
        (striker, grip)
    };
    vec![
        (
            two_body(
                "teaspoon-on-wine-glass",
                spec(StrikerKind::Rod, "steel", 0.12, Grip::Loose),
                1.0,
                ObjectKind::Glass,
                "glass",
                660.0,
                3.0,
            ),
            "A steel teaspoon (a 12 cm rod), held loosely, on a wine glass at 660 Hz",
        ),
        (
            two_body(
                "teaspoon-on-wine-glass-glass-only",
                spec(StrikerKind::Rod, "steel", 0.12, Grip::Loose),
                0.0,
                ObjectKind::Glass,
                "glass",
                660.0,
                3.0,
            ),
            "The same tap with the spoon silent (striker level 0)",
        ),
        (
            two_body(
                "steel-ball-on-steel-plate",
                spec(StrikerKind::Ball, "steel", 0.015, Grip::Free),
                1.0,
                ObjectKind::CircularPlate,
                "steel",
                300.0,
                3.0,
            ),
            "A 15 mm steel ball on a steel plate (the ball's modes are ultrasonic)",
        ),
        (
            two_body(
                "glass-marble-on-ceramic-tile",
                spec(StrikerKind::Ball, "glass", 0.008, Grip::Free),
                1.0,
                ObjectKind::RectangularPlate,
                "ceramic",
                1500.0,
                0.5,
            ),
            "A glass marble on a ceramic tile (the marble's modes are ultrasonic)",
        ),
        (
            two_body(
                "wooden-stick-on-glass-bottle",
                spec(StrikerKind::Rod, "maple", 0.3, Grip::Firm),
                1.0,
                ObjectKind::Glass,
                "glass",
                420.0,
                1.5,
            ),
            "A maple stick (30 cm), held firmly, on a glass bottle at 420 Hz",
        ),
        (
            two_body(
                "rubber-ball-on-oak-plank",
                spec(StrikerKind::Ball, "soft-rubber", 0.03, Grip::Free),
                1.0,
                ObjectKind::Plank,
                "oak",
                120.0,
                0.4,
            ),
            "A soft rubber ball (30 mm radius) on an oak plank at 120 Hz",
        ),
    ]
}

/// A striker, held with its grip, strikes an object of `object_kind` and `object_material` at
/// `f0_hz` with fundamental T60 `t60_s`, the contact from the two materials, the striker's own
/// modes heard at `striker_level`.
fn two_body(
    name: &'static str,
    (striker, grip): (StrikerSpec, Grip),
    striker_level: f64,
    object_kind: ObjectKind,
    object_material: &str,
    f0_hz: f64,
    t60_s: f64,
) -> Scene {
    let mut patch = Patch {
        striker,
        grip,
        striker_level,
        object_material: by_id(object_material).unwrap_or(&MATERIALS[0]),
        contact_from_materials: true,
        level: Level::Physical,
        object: object(object_kind, f0_hz, t60_s, 48),
        object_mass_kg: 0.1,
        ..Patch::default()
    };
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = f0_hz;
    patch.velocity.min_m_per_s = 0.5;
    patch.velocity.max_m_per_s = 0.5;
    Scene {
        name,
        patch: patch.resolved(),
        velocity: 1.0,
        hold_s: 3.0,
        seconds: 3.0,
    }
}

/// Render `s` through the voice engine: the note held `hold_s`, mono.
fn render(s: &Scene) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    let mut audio = vec![0.0f32; (s.seconds * FS) as usize];
    let hold = (s.hold_s * FS) as usize;
    engine.note_on(&s.patch, 60, s.velocity);
    for (i, block) in audio.chunks_mut(256).enumerate() {
        if i * 256 <= hold && hold < (i + 1) * 256 {
            engine.note_off(&s.patch, 60);
        }
        engine.process(&s.patch, block);
    }
    audio
}

/// Render every scene through the voice engine, normalised to −1 dBFS peak.
fn render_scenes(out_dir: &Path) -> Result<Vec<String>> {
    let mut written = vec![];
    for s in scenes() {
        let path = out_dir.join(format!("{}.wav", s.name));
        let gain = media::write_normalised_wav(&path, &render(&s))?;
        written.push(format!(
            "  {} ({} s, {:?}, normalised by {:.1} dB)",
            path.display(),
            s.seconds,
            s.patch.mode,
            20.0 * gain.log10()
        ));
    }
    Ok(written)
}

/// The scene's object at rest, as the engine builds it for a note at its fixed pitch.
fn object_bank(patch: &Patch) -> Box<ModalBank> {
    let mut modes = [Mode::SILENT; MAX_MODES];
    let count = object_modes(&patch.object, patch.object_radiating_size_m(), &mut modes);
    let mut bank = ModalBank::new(patch.object_mass_kg);
    bank.set_modes(&modes[..count], FS);
    bank
}

/// The ping-pong ball's height above the table (mm) against time, from the same physics.
fn bounce_heights(s: &Scene) -> Vec<(f64, f64)> {
    let mut bank = object_bank(&s.patch);
    let setup = s.patch.contact;
    let mut ball = Hammer::new(s.patch.hammer_mass_kg, setup);
    ball.set_gravity(s.patch.fall.gravity);
    ball.strike(&bank, 0.0, s.patch.fall.height_m, s.patch.hammer_mass_kg);
    let mut points = vec![];
    for n in 0..(s.seconds * FS) as usize {
        ball.process_sample(&setup, &mut bank, 1.0 / FS);
        if ball.is_at_rest() {
            points.push((n as f64 / FS, 0.0));
            break;
        }
        if n % 16 == 0 {
            points.push((n as f64 / FS, -1e3 * ball.compression_m(&bank).min(0.0)));
        }
    }
    points
}

/// The marble's contact force (N) against time over 50 ms of rolling.
fn rolling_force(s: &Scene) -> Vec<(f64, f64)> {
    let mut bank = object_bank(&s.patch);
    let setup = ContactSetup {
        method: Method::Am1,
        ..s.patch.contact
    };
    let g = s.patch.fall.gravity.accel_m_per_s2;
    let mut ball = Hammer::new(s.patch.hammer_mass_kg, setup);
    ball.set_gravity(Gravity {
        accel_m_per_s2: g,
        in_contact: true,
        capture_m_per_s: 0.0,
    });
    ball.place(&bank, &setup, s.patch.hammer_mass_kg);
    let mut rolling = Rolling::new(Track::new(s.patch.roll.settings, 0.0));
    let m = s.patch.hammer_mass_kg;
    let start = (0.5 * FS) as usize;
    let mut points = vec![];
    for n in 0..start + (0.05 * FS) as usize {
        let a = rolling.advance(
            s.patch.roll.speed_m_per_s,
            s.patch.roll.smoothing_s,
            1.0 / FS,
        );
        ball.set_track_acceleration(a);
        let v0 = ball.velocity_m_per_s();
        ball.process_sample(&setup, &mut bank, 1.0 / FS);
        // Mean force over the sample from the ball's change of momentum.
        let force = m * (g + a) - m * (ball.velocity_m_per_s() - v0) * FS;
        if n >= start {
            points.push(((n - start) as f64 / FS * 1e3, force));
        }
    }
    points
}

/// Render the scenes and their plots into `out_dir`; returns the lines to print.
pub fn render_all(out_dir: &Path) -> Result<Vec<String>> {
    media::register_font()?;
    let mut written = render_scenes(out_dir)?;
    let all = scenes();
    // (file, title, x label, y label, points)
    type Plot<'a> = (PathBuf, &'a str, &'a str, &'a str, Vec<(f64, f64)>);
    let plots: [Plot; 2] = [
        (
            out_dir.join("ping-pong-ball-height.png"),
            "Ping-pong ball dropped from 30 cm onto a wooden plank",
            "time (s)",
            "height above the plank (mm)",
            bounce_heights(&all[0]),
        ),
        (
            out_dir.join("marble-rolling-force.png"),
            "Marble rolling on wood at 0.6 m/s: contact force",
            "time (ms)",
            "force (N)",
            rolling_force(&all[3]),
        ),
    ];
    for (path, title, x, y, points) in &plots {
        media::plot(path, title, x, y, points)?;
        written.push(format!("  {}", path.display()));
    }
    for (scene, title) in two_body_scenes() {
        let path = out_dir.join(format!("{}-spectrogram.png", scene.name));
        let mut modes = [Mode::SILENT; MAX_STRIKER_MODES];
        let body = scene
            .patch
            .striker
            .body(scene.patch.hammer_mass_kg, &mut modes);
        let marks: Vec<f64> = modes[..body.num_modes].iter().map(|m| m.freq_hz).collect();
        media::spectrogram(
            &path,
            title,
            &render(&scene),
            &marks,
            "the striker's own modes",
        )?;
        written.push(format!("  {}", path.display()));
    }
    Ok(written)
}
