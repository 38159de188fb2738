//! Bodies from material and size: strikers (a ball, a mallet, a rod or spoon end, a coin edge or a point mass) with the mass the contact sees, their own modes and the radius they touch with; an object's pitch.
//!
//! A free body struck at a point moves as a rigid body and vibrates in its free modes. The rigid
//! part is the hammer's mass: the body's effective mass at the contact point along the strike
//! axis, 1/m_eff = Σ over the rigid modes of (shape at the point)²/mass (translation, and the
//! rotations a blow off the centre of mass sets going). The free modes are a modal bank whose
//! shapes are normalised to the bank's modal mass (∫ρ·φ²dV = M_bank), so its receptance at the
//! contact point is Σ φᵢ²/(M_bank·(ωᵢ² − ω²)).

mod dropped;
mod grip;
pub mod sphere;

pub use dropped::DropBody;
pub use grip::Grip;

use crate::material::{
    effective_modulus_pa, free_bar_fundamental_hz, free_disc_fundamental_hz, hertz_stiffness,
    pair_restitution, sphere_mass_kg, supported_plate_fundamental_hz, t60_from_loss_factor_s,
    Material, MATERIALS,
};
use crate::radiation::Radiator;
use crate::resonator::{
    chime_strike_note_hz, chime_tube_area_m2, object_modes, Mode, ObjectKind, ObjectSpec,
    BAR_WIDTH_PER_LENGTH, MAX_MODES,
};
use std::f64::consts::PI;

/// Most modes a striker has.
pub const MAX_STRIKER_MODES: usize = 16;

/// A mallet's stick: maple, 0.35 m long, a square section of 9 mm.
const MALLET_STICK_LENGTH_M: f64 = 0.35;
const MALLET_STICK_THICKNESS_M: f64 = 0.009;
/// A rod's (or spoon handle's) section: thickness and width per metre of length (a 15 cm spoon:
/// 3 × 9 mm).
const ROD_THICKNESS_PER_LENGTH: f64 = 1.0 / 50.0;
const ROD_WIDTH_PER_THICKNESS: f64 = 3.0;
/// A coin's thickness per metre of radius (a 24 mm coin is 1.75 mm thick).
const COIN_THICKNESS_PER_RADIUS: f64 = 0.144;

/// What strikes the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrikerKind {
    /// A point mass (the mass knob): no modes, no size.
    PointMass,
    /// A solid ball of radius `size_m`: its lowest spheroidal modes (Lamb).
    Ball,
    /// A ball head of radius `size_m` on a maple stick: the head's modes, the stick's bending
    /// modes as its end feels them, and a quarter of the stick's mass on the head.
    Mallet,
    /// The end of a rod or spoon handle of length `size_m`, hitting across: a free–free bar.
    Rod,
    /// The rim of a coin of radius `size_m`, hitting across its face: a free circular plate.
    Coin,
}

impl StrikerKind {
    pub const ALL: [StrikerKind; 5] = [
        StrikerKind::PointMass,
        StrikerKind::Ball,
        StrikerKind::Mallet,
        StrikerKind::Rod,
        StrikerKind::Coin,
    ];

    /// How the count of the striker's modes grows with frequency, N(f) ∝ f^b: 3 for a solid
    /// ball (Weyl's law for a body), ½ for a rod and a mallet (the stick's bending), 1 for a
    /// coin (a plate), 1 for a point mass (no modes).
    pub fn modal_count_exponent(self) -> f64 {
        match self {
            StrikerKind::Ball => 3.0,
            StrikerKind::Mallet | StrikerKind::Rod => 0.5,
            StrikerKind::Coin | StrikerKind::PointMass => 1.0,
        }
    }

    /// Lower-case name as used on command lines and in presets.
    pub fn name(self) -> &'static str {
        match self {
            StrikerKind::PointMass => "point-mass",
            StrikerKind::Ball => "ball",
            StrikerKind::Mallet => "mallet",
            StrikerKind::Rod => "rod",
            StrikerKind::Coin => "coin",
        }
    }

    /// The kind named `name` (see [`StrikerKind::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A striker as the user describes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrikerSpec {
    pub kind: StrikerKind,
    pub material: &'static Material,
    /// The ball's or the mallet head's radius, the rod's length, the coin's radius, m.
    pub size_m: f64,
}

/// A striker's own modes as [`StrikerSpec::body`] writes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrikerBody {
    /// The modal mass of its modes' bank, kg (their shapes are normalised to it).
    pub modal_mass_kg: f64,
    /// Modes written to the output slice.
    pub num_modes: usize,
}

