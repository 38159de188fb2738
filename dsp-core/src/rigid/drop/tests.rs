//! The drop scene's tests: impacts and rest of a die, every shape coming to rest, a coin's wobble (Euler's disk).

mod scene {
    use super::super::*;
    use glam::DQuat;

    const DT_S: f64 = 1.0 / 4000.0;

    fn die(orientation: DQuat, height_m: f64) -> DropScene {
        let shape = Shape::RoundedBox {
            half_extents_m: DVec3::splat(0.007),
            corner_m: 0.001,
        };
        let mut body = RigidBody::at_rest(0.004, shape.inertia_kg_m2(0.004));
        body.orientation = orientation;
        let mut scene = DropScene::new(body, shape, 0.3, Settings::paper(0.5));
        scene.body.position_m.z = height_m - scene.clearance_m();
        scene
    }

    /// Run until rest or `limit_s`, collecting the contact events (fixed capacity for the test).
    fn run(scene: &mut DropScene, limit_s: f64, events: &mut Vec<ContactEvent>) {
        while !scene.at_rest && scene.time_s < limit_s {
            scene
                .step(DT_S, &mut |e| events.push(e))
                .expect("PLUS resolves every contact");
            assert!(scene.body.velocity_m_per_s.is_finite() && scene.body.position_m.is_finite());
        }
    }

    /// A sphere dropped straight down bounces on the closed-form chain: impact k at the
    /// speed e^(k−1) v₁ and at t₁ + Σ 2 eʲ v₁/g, with e = e_min (every approach is above the
    /// plastic velocity). Impacts are resolved at the bisected moment of touching, so the chain
    /// is matched to 10⁻⁶.
    #[test]
    fn a_sphere_dropped_straight_bounces_on_the_closed_form_chain() {
        let shape = Shape::Sphere { radius_m: 0.01 };
        let body = RigidBody::at_rest(0.01, shape.inertia_kg_m2(0.01));
        let e = 0.6;
        let mut scene = DropScene::new(body, shape, 0.3, Settings::paper(e));
        let height = 0.2;
        scene.body.position_m.z = height + 0.01;
        let mut events = Vec::new();
        run(&mut scene, 0.9, &mut events);
        let impacts: Vec<_> = events
            .iter()
            .filter(|e| e.kind == ContactKind::Impact)
            .collect();
        let g = 9.81;
        let v1 = (2.0 * g * height).sqrt();
        let mut t = (2.0 * height / g).sqrt();
        for (k, impact) in impacts.iter().take(4).enumerate() {
            let v = v1 * e.powi(k as i32);
            assert!(
                (impact.normal_speed_m_per_s - v).abs() < 1e-6 * v1,
                "impact {k}: {impact:?} vs {v}"
            );
            assert!(
                (impact.time_s - t).abs() < 1e-6,
                "impact {k}: {} vs {t}",
                impact.time_s
            );
            t += 2.0 * e * v / g;
        }
        assert!(impacts.len() >= 4);
    }

    /// A brick dropped flat lands on its four corners at once, with four equal impulses.
    #[test]
    fn a_flat_brick_lands_with_four_equal_impulses() {
        let shape = Shape::RoundedBox {
            half_extents_m: DVec3::new(0.1, 0.05, 0.03),
            corner_m: 0.002,
        };
        let body = RigidBody::at_rest(2.0, shape.inertia_kg_m2(2.0));
        let mut scene = DropScene::new(body, shape, 0.5, Settings::paper(0.3));
        scene.body.position_m.z = 0.1 - scene.clearance_m();
        let mut events = Vec::new();
        while events.is_empty() {
            scene.step(DT_S, &mut |e| events.push(e)).unwrap();
        }
        assert_eq!(events.len(), 4);
        for e in &events {
            assert!(
                (e.normal_impulse_n_s - events[0].normal_impulse_n_s).abs()
                    < 1e-9 * events[0].normal_impulse_n_s
            );
            assert_eq!(e.kind, ContactKind::Impact);
        }
    }

