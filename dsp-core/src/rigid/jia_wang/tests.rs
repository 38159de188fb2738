//! Tests of the Jia–Wang solver: closed forms, the paper's examples, Table 1, and properties over random impacts.

use glam::{DMat2, DMat3, DQuat, DVec2, DVec3};
use proptest::prelude::*;

use super::examples::{self, PAPER_VARIABLE_STEP};
use super::*;
use crate::rigid::{inverse_inertia_at, RigidBody};

/// All four methods, the stepped ones with steps fine enough for `tol`-level agreement.
fn methods(problem: &Problem) -> [Method; 4] {
    let scale = problem.frictionless_iz_n_s();
    [
        Method::Exact,
        Method::Brute {
            step_n_s: scale / 2000.0,
        },
        Method::Algorithm1Fixed {
            step_n_s: scale / 20_000.0,
        },
        Method::Algorithm1Variable {
            eps: 0.5,
            h1_m_per_s: 1e-5,
            h2_rad: 1e-4,
        },
    ]
}

fn close(a: DVec3, b: DVec3, rel: f64, scale: f64) -> bool {
    (a - b).length() <= rel * scale
}

/// Solve and check, on every step, that the tangential increment lies in the friction cone:
/// ‖ΔI_⊥‖ ≤ μ ΔI_z (up to rounding). Returns the solution and the worst cone excess seen.
fn solve_in_cone(problem: &Problem, method: Method) -> Result<(Solution, f64), Error> {
    let scale = problem.frictionless_iz_n_s();
    let mut worst = 0.0_f64;
    let mut check = |s: &Step| {
        let d = s.impulse_to_n_s - s.impulse_from_n_s;
        let excess = d.truncate().length() - problem.mu * d.z;
        worst = worst.max(excess / scale);
        assert!(d.z >= -1e-15 * scale, "normal impulse went back by {}", d.z);
    };
    let sol = solve_observed(problem, method, &mut check)?;
    Ok((sol, worst))
}

/// §2.4: without friction the impulse is normal, I_zc = −m v_z⁻ and I_zr = −m v_z⁻(1 + e),
/// m = 1/(ẑᵀWẑ), whatever the coupling d — for every method.
#[test]
fn frictionless_impact_is_the_closed_form_of_section_2_4() {
    let w = DMat3::from_cols_array_2d(&[[3.0, 0.4, 1.1], [0.4, 2.0, -0.7], [1.1, -0.7, 1.5]]);
    for (v, e) in [
        (DVec3::new(0.3, -0.2, -1.0), 0.5),
        (DVec3::new(-2.0, 0.1, -0.3), 1.0),
    ] {
        let problem = Problem {
            w,
            v_minus: v,
            mu: 0.0,
            e,
        };
        let m = 1.0 / w.z_axis.z;
        for method in methods(&problem) {
            let s = solve(&problem, method).unwrap();
            let expected = DVec3::new(0.0, 0.0, -m * v.z * (1.0 + e));
            assert!(
                close(s.impulse_n_s, expected, 1e-12, expected.z),
                "{method:?}: {s:?}"
            );
            let iz_c = s.events.iz_of('c').unwrap();
            assert!((iz_c + m * v.z).abs() < 1e-12, "{method:?}: I_zc {iz_c}");
            assert_eq!(s.sequence(), "cr", "{method:?}");
            // Normal restitution: v_z⁺ = −e v_z⁻.
            assert!((s.v_plus_m_per_s.z + e * v.z).abs() < 1e-12, "{method:?}");
        }
    }
}

/// §2.4: the frictionless icosahedron's impulse is the closed form (1 + e)(−v_z⁻)/w_zz along z;
/// with the reconstructed v_z⁻ (examples.rs) it is the printed 0.058 to its printed digits.
#[test]
fn frictionless_icosahedron_reproduces_the_printed_value() {
    let ex = examples::frictionless();
    let s = solve(&ex.problem, Method::Exact).unwrap();
    let closed = 1.95 * -ex.problem.v_minus.z / 2.59042;
    assert!((s.impulse_n_s.z - closed).abs() < 1e-9, "{s:?}");
    assert!(s.impulse_n_s.truncate().length() < 1e-15);
    assert!(
        (s.impulse_n_s.z - ex.printed.impulse_n_s[2]).abs() < 5e-4,
        "printed 0.058, ours {}",
        s.impulse_n_s.z
    );
}

