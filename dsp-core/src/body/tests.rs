//! Strikers against textbook closed forms: masses, the free bar's and the free plate's modes and
//! their mass normalisation, Hertz's stiffness of a ball.

use super::*;
use crate::material::by_id;

fn material(id: &str) -> &'static Material {
    by_id(id).expect("material in the table")
}

fn modes_of(spec: &StrikerSpec) -> (StrikerBody, Vec<Mode>) {
    let mut out = [Mode::SILENT; MAX_STRIKER_MODES];
    let body = spec.body(0.01, &mut out);
    (body, out[..body.num_modes].to_vec())
}

#[test]
fn the_mallet_stick_is_maple() {
    assert_eq!(MATERIALS[MAPLE].id, "maple");
}

#[test]
fn a_spoon_is_a_free_bar_struck_at_its_end() {
    // A steel rod 15 cm long, 3 × 9 mm: mass ρ·L·w·h, a quarter of it at the end; fundamental
    // (β₁L)²/(2πL²)·(h/√12)·√(E/ρ) with β₁L = 4.73004 (Blevins, Formulas for Natural Frequency
    // and Mode Shape, Table 8-1); mass-normalised free–free shapes are 2 at the ends (ibid.).
    let steel = material("steel");
    let spec = StrikerSpec {
        kind: StrikerKind::Rod,
        material: steel,
        size_m: 0.15,
    };
    let (body, modes) = modes_of(&spec);
    let mass = steel.density_kg_per_m3 * 0.15 * 0.003 * 0.009;
    assert!((body.modal_mass_kg / mass - 1.0).abs() < 1e-12);
    assert!((spec.rigid_mass_kg(0.01) / (mass / 4.0) - 1.0).abs() < 1e-12);
    let f1 = 4.73004f64.powi(2) / (std::f64::consts::TAU * 0.15 * 0.15)
        * (0.003 / 12f64.sqrt())
        * (steel.youngs_modulus_pa / steel.density_kg_per_m3).sqrt();
    assert!(
        (modes[0].freq_hz / f1 - 1.0).abs() < 1e-4,
        "{} vs {f1}",
        modes[0].freq_hz
    );
    for mode in &modes {
        assert!((mode.strike_shape.abs() - 2.0).abs() < 1e-6, "{mode:?}");
        assert_eq!(mode.strike_shape, mode.pickup_shape);
    }
    // Overtones of the free bar: (β_nL/β₁L)² = 2.757, 5.404 (ibid.).
    assert!((modes[1].freq_hz / modes[0].freq_hz - 2.7565).abs() < 1e-3);
    assert!((modes[2].freq_hz / modes[0].freq_hz - 5.4039).abs() < 1e-3);
    // The loss factor's decay, T60 = ln(1000)/(π·η·f).
    let t60 = 1000f64.ln() / (std::f64::consts::PI * steel.loss_factor * modes[0].freq_hz);
    assert!((modes[0].t60_s / t60 - 1.0).abs() < 1e-9);
}

#[test]
fn a_coin_has_mass_normalised_plate_modes() {
    // A brass coin of 12 mm radius, 1.73 mm thick. Its lowest mode from the free plate's
    // λ² = 5.26 (Leissa, NASA SP-160, Table 2.4), D = E·h³/(12(1 − ν²)).
    let brass = material("brass");
    let spec = StrikerSpec {
        kind: StrikerKind::Coin,
        material: brass,
        size_m: 0.012,
    };
    let (body, modes) = modes_of(&spec);
    let h = 0.012 * 0.144;
    let mass = brass.density_kg_per_m3 * std::f64::consts::PI * 0.012 * 0.012 * h;
    assert!((body.modal_mass_kg / mass - 1.0).abs() < 1e-12);
    assert!((spec.rigid_mass_kg(0.01) / (mass / 5.0) - 1.0).abs() < 1e-12);
    let nu = brass.poisson_ratio;
    let d = brass.youngs_modulus_pa * h.powi(3) / (12.0 * (1.0 - nu * nu));
    let f1 =
        5.26 / (0.012 * 0.012) * (d / (brass.density_kg_per_m3 * h)).sqrt() / std::f64::consts::TAU;
    assert!((modes[0].freq_hz / f1 - 1.0).abs() < 1e-9);
    assert_eq!(modes.len(), MAX_STRIKER_MODES);
    // Each shape J_m(κr)·cos(mθ), normalised so that its mean square over the disc is 1, read at
    // the rim: checked by quadrature of the unnormalised shape over the disc.
    let mut orders =
        (2..).flat_map(|order: usize| (0..=order / 2).map(move |c| (order, order - 2 * c)));
    for mode in &modes {
        let (order, m) = orders.next().unwrap_or_default();
        let kappa = order as f64 * std::f64::consts::PI / 2.0;
        let m = m as i32;
        let steps = 2000;
        let radial: f64 = (0..steps)
            .map(|i| {
                let r = (i as f64 + 0.5) / steps as f64;
                libm::jn(m, kappa * r).powi(2) * r / steps as f64
            })
            .sum();
        let angular = if m == 0 { 2.0 } else { 1.0 };
        let expected = libm::jn(m, kappa) / (angular * radial).sqrt();
        assert!(
            (mode.strike_shape - expected).abs() < 1e-5 * expected.abs().max(1e-3),
            "{mode:?} vs {expected}"
        );
    }
}

