//! The bodies the drop mode drops — die, coin, pencil, spoon, brick, ring, ball — at their usual size and material: their shapes for the mechanics, and the strikers whose modes and contact stand for them acoustically.

use super::{StrikerKind, StrikerSpec};
use crate::material::{effective_modulus_pa, hertz_stiffness, Material};
use crate::rigid::shape::Shape;
use glam::DVec3;

/// The bodies the drop mode drops, each at its usual size and material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropBody {
    /// A 16 mm die with 1 mm rounded corners.
    Die,
    /// A 24 mm coin, 2 mm thick.
    Coin,
    /// A pencil: 7 mm across, 175 mm long.
    Rod,
    /// A spoon or fork as a bar: 150 × 20 × 3 mm.
    Spoon,
    /// A brick: 200 × 100 × 60 mm.
    Brick,
    /// A finger ring: 21 mm across, 1.5 mm tube.
    Ring,
    /// A 20 mm ball.
    Sphere,
}

impl DropBody {
    pub const ALL: [DropBody; 7] = [
        DropBody::Die,
        DropBody::Coin,
        DropBody::Rod,
        DropBody::Spoon,
        DropBody::Brick,
        DropBody::Ring,
        DropBody::Sphere,
    ];

    /// Lower-case name as used on command lines and in presets.
    pub fn name(self) -> &'static str {
        match self {
            DropBody::Die => "die",
            DropBody::Coin => "coin",
            DropBody::Rod => "rod",
            DropBody::Spoon => "spoon",
            DropBody::Brick => "brick",
            DropBody::Ring => "ring",
            DropBody::Sphere => "sphere",
        }
    }

    /// The body named `name` (see [`DropBody::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Id of the material it is usually made of (see [`crate::material::by_id`]).
    pub fn usual_material(self) -> &'static str {
        match self {
            DropBody::Die => "abs",
            DropBody::Coin | DropBody::Ring => "brass",
            DropBody::Rod => "pine",
            DropBody::Spoon | DropBody::Sphere => "steel",
            DropBody::Brick => "ceramic",
        }
    }

    /// Its usual size, m: the largest outer dimension (a die's edge, a coin's or ring's
    /// diameter, a rod's, spoon's or brick's length, a ball's diameter).
    pub fn usual_size_m(self) -> f64 {
        match self {
            DropBody::Die => 0.016,
            DropBody::Coin => 0.024,
            DropBody::Rod => 0.175,
            DropBody::Spoon => 0.15,
            DropBody::Brick => 0.2,
            DropBody::Ring => 0.021,
            DropBody::Sphere => 0.02,
        }
    }

    /// Its shape at `size_m` (see [`DropBody::usual_size_m`]): the usual one scaled.
    pub fn shape(self, size_m: f64) -> Shape {
        let s = size_m.clamp(1e-3, 2.0) / self.usual_size_m();
        let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z) * s;
        match self {
            DropBody::Die => Shape::RoundedBox {
                half_extents_m: v(0.007, 0.007, 0.007),
                corner_m: 0.001 * s,
            },
            DropBody::Coin => Shape::Cylinder {
                radius_m: 0.012 * s,
                half_length_m: 0.001 * s,
                edge_m: 0.0003 * s,
            },
            DropBody::Rod => Shape::Cylinder {
                radius_m: 0.0035 * s,
                half_length_m: 0.0875 * s,
                edge_m: 0.0005 * s,
            },
            DropBody::Spoon => Shape::RoundedBox {
                half_extents_m: v(0.074, 0.009, 0.0005),
                corner_m: 0.001 * s,
            },
            DropBody::Brick => Shape::RoundedBox {
                half_extents_m: v(0.098, 0.048, 0.028),
                corner_m: 0.002 * s,
            },
            DropBody::Ring => Shape::Ring {
                radius_m: 0.009 * s,
                tube_m: 0.0015 * s,
            },
            DropBody::Sphere => Shape::Sphere { radius_m: 0.01 * s },
        }
    }

    /// The striker whose modes and contact stand for the body's (see [`StrikerSpec::body`]): a
    /// die, brick or ball rings like a ball of its volume, a coin like a coin, a rod or spoon
    /// like a free bar of its length, a ring like a free bar of its circumference.
    pub fn stand_in(self, size_m: f64, material: &'static Material) -> StrikerSpec {
        let shape = self.shape(size_m);
        let ball_radius_m = (3.0 * shape.volume_m3() / (4.0 * std::f64::consts::PI)).cbrt();
        let (kind, size_m) = match self {
            DropBody::Die | DropBody::Brick | DropBody::Sphere => {
                (StrikerKind::Ball, ball_radius_m)
            }
            DropBody::Coin => (StrikerKind::Coin, 0.5 * size_m),
            DropBody::Rod | DropBody::Spoon => (StrikerKind::Rod, size_m),
            DropBody::Ring => (StrikerKind::Rod, std::f64::consts::PI * size_m),
        };
        StrikerSpec {
            kind,
            material,
            size_m,
        }
    }

    /// Hertz's stiffness (N/m^1.5) of the body's rounding where it touches a flat floor:
    /// k = (4/3)·E*·√R (R from [`crate::rigid::shape::Shape::contact_radius_m`]).
    pub fn contact_stiffness(self, size_m: f64, body: &Material, floor: &Material) -> f64 {
        let radius_m = self.shape(size_m).contact_radius_m();
        hertz_stiffness(effective_modulus_pa(body, floor), radius_m)
    }
}
