//! PLUS against its paper's examples, closed forms, an independent integration of the single-contact impulse ODE, and random impacts.

use glam::{DMat3, DQuat, DVec2, DVec3};
use proptest::prelude::*;

use super::examples::*;
use super::*;
use crate::rigid::shape::box_inertia_kg_m2;

fn solve(scenario: &Scenario) -> (Outcome, [RigidBody; MAX_BODIES]) {
    scenario
        .solve(&mut Plus::new())
        .expect("the paper's examples resolve")
}

/// Figure 2 at its corners and halfway along its slope.
#[test]
fn restitution_follows_figure_2() {
    let r = Restitution {
        e_min: 0.4,
        v_capture_m_per_s: 0.01,
        v_plastic_m_per_s: 0.1,
    };
    assert_eq!(r.coefficient(0.005), 0.0);
    assert_eq!(r.coefficient(0.01), 1.0);
    assert!((r.coefficient(0.055) - 0.7).abs() < 1e-12);
    assert_eq!(r.coefficient(0.1), 0.4);
    assert_eq!(r.coefficient(7.0), 0.4);
}

/// Table A1 prints the brick's inertia; the box formula gives it to the printed digits.
#[test]
fn the_brick_has_table_a1_inertia() {
    let inertia = box_inertia_kg_m2(BRICK_MASS_KG, DVec3::from(BRICK_SIZE_M));
    for (ours, printed) in inertia.to_array().iter().zip(BRICK_INERTIA_PRINTED_KG_M2) {
        assert!(
            (ours - printed).abs() < 5e-4,
            "{inertia} vs {BRICK_INERTIA_PRINTED_KG_M2:?}"
        );
    }
}

/// Table A1 / Figure 8: with μ = 0.125 the corner slides throughout, with 0.225 it comes to
/// roll in expansion, with 0.325 in compression.
#[test]
fn the_corner_brick_shows_table_a1s_three_behaviours() {
    let expected = [
        RollingFrom::Never,
        RollingFrom::Expansion,
        RollingFrom::Compression,
    ];
    for ((mu, e_min), behaviour) in TABLE_A1_MU_E_MIN.into_iter().zip(expected) {
        let (outcome, _) = solve(&corner_brick(mu, e_min, 0.01));
        assert_eq!(outcome.rolling_from[0], behaviour, "μ = {mu}");
        assert_eq!(
            outcome.rounds, 2,
            "one compression round and one expansion round"
        );
    }
}

/// Figure 10: 116, 11 and 8 intervals at θ_max = 0.01, 0.15 and 0.25 rad. The caption does
/// not say which μ; the counts are μ = 0.325's (μ = 0.225 needs 131, 12 and 10), found after
/// the fact. They also depend on α_min, which the paper does not print (ours: 10⁻³; the bound is
/// not reached here).
#[test]
fn the_corner_brick_needs_figure_10s_interval_counts() {
    let (mu, e_min) = TABLE_A1_MU_E_MIN[2];
    for (theta_max, printed) in FIGURE_10_INTERVALS {
        let (outcome, _) = solve(&corner_brick(mu, e_min, theta_max));
        let intervals = outcome.compression_intervals + outcome.expansion_intervals;
        assert_eq!(intervals, printed, "θ_max = {theta_max}");
    }
}

