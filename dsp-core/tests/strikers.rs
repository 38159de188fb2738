//! Strikers through the engine: a patch's contact from materials is Hertz's, and a striker with
//! modes is heard at its level.

use urto_dsp::body::{Grip, StrikerKind, StrikerSpec};
use urto_dsp::material::by_id;
use urto_dsp::resonator::{object_modes, Mode, ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::voice::{Engine, Level, Patch};

const FS: f64 = 48_000.0;

#[test]
fn a_steel_ball_on_steel_is_hertz_contact() {
    // Two steels, a ball of radius R on a flat: E* = E/(2(1 − ν²)), k = (4/3)·E*·√R (Johnson,
    // Contact Mechanics, §4.2), the ball's mass (4/3)πR³ρ.
    let steel = by_id("steel").unwrap();
    let patch = Patch {
        striker: StrikerSpec {
            kind: StrikerKind::Ball,
            material: steel,
            size_m: 0.006,
        },
        object_material: steel,
        contact_from_materials: true,
        ..Patch::default()
    }
    .resolved();
    let (e, nu) = (steel.youngs_modulus_pa, steel.poisson_ratio);
    let k = 4.0 / 3.0 * e / (2.0 * (1.0 - nu * nu)) * 0.006f64.sqrt();
    assert!((patch.contact.law.stiffness / k - 1.0).abs() < 1e-12);
    assert_eq!(patch.contact.law.alpha, 1.5);
    assert_eq!(patch.contact.restitution, Some(steel.restitution));
    let mass = 4.0 / 3.0 * std::f64::consts::PI * 0.006f64.powi(3) * steel.density_kg_per_m3;
    assert!((patch.hammer_mass_kg / mass - 1.0).abs() < 1e-12);
    // Against glass the softer, lossier pair restitutes the smaller coefficient.
    let glass = by_id("glass").unwrap();
    let on_glass = Patch {
        object_material: glass,
        ..patch
    }
    .resolved();
    assert_eq!(
        on_glass.contact.restitution,
        Some(steel.restitution.min(glass.restitution))
    );
}

/// |DFT| of `y` at `freq_hz` (Goertzel), normalised by the length.
fn magnitude_at(y: &[f32], freq_hz: f64) -> f64 {
    let w = std::f64::consts::TAU * freq_hz / FS;
    let (mut s1, mut s2) = (0.0, 0.0);
    for &x in y {
        let s0 = f64::from(x) + 2.0 * w.cos() * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    (s1 * s1 + s2 * s2 - 2.0 * w.cos() * s1 * s2).sqrt() / y.len() as f64
}

/// A steel rod of `size_m` (a spoon's end) on a wine glass tuned to `f0_hz`, the contact from
/// the two materials.
fn steel_rod_on_glass(size_m: f64, f0_hz: f64) -> Patch {
    let mut patch = Patch {
        striker: StrikerSpec {
            kind: StrikerKind::Rod,
            material: by_id("steel").unwrap(),
            size_m,
        },
        object_material: by_id("glass").unwrap(),
        contact_from_materials: true,
        ..Patch::default()
    };
    patch.object.kind = ObjectKind::Glass;
    patch.tuning.key_tracking = false;
    patch.tuning.fixed_f0_hz = f0_hz;
    patch
}

/// `seconds` of middle C at full velocity through the engine, checked finite.
fn play(patch: &Patch, seconds: f64) -> Vec<f32> {
    let mut engine = Engine::new(FS);
    engine.note_on(patch, 60, 1.0);
    let mut out = vec![0.0f32; (seconds * FS) as usize];
    for chunk in out.chunks_mut(256) {
        engine.process(patch, chunk);
    }
    assert!(out.iter().all(|y| y.is_finite()));
    out
}

#[test]
fn a_spoon_rings_at_its_level() {
    // A steel spoon (a 15 cm rod) on a glass tuned to 2 kHz: the spoon's fundamental,
    // 1.0279·h/L²·√(E/ρ) with h = 3 mm, sounds with the striker level up and not without it.
    let steel = by_id("steel").unwrap();
    let patch = Patch {
        level: Level::Physical,
        ..steel_rod_on_glass(0.15, 2000.0)
    };
    let spoon_hz =
        1.0279 * 0.003 / (0.15 * 0.15) * (steel.youngs_modulus_pa / steel.density_kg_per_m3).sqrt();
    let render = |level: f64| {
        let patch = Patch {
            striker_level: level,
            ..patch
        };
        play(&patch.resolved(), 0.5)
    };
    let (heard, silent) = (render(1.0), render(0.0));
    let (on, off) = (
        magnitude_at(&heard, spoon_hz),
        magnitude_at(&silent, spoon_hz),
    );
    println!("spoon at {spoon_hz:.0} Hz: {on:.3e} with, {off:.3e} without");
    assert!(on > 10.0 * off, "{on} vs {off}");
}

#[test]
fn physical_tuning_strikes_the_object_its_size_tunes() {
    // A 50 cm aluminium free bar, 2.5 cm thick: 1.0279·(h/L²)·√(E/ρ) for every key.
    let aluminium = by_id("aluminium").unwrap();
    let mut patch = Patch {
        object_material: aluminium,
        physical_tuning: true,
        object_size_m: 0.5,
        ..Patch::default()
    };
    patch.object.kind = ObjectKind::FreeBar;
    let f0 =
        1.0279 * 0.025 / 0.25 * (aluminium.youngs_modulus_pa / aluminium.density_kg_per_m3).sqrt();
    let resolved = patch.resolved();
    for key in [21, 60, 108] {
        let got = resolved.tuning.f0_hz(key);
        assert!((got / f0 - 1.0).abs() < 1e-4, "key {key}: {got} vs {f0}");
    }
    // A membrane's pitch is its tension's: it keeps its keys.
    patch.object.kind = ObjectKind::Membrane;
    let resolved = patch.resolved();
    assert!(resolved.tuning.key_tracking);
}

/// "Teaspoon on a wine glass" as the preset has it, the spoon held loosely: half a second after
/// the tap the glass's strongest mode is louder than the spoon's strongest (each body's mode
/// frequencies from its own table, the level by Goertzel over 0.5–0.6 s). A free spoon rang on
/// above the glass for seconds.
#[test]
fn a_held_teaspoon_leaves_the_glass_singing() {
    let mut patch = Patch {
        striker_level: 1.0,
        grip: Grip::Loose,
        object_mass_kg: 0.05,
        ..steel_rod_on_glass(0.12, 660.0)
    };
    patch.object.num_modes = 32;
    patch.object.t60_s = 3.0;
    let patch = patch.resolved();
    let out = play(&patch, 0.6);
    let late = &out[(0.5 * FS) as usize..];
    let mut modes = [Mode::SILENT; MAX_MODES];
    let glass = ObjectSpec {
        f0_hz: 660.0,
        ..patch.object
    };
    let count = object_modes(&glass, patch.object_radiating_size_m(), &mut modes);
    let strongest = |modes: &[Mode]| {
        modes
            .iter()
            .filter(|m| m.freq_hz < 0.5 * FS)
            .map(|m| magnitude_at(late, m.freq_hz))
            .fold(0.0, f64::max)
    };
    let glass_level = strongest(&modes[..count]);
    let spoon = patch.striker.body(patch.hammer_mass_kg, &mut modes);
    let spoon_level = strongest(&modes[..spoon.num_modes]);
    println!("at 0.5 s: glass {glass_level:.3e}, spoon {spoon_level:.3e}");
    assert!(glass_level > spoon_level, "{glass_level} vs {spoon_level}");
}