impl StrikerSpec {
    fn size(&self) -> f64 {
        self.size_m.max(1e-4)
    }

    /// A rod's section (thickness, width) and a coin's thickness, m.
    fn rod_section_m(&self) -> (f64, f64) {
        let thickness_m = self.size() * ROD_THICKNESS_PER_LENGTH;
        (thickness_m, thickness_m * ROD_WIDTH_PER_THICKNESS)
    }

    fn coin_thickness_m(&self) -> f64 {
        self.size() * COIN_THICKNESS_PER_RADIUS
    }

    /// A rod's modes (a free bar) read at `at`, a fraction of its length from the striking end.
    fn rod_modes(&self, at: f64, out: &mut [Mode]) -> usize {
        let (thickness_m, width_m) = self.rod_section_m();
        let bar = (self.size(), thickness_m, width_m);
        bar_modes(self.material, bar, 1.0, at, out)
    }

    /// The mallet stick's bending modes read at `at` (a fraction of its length from the head),
    /// in a bank of `modal_mass_kg`: a part of mass m enters with its shapes scaled by
    /// √(M_bank/m).
    fn stick_modes(modal_mass_kg: f64, at: f64, out: &mut [Mode]) -> usize {
        let scale = (modal_mass_kg / Self::stick_mass_kg()).sqrt();
        let (length_m, thickness_m) = (MALLET_STICK_LENGTH_M, MALLET_STICK_THICKNESS_M);
        let bar = (length_m, thickness_m, thickness_m);
        bar_modes(&MATERIALS[MAPLE], bar, scale, at, out)
    }

    /// The mallet's stick's mass, kg.
    fn stick_mass_kg() -> f64 {
        MATERIALS[MAPLE].density_kg_per_m3
            * MALLET_STICK_LENGTH_M
            * MALLET_STICK_THICKNESS_M
            * MALLET_STICK_THICKNESS_M
    }

    /// The mass of the part that carries the striker's modes (the mallet's head), kg; a point
    /// mass is `point_mass_kg`.
    fn body_mass_kg(&self, point_mass_kg: f64) -> f64 {
        let (size_m, rho) = (self.size(), self.material.density_kg_per_m3);
        match self.kind {
            StrikerKind::PointMass => point_mass_kg,
            StrikerKind::Ball | StrikerKind::Mallet => sphere_mass_kg(self.material, size_m),
            StrikerKind::Rod => {
                let (thickness_m, width_m) = self.rod_section_m();
                rho * size_m * thickness_m * width_m
            }
            StrikerKind::Coin => rho * PI * size_m * size_m * self.coin_thickness_m(),
        }
    }

    /// The striker's rigid effective mass at its contact point along the strike axis, kg
    /// (1/m_eff = Σ rigid shapes²/mass): a ball's whole mass; a mallet's head and a quarter of its
    /// stick (the stick's end, free); a rod struck across at its end M/4 (translation 1/M plus
    /// rotation about its centre (L/2)²/(M·L²/12) = 3/M); a coin struck across at its rim M/5
    /// (rotation about a diameter a²/(M·a²/4) = 4/M); a point mass `point_mass_kg`.
    pub fn rigid_mass_kg(&self, point_mass_kg: f64) -> f64 {
        let mass_kg = self.body_mass_kg(point_mass_kg);
        match self.kind {
            StrikerKind::PointMass | StrikerKind::Ball => mass_kg,
            StrikerKind::Mallet => mass_kg + Self::stick_mass_kg() / 4.0,
            StrikerKind::Rod => mass_kg / 4.0,
            StrikerKind::Coin => mass_kg / 5.0,
        }
    }

    /// Hertz's contact between this striker and a flat object of `object` material: the
    /// stiffness k = (4/3)·E*·√R* (N/m^1.5, α = 3/2, R* the striker's radius of curvature where it
    /// touches) and the pair's coefficient of restitution, the smaller of the two materials'
    /// typical ones.
    pub fn hertz_contact(&self, object: &Material) -> (f64, f64) {
        let e_star = effective_modulus_pa(self.material, object);
        (
            hertz_stiffness(e_star, self.contact_radius_m()),
            pair_restitution(self.material, object),
        )
    }

    /// Radius of curvature of the striker's surface where it touches, m: the ball's or head's
    /// radius (a point mass counts as a ball of `size_m`), the rod's end rounded across its width,
    /// the coin's rim rounded across its thickness.
    pub fn contact_radius_m(&self) -> f64 {
        match self.kind {
            StrikerKind::PointMass | StrikerKind::Ball | StrikerKind::Mallet => self.size(),
            StrikerKind::Rod => 0.5 * self.rod_section_m().1,
            StrikerKind::Coin => 0.5 * self.coin_thickness_m(),
        }
    }

