//! The material table is complete and physical; Hertz's stiffness, masses, decays and a bar's
//! fundamental against closed forms computed by hand, and Hertz's contact duration against a
//! simulated impact.

use super::*;
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::interaction::{ContactSetup, Hammer};
use crate::resonator::ModalBank;

fn steel() -> &'static Material {
    by_id("steel").expect("steel is in the table")
}

#[test]
fn the_table_has_the_materials_the_issue_names_and_they_are_physical() {
    for id in [
        "steel",
        "brass",
        "aluminium",
        "glass",
        "ceramic",
        "granite",
        "oak",
        "maple",
        "pine",
        "abs",
        "hard-rubber",
        "soft-rubber",
    ] {
        assert!(by_id(id).is_some(), "{id} is missing");
    }
    for (i, m) in MATERIALS.iter().enumerate() {
        assert!(
            m.youngs_modulus_pa > 1e5 && m.youngs_modulus_pa < 1e12,
            "{}",
            m.id
        );
        assert!(m.poisson_ratio > 0.0 && m.poisson_ratio < 0.5, "{}", m.id);
        assert!(
            m.density_kg_per_m3 > 100.0 && m.density_kg_per_m3 < 2e4,
            "{}",
            m.id
        );
        assert!(m.loss_factor > 0.0 && m.loss_factor < 1.0, "{}", m.id);
        assert!(m.restitution > 0.0 && m.restitution < 1.0, "{}", m.id);
        assert!(
            MATERIALS[..i].iter().all(|n| n.id != m.id),
            "{} twice",
            m.id
        );
    }
}

/// Two 10 mm steel spheres (R* = 5 mm), E = 205 GPa, ν = 0.29: by hand, E* = E/(2·(1 − ν²)) =
/// 1.1191e11 Pa and k = (4/3)·E*·√R* = 1.0551e10 N/m^1.5 — the "k ≈ 10¹⁰" of steel on steel.
#[test]
fn hertz_stiffness_of_steel_spheres_is_the_textbook_value() {
    let e_star = effective_modulus_pa(steel(), steel());
    assert!((e_star / 1.1191e11 - 1.0).abs() < 1e-4, "E* = {e_star}");
    let r_star = effective_radius_m(0.01, 0.01);
    assert!((r_star - 0.005).abs() < 1e-15);
    let k = hertz_stiffness(e_star, r_star);
    assert!((k / 1.0551e10 - 1.0).abs() < 1e-4, "k = {k}");
    // A sphere on a flat: R* is the sphere's radius.
    assert_eq!(effective_radius_m(0.01, f64::INFINITY), 0.01);
}

#[test]
fn masses_and_decays_follow_their_closed_forms() {
    // (4/3)·π·(0.01 m)³·7850 kg/m³.
    assert!((sphere_mass_kg(steel(), 0.01) / 0.032882 - 1.0).abs() < 1e-4);
    // T60 = ln(1000)/(π·η·f) = 2.199 s for η = 10⁻³ at 1 kHz.
    let t60 = t60_from_loss_factor_s(1e-3, 1000.0);
    assert!((t60 - 2.1991).abs() < 1e-3, "T60 = {t60}");
}

/// A 300 × 10 mm aluminium bar: by hand, f₁ = 1.0279·(h/L²)·√(E/ρ) = 1.0279 · 0.1111 m⁻¹ ·
/// 5091.8 m/s = 581.5 Hz; and f₁ ∝ h/L²: half as long, four times higher.
#[test]
fn a_free_bar_rings_at_its_euler_bernoulli_fundamental() {
    let aluminium = by_id("aluminium").expect("aluminium is in the table");
    let f1 = free_bar_fundamental_hz(aluminium, 0.3, 0.01);
    assert!((f1 / 581.5 - 1.0).abs() < 1e-3, "f1 = {f1}");
    let shorter = free_bar_fundamental_hz(aluminium, 0.15, 0.01);
    assert!((shorter / f1 - 4.0).abs() < 1e-12);
}

/// Duration (s) of a simulated Hertz impact (α = 3/2, no dissipation) of `mass_kg` at
/// `v_m_per_s` on a rigid, immovable object, at `fs` Hz: the first time the compression returns
/// to zero, interpolated between the samples around it.
fn simulated_contact_time_s(stiffness: f64, mass_kg: f64, v_m_per_s: f64, fs: f64) -> f64 {
    let law = HuntCrossley {
        stiffness,
        mu_s_per_m: 0.0,
        alpha: 1.5,
    };
    let setup = ContactSetup {
        exit_correction: false,
        ..ContactSetup::hunt_crossley(law, Method::Am1)
    };
    let mut wall = ModalBank::new(1e12);
    wall.set_modes(&[], fs);
    let mut hammer = Hammer::new(mass_kg, setup);
    hammer.strike(&wall, v_m_per_s, 0.0, mass_kg);
    let dt = 1.0 / fs;
    let mut x_before = 0.0;
    for n in 1..1_000_000 {
        hammer.process_sample(&setup, &mut wall, dt);
        let x = hammer.compression_m(&wall);
        if x <= 0.0 && n > 1 {
            return (n as f64 - 1.0 + x_before / (x_before - x)) * dt;
        }
        x_before = x;
    }
    f64::NAN
}

/// A 10 mm steel ball on a massive steel block at 0.1, 1 and 5 m/s: the simulated contact lasts
/// Hertz's τ = 2.87·(m²/(R*·E*²·v))^(1/5) within 2 %.
#[test]
fn a_steel_ball_on_a_steel_block_lasts_hertz_s_contact_time() {
    let (radius_m, fs) = (0.01, 384_000.0);
    let mass_kg = sphere_mass_kg(steel(), radius_m);
    let e_star = effective_modulus_pa(steel(), steel());
    let r_star = effective_radius_m(radius_m, f64::INFINITY);
    let k = hertz_stiffness(e_star, r_star);
    for v_m_per_s in [0.1, 1.0, 5.0] {
        let hertz_s = hertz_contact_time_s(mass_kg, r_star, e_star, v_m_per_s);
        let simulated_s = simulated_contact_time_s(k, mass_kg, v_m_per_s, fs);
        assert!(
            (simulated_s / hertz_s - 1.0).abs() < 0.02,
            "{v_m_per_s} m/s: simulated {simulated_s:.3e} s, Hertz {hertz_s:.3e} s"
        );
    }
}