/// The impulse ODE of one contact on the accumulated normal impulse p (Darboux–Keller), with
/// Poisson restitution, integrated independently of PLUS: while sliding, dπ/dp = (−μ ŝ, 1)
/// with ŝ the current unit tangential velocity; once the slip stops it sticks if the impulse
/// rate that keeps v_xy = 0 lies in the cone (it does for the brick; the test checks). The
/// expansion ends when p reaches (1 + e) times the compression's.
fn impulse_ode(a: DMat3, v_minus: DVec3, mu: f64, e: f64, steps_per_unit: f64) -> DVec3 {
    let a_tt = glam::DMat2::from_cols(a.col(0).truncate(), a.col(1).truncate());
    let a_tz = a.col(2).truncate();
    let stick_rate = -(a_tt.inverse() * a_tz);
    let dp = 1.0 / steps_per_unit;
    let (mut v, mut pi, mut stuck) = (v_minus, DVec3::ZERO, false);
    let mut compression = None;
    loop {
        let rate = if stuck {
            assert!(
                stick_rate.length() <= mu,
                "the test's ODE handles sticking only"
            );
            stick_rate.extend(1.0)
        } else {
            // Midpoint rule on the sliding direction.
            let s = v.truncate().normalize();
            let half = v + a * ((-mu * s).extend(1.0) * dp / 2.0);
            (-mu * half.truncate().normalize()).extend(1.0)
        };
        let next = v + a * (rate * dp);
        if !stuck && next.truncate().dot(v.truncate()) <= 0.0 {
            // The slip reverses within this step: it stopped. Stick from here.
            stuck = true;
            continue;
        }
        if compression.is_none() && next.z >= 0.0 {
            // Land exactly on v_z = 0: the step's fraction ends compression.
            let f = -v.z / (next.z - v.z);
            v += a * (rate * dp * f);
            pi += rate * dp * f;
            compression = Some(pi.z);
            continue;
        }
        if let Some(pc) = compression {
            if pi.z + dp >= (1.0 + e) * pc {
                let f = ((1.0 + e) * pc - pi.z) / dp;
                return pi + rate * dp * f;
            }
        }
        v = next;
        pi += rate * dp;
    }
}

/// The contact frame's W and v⁻ of the corner brick (the frame PLUS uses is x, y, z here).
fn corner_problem(s: &Scenario) -> (DMat3, DVec3) {
    let c = s.contacts()[0];
    let body = s.bodies()[0];
    let r = c.point_m - body.position_m;
    (body.inverse_inertia_term(r), body.velocity_at(r))
}

/// PLUS converges to the impulse ODE as θ_max shrinks: for the sliding brick (μ = 0.125) and
/// the one that sticks in compression (μ = 0.325) the total impulse is within 1 % at
/// θ_max = 0.01 and 0.2 % at 0.001 of the ODE's (whose own step error is below 10⁻⁵). PLUS's
/// sliding-to-rolling transition at v_transition = 0.1 m/s is a rounding of the same physics.
#[test]
fn plus_converges_to_the_impulse_ode() {
    for (mu, e_min) in [TABLE_A1_MU_E_MIN[0], TABLE_A1_MU_E_MIN[2]] {
        let scenario = corner_brick(mu, e_min, 0.01);
        let (w, v_minus) = corner_problem(&scenario);
        let reference = impulse_ode(w, v_minus, mu, e_min, 2e4);
        for (theta_max, tolerance) in [(0.01, 0.01), (0.001, 0.002)] {
            let (outcome, _) = solve(&corner_brick(mu, e_min, theta_max));
            let error = (outcome.impulses_n_s[0] - reference).length() / reference.length();
            assert!(
                error < tolerance,
                "μ {mu} θ {theta_max}: {} vs ODE {reference}: {error:e}",
                outcome.impulses_n_s[0]
            );
        }
    }
}

/// A frictionless single contact: Poisson's impulse is (1 + e) times the one that stops the
/// approach, −v_z / A_zz, and the normal velocity after is −e v_z (a closed form).
#[test]
fn a_frictionless_contact_follows_poissons_closed_form() {
    let scenario = corner_brick(0.0, 0.5, 0.01);
    let (w, v_minus) = corner_problem(&scenario);
    let (outcome, bodies) = solve(&scenario);
    let expected = 1.5 * -v_minus.z / w.z_axis.z;
    assert!((outcome.impulses_n_s[0] - DVec3::Z * expected).length() < 1e-12 * expected);
    let r = scenario.contacts()[0].point_m;
    assert!((bodies[0].velocity_at(r).z - 0.5 * -v_minus.z).abs() < 1e-12);
}

