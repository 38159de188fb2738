//! Shapes of the bodies that fall in the drop mode (issue 16): their principal inertia and the points where they can touch a floor plane.
//!
//! Every shape is convex (or, for the ring, touches a plane only on its convex hull), centred on
//! its centre of mass with its principal axes on the body axes. `lowest_points` gives, for a
//! pose, the body's points that are lowest along the world's −z (within a tolerance), the
//! candidates for simultaneous contacts with a horizontal floor: a die's corners, a coin's rim.

use glam::{DQuat, DVec3};

/// Most lowest points a shape reports (a box's face has four corners).
pub const MAX_LOWEST_POINTS: usize = 4;

/// A body's shape, in metres, centred on its centre of mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A solid box with corners rounded to spheres of radius `corner_m`; `half_extents_m`
    /// reach the centres of the corner spheres, so the outer half-extents are these plus
    /// `corner_m` (a die).
    RoundedBox {
        half_extents_m: DVec3,
        corner_m: f64,
    },
    /// A solid cylinder along the body z axis: a coin (thin) or a rod (long), edges rounded to
    /// `edge_m`.
    Cylinder {
        radius_m: f64,
        half_length_m: f64,
        edge_m: f64,
    },
    /// A solid sphere.
    Sphere { radius_m: f64 },
    /// A torus in the body xy plane: a ring of tube radius `tube_m` around a circle of radius
    /// `radius_m`.
    Ring { radius_m: f64, tube_m: f64 },
}

/// A solid box's principal inertia from its edge lengths, m (b² + c²)/12 etc.
pub fn box_inertia_kg_m2(mass_kg: f64, edges_m: DVec3) -> DVec3 {
    let [a, b, c] = (edges_m * edges_m).to_array();
    DVec3::new(b + c, a + c, a + b) * mass_kg / 12.0
}

impl Shape {
    /// Volume, m³ (a rounded box or cylinder counted as its core plus the rounding all round,
    /// an overestimate of a few percent for the roundings of dice and coins).
    pub fn volume_m3(&self) -> f64 {
        use std::f64::consts::PI;
        match *self {
            Shape::RoundedBox {
                half_extents_m: h,
                corner_m,
            } => 8.0 * (h + DVec3::splat(corner_m)).element_product(),
            Shape::Cylinder {
                radius_m,
                half_length_m,
                ..
            } => PI * radius_m * radius_m * 2.0 * half_length_m,
            Shape::Sphere { radius_m } => 4.0 / 3.0 * PI * radius_m.powi(3),
            Shape::Ring { radius_m, tube_m } => 2.0 * PI * PI * radius_m * tube_m * tube_m,
        }
    }

    /// Radius of curvature of the surface where it touches a floor (Hertz's R): a box's corner
    /// rounding, a cylinder's edge rounding, a ball's radius, a ring's tube.
    pub fn contact_radius_m(&self) -> f64 {
        match *self {
            Shape::RoundedBox { corner_m, .. } => corner_m,
            Shape::Cylinder { edge_m, .. } => edge_m,
            Shape::Sphere { radius_m } => radius_m,
            Shape::Ring { tube_m, .. } => tube_m,
        }
    }

    /// The farthest any point of the surface lies from the centre, m: a rounded box's corner
    /// centre plus its rounding, a cylinder's rim corner plus its edge rounding, a ring's outer
    /// circle.
    pub fn reach_m(&self) -> f64 {
        match *self {
            Shape::RoundedBox {
                half_extents_m,
                corner_m,
            } => half_extents_m.length() + corner_m,
            Shape::Cylinder {
                radius_m,
                half_length_m,
                edge_m,
            } => (radius_m - edge_m).hypot(half_length_m) + edge_m,
            Shape::Sphere { radius_m } => radius_m,
            Shape::Ring { radius_m, tube_m } => radius_m + tube_m,
        }
    }

    /// Principal moments of inertia about the centre of mass for a uniform solid of `mass_kg`,
    /// body axes. The rounding of boxes and cylinders is ignored (it moves them by well under a
    /// percent for the roundings of dice and coins).
    pub fn inertia_kg_m2(&self, mass_kg: f64) -> DVec3 {
        match *self {
            Shape::RoundedBox {
                half_extents_m: h,
                corner_m,
            } => box_inertia_kg_m2(mass_kg, (h + DVec3::splat(corner_m)) * 2.0),
            Shape::Cylinder {
                radius_m: r,
                half_length_m: l,
                edge_m: _,
            } => {
                let side = mass_kg * (3.0 * r * r + 4.0 * l * l) / 12.0;
                DVec3::new(side, side, 0.5 * mass_kg * r * r)
            }
            Shape::Sphere { radius_m: r } => DVec3::splat(0.4 * mass_kg * r * r),
            Shape::Ring {
                radius_m: big,
                tube_m: a,
            } => {
                // Solid torus: I_z = m (R² + ¾ a²), I_x = I_y = m (½ R² + ⅝ a²).
                let axial = mass_kg * (big * big + 0.75 * a * a);
                let diametral = mass_kg * (0.5 * big * big + 0.625 * a * a);
                DVec3::new(diametral, diametral, axial)
            }
        }
    }