/// A central impact with B diagonal and γ⁻ on an eigen-direction: the hodograph is the ray
/// γ = γ⁻ − μ b₁ I_z x̂ (event l at the start, eq. 32), it reaches 0 at I_zs = γ₀/(μb₁) and then
/// sticks (d = 0); the normal impulse is unaffected (W diagonal): I_zr = (1 + e)(−v_z⁻/w_zz),
/// and I_x = −μ min(I_zs, I_zr). Hand-derived, against every method.
#[test]
fn central_impact_on_an_eigen_direction_has_a_hand_closed_form() {
    let (b1, b2, wzz) = (3.0, 5.0, 1.5);
    let w = DMat3::from_diagonal(DVec3::new(b1, b2, wzz));
    for (g0, mu, e, seq) in [
        (0.2, 0.5, 0.8, "lscr"),
        (1.5, 0.5, 0.8, "lcsr"),
        (3.0, 0.5, 0.8, "lcr"),
    ] {
        let problem = Problem {
            w,
            v_minus: DVec3::new(g0, 0.0, -1.0),
            mu,
            e,
        };
        let iz_s = g0 / (mu * b1);
        let iz_r = (1.0 + e) / wzz;
        let expected = DVec3::new(-mu * iz_s.min(iz_r), 0.0, iz_r);
        for method in methods(&problem) {
            let s = solve(&problem, method).unwrap();
            assert!(
                close(s.impulse_n_s, expected, 1e-10, iz_r),
                "{method:?} {g0}: {s:?}"
            );
            // The brute force has no event l: it just integrates along the ray.
            let seq = match method {
                Method::Brute { .. } => seq.replace('l', ""),
                _ => seq.to_string(),
            };
            assert_eq!(s.sequence(), seq, "{method:?} {g0}");
            if let Some(iz) = s.events.iz_of('s') {
                assert!((iz - iz_s).abs() < 1e-10, "{method:?}: I_zs {iz} vs {iz_s}");
            }
        }
    }
}

/// γ⁻ = 0 (footnote 8): event s at I_z = 0, then a straight impulse path. Sticking
/// (‖B⁻¹d‖ ≤ μ): I = I_z(ẑ − B⁻¹d), so v_z' = w_zz − dᵀB⁻¹d (the Schur complement of B in W)
/// and I_zr = (1 + e)(−v_z⁻)/(w_zz − dᵀB⁻¹d). Resumed slip (‖B⁻¹d‖ > μ): I = I_z(ẑ − μŝ) with
/// ŝ ∼ −μBŝ + d, v_z' = w_zz − μ dᵀŝ.
#[test]
fn sliding_velocity_zero_at_the_start_sticks_or_resumes_in_closed_form() {
    let w = DMat3::from_cols_array_2d(&[[3.0, 0.4, 1.1], [0.4, 2.0, -0.7], [1.1, -0.7, 1.5]]);
    let b = DMat2::from_cols_array_2d(&[[3.0, 0.4], [0.4, 2.0]]);
    let d = DVec2::new(1.1, -0.7);
    let bd = b.inverse() * d;
    for mu in [0.9, 0.3] {
        let problem = Problem {
            w,
            v_minus: DVec3::new(0.0, 0.0, -2.0),
            mu,
            e: 0.6,
        };
        let rate = if bd.length() <= mu {
            (-bd).extend(1.0)
        } else {
            // ŝ by brute force over angles: the direction where −μBŝ + d is parallel, λ > 0.
            let s = (0..200_000)
                .map(|i| DVec2::from_angle(i as f64 * std::f64::consts::TAU / 200_000.0))
                .filter(|s| s.dot(-mu * (b * *s) + d) > 0.0)
                .min_by(|x, y| {
                    let f = |s: &DVec2| s.perp_dot(-mu * (b * *s) + d).abs();
                    f(x).total_cmp(&f(y))
                })
                .unwrap();
            (-mu * s).extend(1.0)
        };
        let iz_r = (1.0 + 0.6) * 2.0 / w.row(2).dot(rate);
        for method in methods(&problem) {
            let s = solve(&problem, method).unwrap();
            assert!(
                close(s.impulse_n_s, iz_r * rate, 1e-4, iz_r),
                "{method:?} μ={mu}: {s:?}"
            );
            assert_eq!(s.sequence(), "scr", "{method:?} μ={mu}");
        }
    }
}