    /// The striker's own modes: its lowest (at most `out.len()` and [`MAX_STRIKER_MODES`])
    /// written to `out`, their decay from the material's loss factor (T60 = 2.2/(η·f)) and their
    /// pickup at the contact point, and their bank's modal mass. A point mass (of
    /// `point_mass_kg`) has no modes.
    pub fn body(&self, point_mass_kg: f64, out: &mut [Mode]) -> StrikerBody {
        let (size_m, material) = (self.size(), self.material);
        let limit = out.len().min(MAX_STRIKER_MODES);
        let out = &mut out[..limit];
        let modal_mass_kg = self.body_mass_kg(point_mass_kg);
        let num_modes = match self.kind {
            StrikerKind::PointMass => 0,
            StrikerKind::Ball => ball_modes(material, size_m, 1.0, out),
            StrikerKind::Mallet => {
                // Both parts' modes in one bank of the head's mass.
                let head = ball_modes(material, size_m, 1.0, out);
                let stick = Self::stick_modes(modal_mass_kg, 0.0, &mut out[head..]);
                sort_by_frequency(out, head + stick)
            }
            StrikerKind::Rod => self.rod_modes(0.0, out),
            StrikerKind::Coin => coin_modes(material, size_m, self.coin_thickness_m(), out),
        };
        StrikerBody {
            modal_mass_kg,
            num_modes,
        }
    }
}

/// An object's thickness per metre of its size (a 40 cm bar is 2 cm thick, a 1 m plank 2.5 cm,
/// a 40 cm plate 4 mm, a 20 cm radius disc 4 mm).
const BAR_THICKNESS_PER_LENGTH: f64 = 1.0 / 20.0;
const PLANK_THICKNESS_PER_LENGTH: f64 = 1.0 / 40.0;
const PLATE_THICKNESS_PER_SIDE: f64 = 1.0 / 100.0;
const DISC_THICKNESS_PER_RADIUS: f64 = 1.0 / 50.0;

/// The frequency (Hz) of the mode an object of `kind` is tuned by, from its `material` and its
/// size (a bar's or plank's length, a rectangular plate's longer side, a disc's radius, m), in
/// the proportions of the object table: a free–free bar (the marimba bar's before its undercut,
/// which lowers it), f₁ = 1.0279·(h/L²)·√(E/ρ); the chime's strike note
/// ([`chime_strike_note_hz`]); the plank and the rectangular plate simply
/// supported, aspect 0.2 and 0.7; the circular plate free. `None` for objects whose pitch a size
/// and a material do not set alone (a membrane's and a string's tension, a bell's and a glass's
/// shell profile): those keep their tuning.
pub fn object_fundamental_hz(kind: ObjectKind, material: &Material, size_m: f64) -> Option<f64> {
    let size_m = size_m.max(1e-3);
    match kind {
        ObjectKind::FreeBar
        | ObjectKind::MarimbaBar
        | ObjectKind::XylophoneBar
        | ObjectKind::GlockenspielBar => Some(free_bar_fundamental_hz(
            material,
            size_m,
            size_m * BAR_THICKNESS_PER_LENGTH,
        )),
        ObjectKind::Chime => Some(chime_strike_note_hz(material, size_m)),
        ObjectKind::Plank => Some(supported_plate_fundamental_hz(
            material,
            size_m,
            kind.plate_aspect() * size_m,
            size_m * PLANK_THICKNESS_PER_LENGTH,
        )),
        ObjectKind::RectangularPlate => Some(supported_plate_fundamental_hz(
            material,
            size_m,
            kind.plate_aspect() * size_m,
            size_m * PLATE_THICKNESS_PER_SIDE,
        )),
        ObjectKind::CircularPlate => Some(free_disc_fundamental_hz(
            material,
            size_m,
            size_m * DISC_THICKNESS_PER_RADIUS,
        )),
        ObjectKind::Membrane
        | ObjectKind::Kettledrum
        | ObjectKind::String
        | ObjectKind::SteelString
        | ObjectKind::Bell
        | ObjectKind::Glass => None,
    }
}

/// A bell's mean wall thickness per metre of its mouth's radius (its sound bow is thicker, its
/// waist thinner), and a glass's.
const BELL_THICKNESS_PER_RADIUS: f64 = 1.0 / 12.0;
const GLASS_THICKNESS_PER_RADIUS: f64 = 1.0 / 25.0;
/// A drum head's mass per m² with the air its modes carry along (comparable to the film's own
/// 0.2–0.3 kg/m²; Fletcher & Rossing, *The Physics of Musical Instruments*, §18.1), kg/m².
const DRUM_HEAD_KG_PER_M2: f64 = 1.0;

