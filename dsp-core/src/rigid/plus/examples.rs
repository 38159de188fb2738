//! The PLUS paper's examples built from its printed data: the brick of Example 1 (Table A1), the flat brick of Example 2 and Newton's cradle of Example 3.

use glam::{DQuat, DVec3};

use super::{Contact, Outcome, Plus, PlusError, Restitution, Settings, MAX_BODIES, MAX_CONTACTS};
use crate::rigid::shape::{box_inertia_kg_m2, Shape, MAX_LOWEST_POINTS};
use crate::rigid::RigidBody;

/// Table A1: the brick's mass, edge lengths (body x, y, z) and the radius of the spheres welded
/// to its corners.
pub const BRICK_MASS_KG: f64 = 2.0;
pub const BRICK_SIZE_M: [f64; 3] = [0.4, 0.6, 0.8];
pub const BRICK_SPHERE_RADIUS_M: f64 = 0.1;
/// Table A1's printed inertia, diag(0.167, 0.133, 0.0867) kg m²: the box formula's values to
/// the printed digits (checked in the tests); the examples use the formula.
pub const BRICK_INERTIA_PRINTED_KG_M2: [f64; 3] = [0.167, 0.133, 0.0867];
/// Table A1: pre-impact velocity of Example 1.
pub const BRICK_VELOCITY_M_PER_S: [f64; 3] = [-5.0, 0.0, -5.74];
/// Table A1: the three friction coefficients of Example 1 and the minimum coefficient of
/// restitution used with each.
pub const TABLE_A1_MU_E_MIN: [(f64, f64); 3] = [(0.125, 0.392), (0.225, 0.387), (0.325, 0.373)];
/// Figure 10: intervals PLUS needs for the brick at θ_max = 0.01, 0.15 and 0.25 rad.
pub const FIGURE_10_INTERVALS: [(f64, usize); 3] = [(0.01, 116), (0.15, 11), (0.25, 8)];
/// Example 2: μ, e_min and the pre-impact velocity of the flat brick's four corners.
pub const FLAT_BRICK_MU: f64 = 0.2;
pub const FLAT_BRICK_E_MIN: f64 = 0.414;
pub const FLAT_BRICK_VELOCITY_M_PER_S: [f64; 3] = [-2.0, 0.0, -8.84];
/// Example 3: five frictionless balls of radius 0.25 m and mass 1 kg, e = 1; the first moves
/// at 2 m/s towards the four at rest.
pub const CRADLE_BALLS: usize = 5;
pub const CRADLE_BALL_RADIUS_M: f64 = 0.25;
pub const CRADLE_BALL_MASS_KG: f64 = 1.0;
pub const CRADLE_SPEED_M_PER_S: f64 = 2.0;

/// Bodies, contacts and settings of one impact.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub bodies: [RigidBody; MAX_BODIES],
    pub body_count: usize,
    pub contacts: [Contact; MAX_CONTACTS],
    pub contact_count: usize,
    pub settings: Settings,
}

impl Scenario {
    /// No bodies and no contacts yet.
    pub fn new(settings: Settings) -> Self {
        let at_rest = RigidBody::at_rest(1.0, DVec3::ONE);
        let none = Contact {
            body: 0,
            other: None,
            point_m: DVec3::ZERO,
            normal: DVec3::Z,
            mu: 0.0,
        };
        Self {
            bodies: [at_rest; MAX_BODIES],
            body_count: 0,
            contacts: [none; MAX_CONTACTS],
            contact_count: 0,
            settings,
        }
    }

    pub fn bodies(&self) -> &[RigidBody] {
        &self.bodies[..self.body_count]
    }

    pub fn contacts(&self) -> &[Contact] {
        &self.contacts[..self.contact_count]
    }

    /// Resolve the impact; returns the outcome and the bodies after it (the first
    /// `body_count` entries).
    pub fn solve(&self, plus: &mut Plus) -> Result<(Outcome, [RigidBody; MAX_BODIES]), PlusError> {
        let mut bodies = self.bodies;
        let outcome = plus.solve(
            &mut bodies[..self.body_count],
            self.contacts(),
            &self.settings,
        )?;
        Ok((outcome, bodies))
    }
}

/// Table A1's e_min for one of Example 1's friction coefficients.
pub fn table_a1_e_min(mu: f64) -> Option<f64> {
    TABLE_A1_MU_E_MIN
        .iter()
        .find(|(m, _)| (m - mu).abs() < 1e-9)
        .map(|(_, e)| *e)
}