/// The exact solver against the brute-force integration on one problem, to 10⁻⁸ of the
/// frictionless impulse, with the same event sequence; returns the exact solution.
fn exact_matching_brute(problem: &Problem, brute_step_n_s: f64) -> Solution {
    let exact = solve(problem, Method::Exact).unwrap();
    let brute = solve(
        problem,
        Method::Brute {
            step_n_s: brute_step_n_s,
        },
    )
    .unwrap();
    let scale = problem.frictionless_iz_n_s();
    assert!(
        close(exact.impulse_n_s, brute.impulse_n_s, 1e-8, scale),
        "{exact:?} vs {brute:?}"
    );
    assert_eq!(exact.sequence(), brute.sequence());
    exact
}

/// The icosahedron–tetrahedron impact (Fig. 3, eqs. 13–15) with the v⁻ reconstructed from the
/// printed data (examples.rs): the exact solver agrees with the brute force, gives csr as §6.2
/// says and eq. 15 within 1 %.
#[test]
fn icosahedron_agrees_with_brute_force_and_reproduces_eq_15() {
    let ex = examples::icosa();
    let exact = exact_matching_brute(&ex.problem, 1e-5);
    let printed = DVec3::from_array(ex.printed.impulse_n_s);
    // The printed data are consistent among themselves: V₁⁺ = V₁⁻ + I_r/m₁ (eq. 1) with eq. 15.
    let v1_plus = DVec3::new(-0.1, 0.5, 0.95) + printed / 3.0;
    assert!(close(
        v1_plus,
        DVec3::new(-0.101089, 0.480258, 0.983567),
        1e-6,
        1.0
    ));
    // With the reconstructed v⁻: csr as §6.2 says, and eq. 15 within 1 %. The normal component
    // of v⁻ comes from the printed inputs and ω₂⁺ alone; the 0.5 % left in I_z is a real gap
    // between the v_z⁻ that W and ω₂⁺ imply and the one eq. 15 implies (rounding of the printed
    // data does not explain it). The tangential components of v⁻ were back-solved from eq. 15.
    assert_eq!(exact.sequence(), "csr");
    assert!(
        (exact.impulse_n_s.z - printed.z).abs() < 0.01 * printed.z
            && (exact.impulse_n_s - printed).length() < 0.01 * printed.length(),
        "ours {:?}, printed {printed:?}",
        exact.impulse_n_s
    );
}

/// The pin–ball impact (Fig. 11): the printed "truth" (0.7330654, −0.0216048, 2.585018) is
/// within 2% of ours, not within its printed digits (again R_i); exact vs brute force instead.
#[test]
fn pin_ball_agrees_with_brute_force_and_states_the_printed_discrepancy() {
    let ex = examples::pin_ball();
    let exact = exact_matching_brute(&ex.problem, 1e-4);
    assert_eq!(exact.sequence(), "scr");
    let printed = DVec3::from_array(ex.printed.impulse_n_s);
    let rel = (exact.impulse_n_s - printed).length() / printed.length();
    assert!(
        rel > 1e-3 && rel < 0.02,
        "printed truth {printed:?} vs ours {:?}: relative difference {rel}",
        exact.impulse_n_s
    );
}

