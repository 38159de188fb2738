//! Object tables against independent statements of their physics.

use super::*;

/// The objects' size in these tests, m: the modes' frequencies and shapes do not depend on it.
const SIZE_M: f64 = 0.4;

fn generate(kind: ObjectKind, num_modes: usize) -> Vec<Mode> {
    let spec = ObjectSpec {
        kind,
        num_modes,
        ..ObjectSpec::marimba(100.0)
    };
    let mut out = [Mode::SILENT; MAX_MODES];
    let n = object_modes(&spec, SIZE_M, &mut out);
    out[..n].to_vec()
}

#[test]
fn every_object_gives_sorted_finite_modes() {
    for kind in ObjectKind::ALL {
        for count in [1, 3, 32, MAX_MODES] {
            let modes = generate(kind, count);
            assert_eq!(modes.len(), count, "{kind:?}");
            assert!(
                modes.windows(2).all(|w| w[0].freq_hz <= w[1].freq_hz),
                "{kind:?}"
            );
            assert!(
                modes.iter().all(|m| m.freq_hz > 0.0
                    && m.t60_s > 0.0
                    && m.strike_shape.is_finite()
                    && m.pickup_shape.is_finite()),
                "{kind:?}"
            );
        }
        assert_eq!(ObjectKind::from_name(kind.name()), Some(kind));
    }
}

#[test]
fn bar_roots_solve_the_frequency_equation() {
    // cos βL · cosh βL = 1 for the free–free bar; the asymptotic roots too.
    for i in 0..12 {
        let b = bar_beta_l(i);
        let residual = b.cos() * b.cosh() - 1.0;
        assert!(
            residual.abs() < 1e-6 * b.cosh(),
            "root {i}: {b} residual {residual}"
        );
    }
    let bar = generate(ObjectKind::FreeBar, 3);
    assert!((bar[1].freq_hz / bar[0].freq_hz - 2.7565).abs() < 1e-3);
    assert!((bar[2].freq_hz / bar[0].freq_hz - 5.4039).abs() < 1e-3);
}

#[test]
fn bar_shape_is_continuous_across_the_stable_form() {
    // Both evaluations agree where both are accurate (b near 20).
    let b: f64 = 20.0;
    for xi in [0.0, 0.13, 0.5, 0.91, 1.0] {
        let s = (b.cosh() - b.cos()) / (b.sinh() - b.sin());
        let y = b * xi;
        let direct = y.cosh() + y.cos() - s * (y.sinh() + y.sin());
        let stable = (-y).exp() + y.cos() - y.sin() + (b.cos() - b.sin()) * (-(b - y)).exp();
        assert!(
            (direct - stable).abs() < 1e-6,
            "ξ {xi}: {direct} vs {stable}"
        );
    }
    // Free ends of the normalised shape are ±2.
    assert!((bar_shape(4.730_040_7, 0.0) - 2.0).abs() < 1e-9);
}

#[test]
fn membrane_ratios_are_bessel_zeros() {
    // Fletcher & Rossing Table 3.1: 1.00, 1.59, 2.14, 2.30, 2.65, 2.92.
    let m = generate(ObjectKind::Membrane, 6);
    let printed = [1.0, 1.59, 2.14, 2.30, 2.65, 2.92];
    for (mode, r) in m.iter().zip(printed) {
        assert!(
            (mode.freq_hz / 100.0 - r).abs() < 0.006,
            "{} vs {r}",
            mode.freq_hz / 100.0
        );
    }
}

#[test]
fn membrane_table_holds_the_smallest_bessel_zeros() {
    // Every entry is a zero of its J_m ...
    for &(m, j) in &MEMBRANE_ZEROS {
        assert!(libm::jn(i32::from(m), j).abs() < 1e-10, "J_{m}({j})");
    }
    // ... and they are the 128 smallest: an independent search by Newton from McMahon's start
    // (A&S 9.5.12) for n ≥ m/2 and from the first-zero asymptote m + 1.8558·m^(1/3) otherwise,
    // stepping through each J_m's zeros (more than π apart) up to the table's largest value.
    let largest = MEMBRANE_ZEROS[MAX_MODES - 1].1;
    let mut found = Vec::new();
    for m in 0..40i32 {
        let mut x = if m == 0 {
            2.4
        } else {
            f64::from(m) + 1.8558 * f64::from(m).powf(1.0 / 3.0)
        };
        while x <= largest + 1.0 {
            for _ in 0..60 {
                let d = 0.5 * (libm::jn(m - 1, x) - libm::jn(m + 1, x));
                x -= libm::jn(m, x) / d;
            }
            if x <= largest + 1e-9
                && found
                    .iter()
                    .all(|&(fm, fx): &(i32, f64)| fm != m || (fx - x).abs() > 1e-6)
            {
                found.push((m, x));
            }
            x += std::f64::consts::PI;
        }
    }
    found.sort_by(|a, b| a.1.total_cmp(&b.1));
    assert_eq!(found.len(), MAX_MODES);
    for (table, search) in MEMBRANE_ZEROS.iter().zip(&found) {
        assert_eq!(i32::from(table.0), search.0);
        assert!((table.1 - search.1).abs() < 1e-9);
    }
}

