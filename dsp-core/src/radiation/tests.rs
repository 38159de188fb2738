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

#[test]
fn a_small_pulsating_patch_is_the_monopole_of_its_volume_velocity() {
    // A patch of area S on a sphere of 10 cm radius, all of it moving at v, at ka = 0.01: the
    // monopole of volume velocity Q = S·v radiates W = ρc·k²·Q²/(4π), so at r,
    // p = √(ρc·W/(4π·r²)) = ρc·k·S·v/(4π·r) (Kinsler et al., *Fundamentals of Acoustics*, §7.2).
    let radius_m = 0.1;
    let k = 0.01 / radius_m;
    let freq_hz = k * SPEED_OF_SOUND_M_PER_S / (2.0 * PI);
    for area_m2 in [1e-4, 0.01, 0.05, 4.0 * PI * radius_m * radius_m] {
        let patch = Radiator::Multipole {
            order: 0,
            radius_m,
            area_m2,
        };
        let want = AIR_DENSITY_KG_PER_M3 * SPEED_OF_SOUND_M_PER_S * k * area_m2
            / (4.0 * PI * LISTENER_DISTANCE_M);
        let got = patch.pressure_per_velocity(freq_hz);
        assert!(
            (got / want - 1.0).abs() < 0.01,
            "S = {area_m2}: {got} against {want}"
        );
    }
}

/// One row of the plate derivation's reference table (`python3 docs/radiation/refs.py`): mode
/// (m, n), k·a, k·b, σ from Wallace's exact integral (5 s.f.), and the derivation's Python
/// `sigma_mode`.
struct PlateRef {
    m: u32,
    n: u32,
    ka: f64,
    kb: f64,
    exact: f64,
    python: f64,
}

const fn plate_ref(m: u32, n: u32, ka: f64, kb: f64, exact: f64, python: f64) -> PlateRef {
    PlateRef {
        m,
        n,
        ka,
        kb,
        exact,
        python,
    }
}

/// Low-frequency rows (Wallace's corrected closed form within 1 % of the exact integral there).
const PLATE_LOW: [PlateRef; 9] = [
    plate_ref(1, 1, 0.5, 0.35, 1.8192e-2, 1.8192248657e-2),
    plate_ref(2, 1, 1.0, 0.7, 1.4884e-3, 1.4883058387e-3),
    plate_ref(1, 2, 2.0, 0.4, 2.6780e-4, 2.6779691491e-4),
    plate_ref(2, 2, 1.0, 0.7, 9.1475e-6, 9.1472142481e-6),
    plate_ref(3, 3, 0.5, 0.35, 2.1962e-4, 2.1961616442e-4),
    plate_ref(4, 2, 1.0, 0.7, 2.2498e-6, 2.2497807616e-6),
    plate_ref(3, 1, 0.9, 0.63, 6.1569e-3, 6.1569190595e-3),
    plate_ref(2, 2, 1.8, 1.26, 2.9692e-4, 2.9686311136e-4),
    plate_ref(1, 1, 0.3, 0.3, 9.3845e-3, 9.3844602873e-3),
];

/// Rows from below coincidence through it to far above it.
const PLATE_HIGH: [PlateRef; 10] = [
    plate_ref(3, 1, 5.0, 1.0, 2.7235e-2, 2.7143420625e-2),
    plate_ref(1, 3, 11.892, 8.3244, 9.7452e-1, 1.1263716283),
    plate_ref(5, 4, 18.0, 12.6, 2.8682e-1, 3.0552138000e-1),
    plate_ref(2, 7, 27.871, 19.5097, 6.0974e-1, 6.0610652860e-1),
    plate_ref(8, 8, 50.0, 10.0, 3.6660e-2, 3.6315105383e-2),
    plate_ref(4, 4, 16.0, 16.0, 1.1101, 1.1076417619),
    plate_ref(6, 5, 36.0, 25.2, 1.7166, 1.6401683403),
    plate_ref(2, 3, 30.0, 6.0, 2.8412e-1, 2.7965218228e-1),
    plate_ref(4, 7, 100.0, 70.0, 1.0630, 1.0623640631),
    plate_ref(1, 1, 100.0, 70.0, 1.0015, 1.0014981405),
];

/// Wallace's (1972) low-frequency closed forms, with the even–even k²ab/28 correction of the
/// derivation (docs/radiation/README.md §2; for m odd, n even: the even–odd form with a↔b,
/// m↔n swapped).
fn plate_closed_form(m: u32, n: u32, ka: f64, kb: f64) -> f64 {
    let (mf, nf) = (f64::from(m), f64::from(n));
    let c8 = |i: f64| 1.0 - 8.0 / (i * PI).powi(2);
    let c24 = |i: f64| 1.0 - 24.0 / (i * PI).powi(2);
    let (k2ab, a_over_b) = (ka * kb, ka / kb);
    let scale = PI.powi(5) * mf * mf * nf * nf;
    match (m % 2 == 1, n % 2 == 1) {
        (true, true) => {
            32.0 * k2ab / scale * (1.0 - k2ab / 12.0 * (c8(mf) * a_over_b + c8(nf) / a_over_b))
        }
        (false, true) => {
            8.0 * ka * ka * k2ab / (3.0 * scale)
                * (1.0 - k2ab / 20.0 * (c24(mf) * a_over_b + c8(nf) / a_over_b))
        }
        (true, false) => {
            8.0 * kb * kb * k2ab / (3.0 * scale)
                * (1.0 - k2ab / 20.0 * (c8(mf) * a_over_b + c24(nf) / a_over_b))
        }
        (false, false) => {
            2.0 * (ka * kb).powi(3) / (15.0 * scale)
                * (1.0 - k2ab / 28.0 * (c24(mf) * a_over_b + c24(nf) / a_over_b))
        }
    }
}