/// Table 1's iteration counts. FS counts one iteration per Euler step until the event that
/// starts a closed form (or the end), so it is ⌈I_z(event)/h⌉ (+1 for the pass that detects it).
/// Printed: icosa FS 69 / VS 29, pin–ball FS 83 / VS 29.
/// - Icosahedron (reconstructed v⁻, examples.rs): the stepped hodograph meets the stick event
///   at I_z ≈ 0.0716 (paper: 69 × 0.001 ≈ 0.069), so FS takes 71, within 3 of the printed 69.
///   VS (eq. 36 with ε = 0.5, h1 = h2 = 0.01 as printed, and the corrected eq. 37) takes 67, not
///   29; with the printed, dimensionally inconsistent eq. 37 it would take 6, so neither reading
///   of eq. 36 reproduces 29, and the printed count is not asserted.
/// - Pin–ball (R_i = U₃, examples.rs): the discrete hodograph crosses an invariant ray at
///   I_z = 0.270 (lscr; exact: s at 0.277), so FS takes 135 (paper's event at ≈ 83 × 0.002 =
///   0.166) and VS 33, against the printed 29.
///
/// VS always needs fewer iterations than FS, and both methods' errors against the exact solution
/// stay below Table 1's printed errors.
#[test]
fn table1_iteration_counts() {
    for ex in [examples::icosa(), examples::pin_ball()] {
        let t = ex.printed.table1.unwrap();
        let exact = solve(&ex.problem, Method::Exact).unwrap();
        let fs = solve(
            &ex.problem,
            Method::Algorithm1Fixed {
                step_n_s: t.fs_step_n_s,
            },
        )
        .unwrap();
        let vs = solve(&ex.problem, PAPER_VARIABLE_STEP).unwrap();
        let first = fs.events.iter().find(|e| e.name != 'c').unwrap();
        let steps = (first.iz_n_s / t.fs_step_n_s - 1e-9).ceil() as usize;
        assert!(
            fs.iterations == steps || fs.iterations == steps + 1,
            "{}: FS {} iterations, event {} at {}",
            ex.name,
            fs.iterations,
            first.name,
            first.iz_n_s
        );
        assert!(
            vs.iterations < fs.iterations,
            "{}: VS {} FS {}",
            ex.name,
            vs.iterations,
            fs.iterations
        );
        if ex.name == "icosa" {
            assert!(
                fs.iterations.abs_diff(t.fs_iterations) <= 3,
                "icosa: FS {} iterations, printed {}",
                fs.iterations,
                t.fs_iterations
            );
        }
        let err = |s: &Solution| (s.impulse_n_s - exact.impulse_n_s).length();
        assert!(
            err(&fs) < t.fs_error_n_s,
            "{}: FS error {}",
            ex.name,
            err(&fs)
        );
        assert!(
            err(&vs) < t.vs_error_n_s,
            "{}: VS error {}",
            ex.name,
            err(&vs)
        );
    }
}

/// Eq. 37 as corrected (denominator ‖γ‖·‖γ'‖³) against a finite-difference curvature of the
/// hodograph traced by small Euler steps; the printed form is off by ‖γ'‖/‖γ‖.
#[test]
fn corrected_curvature_matches_the_traced_hodograph() {
    let ex = examples::icosa();
    let h = Hodograph::new(&ex.problem.w, ex.problem.v_minus, ex.problem.mu);
    let gamma = DVec2::new(0.3, -0.2);
    let dt = 1e-6;
    let step = |g: DVec2, dt: f64| {
        // Midpoint step: second order, so the second difference below is accurate.
        let mid = g + 0.5 * dt * h.velocity(g.normalize());
        g + dt * h.velocity(mid.normalize())
    };
    let (gm, gp) = (step(gamma, -dt), step(gamma, dt));
    let d1 = (gp - gm) / (2.0 * dt);
    let d2 = (gp - 2.0 * gamma + gm) / (dt * dt);
    let kappa_fd = d1.perp_dot(d2) / d1.length().powi(3);
    let kappa = h.curvature(gamma);
    assert!(
        (kappa - kappa_fd).abs() < 1e-4 * kappa.abs(),
        "{kappa} vs {kappa_fd}"
    );
    let printed_form = kappa * gamma.length() / h.velocity(gamma.normalize()).length();
    assert!((printed_form - kappa_fd).abs() > 0.5 * kappa.abs());
}