#[test]
fn marimba_is_tuned_and_string_is_harmonic() {
    let m = generate(ObjectKind::MarimbaBar, 3);
    assert_eq!(
        [m[0].freq_hz, m[1].freq_hz, m[2].freq_hz],
        [100.0, 400.0, 1000.0]
    );
    let s = generate(ObjectKind::String, 8);
    assert!(s
        .iter()
        .enumerate()
        .all(|(i, m)| (m.freq_hz - 100.0 * (i + 1) as f64).abs() < 1e-9));
}

#[test]
fn a_steel_string_is_stretched_as_a_stiff_string_pinned_at_its_ends() {
    // Fletcher (1964), B = 2.5·10⁻⁴: partial 17 at 17·√(1.07225/1.00025) = 17.6012 times the
    // fundamental (60 cents over 17×), partial 2 at 2.00075.
    let s = ratios(ObjectKind::SteelString, 100.0, 17);
    assert!((s[0] - 1.0).abs() < 1e-12, "{s:?}");
    assert!((s[1] - 2.00075).abs() < 1e-5, "{s:?}");
    assert!((s[16] - 17.6012).abs() < 1e-4, "{s:?}");
}

#[test]
fn damping_slope_and_stretch_act_as_documented() {
    let base = ObjectSpec {
        kind: ObjectKind::String,
        num_modes: 4,
        ..ObjectSpec::marimba(100.0)
    };
    let mut out = [Mode::SILENT; MAX_MODES];
    object_modes(
        &ObjectSpec {
            damping_slope: 0.0,
            ..base
        },
        SIZE_M,
        &mut out,
    );
    assert!(out[..4].iter().all(|m| m.t60_s == base.t60_s));
    object_modes(
        &ObjectSpec {
            damping_slope: 1.0,
            ..base
        },
        SIZE_M,
        &mut out,
    );
    assert!((out[3].t60_s - base.t60_s / 16.0).abs() < 1e-12);
    object_modes(
        &ObjectSpec {
            stretch: 0.1,
            ..base
        },
        SIZE_M,
        &mut out,
    );
    assert!((out[3].freq_hz - 100.0 * 4f64.powf(1.1)).abs() < 1e-9);
}

/// The lowest `count` modes of a `kind` tuned at `f0_hz`, as multiples of `f0_hz`.
fn ratios(kind: ObjectKind, f0_hz: f64, count: usize) -> Vec<f64> {
    let spec = ObjectSpec {
        kind,
        num_modes: count,
        ..ObjectSpec::marimba(f0_hz)
    };
    let mut out = [Mode::SILENT; MAX_MODES];
    let n = object_modes(&spec, SIZE_M, &mut out);
    out[..n].iter().map(|m| m.freq_hz / f0_hz).collect()
}

#[test]
fn a_long_glockenspiel_bar_is_a_free_bar_and_a_short_one_is_lowered_as_rayleigh_and_shear_say() {
    // A 20 Hz bar 3/8 in thick is 1.6 m long: Euler–Bernoulli's 2.7565 and 5.4039.
    let long = ratios(ObjectKind::GlockenspielBar, 20.0, 3);
    assert!((long[1] - 2.7565).abs() < 2e-3, "{long:?}");
    assert!((long[2] - 5.4039).abs() < 4e-3, "{long:?}");
    // At 830 Hz, by hand: L² = (β₁L)²·r·c/(2π·f), r = h/√12, c = √(E/ρ) (205 GPa, 7850 kg/m³):
    // L = 0.245 m; to first order in a = (βr/L)², each mode falls by ½·a·(1 + E/κG), E/κG =
    // (12 + 11ν)/5 at ν = 0.29 (Rayleigh's rotary inertia and Timoshenko's shear; Han, Benaroya
    // & Wei 1999): 2.7290 and 5.2686. The exact
    // root lies 0.15 % above at the third mode (its next order).
    let short = ratios(ObjectKind::GlockenspielBar, 830.3, 3);
    assert!((short[1] / 2.7290 - 1.0).abs() < 1e-3, "{short:?}");
    assert!(short[2] < 5.2686 * 1.003 && short[2] > 5.2686, "{short:?}");
}