#[test]
fn a_mallet_is_its_head_with_the_stick_behind_it() {
    let rubber = material("hard-rubber");
    let spec = StrikerSpec {
        kind: StrikerKind::Mallet,
        material: rubber,
        size_m: 0.015,
    };
    let (body, modes) = modes_of(&spec);
    let head = 4.0 / 3.0 * std::f64::consts::PI * 0.015f64.powi(3) * rubber.density_kg_per_m3;
    let stick = material("maple").density_kg_per_m3 * 0.35 * 0.009 * 0.009;
    assert!((spec.rigid_mass_kg(0.01) / (head + stick / 4.0) - 1.0).abs() < 1e-12);
    assert!((body.modal_mass_kg / head - 1.0).abs() < 1e-12);
    assert!(modes.windows(2).all(|w| w[0].freq_hz <= w[1].freq_hz));
    // The stick's modes are there, at its free bar's frequencies.
    let maple = material("maple");
    let f1 = 4.73004f64.powi(2) / (std::f64::consts::TAU * 0.35 * 0.35)
        * (0.009 / 12f64.sqrt())
        * (maple.youngs_modulus_pa / maple.density_kg_per_m3).sqrt();
    assert!(modes.iter().any(|m| (m.freq_hz / f1 - 1.0).abs() < 1e-4));
}

#[test]
fn a_point_mass_has_no_modes() {
    let spec = StrikerSpec {
        kind: StrikerKind::PointMass,
        material: material("steel"),
        size_m: 0.01,
    };
    let (body, modes) = modes_of(&spec);
    assert!(modes.is_empty());
    assert_eq!(spec.rigid_mass_kg(0.01), 0.01);
    assert_eq!(body.num_modes, 0);
}

#[test]
fn kinds_are_named_both_ways() {
    for kind in StrikerKind::ALL {
        assert_eq!(StrikerKind::from_name(kind.name()), Some(kind));
    }
}

#[test]
fn objects_are_tuned_by_material_and_size() {
    let steel = material("steel");
    let (e, rho, nu) = (
        steel.youngs_modulus_pa,
        steel.density_kg_per_m3,
        steel.poisson_ratio,
    );
    // A 50 cm steel bar, 2.5 cm thick: (β₁L)²/(2πL²)·(h/√12)·√(E/ρ), β₁L = 4.73004 (Blevins).
    let bar = 4.73004f64.powi(2) / (std::f64::consts::TAU * 0.25)
        * (0.025 / 12f64.sqrt())
        * (e / rho).sqrt();
    let got = object_fundamental_hz(ObjectKind::FreeBar, steel, 0.5).unwrap();
    assert!((got / bar - 1.0).abs() < 1e-4, "{got} vs {bar}");
    // A 40 × 28 cm plate, 4 mm thick, simply supported: ω₁₁ = π²(1/a² + 1/b²)·√(D/(ρh)) (Leissa).
    let h: f64 = 0.004;
    let d = e * h.powi(3) / (12.0 * (1.0 - nu * nu));
    let pi = std::f64::consts::PI;
    let plate = pi * pi * (1.0 / 0.16 + 1.0 / (0.28 * 0.28)) * (d / (rho * h)).sqrt() / (2.0 * pi);
    let got = object_fundamental_hz(ObjectKind::RectangularPlate, steel, 0.4).unwrap();
    assert!((got / plate - 1.0).abs() < 1e-9, "{got} vs {plate}");
    // A ¾ in brass chime 0.6796 m long sounds F5 (698.46 Hz): its 4th mode's Timoshenko root
    // solved by hand for that note (r = 6.199 mm, s = 4 + 3ν).
    let brass = crate::material::BRASS;
    let got = object_fundamental_hz(ObjectKind::Chime, brass, 0.6796).unwrap();
    assert!((got / 698.46 - 1.0).abs() < 2e-4, "{got}");
    // Pitch a size and a material do not set alone.
    for kind in [
        ObjectKind::Membrane,
        ObjectKind::Kettledrum,
        ObjectKind::String,
        ObjectKind::SteelString,
        ObjectKind::Bell,
        ObjectKind::Glass,
    ] {
        assert_eq!(object_fundamental_hz(kind, steel, 0.4), None);
    }
    // Twice the length, half the pitch (f ∝ h/L² with h ∝ L).
    let long = object_fundamental_hz(ObjectKind::FreeBar, steel, 1.0).unwrap();
    let short = object_fundamental_hz(ObjectKind::FreeBar, steel, 0.5).unwrap();
    assert!((long / short - 0.5).abs() < 1e-12);
}