/// Invalid problems are errors, not panics or NaN.
#[test]
fn invalid_problems_are_errors() {
    let ok = examples::icosa().problem;
    let cases = [
        (Problem { mu: -0.1, ..ok }, Error::NegativeFriction),
        (Problem { e: 1.5, ..ok }, Error::RestitutionOutOfRange),
        (
            Problem {
                v_minus: DVec3::new(0.0, 0.0, 0.1),
                ..ok
            },
            Error::NotApproaching,
        ),
        (
            Problem {
                v_minus: DVec3::new(f64::NAN, 0.0, -1.0),
                ..ok
            },
            Error::NotFinite,
        ),
        (
            Problem {
                w: DMat3::from_diagonal(DVec3::new(1.0, -1.0, 1.0)),
                ..ok
            },
            Error::NotPositiveDefinite,
        ),
        (
            Problem {
                w: DMat3::from_cols_array_2d(&[[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
                ..ok
            },
            Error::NotSymmetric,
        ),
    ];
    for (p, err) in cases {
        assert_eq!(solve(&p, Method::Exact), Err(err));
    }
    assert_eq!(
        solve(&ok, Method::Brute { step_n_s: 0.0 }),
        Err(Error::InvalidStep)
    );
    assert_eq!(
        solve(
            &ok,
            Method::Algorithm1Variable {
                eps: 1.5,
                h1_m_per_s: 0.01,
                h2_rad: 0.01
            }
        ),
        Err(Error::InvalidStep)
    );
}

/// The sequence is stored without allocation and reads back as text.
#[test]
fn events_read_back_in_order() {
    let s = solve(&examples::pin_ball().problem, Method::Exact).unwrap();
    let names: String = s.events.iter().map(|e| e.name).collect();
    assert_eq!(names, s.sequence());
    let iz: Vec<f64> = s.events.iter().map(|e| e.iz_n_s).collect();
    assert!(iz.windows(2).all(|w| w[0] <= w[1]), "{iz:?}");
}

/// A random symmetric positive definite W from two random bodies touching at a random contact
/// (eq. 5 via `inverse_inertia_at`), or from one body on a fixed half-space.
fn arb_w() -> impl Strategy<Value = DMat3> {
    let body = (
        0.1f64..10.0,
        prop::array::uniform3(0.02f64..2.0),
        prop::array::uniform3(-3.2f64..3.2),
    );
    let vec = || prop::array::uniform3(-1.0f64..1.0);
    (body.clone(), body, vec(), vec(), vec(), any::<bool>()).prop_map(
        |((m1, q1, e1), (m2, q2, e2), r1, r2, n, fixed)| {
            let make = |m: f64, q: [f64; 3], e: [f64; 3]| {
                let mut b = RigidBody::at_rest(m, DVec3::from_array(q) * m);
                b.orientation = DQuat::from_euler(glam::EulerRot::XYZ, e[0], e[1], e[2]);
                b
            };
            let (b1, b2) = (make(m1, q1, e1), make(m2, q2, e2));
            let normal = DVec3::from_array(n) + DVec3::new(0.0, 0.0, 1e-3);
            let other = (!fixed).then_some((&b2, DVec3::from_array(r2)));
            inverse_inertia_at(&b1, DVec3::from_array(r1), other, normal).0
        },
    )
}

fn arb_problem() -> impl Strategy<Value = Problem> {
    (
        arb_w(),
        -3.0f64..3.0,
        -3.0f64..3.0,
        -3.0f64..-0.01,
        0.0f64..1.5,
        // The ends of e's range (plastic and elastic) drawn on purpose, a fifth of the time.
        prop_oneof![1 => Just(0.0), 1 => Just(1.0), 8 => 0.0f64..1.0],
    )
        .prop_map(|(w, vx, vy, vz, mu, e)| Problem {
            w: (w + w.transpose()) * 0.5,
            v_minus: DVec3::new(vx, vy, vz),
            mu,
            e,
        })
}

/// Condition 18: ẑᵀWẑ − μ ẑᵀWŝ > 0 for every tangent ŝ, i.e. w_zz > μ‖d‖.
fn condition_18(p: &Problem) -> bool {
    p.w.z_axis.z > p.mu * DVec2::new(p.w.z_axis.x, p.w.z_axis.y).length()
}

proptest! {
    // A fixed seed: the same 10 000 impacts on every run, so CI is reproducible; change the
    // seed to explore new ones (seeds 15, 16 and 17 pass).
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(15),
        ..ProptestConfig::with_cases(10_000)
    })]

    /// Over random impacts: neither the exact nor the brute-force solver creates kinetic energy
    /// (Algorithm 1's Euler walk at most 1 % of the energy scale), every step of every method
    /// stays in the friction cone, and the exact solver agrees with the brute-force integration.
    ///
    /// Tolerance of the agreement, 1e-5 of the frictionless normal impulse: the brute force
    /// takes 1000 RK4 steps over that impulse (error ~1e-12 on smooth stretches), but where the
    /// hodograph runs into γ = 0 or passes close to it the direction turns at a rate ~ 1/‖γ‖ and
    /// its error is larger. Over these 10 000 cases the largest difference measured was 3e-6,
    /// falling to 6e-10 with 10 000 steps (so the exact solver is the accurate one); an O(h)
    /// mistake in either would show as ≳ 1e-3. Sequences are not compared: on a near miss of
    /// γ = 0 the brute force may declare s with no effect on the impulse beyond the tolerance.
    #[test]
    fn impacts_are_passive_in_the_cone_and_exact_matches_brute(p in arb_problem()) {
        let scale = p.frictionless_iz_n_s();
        let energy_scale = 0.5 * scale * p.v_minus.length();
        let exact = solve_in_cone(&p, Method::Exact);
        let brute = solve_in_cone(&p, Method::Brute { step_n_s: scale / 1000.0 });
        if condition_18(&p) {
            prop_assert!(exact.is_ok() && brute.is_ok(), "{p:?}: {exact:?} {brute:?}");
        }
        let fs = solve_in_cone(&p, Method::Algorithm1Fixed { step_n_s: scale / 50.0 });
        let vs = solve_in_cone(&p, PAPER_VARIABLE_STEP);
        for (name, r) in [("exact", &exact), ("brute", &brute), ("fs", &fs), ("vs", &vs)] {
            if let Ok((s, cone)) = r {
                prop_assert!(s.impulse_n_s.is_finite() && s.v_plus_m_per_s.is_finite());
                prop_assert!(*cone <= 1e-12, "{name}: cone excess {cone} for {p:?}");
                let de = p.energy_change_j(s.impulse_n_s);
                // Algorithm 1's accepted Euler steps dissipate, but its closing steps (the
                // straight step onto the line of sticking after s, the step after l, and a full
                // step when no straight closing exists) can do positive work: on nearly elastic
                // impacts that tips the small loss of the exact solution into a small gain. It
                // stays below 1 % of the impact's energy scale; exact and brute force never gain.
                let allowed = if name == "fs" || name == "vs" { 1e-2 } else { 1e-9 };
                prop_assert!(de <= allowed * energy_scale, "{name}: energy gain {de} for {p:?}");
            }
        }
        if let (Ok((a, _)), Ok((b, _))) = (&exact, &brute) {
            prop_assert!(
                close(a.impulse_n_s, b.impulse_n_s, 1e-5, scale),
                "{p:?}: exact {a:?} brute {b:?}"
            );
        }
    }

}