#[test]
fn a_chime_sounds_its_strike_note_an_octave_under_its_fourth_mode_lowered_by_shear() {
    // A 10 Hz chime (¾ in brass) is 5.8 m long: Euler–Bernoulli's 2·(βᵢ/β₄)².
    let long = ratios(ObjectKind::Chime, 10.0, 6);
    let euler = [0.2239, 0.6172, 1.2099, 2.0, 2.9877, 4.1728];
    for (r, e) in long.iter().zip(euler) {
        assert!((r / e - 1.0).abs() < 2e-3, "{long:?}");
    }
    // At F5 (698.46 Hz), by hand: L² = (β₄L)²·r·c/(2π·2f₀), r = √(a² + b²)/2 = 6.199 mm
    // (a = 9.525, b = 7.935 mm), c = √(E/ρ) (100 GPa, 8500 kg/m³): L = 0.696 m; to first order
    // each mode falls by ½·(βᵢr/L)²·(1 + E/κG), E/κG = 4 + 3ν at ν = 0.34 (thin-walled tube,
    // Cowper): 0.2339, 0.6386, 1.2338, 2, 2.9137, 3.9455. The exact roots lie within the next
    // order: 0.2 % below for the lowest three, 0.4 and 1 % above for the 5th and 6th.
    let f5 = ratios(ObjectKind::Chime, 698.46, 6);
    let first_order = [0.2339, 0.6386, 1.2338, 2.0, 2.9137, 3.9455];
    let next_order = [3e-3, 3e-3, 3e-3, 1e-9, 5e-3, 1.2e-2];
    for ((r, e), tolerance) in f5.iter().zip(first_order).zip(next_order) {
        assert!((r / e - 1.0).abs() < tolerance, "{f5:?}");
    }
}

/// ∫₀^∞ J_m(u)²/(u² − j²)² du by Simpson's rule on [0, 200] in steps of 1/400 (at u = j, where
/// J_m has a simple zero, the limit J_m′(j)²/(4j²)) plus the tail, where J_m(u)² averages
/// 1/(πu): 1/(4πU⁴).
fn air_mass_integral(m: i32, j: f64) -> f64 {
    let slope = 0.5 * (libm::jn(m - 1, j) - libm::jn(m + 1, j));
    let f = |u: f64| {
        let d = u * u - j * j;
        if d.abs() < 1e-6 {
            slope * slope / (4.0 * j * j)
        } else {
            libm::jn(m, u).powi(2) / (d * d)
        }
    };
    let (end, steps) = (200.0, 80_000);
    let h = end / steps as f64;
    let inner: f64 = (1..steps)
        .map(|i| f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 })
        .sum();
    (f(0.0) + inner + f(end)) * h / 3.0 + 1.0 / (4.0 * PI * end.powi(4))
}

#[test]
fn kettledrum_air_masses_are_the_integrals_of_their_modes() {
    for (&(m, j), &beta) in MEMBRANE_ZEROS.iter().zip(&kettledrum::AIR_MASS).take(24) {
        let quadrature = 2.0 * j * j * air_mass_integral(i32::from(m), j);
        assert!(
            (quadrature / beta - 1.0).abs() < 1e-5,
            "({m}, {j}): {quadrature} against the table's {beta}"
        );
    }
    // Far up, each wavenumber carries ρ/k and the mode's spectrum peaks at k = j/a: β → 1/j.
    let (last, beta) = (
        MEMBRANE_ZEROS[MAX_MODES - 1].1,
        kettledrum::AIR_MASS[MAX_MODES - 1],
    );
    assert!((beta * last - 1.0).abs() < 0.1, "{}", beta * last);
}

/// The kettledrum's modes at C3 (130.81 Hz), lowest first, as (m, ratio to the note, T60 in s).
fn kettledrum_c3() -> Vec<(i32, f64, f64)> {
    let spec = ObjectSpec {
        kind: ObjectKind::Kettledrum,
        num_modes: 24,
        t60_s: 3.0,
        damping_slope: 0.0,
        ..ObjectSpec::marimba(130.81)
    };
    let mut candidates = [Candidate::default(); MAX_CANDIDATES];
    let n = lowest_modes(&spec, &mut candidates);
    let mut out = [Mode::SILENT; MAX_MODES];
    object_modes(&spec, SIZE_M, &mut out);
    candidates[..n]
        .iter()
        .zip(&out)
        .map(|(c, mode)| match c.shape {
            Shape::Bessel(m, _) => (m, mode.freq_hz / 130.81, mode.t60_s),
            _ => panic!("a kettledrum's mode is a Bessel mode"),
        })
        .collect()
}