/// The brick at the origin with the given orientation, and its corner spheres' lowest points
/// (relative to the centre) within `tolerance_m` of the lowest: a box whose corners are rounded
/// to the spheres, though its inertia is the plain box's (Table A1).
fn brick(orientation: DQuat, tolerance_m: f64) -> (RigidBody, [DVec3; MAX_LOWEST_POINTS], usize) {
    let edges = DVec3::from(BRICK_SIZE_M);
    let mut body = RigidBody::at_rest(BRICK_MASS_KG, box_inertia_kg_m2(BRICK_MASS_KG, edges));
    body.orientation = orientation;
    let shape = Shape::RoundedBox {
        half_extents_m: edges / 2.0,
        corner_m: BRICK_SPHERE_RADIUS_M,
    };
    let (touching, count) = shape.lowest_points(orientation, tolerance_m);
    (body, touching, count)
}

/// Example 1: the brick turned by π/4 about its x axis, then π/6 about its (new) y axis, falls
/// on one corner sphere at Table A1's velocity without spin.
pub fn corner_brick(mu: f64, e_min: f64, theta_max_rad: f64) -> Scenario {
    let orientation = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4)
        * DQuat::from_rotation_y(std::f64::consts::FRAC_PI_6);
    let (mut body, corners, count) = brick(orientation, 1e-9);
    debug_assert_eq!(count, 1);
    body.velocity_m_per_s = DVec3::from(BRICK_VELOCITY_M_PER_S);
    let mut scenario = Scenario::new(Settings {
        theta_max_rad,
        ..Settings::paper(e_min)
    });
    scenario.bodies[0] = body;
    scenario.body_count = 1;
    scenario.contacts[0] = Contact {
        body: 0,
        other: None,
        point_m: corners[0],
        normal: DVec3::Z,
        mu,
    };
    scenario.contact_count = 1;
    scenario
}

/// Example 2: the brick lying on its 0.6 m × 0.8 m face (its 0.8 m edge along the motion) lands
/// on four corner spheres at once. The paper's Table S1 (the brick's pose) is not in the text;
/// this pose is our reading of Figure 11.
pub fn flat_brick(velocity_m_per_s: DVec3) -> Scenario {
    let (mut body, corners, count) =
        brick(DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2), 1e-9);
    debug_assert_eq!(count, 4);
    body.velocity_m_per_s = velocity_m_per_s;
    let mut scenario = Scenario::new(Settings::paper(FLAT_BRICK_E_MIN));
    scenario.bodies[0] = body;
    scenario.body_count = 1;
    for (contact, corner) in scenario.contacts.iter_mut().zip(&corners[..count]) {
        // The four lowest corners differ in height only by round-off: one plane of contact.
        let point_m = DVec3::new(corner.x, corner.y, corners[0].z);
        *contact = Contact {
            body: 0,
            other: None,
            point_m,
            normal: DVec3::Z,
            mu: FLAT_BRICK_MU,
        };
    }
    scenario.contact_count = count;
    scenario
}

/// Example 3: Newton's cradle. Ball 0 moves at 2 m/s along −x into balls 1…4, touching in a
/// row; contact k joins ball k (on its +x side) and ball k + 1.
pub fn cradle() -> Scenario {
    let restitution = Restitution {
        e_min: 1.0,
        v_capture_m_per_s: 0.0,
        v_plastic_m_per_s: 1e-3,
    };
    let mut scenario = Scenario::new(Settings {
        restitution,
        ..Settings::paper(1.0)
    });
    let inertia = DVec3::splat(0.4 * CRADLE_BALL_MASS_KG * CRADLE_BALL_RADIUS_M.powi(2));
    let spacing = 2.0 * CRADLE_BALL_RADIUS_M;
    for i in 0..CRADLE_BALLS {
        let mut ball = RigidBody::at_rest(CRADLE_BALL_MASS_KG, inertia);
        ball.position_m = DVec3::X * spacing * (CRADLE_BALLS - 1 - i) as f64;
        scenario.bodies[i] = ball;
    }
    scenario.bodies[0].velocity_m_per_s = DVec3::new(-CRADLE_SPEED_M_PER_S, 0.0, 0.0);
    scenario.body_count = CRADLE_BALLS;
    for k in 0..CRADLE_BALLS - 1 {
        let point_m = scenario.bodies[k].position_m - DVec3::X * CRADLE_BALL_RADIUS_M;
        scenario.contacts[k] = Contact {
            body: k,
            other: Some(k + 1),
            point_m,
            normal: DVec3::X,
            mu: 0.0,
        };
    }
    scenario.contact_count = CRADLE_BALLS - 1;
    scenario
}