    /// Dice dropped in random poses come to rest, on a face, within a few seconds; between
    /// contact steps (in flight) the mechanical energy changes only by the rotation splitting's
    /// bounded O(h²) oscillation (below 10⁻⁴ of it here; the translation is exact), and no
    /// contact step lifts it above the energy the die was dropped with. (A single contact step
    /// may gain up to ~m g v dt: the velocity-level step moves with the post-impulse velocity.)
    #[test]
    fn dice_come_to_rest_on_a_face_and_never_gain_energy() {
        let mut rng = fastrand::Rng::with_seed(7);
        for drop in 0..40 {
            let q = DQuat::from_euler(
                glam::EulerRot::XYZ,
                rng.f64() * 6.3,
                rng.f64() * 6.3,
                rng.f64() * 6.3,
            );
            let mut scene = die(q, 0.05 + 0.2 * rng.f64());
            scene.body.angular_velocity_rad_per_s =
                DVec3::new(rng.f64() - 0.5, rng.f64() - 0.5, rng.f64() - 0.5) * 60.0;
            scene.body.velocity_m_per_s = DVec3::new(rng.f64() - 0.5, rng.f64() - 0.5, 0.0);
            let mut energy = scene.energy_j();
            let (scale, dropped) = (energy, energy);
            while !scene.at_rest && scene.time_s < 5.0 {
                let mut contact = false;
                scene.step(DT_S, &mut |_| contact = true).unwrap();
                let now = scene.energy_j();
                if contact {
                    assert!(
                        now <= dropped * (1.0 + 1e-9),
                        "drop {drop} at {}: {now} above the dropped {dropped}",
                        scene.time_s
                    );
                } else {
                    assert!(
                        (now - energy).abs() <= 1e-4 * scale,
                        "drop {drop} at {}: flight {energy} → {now}",
                        scene.time_s
                    );
                }
                energy = now;
            }
            assert!(scene.at_rest, "drop {drop} still moving after 5 s");
            let up = [DVec3::X, DVec3::Y, DVec3::Z].map(|a| (scene.body.orientation * a).z.abs());
            let best = up.iter().fold(0.0f64, |m, u| m.max(*u));
            assert!(
                best > (2.0f64).to_radians().cos(),
                "drop {drop}: not on a face ({up:?})"
            );
        }
    }
}

mod every_shape {
    use super::super::*;
    use glam::DQuat;

    /// The macro step of the tests below, s.
    const DT_S: f64 = 1.0 / 4000.0;

    /// A box, a coin, a pencil, a ring and a ball.
    const SHAPES: [Shape; 5] = [
        Shape::RoundedBox {
            half_extents_m: DVec3::new(0.05, 0.02, 0.01),
            corner_m: 0.002,
        },
        Shape::Cylinder {
            radius_m: 0.012,
            half_length_m: 0.001,
            edge_m: 0.0003,
        },
        Shape::Cylinder {
            radius_m: 0.0035,
            half_length_m: 0.0875,
            edge_m: 0.0005,
        },
        Shape::Ring {
            radius_m: 0.009,
            tube_m: 0.0015,
        },
        Shape::Sphere { radius_m: 0.01 },
    ];

    /// `shape` let fall from 15 cm in a random pose, spinning at up to 20 rad/s about each
    /// axis and drifting at up to 0.2 m/s along the floor.
    fn random_drop(shape: Shape, rng: &mut fastrand::Rng) -> DropScene {
        let mut body = RigidBody::at_rest(0.01, shape.inertia_kg_m2(0.01));
        let mut unit = || 2.0 * rng.f64() - 1.0;
        let axis = DVec3::new(unit(), unit(), unit()).normalize();
        body.orientation = DQuat::from_axis_angle(axis, 3.0 * unit());
        body.angular_velocity_rad_per_s = DVec3::new(unit(), unit(), unit()) * 20.0;
        body.velocity_m_per_s = DVec3::new(unit(), unit(), 0.0) * 0.2;
        let mut scene = DropScene::new(body, shape, 0.3, Settings::paper(0.6));
        scene.body.position_m.z = 0.15 - scene.clearance_m();
        scene
    }