/// Table 2: the five rounds of Newton's cradle, each contact compressing, then expanding while
/// the next one compresses; afterwards the first four balls stand still and the last leaves at
/// the first one's speed.
#[test]
fn newtons_cradle_has_table_2s_rounds_and_final_velocities() {
    let (outcome, bodies) = solve(&cradle());
    use Phase::{Compressing as C, Expanding as E, Observing as O};
    let table_2: [[Phase; 4]; 5] = [
        [C, O, O, O],
        [E, C, O, O],
        [O, E, C, O],
        [O, O, E, C],
        [O, O, O, E],
    ];
    assert_eq!(outcome.rounds, 5);
    for (round, expected) in table_2.iter().enumerate() {
        // Table 2 lists contacts (rows) against rounds (columns); ours is round-major.
        assert_eq!(&outcome.phases[round][..4], expected, "round {}", round + 1);
    }
    for (i, ball) in bodies[..CRADLE_BALLS].iter().enumerate() {
        let expected = if i == CRADLE_BALLS - 1 {
            -CRADLE_SPEED_M_PER_S
        } else {
            0.0
        };
        assert!(
            (ball.velocity_m_per_s - DVec3::X * expected).length() < 1e-12,
            "ball {i}: {}",
            ball.velocity_m_per_s
        );
        assert!(ball.angular_velocity_rad_per_s.length() < 1e-12);
    }
}

/// Example 2: the four corners of the flat brick land together, slide, and all come to roll in
/// the common expansion phase (Figure 11). The corners mirrored across the plane of motion
/// receive equal impulses, and the leading pair more than the trailing one (friction pitches
/// the brick onto its leading edge, Figure 13). Poisson's law holds at every corner.
#[test]
fn the_flat_brick_has_symmetric_simultaneous_impulses() {
    let scenario = flat_brick(DVec3::from(FLAT_BRICK_VELOCITY_M_PER_S));
    let (outcome, _) = solve(&scenario);
    assert_eq!(outcome.contact_count, 4);
    let contacts = scenario.contacts();
    for i in 0..4 {
        assert_eq!(
            outcome.rolling_from[i],
            RollingFrom::Expansion,
            "corner {i}"
        );
        // The mirror image across y = 0.
        let j = (0..4)
            .find(|&j| {
                let (p, q) = (contacts[i].point_m, contacts[j].point_m);
                j != i && (p.x - q.x).abs() < 1e-9 && (p.y + q.y).abs() < 1e-9
            })
            .expect("corners come in mirrored pairs");
        let (a, b) = (outcome.impulses_n_s[i], outcome.impulses_n_s[j]);
        assert!(
            (a - b * DVec3::new(1.0, -1.0, 1.0)).length() < 1e-9 * a.length(),
            "{a} vs {b}"
        );
    }
    let by_x = |a: &usize, b: &usize| contacts[*a].point_m.x.total_cmp(&contacts[*b].point_m.x);
    let (leading, trailing) = ((0..4).min_by(by_x), (0..4).max_by(by_x));
    let (leading, trailing) = (
        leading.expect("four corners"),
        trailing.expect("four corners"),
    );
    assert!(outcome.impulses_n_s[leading].z > outcome.impulses_n_s[trailing].z);
    // Poisson: every corner's expansion impulse is e_min times its compression impulse.
    for i in 0..4 {
        let expected = (1.0 + FLAT_BRICK_E_MIN) * outcome.compression_impulse_n_s[i];
        assert!((outcome.impulses_n_s[i].z - expected).abs() < 1e-9 * expected);
    }
}

/// Dropped straight down, flat, the brick's four corners share the impulse equally: the
/// least-squares load spreading of §3a (four rows, three degrees of freedom).
#[test]
fn a_flat_brick_dropped_straight_down_gives_four_equal_impulses() {
    let (outcome, bodies) = solve(&flat_brick(DVec3::new(0.0, 0.0, -3.0)));
    let expected = BRICK_MASS_KG * 3.0 * (1.0 + FLAT_BRICK_E_MIN) / 4.0;
    for i in 0..4 {
        assert!(
            (outcome.impulses_n_s[i] - DVec3::Z * expected).length() < 1e-9,
            "{}",
            outcome.impulses_n_s[i]
        );
    }
    assert!(bodies[0].angular_velocity_rad_per_s.length() < 1e-9);
}