/// A spoon held loosely at the end of its handle: its first mode loses ⟨φ²⟩·R/(2M) more, ⟨φ²⟩
/// the mean square over the held points 0.85, 0.925 and 1 of the length of the free–free
/// shape cosh βx + cos βx − s·(sinh βx + sin βx), β₁L = 4.73004, s = 0.982502 (Blevins, Table
/// 8-1; 2 at the ends), within 1 %; and every one of its modes reaches −60 dB within 0.5 s.
#[test]
fn a_held_spoon_is_damped_where_it_is_held() {
    let spec = StrikerSpec {
        kind: StrikerKind::Rod,
        material: material("steel"),
        size_m: 0.15,
    };
    let (body, free) = modes_of(&spec);
    let mut held = free.clone();
    spec.hold(Grip::Loose, &body, &mut held);
    let shape = |x: f64| {
        let b = 4.73004 * x;
        b.cosh() + b.cos() - 0.982502 * (b.sinh() + b.sin())
    };
    let mean_square = [0.85, 0.925, 1.0]
        .iter()
        .map(|&x| shape(x).powi(2))
        .sum::<f64>()
        / 3.0;
    let sigma = |t60_s: f64| 1000f64.ln() / t60_s;
    let added = sigma(held[0].t60_s) - sigma(free[0].t60_s);
    let expected = mean_square * Grip::Loose.resistance_n_s_per_m() / (2.0 * body.modal_mass_kg);
    assert!(
        (added / expected - 1.0).abs() < 0.01,
        "σ added {added:.2}/s, expected {expected:.2}/s"
    );
    for mode in &held {
        assert!(
            mode.t60_s <= 0.5,
            "{:.0} Hz rings {:.2} s",
            mode.freq_hz,
            mode.t60_s
        );
    }
    let mut free_again = free.clone();
    spec.hold(Grip::Free, &body, &mut free_again);
    assert_eq!(free_again, free);
}

/// Every striker's and every object's modes radiate by a law of their own (none is heard as a
/// bare velocity), and a ball's modes as sphere harmonics on its radius, from its whole surface.
#[test]
fn every_body_radiates() {
    for kind in StrikerKind::ALL {
        let spec = StrikerSpec {
            kind,
            material: material("steel"),
            size_m: 0.05,
        };
        let (_, modes) = modes_of(&spec);
        assert!(
            modes.iter().all(|m| m.radiator != Radiator::Velocity),
            "{kind:?}"
        );
    }
    let ball = StrikerSpec {
        kind: StrikerKind::Ball,
        material: material("steel"),
        size_m: 0.05,
    };
    let (_, modes) = modes_of(&ball);
    assert!(modes.iter().all(|m| matches!(
        m.radiator,
        Radiator::Multipole { radius_m, area_m2, .. }
            if radius_m == 0.05 && (area_m2 / (4.0 * PI * 0.0025) - 1.0).abs() < 1e-12
    )));
    for kind in ObjectKind::ALL {
        let spec = ObjectSpec {
            kind,
            ..ObjectSpec::marimba(200.0)
        };
        let mut table = [Mode::SILENT; MAX_MODES];
        let n = object_modes(&spec, 0.3, &mut table);
        assert!(
            table[..n].iter().all(|m| m.radiator != Radiator::Velocity),
            "{kind:?}"
        );
    }
}

/// An object's size from its mass inverts its volume in the table's proportions: a 0.5 m oak
/// bar 0.1 m wide and 25 mm thick, a 0.8 m glass plate 0.56 m wide and 8 mm thick, a bronze
/// bell of 0.2 m radius with a 2π·r²·(r/12) shell, a drum head of 0.3 m radius at 1 kg/m².
#[test]
fn an_objects_size_follows_from_its_mass() {
    let cases = [
        (ObjectKind::FreeBar, "oak", 0.5, 0.5 * 0.1 * 0.025),
        (
            ObjectKind::RectangularPlate,
            "glass",
            0.8,
            0.8 * 0.56 * 0.008,
        ),
        (
            ObjectKind::Bell,
            "bronze",
            0.2,
            2.0 * PI * 0.04 * 0.2 / 12.0,
        ),
    ];
    for (kind, id, size_m, volume_m3) in cases {
        let mass_kg = material(id).density_kg_per_m3 * volume_m3;
        let got = object_size_m(kind, material(id), mass_kg);
        assert!((got / size_m - 1.0).abs() < 1e-9, "{kind:?}: {got} m");
    }
    let head = object_size_m(ObjectKind::Membrane, material("abs"), PI * 0.09);
    assert!((head / 0.3 - 1.0).abs() < 1e-9, "{head} m");
}