    /// The body points (relative to the centre, world frame) lowest along −z for the
    /// orientation `q`, and how many: every point within `tolerance_m` of the lowest height.
    /// A box gives up to four corners; a cylinder one or two rim points (two when it lies on
    /// its side), a sphere and a ring one point or, for a flat ring or a flat coin, three rim
    /// points spread around it (a flat face or rim rests on many points; three carry it).
    pub fn lowest_points(&self, q: DQuat, tolerance_m: f64) -> ([DVec3; MAX_LOWEST_POINTS], usize) {
        let mut points = [DVec3::ZERO; MAX_LOWEST_POINTS];
        let mut count = 0;
        let mut push = |p: DVec3, points: &mut [DVec3; MAX_LOWEST_POINTS]| {
            if count < MAX_LOWEST_POINTS {
                points[count] = p;
                count += 1;
            }
        };
        match *self {
            Shape::RoundedBox {
                half_extents_m: h,
                corner_m,
            } => {
                let corners: [DVec3; 8] = std::array::from_fn(|i| {
                    let s = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
                    q * (h * DVec3::new(s(0), s(1), s(2))) - DVec3::Z * corner_m
                });
                let lowest = corners.iter().map(|c| c.z).fold(f64::INFINITY, f64::min);
                for c in corners.iter().filter(|c| c.z <= lowest + tolerance_m) {
                    push(*c, &mut points);
                }
            }
            Shape::Cylinder {
                radius_m,
                half_length_m,
                edge_m,
            } => {
                let axis = q * DVec3::Z;
                let rim = radius_m - edge_m;
                // The end whose centre is lower, and the other end.
                let ends = [axis * half_length_m, -axis * half_length_m];
                let lowest_end = ends[0].z.min(ends[1].z);
                for end in ends.iter().filter(|e| e.z <= lowest_end + tolerance_m) {
                    for p in rim_points(*end, axis, rim, tolerance_m) {
                        push(p - DVec3::Z * edge_m, &mut points);
                    }
                }
            }
            Shape::Sphere { radius_m } => push(-DVec3::Z * radius_m, &mut points),
            Shape::Ring { radius_m, tube_m } => {
                for p in rim_points(DVec3::ZERO, q * DVec3::Z, radius_m, tolerance_m) {
                    push(p - DVec3::Z * tube_m, &mut points);
                }
            }
        }
        (points, count)
    }
}