/// Bad input is refused and changes nothing.
#[test]
fn bad_input_is_refused() {
    let scenario = corner_brick(0.3, 0.5, 0.01);
    let mut bodies = scenario.bodies;
    let mut contacts = scenario.contacts;
    contacts[0].normal = DVec3::new(0.0, 0.0, 2.0);
    let result = Plus::new().solve(&mut bodies[..1], &contacts[..1], &scenario.settings);
    assert_eq!(result, Err(PlusError::BadContact(0)));
    assert_eq!(bodies[0], scenario.bodies[0]);
    let mut settings = scenario.settings;
    settings.restitution.e_min = 1.5;
    let result = Plus::new().solve(&mut bodies[..1], scenario.contacts(), &settings);
    assert_eq!(result, Err(PlusError::BadSettings));
}

prop_compose! {
    /// A random rigid body touching the ground at 1–8 points below its centre, moving so that
    /// at least its lowest point approaches, with random friction, restitution and θ_max.
    fn random_impact()(
        mass in 0.01f64..10.0,
        shape in prop::array::uniform3(0.1f64..1.0),
        turn in prop::array::uniform3(-3.2f64..3.2),
        points in prop::collection::vec(prop::array::uniform2(-1.0f64..1.0), 1..=MAX_CONTACTS),
        depth in 0.05f64..1.0,
        velocity in prop::array::uniform3(-3.0f64..3.0),
        spin in prop::array::uniform3(-10.0f64..10.0),
        approach in 0.05f64..5.0,
        mu in 0.0f64..1.5,
        e_min in 0.0f64..=1.0,
        theta_max in 0.05f64..0.5,
    ) -> (RigidBody, Vec<Contact>, Settings) {
        // Principal moments of a box with these edges satisfy the triangle inequality.
        let edges = DVec3::from(shape);
        let mut body = RigidBody::at_rest(mass, box_inertia_kg_m2(mass, edges));
        body.orientation = DQuat::from_euler(glam::EulerRot::XYZ, turn[0], turn[1], turn[2]);
        body.angular_velocity_rad_per_s = DVec3::from(spin);
        let contacts: Vec<Contact> = points
            .iter()
            .map(|p| Contact {
                body: 0,
                other: None,
                point_m: (DVec2::from(*p) * 0.5).extend(-depth),
                normal: DVec3::Z,
                mu,
            })
            .collect();
        // Make the first contact approach at `approach`.
        let mut v = DVec3::from(velocity);
        let r = contacts[0].point_m;
        v.z = -approach - body.angular_velocity_rad_per_s.cross(r).z;
        body.velocity_m_per_s = v;
        let settings = Settings { theta_max_rad: theta_max, max_intervals: 5000, ..Settings::paper(e_min) };
        (body, contacts, settings)
    }
}

proptest! {
    // A fixed seed: the same 10 000 impacts on every run, so CI is reproducible; change the
    // seed to explore new ones (seeds 15, 16 and 17 pass).
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(15),
        ..ProptestConfig::with_cases(10_000)
    })]

    /// No impact creates kinetic energy, every interval's impulse lies in every friction cone,
    /// normal impulses push, and nothing leaves the contacts approaching.
    #[test]
    fn no_impact_creates_energy_or_leaves_the_cone((body, contacts, settings) in random_impact()) {
        let mut bodies = [body];
        let before = body.kinetic_energy_j();
        let outcome = Plus::new().solve(&mut bodies, &contacts, &settings);
        let outcome = outcome.map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let after = bodies[0].kinetic_energy_j();
        prop_assert!(after.is_finite());
        prop_assert!(after <= before * (1.0 + 1e-9) + 1e-12, "energy {before} → {after}");
        let scale = outcome.impulses_n_s.iter().map(|p| p.length()).fold(0.0, f64::max) + 1e-12;
        prop_assert!(outcome.max_cone_excess_n_s <= 1e-9 * scale, "cone excess {}", outcome.max_cone_excess_n_s);
        // Independently of the solver's own bookkeeping: the cones are convex, so each total
        // impulse, a sum of in-cone steps, lies in its cone.
        for (k, c) in contacts.iter().enumerate() {
            let p = outcome.impulses_n_s[k];
            prop_assert!(p.truncate().length() <= c.mu * p.z + 1e-9 * scale, "contact {k}: {p}");
        }
        for (k, c) in contacts.iter().enumerate() {
            prop_assert!(outcome.impulses_n_s[k].z >= -1e-9 * scale);
            let v = bodies[0].velocity_at(c.point_m);
            prop_assert!(v.z >= -1e-6 * (1.0 + before.sqrt()), "contact {k} still approaches at {}", v.z);
        }
    }
}