    /// The clearance a scene gives is its shape's in the pose the body has now, however often
    /// it is asked and whatever moved the body in between (height, turn, both); and a body its
    /// reach clears is never below the floor: every shape in 300 random poses, its centre from
    /// the floor up to twice its reach.
    #[test]
    fn the_clearance_is_the_poses_own_and_the_sure_bound_holds() {
        let mut rng = fastrand::Rng::with_seed(31);
        for shape in SHAPES {
            let mut scene = DropScene::new(
                RigidBody::at_rest(0.01, DVec3::ONE),
                shape,
                0.3,
                Settings::paper(0.6),
            );
            let reach_m = shape.reach_m();
            for k in 0..300 {
                let mut unit = || 2.0 * rng.f64() - 1.0;
                let axis = DVec3::new(unit(), unit(), unit()).normalize();
                if k % 3 != 1 {
                    scene.body.orientation = DQuat::from_axis_angle(axis, 3.0 * unit());
                }
                if k % 3 != 2 {
                    scene.body.position_m.z = reach_m * (1.0 + unit());
                }
                let expected = clearance(&scene.body, &shape);
                assert_eq!(
                    scene.clearance_m().to_bits(),
                    expected.to_bits(),
                    "{shape:?}"
                );
                assert_eq!(
                    scene.clearance_m().to_bits(),
                    expected.to_bits(),
                    "{shape:?}"
                );
                if scene.surely_clear(&scene.body) {
                    assert!(expected >= 0.0, "{shape:?}: {expected} m");
                }
            }
        }
    }

    /// No lowest point approaches the floor faster than the bound that lets a step skip the
    /// search for its moment of touching: every shape, tumbling at up to 300 rad/s, thrown up
    /// or down, flown for every fraction of a step from 0 to 1 (it fails without the turn's
    /// term, or with the fall speed taken at the start of the step only).
    #[test]
    fn no_point_approaches_faster_than_the_bound_over_a_step() {
        let mut rng = fastrand::Rng::with_seed(29);
        for shape in SHAPES {
            for _ in 0..200 {
                let mut body = RigidBody::at_rest(0.01, shape.inertia_kg_m2(0.01));
                let mut unit = || 2.0 * rng.f64() - 1.0;
                let axis = DVec3::new(unit(), unit(), unit()).normalize();
                body.orientation = DQuat::from_axis_angle(axis, 3.0 * unit());
                let spin = 300.0 * unit().abs().powi(3);
                body.angular_velocity_rad_per_s = DVec3::new(unit(), unit(), unit()) * spin;
                body.velocity_m_per_s = DVec3::new(unit(), unit(), unit()) * 0.05;
                let scene = DropScene::new(body, shape, 0.3, Settings::real_time(0.6));
                let step_s = 1e-3;
                let bound = scene.fastest_approach_bound_m_per_s(step_s);
                for k in 0..=100 {
                    let mut flown = scene.body;
                    flown.fly(step_s * k as f64 / 100.0, scene.gravity_m_per_s2);
                    let (points, count) = shape.lowest_points(flown.orientation, 1e-3);
                    for p in &points[..count] {
                        let approach = -flown.velocity_at(*p).z;
                        assert!(
                            approach <= bound,
                            "{shape:?} at {k}% of the step: {approach} m/s above {bound}"
                        );
                    }
                }
            }
        }
    }

    /// Every kind of falling body — box, coin, pencil, ring, ball — dropped 12 times in random
    /// poses with spin comes to rest within 5 s (rolling and pivoting resistance end the rolls
    /// and spins), with finite states and never more energy than it was dropped with (beyond
    /// the rotation splitting's bounded oscillation in flight, below 10⁻⁴).
    #[test]
    fn every_shape_comes_to_rest() {
        let mut rng = fastrand::Rng::with_seed(11);
        for shape in SHAPES {
            for drop in 0..12 {
                let mut scene = random_drop(shape, &mut rng);
                let dropped = scene.energy_j();
                while !scene.at_rest && scene.time_s < 5.0 {
                    scene
                        .step(1.0 / 4000.0, &mut |_| {})
                        .expect("PLUS resolves every contact");
                    assert!(
                        scene.body.position_m.is_finite()
                            && scene.body.velocity_m_per_s.is_finite()
                    );
                    assert!(
                        scene.energy_j() <= dropped * (1.0 + 1e-4),
                        "{shape:?} drop {drop}: {} > {dropped} at {}",
                        scene.energy_j(),
                        scene.time_s
                    );
                }
                assert!(
                    scene.at_rest,
                    "{shape:?} drop {drop} still moving after 5 s"
                );
            }
        }
    }