/// The lowest points of a circle (centre `c`, unit normal `axis`, radius `r`): the one point
/// r·(−ẑ projected on the circle's plane) when the circle is tilted, or three points 120° apart
/// when it lies flat (within `tolerance_m` of level across its diameter). Iterates their count.
fn rim_points(c: DVec3, axis: DVec3, r: f64, tolerance_m: f64) -> impl Iterator<Item = DVec3> {
    let down = -DVec3::Z + axis * axis.z;
    let tilt = down.length();
    // Height difference across the circle: 2 r |sin tilt|.
    let flat = 2.0 * r * tilt <= tolerance_m;
    let u = if flat {
        axis.any_orthonormal_vector()
    } else {
        down / tilt
    };
    let v = axis.cross(u);
    let count = if flat { 3 } else { 1 };
    (0..count).map(move |k| {
        let angle = k as f64 * std::f64::consts::TAU / 3.0;
        c + (u * angle.cos() + v * angle.sin()) * r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inertia against an independent numerical integration: a midpoint-rule sum over a 120³
    /// grid of each shape's bounding box (box, coin, rod, sphere, torus), within 0.5 %.
    #[test]
    fn inertia_matches_a_numerical_integration() {
        let shapes = [
            (
                Shape::RoundedBox {
                    half_extents_m: DVec3::new(0.01, 0.015, 0.02),
                    corner_m: 0.0,
                },
                DVec3::new(0.01, 0.015, 0.02),
            ),
            (
                Shape::Cylinder {
                    radius_m: 0.012,
                    half_length_m: 0.001,
                    edge_m: 0.0,
                },
                DVec3::new(0.012, 0.012, 0.001),
            ),
            (
                Shape::Cylinder {
                    radius_m: 0.004,
                    half_length_m: 0.08,
                    edge_m: 0.0,
                },
                DVec3::new(0.004, 0.004, 0.08),
            ),
            (Shape::Sphere { radius_m: 0.02 }, DVec3::splat(0.02)),
            (
                Shape::Ring {
                    radius_m: 0.01,
                    tube_m: 0.002,
                },
                DVec3::new(0.012, 0.012, 0.002),
            ),
        ];
        for (shape, extent) in shapes {
            let inside = |p: DVec3| match shape {
                Shape::RoundedBox {
                    half_extents_m: h, ..
                } => p.abs().cmple(h).all(),
                Shape::Cylinder {
                    radius_m,
                    half_length_m,
                    ..
                } => p.truncate().length() <= radius_m && p.z.abs() <= half_length_m,
                Shape::Sphere { radius_m } => p.length() <= radius_m,
                Shape::Ring { radius_m, tube_m } => {
                    (p.truncate().length() - radius_m).hypot(p.z) <= tube_m
                }
            };
            let n = 120;
            let cell = 2.0 * extent / n as f64;
            let (mut volume, mut second) = (0.0, DVec3::ZERO);
            for i in 0..n {
                for j in 0..n {
                    for k in 0..n {
                        let p = (DVec3::new(i as f64, j as f64, k as f64) + 0.5) * cell - extent;
                        if inside(p) {
                            volume += 1.0;
                            second += p * p;
                        }
                    }
                }
            }
            let mass = 0.05;
            let s = second * (mass / volume);
            let numeric = DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y);
            let closed = shape.inertia_kg_m2(mass);
            let error = ((numeric - closed) / closed).abs().max_element();
            assert!(error < 5e-3, "{shape:?}: {closed} vs numeric {numeric}");
        }
    }

    /// The lowest points against a brute-force search over points sampled on the surface.
    #[test]
    fn the_lowest_points_are_the_lowest_of_the_surface() {
        let q = DQuat::from_euler(glam::EulerRot::XYZ, 0.4, -0.9, 0.3);
        let shapes = [
            Shape::RoundedBox {
                half_extents_m: DVec3::new(0.007, 0.007, 0.007),
                corner_m: 0.001,
            },
            Shape::Cylinder {
                radius_m: 0.012,
                half_length_m: 0.001,
                edge_m: 0.0005,
            },
            Shape::Sphere { radius_m: 0.02 },
            Shape::Ring {
                radius_m: 0.01,
                tube_m: 0.002,
            },
        ];
        for shape in shapes {
            let (points, count) = shape.lowest_points(q, 1e-9);
            assert_eq!(count, 1, "{shape:?} tilted has one lowest point");
            // Sample the surface: rounded features are spheres and tori around a skeleton.
            let mut lowest = f64::INFINITY;
            let n = 400;
            for i in 0..n {
                for j in 0..n {
                    let (theta, phi) = (
                        std::f64::consts::PI * (i as f64 + 0.5) / n as f64,
                        std::f64::consts::TAU * j as f64 / n as f64,
                    );
                    let dir = DVec3::new(
                        theta.sin() * phi.cos(),
                        theta.sin() * phi.sin(),
                        theta.cos(),
                    );
                    let p = match shape {
                        Shape::RoundedBox {
                            half_extents_m: h,
                            corner_m,
                        } => q * (h * dir.signum()) + dir * corner_m,
                        Shape::Cylinder {
                            radius_m,
                            half_length_m,
                            edge_m,
                        } => {
                            let rim = DVec3::new(phi.cos(), phi.sin(), 0.0) * (radius_m - edge_m)
                                + DVec3::Z * half_length_m * theta.cos().signum();
                            q * rim + dir * edge_m
                        }
                        Shape::Sphere { radius_m } => dir * radius_m,
                        Shape::Ring { radius_m, tube_m } => {
                            q * (DVec3::new(phi.cos(), phi.sin(), 0.0) * radius_m) + dir * tube_m
                        }
                    };
                    lowest = lowest.min(p.z);
                }
            }
            assert!(
                points[0].z <= lowest + 1e-12,
                "{shape:?}: {} vs sampled {lowest}",
                points[0].z
            );
            assert!(
                points[0].z > lowest - 1e-4,
                "{shape:?}: {} vs sampled {lowest}",
                points[0].z
            );
        }
    }

    /// A die lying on a face has its four lower corners lowest; a flat coin three rim points
    /// spread over the rim; a rod lying on its side both ends' rims.
    #[test]
    fn resting_poses_touch_on_several_points() {
        let die = Shape::RoundedBox {
            half_extents_m: DVec3::splat(0.007),
            corner_m: 0.001,
        };
        assert_eq!(die.lowest_points(DQuat::IDENTITY, 1e-9).1, 4);
        let coin = Shape::Cylinder {
            radius_m: 0.012,
            half_length_m: 0.001,
            edge_m: 0.0005,
        };
        let (points, count) = coin.lowest_points(DQuat::IDENTITY, 1e-9);
        assert_eq!(count, 3);
        let centroid = points[..3].iter().sum::<DVec3>() / 3.0;
        assert!(centroid.truncate().length() < 1e-12);
        let rod = Shape::Cylinder {
            radius_m: 0.004,
            half_length_m: 0.08,
            edge_m: 0.0,
        };
        let side = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2);
        let (points, count) = rod.lowest_points(side, 1e-9);
        assert_eq!(count, 2);
        assert!(
            (points[0].z - points[1].z).abs() < 1e-12 && (points[0] - points[1]).length() > 0.15
        );
    }
}