/// The Delassus operator of a contact between two free bodies is, block for block, the inverse
/// inertia of eq. (5) that `inverse_inertia_at` computes independently; and an off-centre
/// frictional impact between them conserves linear and angular momentum and loses energy.
#[test]
fn a_two_body_impact_uses_eq_5_and_conserves_momentum() {
    let mut a = RigidBody::at_rest(1.3, DVec3::new(0.02, 0.05, 0.06));
    a.orientation = DQuat::from_euler(glam::EulerRot::XYZ, 0.4, -0.7, 1.1);
    a.position_m = DVec3::new(0.1, -0.05, 0.3);
    a.velocity_m_per_s = DVec3::new(1.5, -0.4, -2.0);
    a.angular_velocity_rad_per_s = DVec3::new(3.0, 1.0, -2.0);
    let mut b = RigidBody::at_rest(0.7, DVec3::new(0.01, 0.012, 0.015));
    b.orientation = DQuat::from_euler(glam::EulerRot::XYZ, -1.2, 0.3, 0.5);
    b.position_m = DVec3::new(-0.05, 0.08, -0.12);
    b.velocity_m_per_s = DVec3::new(-0.5, 0.6, 1.0);
    b.angular_velocity_rad_per_s = DVec3::new(-4.0, 2.0, 0.5);
    let normal = DVec3::new(0.2, -0.3, 1.0).normalize();
    let contact = Contact {
        body: 0,
        other: Some(1),
        point_m: DVec3::new(0.02, 0.01, 0.05),
        normal,
        mu: 0.4,
    };
    let mut plus = Plus::new();
    plus.assemble(&[a, b], &[contact]);
    let (w, frame) = crate::rigid::inverse_inertia_at(
        &a,
        contact.point_m - a.position_m,
        Some((&b, contact.point_m - b.position_m)),
        normal,
    );
    let block = DMat3::from_cols_array_2d(&[
        [plus.a.a[0][0], plus.a.a[1][0], plus.a.a[2][0]],
        [plus.a.a[0][1], plus.a.a[1][1], plus.a.a[2][1]],
        [plus.a.a[0][2], plus.a.a[1][2], plus.a.a[2][2]],
    ]);
    let world = |m: DMat3, f: DMat3| f * m * f.transpose();
    let difference = world(block, plus.frames[0]) - world(w, frame);
    assert!(
        difference.to_cols_array().iter().all(|d| d.abs() < 1e-12),
        "{difference:?}"
    );

    let momentum = |bodies: &[RigidBody]| {
        bodies
            .iter()
            .map(|b| b.velocity_m_per_s * b.mass_kg)
            .sum::<DVec3>()
    };
    let angular = |bodies: &[RigidBody]| {
        bodies
            .iter()
            .map(|b| {
                b.position_m.cross(b.velocity_m_per_s * b.mass_kg)
                    + b.inertia_world() * b.angular_velocity_rad_per_s
            })
            .sum::<DVec3>()
    };
    let energy = |bodies: &[RigidBody]| bodies.iter().map(RigidBody::kinetic_energy_j).sum::<f64>();
    let before = [a, b];
    let mut after = before;
    let outcome = plus
        .solve(&mut after, &[contact], &Settings::paper(0.6))
        .expect("resolves");
    assert!(outcome.impulses_n_s[0].dot(normal) > 0.0);
    assert!((momentum(&after) - momentum(&before)).length() < 1e-12);
    assert!((angular(&after) - angular(&before)).length() < 1e-12);
    assert!(energy(&after) < energy(&before));
}