proptest! {
    // Only the 20 000-angle scan is costly; the 10 000 impacts above also exercise the
    // centrifugal direction through every resumed slip.
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..ProptestConfig::with_cases(1_000)
    })]

    /// Invariant directions satisfy eq. 33, number two to four (Theorem 5(ii)), and there is no
    /// centrifugal one if ‖B⁻¹d‖ ≤ μ and exactly one otherwise (Theorem 5(iii)–(iv)), the one
    /// `centrifugal` finds. The count matches the sign changes of eq. 33 over 20 000 angles.
    #[test]
    fn invariant_directions_follow_theorem_5(w in arb_w(), mu in 0.0f64..1.5) {
        let h = Hodograph::new(&((w + w.transpose()) * 0.5), DVec3::NEG_Z, mu);
        let dirs = h.invariant_directions();
        prop_assume!(!dirs.every);
        let scale = mu * (h.b.x_axis.x + h.b.y_axis.y) + h.d.length();
        for s in dirs.as_slice() {
            prop_assert!(h.invariance(s.direction).abs() <= 1e-9 * scale, "{s:?}");
            prop_assert!((s.direction.dot(h.velocity(s.direction)) - s.lambda).abs() <= 1e-9 * scale);
        }
        prop_assert!((2..=4).contains(&dirs.as_slice().len()), "{dirs:?}");
        let fugal: Vec<_> = dirs.as_slice().iter().filter(|s| s.lambda > 0.0).collect();
        match h.centrifugal() {
            None => prop_assert!(fugal.is_empty() && (h.b_inv * h.d).length() <= mu),
            Some(c) => {
                prop_assert_eq!(fugal.len(), 1);
                prop_assert!((fugal[0].direction - c.direction).length() < 1e-8);
            }
        }
        let n = 20_000;
        let f = |i: usize| h.invariance(DVec2::from_angle(i as f64 * std::f64::consts::TAU / n as f64));
        let changes = (0..n).filter(|&i| (f(i) > 0.0) != (f(i + 1) > 0.0)).count();
        // A double root (tangency) is one direction without a sign change; skip the rare
        // near-tangent cases where two roots fall within one of the 20 000 cells.
        let min_gap = dirs.as_slice().iter().flat_map(|a| dirs.as_slice().iter().map(move |b| (a, b)))
            .filter(|(a, b)| a.direction != b.direction)
            .map(|(a, b)| a.direction.perp_dot(b.direction).atan2(a.direction.dot(b.direction)).abs())
            .fold(f64::INFINITY, f64::min);
        if min_gap > 1e-3 {
            prop_assert_eq!(changes, dirs.as_slice().len());
        }
    }
}