#[test]
fn a_kettledrum_sounds_its_note_its_fifth_and_its_octave() {
    // The air load is the one that puts (2, 1) a fifth over (1, 1): bisection on μ.
    let ratio = |mu: f64, i: usize| {
        let loaded = |k: usize| MEMBRANE_ZEROS[k].1 / (1.0 + mu * kettledrum::AIR_MASS[k]).sqrt();
        loaded(i) / loaded(1)
    };
    let (mut lo, mut hi) = (0.0, 50.0);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if ratio(mid, 2) < 1.5 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    assert!((lo / kettledrum::AIR_LOAD - 1.0).abs() < 1e-6, "μ = {lo}");
    // The diametric modes (m, 1) nearly in the ratio 2 : 3 : 4 (Rossing et al., "The acoustics
    // of timpani"): (1, 1) on the note, (2, 1) a fifth above, (3, 1) within 20 cents of the
    // octave, and (4, 1) above 2.36, where the head without its kettle has it.
    let modes = kettledrum_c3();
    let first = |order: i32| {
        modes
            .iter()
            .find(|m| m.0 == order)
            .expect("a mode of that order")
    };
    assert!((first(1).1 - 1.0).abs() < 1e-12);
    assert!((first(2).1 - 1.5).abs() < 1e-6, "{}", first(2).1);
    let octave_cents = 1200.0 * first(3).1.log2() - 1200.0;
    assert!(
        octave_cents.abs() < 20.0,
        "(3, 1) {octave_cents} cents off the octave"
    );
    assert!(first(4).1 > 2.36, "{}", first(4).1);
}

#[test]
fn a_kettledrums_symmetric_modes_radiate_their_energy_away() {
    // A baffled head's mode J₀(jr/a) pumping volume velocity U = ω·q·∫φ dS radiates
    // ρck²U²/(4π) while it holds ½·M·ω²q² (M = σ(1 + μβ)·∫φ² dS, σ = 2ρa/μ): its amplitude
    // falls at δ = P/(2E). The integrals here by the midpoint rule, not the closed form.
    let (rho, c, a) = (
        crate::radiation::AIR_DENSITY_KG_PER_M3,
        crate::radiation::SPEED_OF_SOUND_M_PER_S,
        kettledrum::RADIUS_M,
    );
    let mu = kettledrum::AIR_LOAD;
    let modes = kettledrum_c3();
    let symmetric = modes.iter().position(|m| m.0 == 0).expect("(0, 1)");
    let (j, beta) = (MEMBRANE_ZEROS[0].1, kettledrum::AIR_MASS[0]);
    let steps = 20_000;
    let (mut volume, mut square, mut gradient) = (0.0, 0.0, 0.0);
    for i in 0..steps {
        let r = (i as f64 + 0.5) * a / steps as f64;
        let ring_m2 = 2.0 * PI * r * a / steps as f64;
        let phi = libm::j0(j * r / a);
        volume += phi * ring_m2;
        square += phi * phi * ring_m2;
        gradient += (j / a * libm::j1(j * r / a)).powi(2) * ring_m2;
    }
    // Its frequency: the head's tension T·∫|∇φ|² and the kettle's air, ρc²(∫φ dS)²/V, over the
    // loaded head's mass, against (1, 1)'s: T from the note, ω₁₁ = c_m·(j₁₁/a)/√(1 + μβ₁₁).
    let sigma = 2.0 * rho * a / mu;
    let (j11, beta11) = (MEMBRANE_ZEROS[1].1, kettledrum::AIR_MASS[1]);
    let wave_speed = 2.0 * PI * 130.81 * a * (1.0 + mu * beta11).sqrt() / j11;
    let tension = sigma * wave_speed * wave_speed;
    let stiffness = tension * gradient + rho * c * c * volume * volume / kettledrum::VOLUME_M3;
    let omega = (stiffness / (sigma * (1.0 + mu * beta) * square)).sqrt();
    let ratio = omega / (2.0 * PI * 130.81);
    assert!(
        (modes[symmetric].1 / ratio - 1.0).abs() < 1e-4,
        "(0, 1) at {} against {ratio}",
        modes[symmetric].1
    );
    let k = 2.0 * PI * modes[symmetric].1 * 130.81 / c;
    let mass = 2.0 * rho * a / mu * (1.0 + mu * beta) * square;
    let delta = rho * c * k * k * volume * volume / (4.0 * PI) / mass;
    let material_decay = 1000f64.ln() / 3.0;
    let expected_t60 = 1000f64.ln() / (material_decay + delta);
    let t60 = modes[symmetric].2;
    assert!(
        (t60 / expected_t60 - 1.0).abs() < 1e-4,
        "{t60} against {expected_t60}"
    );
    // It dies some 20 times sooner than the note (1, 1), which radiates nothing here.
    let note = modes.iter().find(|m| m.0 == 1).expect("(1, 1)");
    assert!((note.2 - 3.0).abs() < 1e-12 && t60 < 0.2, "{t60} s");
}