/// Every reference's σ within the factor `tolerance` of `want(reference)`.
fn assert_within(refs: &[PlateRef], want: fn(&PlateRef) -> f64, tolerance: f64) {
    for r in refs {
        let (got, want) = (plate::efficiency(r.m, r.n, r.ka, r.kb), want(r));
        assert!(
            got < want * tolerance && got > want / tolerance,
            "({}, {}) at ka = {}: {got} against {want}",
            r.m,
            r.n,
            r.ka
        );
    }
}

#[test]
fn plate_meets_the_exact_integral_at_low_frequency() {
    // σ_exact of the reference table (Wallace's integral, converged to ≥ 10 digits): within 1 %.
    assert_within(&PLATE_LOW, |r| r.exact, 1.01);
}

#[test]
fn plate_follows_wallaces_closed_forms_for_small_plates() {
    // Wallace's closed forms (corrected even–even term) at k·max(a, b) ≤ 0.5: within 1 %.
    for (m, n) in [
        (1, 1),
        (2, 1),
        (1, 2),
        (2, 2),
        (3, 1),
        (3, 3),
        (4, 2),
        (5, 7),
        (8, 8),
    ] {
        for aspect in [1.0, 0.7, 0.2] {
            for ka in [0.01, 0.1, 0.3, 0.5] {
                let kb = ka * aspect;
                let (got, want) = (
                    plate::efficiency(m, n, ka, kb),
                    plate_closed_form(m, n, ka, kb),
                );
                assert!(
                    (got / want - 1.0).abs() < 0.01,
                    "({m}, {n}), b/a = {aspect}, ka = {ka}: {got} against {want}"
                );
            }
        }
    }
}

#[test]
fn plate_meets_the_exact_integral_around_coincidence() {
    // σ_exact of the reference table (Wallace's integral): within 1.5 dB (the formula's worst on
    // its fitting grid is 1.27 dB).
    assert_within(&PLATE_HIGH, |r| r.exact, 10f64.powf(1.5 / 10.0));
}

#[test]
fn matches_the_derivations_reference_values() {
    // Porting check: `sigma_mode` of docs/radiation/sigma_mode.py (10 digits), to 1e-6.
    assert_within(&PLATE_LOW, |r| r.python, 1.0 + 1e-6);
    assert_within(&PLATE_HIGH, |r| r.python, 1.0 + 1e-6);
}

#[test]
fn plate_radiates_as_an_infinite_plate_far_above_coincidence() {
    // k = 10·k_mn: σ → 1/√(1 − (k_mn/k)²) (the infinite plate's trace-matched wave), within 2 %.
    for (m, n) in [(1, 1), (2, 3), (4, 7), (8, 8), (12, 1)] {
        for aspect in [1.0, 0.7, 0.2] {
            let k = 10.0 * PI * (f64::from(m).powi(2) + (f64::from(n) / aspect).powi(2)).sqrt();
            let got = plate::efficiency(m, n, k, k * aspect);
            let want = 1.0 / (1.0 - 0.01f64).sqrt();
            assert!(
                (got / want - 1.0).abs() < 0.02,
                "({m}, {n}), b/a = {aspect}: {got}"
            );
        }
    }
}

#[test]
fn plate_efficiency_is_finite_and_continuous_in_frequency() {
    // 2000 log-spaced ka from 1e-3 to 300: σ finite and ≥ 0, and no step between neighbours above
    // 2 dB. The Python derivation itself steps by up to 1.22 dB on this grid ((12, 11), b/a = 0.7,
    // ka ≈ 59, just below coincidence, where the bridge rises steeply), so 1 dB would fail it.
    let points = 2000;
    let ratio = (300.0f64 / 1e-3).powf(1.0 / f64::from(points - 1));
    for aspect in [0.7, 0.2] {
        for m in 1..=12 {
            for n in 1..=12 {
                let mut before = f64::NAN;
                let mut ka = 1e-3;
                for _ in 0..points {
                    let sigma = plate::efficiency(m, n, ka, ka * aspect);
                    assert!(sigma.is_finite() && sigma >= 0.0, "({m}, {n}), ka = {ka}");
                    let step_db = (10.0 * (sigma / before).log10()).abs();
                    assert!(
                        !(step_db > 2.0),
                        "({m}, {n}), b/a = {aspect}, ka = {ka}: {before} to {sigma}"
                    );
                    (before, ka) = (sigma, ka * ratio);
                }
            }
        }
    }
}

#[test]
fn plate_efficiency_survives_extreme_arguments() {
    // Zero, negative, NaN, tiny and huge arguments and orders: finite, ≥ 0, no panic.
    let args = [
        0.0,
        -1.0,
        f64::NAN,
        1e-300,
        1e-9,
        1.0,
        1e4,
        1e9,
        1e200,
        f64::INFINITY,
    ];
    for m in [1, 2, 7, 1000, u32::MAX] {
        for n in [1, 2, 1000] {
            for ka in args {
                for kb in args {
                    let sigma = plate::efficiency(m, n, ka, kb);
                    assert!(sigma.is_finite() && sigma >= 0.0, "({m}, {n}), {ka}, {kb}");
                }
            }
        }
    }
    assert_eq!(plate::efficiency(1, 1, 0.0, 1.0), 0.0);
}