    /// A body found standing still over its support replays that step's contacts until it
    /// rests, as solving each step would have them: the same kinds at the same points, the
    /// same load (the step's summed normal impulse, within 10⁻⁹; how four corners share it
    /// moves with round-off), the same pose within a nanometre (and its turn within a nanometre
    /// at the shape's reach), and rest on the same step within 5 s —
    /// every shape, 12 drops each (it fails when a body still moving counts as standing, the
    /// bound on its kinetic energy raised to a fall through the capture velocity).
    #[test]
    fn a_body_standing_still_replays_the_contacts_it_would_solve() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut replays = 0;
        for shape in SHAPES {
            for drop in 0..12 {
                let mut replayed = random_drop(shape, &mut rng);
                while replayed.standing.is_none() && !replayed.at_rest && replayed.time_s < 5.0 {
                    replayed.step(DT_S, &mut |_| {}).expect("PLUS resolves");
                }
                if replayed.standing.is_none() {
                    continue;
                }
                replays += 1;
                let mut solved = replayed.clone();
                while !replayed.at_rest && replayed.time_s < 5.0 {
                    solved.standing = None;
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    replayed.step(DT_S, &mut |e| a.push(e)).expect("replays");
                    solved
                        .step(DT_S, &mut |e| b.push(e))
                        .expect("PLUS resolves");
                    let at = format!("{shape:?} drop {drop} at {} s", solved.time_s);
                    assert_eq!(a.len(), b.len(), "{at}: contacts");
                    for (a, b) in a.iter().zip(&b) {
                        assert_eq!(a.kind, b.kind, "{at}");
                        assert!((a.point_m - b.point_m).length() <= 1e-9, "{at}: points");
                    }
                    let load = |events: &[ContactEvent]| -> f64 {
                        events.iter().map(|e| e.normal_impulse_n_s).sum()
                    };
                    let (replayed_n_s, solved_n_s) = (load(&a), load(&b));
                    assert!(
                        (replayed_n_s - solved_n_s).abs() <= 1e-9 * solved_n_s,
                        "{at}: load {replayed_n_s:e} N·s replayed, {solved_n_s:e} solved"
                    );
                    let moved = (solved.body.position_m - replayed.body.position_m).length();
                    assert!(moved <= 1e-9, "{at}: the solved body moved {moved:e} m");
                    // The turn between the two, read by atan2 of the relative rotation:
                    // `angle_between`'s acos reads nothing finer than 2.98e-8 rad (1 − 2⁻⁵³).
                    let relative = solved.body.orientation.conjugate() * replayed.body.orientation;
                    let turned = 2.0 * relative.xyz().length().atan2(relative.w.abs());
                    assert!(
                        turned * shape.reach_m() <= 1e-9,
                        "{at}: the solved body turned {turned:e} rad"
                    );
                    assert_eq!(solved.at_rest, replayed.at_rest, "{at}: rest");
                }
                assert!(replayed.at_rest, "{shape:?} drop {drop}: rests within 5 s");
            }
        }
        assert!(
            replays >= 20,
            "{replays} of 60 drops stood still before rest"
        );
    }

    /// The standing rule's support test, by itself: a die at rest with its bottom face tilted
    /// about the diagonal through corners A and C, so that B lies 0.75 µm below them and D as
    /// far above (within and beyond the 1 µm of `PROXIMITY_M`): its lowest points are A, B and
    /// C, and its centre of mass lies over the line AC, the edge of their triangle (the widest
    /// angle between neighbours about it is π): it does not stand still. Flat, on its four
    /// corners, it does.
    #[test]
    fn a_body_balanced_on_the_edge_of_its_support_does_not_stand_still() {
        let half_m = 0.008;
        let shape = Shape::RoundedBox {
            half_extents_m: DVec3::splat(half_m),
            corner_m: 0.0,
        };
        let mass_kg = shape.volume_m3() * 1050.0;
        let at_rest = |orientation: DQuat| {
            let mut body = RigidBody::at_rest(mass_kg, shape.inertia_kg_m2(mass_kg));
            body.orientation = orientation;
            DropScene::new(body, shape, 0.5, Settings::real_time(0.5))
        };
        // B and D lie half_m·√2 from the diagonal AC.
        let tilt_rad = (0.75e-6 / (half_m * std::f64::consts::SQRT_2)).asin();
        let diagonal = DVec3::new(1.0, 1.0, 0.0).normalize();
        let tilted = at_rest(DQuat::from_axis_angle(diagonal, tilt_rad));
        let (_, count) = shape.lowest_points(tilted.body.orientation, PROXIMITY_M);
        assert_eq!(count, 3, "A, B and C are the lowest points");
        assert!(!tilted.stands_still(DT_S), "balanced on the edge AC");
        assert!(
            at_rest(DQuat::IDENTITY).stands_still(DT_S),
            "flat on four corners"
        );
    }
}

