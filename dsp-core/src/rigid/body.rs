//! A rigid body's state and inertia, its contact-point velocity (Jia–Wang eq. 2) and its inverse inertia at a contact (eqs. 3–5).

use glam::{DMat3, DQuat, DVec3};

/// A rigid body: mass, principal inertia, pose and velocities, all in SI units.
///
/// The orientation maps body coordinates (principal axes) to world coordinates; the angular
/// velocity is in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    pub mass_kg: f64,
    /// Principal moments of inertia about the centre of mass, body frame.
    pub inertia_kg_m2: DVec3,
    /// Body → world rotation, a unit quaternion.
    pub orientation: DQuat,
    /// Centre of mass, world frame.
    pub position_m: DVec3,
    pub velocity_m_per_s: DVec3,
    pub angular_velocity_rad_per_s: DVec3,
}

impl RigidBody {
    /// A body at rest at the origin with its principal axes on the world axes.
    pub fn at_rest(mass_kg: f64, inertia_kg_m2: DVec3) -> Self {
        Self {
            mass_kg,
            inertia_kg_m2,
            orientation: DQuat::IDENTITY,
            position_m: DVec3::ZERO,
            velocity_m_per_s: DVec3::ZERO,
            angular_velocity_rad_per_s: DVec3::ZERO,
        }
    }

    /// Body → world rotation matrix R (Jia–Wang §2).
    pub fn rotation(&self) -> DMat3 {
        DMat3::from_quat(self.orientation)
    }

    /// The inverse inertia tensor in world coordinates, R Q⁻¹ Rᵀ.
    pub fn inverse_inertia_world(&self) -> DMat3 {
        let r = self.rotation();
        r * DMat3::from_diagonal(self.inertia_kg_m2.recip()) * r.transpose()
    }

    /// The inertia tensor in world coordinates, R Q Rᵀ.
    pub fn inertia_world(&self) -> DMat3 {
        let r = self.rotation();
        r * DMat3::from_diagonal(self.inertia_kg_m2) * r.transpose()
    }

    /// Velocity of the material point at `r_m` from the centre of mass (world): V + ω × r, eq. 2.
    pub fn velocity_at(&self, r_m: DVec3) -> DVec3 {
        self.velocity_m_per_s + self.angular_velocity_rad_per_s.cross(r_m)
    }

    /// Apply an impulse `impulse_n_s` at `r_m` from the centre of mass (world), eq. 1.
    pub fn apply_impulse(&mut self, r_m: DVec3, impulse_n_s: DVec3) {
        self.velocity_m_per_s += impulse_n_s / self.mass_kg;
        self.angular_velocity_rad_per_s += self.inverse_inertia_world() * r_m.cross(impulse_n_s);
    }

    /// Translational plus rotational kinetic energy, ½ m V² + ½ ωᵀ (R Q Rᵀ) ω.
    pub fn kinetic_energy_j(&self) -> f64 {
        let w = self.angular_velocity_rad_per_s;
        0.5 * self.mass_kg * self.velocity_m_per_s.length_squared()
            + 0.5 * w.dot(self.inertia_world() * w)
    }

    /// This body's share of the inverse inertia at a contact `r_m` from its centre (world frame):
    /// (1/m) U₃ − P R Q⁻¹ Rᵀ P with P u = r × u, one term of eqs. 3 and 5.
    pub fn inverse_inertia_term(&self, r_m: DVec3) -> DMat3 {
        let p = cross_matrix(r_m);
        DMat3::from_diagonal(DVec3::splat(self.mass_kg.recip()))
            - p * self.inverse_inertia_world() * p
    }
}

/// The antisymmetric matrix P with P u = r × u.
pub fn cross_matrix(r: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, r.z, -r.y),
        DVec3::new(-r.z, 0.0, r.x),
        DVec3::new(r.y, -r.x, 0.0),
    )
}

/// Inverse inertia matrix W at a contact with normal `normal` (eq. 5), expressed in the contact
/// frame of Jia–Wang §2: z along the normal, x and y spanning the tangent plane.
///
/// `b1` touches at `r1_m` from its centre; `b2` (None: an immobile half-space) at `r2_m`. Returns
/// W and the contact frame's basis (columns x, y, z in world coordinates), so a world vector u
/// reads Cᵀ u in the contact frame.
pub fn inverse_inertia_at(
    b1: &RigidBody,
    r1_m: DVec3,
    b2: Option<(&RigidBody, DVec3)>,
    normal: DVec3,
) -> (DMat3, DMat3) {
    let mut w_world = b1.inverse_inertia_term(r1_m);
    if let Some((b2, r2_m)) = b2 {
        w_world += b2.inverse_inertia_term(r2_m);
    }
    let z = normal.normalize();
    let x = z.any_orthonormal_vector();
    let frame = DMat3::from_cols(x, z.cross(x), z);
    (frame.transpose() * w_world * frame, frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §2's ball on a half-space: W = diag(7, 7, 2) / (2 m).
    #[test]
    fn a_ball_on_a_half_space_has_the_printed_inverse_inertia() {
        let (m, rho) = (0.3, 0.02);
        let ball = RigidBody::at_rest(m, DVec3::splat(0.4 * m * rho * rho));
        let (w, _) = inverse_inertia_at(&ball, DVec3::new(0.0, 0.0, -rho), None, DVec3::Z);
        let expected = DMat3::from_diagonal(DVec3::new(7.0, 7.0, 2.0) / (2.0 * m));
        assert!(
            (w - expected)
                .abs()
                .to_cols_array()
                .iter()
                .all(|d| *d < 1e-9),
            "{w:?}"
        );
    }

    /// The velocity change at the contact of an impulse is W times it (eq. 4), for a tilted,
    /// spinning, non-symmetric body.
    #[test]
    fn an_impulse_changes_the_contact_velocity_by_w_times_it() {
        let mut body = RigidBody::at_rest(1.7, DVec3::new(0.02, 0.05, 0.09));
        body.orientation = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0);
        body.angular_velocity_rad_per_s = DVec3::new(3.0, -2.0, 5.0);
        body.velocity_m_per_s = DVec3::new(0.1, 0.2, -1.0);
        let r = DVec3::new(0.05, -0.03, -0.08);
        let impulse = DVec3::new(0.2, -0.1, 0.7);
        let before = body.velocity_at(r);
        let w_world = body.inverse_inertia_term(r);
        body.apply_impulse(r, impulse);
        let change = body.velocity_at(r) - before;
        assert!(
            (change - w_world * impulse).length() < 1e-12,
            "{change} vs {}",
            w_world * impulse
        );
    }
}