/// The size (m) of an object of `kind` in `material` that weighs `mass_kg`, in the proportions
/// of the object table and [`object_fundamental_hz`]: a bar's length (width ⅕, thickness ¹⁄₂₀
/// of it), a plank's (⅕, ¹⁄₄₀), a rectangular plate's longer side (0.7, ¹⁄₁₀₀), a circular
/// plate's radius (thickness ¹⁄₅₀), a chime's length (its tube's section fixed), a bell's and a
/// glass's radius (a hemispherical shell of the thickness above), a drum head's radius
/// ([`DRUM_HEAD_KG_PER_M2`]); a string's length, 1 m (it is heard through its soundboard). What sets how the object radiates (see
/// [`crate::radiation`]) when its size is not set by hand.
pub fn object_size_m(kind: ObjectKind, material: &Material, mass_kg: f64) -> f64 {
    let mass_kg = mass_kg.max(1e-6);
    let per_m3 = |volume_per_size_cubed: f64| {
        (mass_kg / (material.density_kg_per_m3 * volume_per_size_cubed)).cbrt()
    };
    let shell = 2.0 * PI;
    match kind {
        ObjectKind::FreeBar
        | ObjectKind::MarimbaBar
        | ObjectKind::XylophoneBar
        | ObjectKind::GlockenspielBar => per_m3(BAR_WIDTH_PER_LENGTH * BAR_THICKNESS_PER_LENGTH),
        ObjectKind::Plank | ObjectKind::RectangularPlate => {
            let thickness = if kind == ObjectKind::Plank {
                PLANK_THICKNESS_PER_LENGTH
            } else {
                PLATE_THICKNESS_PER_SIDE
            };
            per_m3(kind.plate_aspect() * thickness)
        }
        ObjectKind::Chime => mass_kg / (material.density_kg_per_m3 * chime_tube_area_m2()),
        ObjectKind::CircularPlate => per_m3(PI * DISC_THICKNESS_PER_RADIUS),
        ObjectKind::Bell => per_m3(shell * BELL_THICKNESS_PER_RADIUS),
        ObjectKind::Glass => per_m3(shell * GLASS_THICKNESS_PER_RADIUS),
        ObjectKind::Membrane | ObjectKind::Kettledrum => {
            (mass_kg / (PI * DRUM_HEAD_KG_PER_M2)).sqrt()
        }
        ObjectKind::String | ObjectKind::SteelString => 1.0,
    }
}

/// Index of maple in [`MATERIALS`].
const MAPLE: usize = 9;

/// The lowest spheroidal modes of a sphere of `radius_m` in `material` struck radially (see
/// [`sphere::sphere_modes`]): f = ξ·c_s/(2π·R), c_s = √(E/(2(1+ν)ρ)); shapes times `scale`.
fn ball_modes(material: &Material, radius_m: f64, scale: f64, out: &mut [Mode]) -> usize {
    let mut sphere = [sphere::SphereMode {
        degree: 0,
        xi: 0.0,
        pole_shape: 0.0,
    }; sphere::MAX_SPHERE_MODES];
    let n = sphere::sphere_modes(material.poisson_ratio, &mut sphere).min(out.len());
    let shear_modulus_pa = material.youngs_modulus_pa / (2.0 * (1.0 + material.poisson_ratio));
    let c_s = (shear_modulus_pa / material.density_kg_per_m3).sqrt();
    for (mode, s) in out.iter_mut().zip(&sphere[..n]) {
        let freq_hz = s.xi * c_s / (2.0 * PI * radius_m);
        let shape = scale * s.pole_shape;
        *mode = Mode {
            freq_hz,
            t60_s: t60_from_loss_factor_s(material.loss_factor, freq_hz),
            strike_shape: shape,
            pickup_shape: shape,
            side_shape: 0.0,
            tangent_shape: 0.0,
            radiator: Radiator::Multipole {
                order: s.degree,
                radius_m,
                area_m2: 4.0 * PI * radius_m * radius_m,
            },
        };
    }
    n
}