mod wobble {
    use super::super::*;
    use glam::DQuat;

    /// Precession rates (Hz) of a coin's axis about the vertical, each over a window of
    /// `WINDOW_S`, with the window's mean tilt from the vertical (rad), from its first contact
    /// to its rest.
    const WINDOW_S: f64 = 0.05;

    fn precession(tilt_rad: f64, spin_rad_per_s: f64) -> Vec<(f64, f64)> {
        // A 24 mm coin, 2 mm thick (the drop mode's usual coin).
        let shape = Shape::Cylinder {
            radius_m: 0.012,
            half_length_m: 0.001,
            edge_m: 0.0003,
        };
        let mass_kg = shape.volume_m3() * 8500.0;
        let mut body = RigidBody::at_rest(mass_kg, shape.inertia_kg_m2(mass_kg));
        body.orientation = DQuat::from_rotation_x(tilt_rad);
        body.angular_velocity_rad_per_s = DVec3::new(0.0, 0.0, spin_rad_per_s);
        let mut scene = DropScene::new(body, shape, 0.3, Settings::real_time(0.5));
        scene.body.position_m.z = 0.002 - scene.clearance_m();
        let (mut windows, mut turned, mut tilt_sum, mut steps) = (vec![], 0.0, 0.0, 0);
        let mut last_azimuth = f64::NAN;
        let mut touched = false;
        while !scene.at_rest && scene.time_s < 10.0 {
            scene
                .step(1.0 / 4000.0, &mut |_| touched = true)
                .expect("PLUS resolves every contact");
            if !touched {
                continue;
            }
            let axis = scene.body.orientation * DVec3::Z;
            let azimuth = axis.y.atan2(axis.x);
            if last_azimuth.is_finite() {
                let d = azimuth - last_azimuth;
                turned += (d + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                    - std::f64::consts::PI;
            }
            last_azimuth = azimuth;
            tilt_sum += axis.z.abs().min(1.0).acos();
            steps += 1;
            if steps as f64 / 4000.0 >= WINDOW_S {
                windows.push((
                    turned.abs() / std::f64::consts::TAU / WINDOW_S,
                    tilt_sum / steps as f64,
                ));
                (turned, tilt_sum, steps) = (0.0, 0.0, 0);
            }
        }
        assert!(scene.at_rest, "the coin rests");
        windows
    }

    /// Euler's disk: a coin dropped spinning on its rim rolls round on it, its tilt falling
    /// and the precession of its axis (the wobble heard) speeding up until it lies flat
    /// (Moffatt 2000: Ω ∝ α^(−1/2) for a rolling disc at small tilt α). The rate over the last
    /// windows before it lies flat (tilt still above 1°, so the axis's azimuth is defined) is
    /// at least three times that over its first contact.
    #[test]
    fn a_coin_on_its_rim_wobbles_faster_and_faster_before_rest() {
        for (tilt_rad, spin_rad_per_s) in [(1.2, 30.0), (1.0, 60.0), (1.1, 45.0)] {
            let windows = precession(tilt_rad, spin_rad_per_s);
            let tilted: Vec<_> = windows
                .iter()
                .filter(|(_, tilt)| *tilt > 1f64.to_radians())
                .collect();
            assert!(tilted.len() >= 8, "{windows:?}");
            let mean =
                |w: &[&(f64, f64)]| w.iter().map(|(rate, _)| rate).sum::<f64>() / w.len() as f64;
            let (first, last) = (mean(&tilted[..4]), mean(&tilted[tilted.len() - 4..]));
            eprintln!("tilt {tilt_rad} spin {spin_rad_per_s}: {first:.1} Hz → {last:.1} Hz");
            assert!(last > 3.0 * first, "{first} → {last} Hz: {windows:?}");
        }
    }
}
