//! Radiation efficiencies against their closed forms.

use super::*;

/// The closed forms of σ_ℓ = 1/(x²|h_ℓ′(x)|²) for ℓ = 0, 1, 2, written out from h₀, h₁, h₂ in
/// elementary functions (h₂ = i·e^{ix}/x·(1 + 3i/x − 3/x²)): the pulsating sphere, the
/// oscillating sphere and the lowest quadrupole.
fn sphere_closed_form(order: u32, x: f64) -> f64 {
    match order {
        0 => x * x / (1.0 + x * x),
        1 => x.powi(4) / (x.powi(4) + 4.0),
        2 => x.powi(6) / (x.powi(6) - 2.0 * x.powi(4) + 9.0 * x * x + 81.0),
        _ => unreachable!(),
    }
}

#[test]
fn sphere_harmonics_radiate_as_their_closed_forms() {
    for order in 0..=2 {
        for x in [0.01, 0.05, 0.3, 1.0, 2.0, 3.7, 10.0, 60.0] {
            let (got, want) = (sphere_efficiency(order, x), sphere_closed_form(order, x));
            assert!(
                (got / want - 1.0).abs() < 0.01,
                "ℓ = {order}, ka = {x}: {got} against {want}"
            );
        }
    }
}

#[test]
fn high_sphere_harmonics_follow_their_small_and_large_sphere_limits() {
    // ka ≪ ℓ: σ → x^(2ℓ+2)/(((2ℓ−1)!!)²·(ℓ+1)²) (h_ℓ′ → (ℓ+1)·(2ℓ−1)!!/x^(ℓ+2)); ka ≫ ℓ: σ → 1.
    for order in [3u32, 5, 8, 20] {
        let double_factorial: f64 = (1..2 * order).step_by(2).map(f64::from).product();
        let x = 0.002 * f64::from(order);
        let small = x.powf(f64::from(2 * order + 2))
            / (double_factorial * double_factorial * f64::from(order + 1).powi(2));
        let got = sphere_efficiency(order, x);
        assert!(
            (got / small - 1.0).abs() < 0.01,
            "ℓ = {order}: {got} against {small}"
        );
        let large = sphere_efficiency(order, 200.0 * f64::from(order));
        assert!((large - 1.0).abs() < 0.01, "ℓ = {order}: {large}");
    }
}

#[test]
fn pressure_per_velocity_carries_the_radiated_power() {
    // A pulsating sphere of 10 cm radius at ka = 1 (σ = ½): p = ρc·√(Sσ/4π)/r = ρc·a·√½ at 1 m.
    let radius_m = 0.1;
    let freq_hz = SPEED_OF_SOUND_M_PER_S / (2.0 * PI * radius_m);
    let ball = Radiator::Multipole {
        order: 0,
        radius_m,
        area_m2: 4.0 * PI * radius_m * radius_m,
    };
    let want = AIR_DENSITY_KG_PER_M3 * SPEED_OF_SOUND_M_PER_S * radius_m * 0.5f64.sqrt();
    let got = ball.pressure_per_velocity(freq_hz);
    assert!((got / want - 1.0).abs() < 1e-9, "{got} against {want}");
    assert_eq!(Radiator::Velocity.pressure_per_velocity(freq_hz), 1.0);
}