/// A free–free bar of `length_m`, `thickness_m` and `width_m` in `material` struck across at
/// `at` (a fraction of its length from the struck end; 0 for the end): the bar's table modes
/// (Euler–Bernoulli), whose shapes, 1 at the ends in the table, are 2 there once normalised to
/// the bar's mass (∫φ²dx = L); times `scale`. They radiate from both faces, 2·L·w.
fn bar_modes(
    material: &Material,
    (length_m, thickness_m, width_m): (f64, f64, f64),
    scale: f64,
    at: f64,
    out: &mut [Mode],
) -> usize {
    let f0_hz = free_bar_fundamental_hz(material, length_m, thickness_m);
    let spec = ObjectSpec {
        kind: ObjectKind::FreeBar,
        f0_hz,
        num_modes: out.len(),
        // T60 ∝ 1/f: the slope ½ of the table's law t60/r^(2·slope).
        t60_s: t60_from_loss_factor_s(material.loss_factor, f0_hz),
        damping_slope: 0.5,
        stretch: 0.0,
        strike_position: at,
        pickup_position: at,
        right_pickup_position: at,
    };
    let mut table = [Mode::SILENT; MAX_MODES];
    let n = object_modes(&spec, length_m, &mut table).min(out.len());
    for (mode, from) in out.iter_mut().zip(&table[..n]) {
        let radiator = match from.radiator {
            Radiator::Multipole {
                order, radius_m, ..
            } => Radiator::Multipole {
                order,
                radius_m,
                area_m2: 2.0 * length_m * width_m,
            },
            other => other,
        };
        *mode = Mode {
            strike_shape: 2.0 * scale * from.strike_shape,
            pickup_shape: 2.0 * scale * from.pickup_shape,
            side_shape: 0.0,
            tangent_shape: 0.0,
            radiator,
            ..*from
        };
    }
    n
}

/// A coin, a free circular plate of radius `radius_m` and `thickness_m` in `material`, struck
/// across at its rim. Its lowest flexural mode (two nodal diameters) is at ω = λ²/a²·√(D/(ρh)),
/// D = E·h³/(12(1−ν²)) ([`free_disc_fundamental_hz`]); the modes (m nodal diameters, n nodal circles) above it follow Chladni's
/// law f ∝ (m + 2n)² with shapes J_m(κr/a)·cos(mθ), κ = (m + 2n)·π/2, as the object table's plate
/// does (Rossing, Am. J. Phys. 50, 1982: a rough law for the lowest modes, which it puts closer
/// together than a real free plate). Each shape is normalised to the coin's mass over the disc,
/// ∫∫φ²dA = πa², with ∫₀¹J_m(κρ)²ρdρ = ½·[J_m′(κ)² + (1 − m²/κ²)·J_m(κ)²], and read at the rim.
fn coin_modes(material: &Material, radius_m: f64, thickness_m: f64, out: &mut [Mode]) -> usize {
    let f0_hz = free_disc_fundamental_hz(material, radius_m, thickness_m);
    let mut count = 0;
    // Orders m + 2n = 2, 3, 4, … in ascending frequency; the rigid motions (orders 0 and 1) are
    // the hammer's mass.
    for order in 2..=2 * out.len() {
        for circles in 0..=order / 2 {
            if count == out.len() {
                return count;
            }
            let m = (order - 2 * circles) as i32;
            let kappa = order as f64 * PI / 2.0;
            let rim = libm::jn(m, kappa);
            let slope = if m == 0 {
                -libm::jn(1, kappa)
            } else {
                libm::jn(m - 1, kappa) - f64::from(m) / kappa * rim
            };
            let radial =
                0.5 * (slope * slope + (1.0 - f64::from(m * m) / (kappa * kappa)) * rim * rim);
            let angular = if m == 0 { 2.0 } else { 1.0 };
            let shape = rim / (angular * radial).sqrt();
            let freq_hz = f0_hz * (order as f64 / 2.0).powi(2);
            out[count] = Mode {
                freq_hz,
                t60_s: t60_from_loss_factor_s(material.loss_factor, freq_hz),
                strike_shape: shape,
                pickup_shape: shape,
                side_shape: 0.0,
                tangent_shape: 0.0,
                // A free plate's mode radiates as its Chladni order's multipole (see
                // `ObjectKind::radiator`), from both faces.
                radiator: Radiator::Multipole {
                    order: order as u32,
                    radius_m,
                    area_m2: 2.0 * PI * radius_m * radius_m,
                },
            };
            count += 1;
        }
    }
    count
}

/// Sort the first `n` modes by frequency (insertion sort: a few dozen at most); returns `n`.
fn sort_by_frequency(modes: &mut [Mode], n: usize) -> usize {
    for i in 1..n {
        let mut j = i;
        while j > 0 && modes[j - 1].freq_hz > modes[j].freq_hz {
            modes.swap(j - 1, j);
            j -= 1;
        }
    }
    n
}

#[cfg(test)]
mod tests;
