//! The object library: mode tables of struck objects as functions of the fundamental and a few
//! material and geometry knobs, generated without allocation.

use super::{Mode, MAX_MODES};
use crate::radiation::Radiator;
use std::f64::consts::PI;

/// The kinds of struck object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// Free–free Euler–Bernoulli bar (xylophone-like, untuned overtones).
    FreeBar,
    /// Bar with an undercut tuning its first overtones to 4 and 10 times the fundamental.
    MarimbaBar,
    /// Bar with an undercut tuning its first overtones to 3 and 6 times the fundamental.
    XylophoneBar,
    /// Glockenspiel bar: a steel bar 3/8 in thick, free at both ends, as long as its note asks;
    /// shear and rotary inertia (Timoshenko) lower its overtones the more, the shorter it is.
    GlockenspielBar,
    /// Chime (tubular bell): a brass tube free at both ends, tuned by its strike note, an octave
    /// under its 4th mode; shear and rotary inertia lower its upper modes.
    Chime,
    /// Thin circular plate with a free edge (cymbal-, gong-like).
    CircularPlate,
    /// Thin rectangular plate, simply supported (aspect ratio 0.7).
    RectangularPlate,
    /// Ideal circular membrane (drum head).
    Membrane,
    /// Kettledrum (timpani): a head loaded by the air on both sides and by its kettle's volume,
    /// its (1, 1) mode on the note and its (2, 1) a fifth above.
    Kettledrum,
    /// Church bell.
    Bell,
    /// Wine glass (thin bowl, rim modes).
    Glass,
    /// Wooden plank: a long plate of aspect ratio 0.2, bar-like low modes with plate modes above.
    Plank,
    /// Ideal string: harmonic partials.
    String,
    /// Stiff steel string, pinned at both ends: its partials stretched by the wire's bending
    /// stiffness (a dulcimer's, a cimbalom's, a piano's).
    SteelString,
}

impl ObjectKind {
    pub const ALL: [ObjectKind; 14] = [
        ObjectKind::FreeBar,
        ObjectKind::MarimbaBar,
        ObjectKind::XylophoneBar,
        ObjectKind::GlockenspielBar,
        ObjectKind::Chime,
        ObjectKind::CircularPlate,
        ObjectKind::RectangularPlate,
        ObjectKind::Membrane,
        ObjectKind::Kettledrum,
        ObjectKind::Bell,
        ObjectKind::Glass,
        ObjectKind::Plank,
        ObjectKind::String,
        ObjectKind::SteelString,
    ];

    /// Lower-case name as used on command lines.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::FreeBar => "bar",
            ObjectKind::MarimbaBar => "marimba",
            ObjectKind::XylophoneBar => "xylophone",
            ObjectKind::GlockenspielBar => "glockenspiel",
            ObjectKind::Chime => "chime",
            ObjectKind::CircularPlate => "circular-plate",
            ObjectKind::RectangularPlate => "rectangular-plate",
            ObjectKind::Membrane => "membrane",
            ObjectKind::Kettledrum => "kettledrum",
            ObjectKind::Bell => "bell",
            ObjectKind::Glass => "glass",
            ObjectKind::Plank => "plank",
            ObjectKind::String => "string",
            ObjectKind::SteelString => "steel-string",
        }
    }

    /// How the count of the object's modes grows with frequency, N(f) ∝ f^b: 1 for a plate or
    /// a shell in bending (a bell's, a glass's, above their ring frequency) and for a string, ½
    /// for a bar in bending, 2 for a membrane (Cremer, Heckl & Petersson, *Structure-Borne
    /// Sound*: the modal densities of beams, plates and membranes).
    pub fn modal_count_exponent(self) -> f64 {
        match self {
            ObjectKind::FreeBar
            | ObjectKind::MarimbaBar
            | ObjectKind::XylophoneBar
            | ObjectKind::GlockenspielBar
            | ObjectKind::Chime => 0.5,
            ObjectKind::Membrane | ObjectKind::Kettledrum => 2.0,
            ObjectKind::CircularPlate
            | ObjectKind::RectangularPlate
            | ObjectKind::Plank
            | ObjectKind::Bell
            | ObjectKind::Glass
            | ObjectKind::String
            | ObjectKind::SteelString => 1.0,
        }
    }

    pub fn from_name(name: &str) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A rectangular plate's width over its length (a plank's too; 1 for any other object).
    pub fn plate_aspect(self) -> f64 {
        match self {
            ObjectKind::RectangularPlate => 0.7,
            ObjectKind::Plank => 0.2,
            _ => 1.0,
        }
    }

    /// A bar's width (a chime's tube's diameter), m, at length `size_m`.
    fn bar_width_m(self, size_m: f64) -> f64 {
        if self == ObjectKind::Chime {
            CHIME_DIAMETER_M
        } else {
            BAR_WIDTH_PER_LENGTH * size_m
        }
    }

    /// How the mode of `shape` of this object, `size_m` large (a bar's or a plank's length, a
    /// rectangular plate's longer side, a circular plate's, a drum head's, a bell's or a glass's
    /// radius), radiates:
    /// - a simply supported plate's mode (m, n) as in a baffle: the floor, the table or the
    ///   frame it lies in;
    /// - the other objects' modes as their lowest multipole on the sphere round them. A free
    ///   bar's mode i has i + 2 nodes and moves no net volume: order i + 2 (the fundamental a
    ///   linear quadrupole; Fletcher & Rossing, *The Physics of Musical Instruments*, §2.14 and
    ///   §19), but a marimba's or a xylophone's bar's fundamental, which the tube tuned to it
    ///   under the bar radiates as a monopole (its mouth's volume velocity; §19.3: the resonators
    ///   make the fundamental louder); a free plate's mode (m, n), of Chladni order m + 2n, that order (the (2, 0)
    ///   mode a quadrupole; §3.6); a bell's or a glass's rim mode of m nodal meridian pairs,
    ///   order m (§21.2); a drum head's mode (m, n), order m (the (0, 1) mode a monopole; §18.1);
    /// - a string's partials through the soundboard it drives, which pumps air as a monopole
    ///   (a disc of its area); a bare string is nearly silent.
    fn radiator(self, shape: Shape, size_m: f64) -> Radiator {
        let size_m = size_m.max(1e-3);
        let disc_m2 = PI * size_m * size_m;
        let multipole = |order: f64, radius_m: f64, area_m2: f64| Radiator::Multipole {
            order: order.round().max(0.0) as u32,
            radius_m,
            area_m2,
        };
        match shape {
            Shape::Bar(b) => {
                let index = bar_index(b);
                let tube = self.is_tuned_bar() && index == 0.0;
                multipole(
                    if tube { 0.0 } else { index + 2.0 },
                    0.5 * size_m,
                    2.0 * self.bar_width_m(size_m) * size_m,
                )
            }
            Shape::Plate(m, n) => Radiator::BaffledPlate {
                m: m as u32,
                n: n as u32,
                a_m: size_m,
                b_m: self.plate_aspect() * size_m,
            },
            Shape::Bessel(m, _) if self.is_drum_head() => multipole(f64::from(m), size_m, disc_m2),
            Shape::Bessel(_, kappa) => multipole(2.0 * kappa / PI, size_m, 2.0 * disc_m2),
            Shape::Rim(m) => multipole(m, size_m, 2.0 * disc_m2),
            Shape::String(_) => {
                multipole(0.0, (SOUNDBOARD_AREA_M2 / PI).sqrt(), SOUNDBOARD_AREA_M2)
            }
            Shape::Flat => Radiator::SILENT,
        }
    }
}

/// A bar's width per metre of its length (a 40 cm marimba bar is 8 cm wide).
pub const BAR_WIDTH_PER_LENGTH: f64 = 0.2;
/// The soundboard a string drives, m²: a dulcimer's (a piano's is 1–2 m²).
const SOUNDBOARD_AREA_M2: f64 = 0.25;

/// A struck object as the user sets it up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectSpec {
    pub kind: ObjectKind,
    /// Frequency the object is tuned by (the bell's prime, the plate's lowest mode, the chime's
    /// strike note), Hz.
    pub f0_hz: f64,
    /// Modes to generate (at most [`MAX_MODES`]).
    pub num_modes: usize,
    /// T60 of the fundamental in seconds.
    pub t60_s: f64,
    /// Material damping law, 0…1: T60 of a mode at frequency ratio r is t60_s / r^(2·slope), from
    /// "all partials ring alike" (0) to "decay rate ∝ f², high partials die fast" (1, viscous-like).
    pub damping_slope: f64,
    /// Inharmonicity: every ratio r becomes r^(1 + stretch); 0 keeps the table.
    pub stretch: f64,
    /// Where the object is struck, 0…1 along its length or radius (angle on a rim).
    pub strike_position: f64,
    /// Where the object is heard by the left pickup, 0…1 likewise.
    pub pickup_position: f64,
    /// Where the right pickup is, 0…1 likewise (on a circular object, also a quarter turn round
    /// from the left one); at the left pickup's position the two are one (mono).
    pub right_pickup_position: f64,
}

impl ObjectSpec {
    /// A marimba bar at `f0_hz` with 16 modes, struck and heard off-centre.
    pub fn marimba(f0_hz: f64) -> Self {
        Self {
            kind: ObjectKind::MarimbaBar,
            f0_hz,
            num_modes: 16,
            t60_s: 1.5,
            damping_slope: 0.5,
            stretch: 0.0,
            strike_position: 0.1,
            pickup_position: 0.05,
            right_pickup_position: 0.13,
        }
    }
}

/// How a candidate mode's shape is evaluated at a point, once the mode is known to be kept (the
/// circular objects' shapes cost two Bessel-function evaluations each).
#[derive(Clone, Copy, Default)]
enum Shape {
    #[default]
    Flat,
    /// Free–free bar with βL = b: ½·φ(ξ) ([`bar_shape`]).
    Bar(f64),
    /// Simply supported plate mode (m, n): sin(mπx)·sin(nπy), y the point's line across the plate.
    Plate(f64, f64),
    /// Circular mode of order m and radial wavenumber κ: J_m(κr)·cos(mθ).
    Bessel(i32, f64),
    /// Rim mode of order m: cos(mπx), x the angle as a fraction of π.
    Rim(f64),
    /// String partial k: sin(kπx).
    String(f64),
}

/// A point on an object: `x` along its length, radius or rim (0…1); `y` the line across a plate
/// (fraction of its width); `angle` the angle on a circular object, rad.
#[derive(Clone, Copy)]
struct Point {
    x: f64,
    y: f64,
    angle: f64,
}

impl Shape {
    fn at(self, point: Point) -> f64 {
        match self {
            Shape::Flat => 0.0,
            Shape::Bar(b) => 0.5 * bar_shape(b, point.x),
            Shape::Plate(m, n) => (m * PI * point.x).sin() * (n * PI * point.y).sin(),
            Shape::Bessel(m, kappa) => {
                libm::jn(m, kappa * point.x.max(1e-3)) * (point.angle * f64::from(m)).cos()
            }
            Shape::Rim(m) => (m * PI * point.x).cos(),
            Shape::String(k) => (k * PI * point.x).sin(),
        }
    }

    /// The tangential participation of a friction force (a slider's, see
    /// [`crate::voice::PlayMode::Slide`]) at a point where the strike shape is `strike`:
    /// - a rim mode of order m, rubbed round the rim: 1/m. Inextensional ring modes move along
    ///   the rim by 1/m of their radial amplitude (w = cos mθ, v = −sin(mθ)/m; Fletcher &
    ///   Rossing, *The Physics of Musical Instruments*, §21.1), and the degenerate pair of each
    ///   order turns its pattern to follow the finger (Rossing, "Acoustics of the glass
    ///   harmonica", JASA 95, 1994), so the finger always meets the largest tangential motion;
    /// - every other mode, bowed or stroked across its edge or face: the friction acts along the
    ///   bending direction there, so it drives the mode as a normal force at that point does,
    ///   the mode's own shape. A slider dragged *along* a surface drives bending only through the
    ///   moment (h/2)·∂w/∂s, a small fraction of that; the slide's tangential coupling scales
    ///   this for such strokes.
    fn tangent(self, strike: f64) -> f64 {
        match self {
            Shape::Rim(m) => 1.0 / m.max(1.0),
            _ => strike,
        }
    }

    /// The strike shape at `point` and the tangential participation there ([`Shape::tangent`]).
    fn strike_and_tangent(self, point: Point) -> (f64, f64) {
        let strike = self.at(point);
        (strike, self.tangent(strike))
    }
}

/// One candidate mode before sorting: its frequency ratio and its shape.
#[derive(Clone, Copy, Default)]
struct Candidate {
    ratio: f64,
    shape: Shape,
    /// The amplitude decay rate it radiates away, 1/s, beyond its material's (a kettledrum's
    /// symmetric modes'); 0 for the rest.
    decay_per_s: f64,
}

/// Candidates generated for the 2-D objects before the lowest are kept.
const MAX_CANDIDATES: usize = 4 * MAX_MODES;

/// A plate is struck along y = 0.37 and heard along y = 0.61 of its width, so no low mode has a
/// nodal line there; a circular object is struck at θ = 0 and heard at θ = 0.7 rad.
const PLATE_STRIKE_Y: f64 = 0.37;
const PLATE_PICKUP_Y: f64 = 0.61;
const CIRCULAR_PICKUP_ANGLE: f64 = 0.7;

/// A marked point of an object: where it is struck, or where the left or the right pickup hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// Where the object is struck (a drop's landing origin).
    Strike,
    /// Where the left pickup hears it.
    LeftPickup,
    /// Where the right pickup hears it.
    RightPickup,
}

impl Marker {
    /// The markers, as the editor draws them.
    pub const ALL: [Marker; 3] = [Marker::Strike, Marker::LeftPickup, Marker::RightPickup];

    /// The point at position `x` (0…1, as [`ObjectSpec`] gives it) on the marker's line.
    fn point(self, x: f64) -> Point {
        let (y, angle) = match self {
            Marker::Strike => (PLATE_STRIKE_Y, 0.0),
            Marker::LeftPickup => (PLATE_PICKUP_Y, CIRCULAR_PICKUP_ANGLE),
            Marker::RightPickup => (PLATE_PICKUP_Y, CIRCULAR_PICKUP_ANGLE + 0.5 * PI),
        };
        Point {
            x: x.clamp(0.0, 1.0),
            y,
            angle,
        }
    }
}

impl ObjectKind {
    /// Whether its strike position runs round a rim (a bell's, a glass's), whose modes come in
    /// pairs that turn their pattern to follow what rubs them.
    pub fn is_rim(self) -> bool {
        matches!(self, ObjectKind::Bell | ObjectKind::Glass)
    }

    /// Whether it is a drum head (a membrane's, a kettledrum's), whose mode (m, n) radiates
    /// as a multipole of order m.
    pub fn is_drum_head(self) -> bool {
        matches!(self, ObjectKind::Membrane | ObjectKind::Kettledrum)
    }

    /// Whether it is a bar undercut to tune its overtones, with a tube under it (a marimba's, a
    /// xylophone's).
    pub fn is_tuned_bar(self) -> bool {
        matches!(self, ObjectKind::MarimbaBar | ObjectKind::XylophoneBar)
    }

    /// Where `marker` at position `x` lies on the object, in its own plane as seen from above,
    /// the object's length 1: along a bar or a string (x, 0); on a plate or a plank (x, y·aspect),
    /// y the marker's line across it; on a disc or a membrane (r·cos θ, r·sin θ) in the unit disc
    /// at the marker's angle θ; on a bell's or a glass's rim the angle x·π on the unit circle.
    pub fn marker_point(self, marker: Marker, x: f64) -> [f64; 2] {
        let p = marker.point(x);
        match self {
            ObjectKind::FreeBar
            | ObjectKind::MarimbaBar
            | ObjectKind::XylophoneBar
            | ObjectKind::GlockenspielBar
            | ObjectKind::Chime
            | ObjectKind::String
            | ObjectKind::SteelString => [p.x, 0.0],
            ObjectKind::RectangularPlate | ObjectKind::Plank => [p.x, p.y * self.plate_aspect()],
            ObjectKind::CircularPlate | ObjectKind::Membrane | ObjectKind::Kettledrum => {
                [p.x * p.angle.cos(), p.x * p.angle.sin()]
            }
            ObjectKind::Bell | ObjectKind::Glass => [(p.x * PI).cos(), (p.x * PI).sin()],
        }
    }
}

/// Fill `out` with the modes of `spec` sorted by frequency; returns how many were written. Each
/// mode is heard by the left and the right pickup: its `pickup_shape` is their mean (the mono
/// signal) and its `side_shape` half their difference (left minus right). The object is
/// `size_m` large (see [`ObjectKind::radiator`]), which sets how its modes radiate.
pub fn object_modes(spec: &ObjectSpec, size_m: f64, out: &mut [Mode; MAX_MODES]) -> usize {
    let mut candidates = [Candidate::default(); MAX_CANDIDATES];
    let n = lowest_modes(spec, &mut candidates);
    let strike = Marker::Strike.point(spec.strike_position);
    let left = Marker::LeftPickup.point(spec.pickup_position);
    let right = if spec.right_pickup_position == spec.pickup_position {
        left
    } else {
        Marker::RightPickup.point(spec.right_pickup_position)
    };
    let gamma = 2.0 * spec.damping_slope.clamp(0.0, 1.0);
    for (mode, c) in out.iter_mut().zip(candidates.iter()).take(n) {
        let ratio = c.ratio.powf(1.0 + spec.stretch);
        let (l, r) = (c.shape.at(left), c.shape.at(right));
        let (strike_shape, tangent_shape) = c.shape.strike_and_tangent(strike);
        *mode = Mode {
            freq_hz: spec.f0_hz * ratio,
            t60_s: with_radiation_t60_s(spec.t60_s / ratio.max(1e-3).powf(gamma), c.decay_per_s),
            strike_shape,
            pickup_shape: 0.5 * (l + r),
            side_shape: 0.5 * (l - r),
            tangent_shape,
            radiator: spec.kind.radiator(c.shape, size_m),
        };
    }
    n
}

/// A mode's T60 with `decay_per_s` of radiation damping added to its material's decay (T60
/// `material_t60_s`): the two amplitude decay rates add, δ = ln 1000/T60. A mode that radiates
/// nothing keeps its material T60 to the bit (the round trip through δ would move it an ulp).
fn with_radiation_t60_s(material_t60_s: f64, decay_per_s: f64) -> f64 {
    if decay_per_s <= 0.0 {
        return material_t60_s;
    }
    let ln_1000 = 1000f64.ln();
    ln_1000 / (ln_1000 / material_t60_s + decay_per_s)
}

/// An object's mode shapes along its strike line, in the order [`object_modes`] lists its
/// modes: what a point moving along that line (a slider's) strikes and rubs them through.
pub struct StrikeLine {
    shapes: [Shape; MAX_MODES],
}

impl StrikeLine {
    /// The strike line of `spec`'s object (its strike position aside).
    pub fn new(spec: &ObjectSpec) -> Self {
        let mut candidates = [Candidate::default(); MAX_CANDIDATES];
        let n = lowest_modes(spec, &mut candidates);
        let mut shapes = [Shape::Flat; MAX_MODES];
        for (shape, c) in shapes.iter_mut().zip(&candidates[..n]) {
            *shape = c.shape;
        }
        Self { shapes }
    }

    /// The strike and tangential shapes ([`Mode::strike_shape`], [`Mode::tangent_shape`]) of
    /// mode `index` struck at `position` (0…1, as [`ObjectSpec::strike_position`]); 0 past the
    /// modes.
    pub fn shapes_at(&self, index: usize, position: f64) -> (f64, f64) {
        let shape = self.shapes.get(index).copied().unwrap_or_default();
        shape.strike_and_tangent(Marker::Strike.point(position))
    }
}

/// Fill `candidates` with the modes of `spec`, the lowest first, and return how many of them
/// the object keeps (its `num_modes`, or fewer when it has fewer).
fn lowest_modes(spec: &ObjectSpec, candidates: &mut [Candidate; MAX_CANDIDATES]) -> usize {
    let wanted = spec.num_modes.clamp(1, MAX_MODES);
    let count = match spec.kind {
        ObjectKind::FreeBar => bar(candidates, wanted, None),
        ObjectKind::MarimbaBar => bar(candidates, wanted, Some(MARIMBA_RATIOS)),
        ObjectKind::XylophoneBar => bar(candidates, wanted, Some(XYLOPHONE_RATIOS)),
        ObjectKind::GlockenspielBar => timoshenko_bar(
            candidates,
            wanted,
            glockenspiel_section(),
            (0, 1.0, spec.f0_hz),
        ),
        ObjectKind::Chime => timoshenko_bar(
            candidates,
            wanted,
            chime_section(crate::material::BRASS),
            (CHIME_STRIKE_MODE, 2.0, 2.0 * spec.f0_hz),
        ),
        ObjectKind::RectangularPlate | ObjectKind::Plank => {
            rectangular_plate(candidates, spec.kind.plate_aspect())
        }
        ObjectKind::CircularPlate => circular_plate(candidates),
        ObjectKind::Membrane => membrane(candidates),
        ObjectKind::Kettledrum => kettledrum::kettledrum(candidates, spec.f0_hz),
        ObjectKind::Bell => rim(candidates, wanted, bell_partial),
        ObjectKind::Glass => rim(candidates, wanted, glass_partial),
        ObjectKind::String => string(candidates, wanted, 0.0),
        ObjectKind::SteelString => string(candidates, wanted, STEEL_STRING_B),
    };
    candidates[..count].sort_unstable_by(|a, b| a.ratio.total_cmp(&b.ratio));
    wanted.min(count)
}

/// βₙL of the free–free Euler–Bernoulli bar, the roots of cos βL·cosh βL = 1 (Fletcher & Rossing,
/// *The Physics of Musical Instruments*, §2.14); beyond the table βₙL = (2n + 1)π/2 to 10⁻⁷.
const BAR_BETA_L: [f64; 5] = [
    4.730_040_7,
    7.853_204_6,
    10.995_607_8,
    14.137_165_5,
    17.278_759_6,
];

fn bar_beta_l(index: usize) -> f64 {
    BAR_BETA_L
        .get(index)
        .copied()
        .unwrap_or((2 * index + 3) as f64 * PI / 2.0)
}

/// The index i of the free–free bar mode whose βL is `b` (βᵢL ≈ (2i + 3)π/2).
fn bar_index(b: f64) -> f64 {
    (b / PI - 1.5).round().max(0.0)
}

/// Free–free bar mode shape at ξ ∈ [0, 1], normalised to 2 at the free ends:
/// φ(ξ) = cosh bξ + cos bξ − s(sinh bξ + sin bξ), s = (cosh b − cos b)/(sinh b − sin b), b = βL.
/// For b > 20 the hyperbolic terms are rewritten as decaying exponentials to avoid cancellation.
fn bar_shape(b: f64, xi: f64) -> f64 {
    let y = b * xi;
    if b <= 20.0 {
        let s = (b.cosh() - b.cos()) / (b.sinh() - b.sin());
        y.cosh() + y.cos() - s * (y.sinh() + y.sin())
    } else {
        // s → 1: cosh y − s·sinh y = e^(−y) + (1 − s)·sinh y, (1 − s)·sinh y ≈ (cos b − sin b)e^(−b(1−ξ)).
        (-y).exp() + y.cos() - y.sin() + (b.cos() - b.sin()) * (-(b - y)).exp()
    }
}

/// Marimba tuning: the undercut puts the first two overtones at 4 and 10 times the fundamental
/// (two octaves, three octaves and a major third; Fletcher & Rossing §19.1). Higher modes keep the
/// free–free bar's spacing above the third.
const MARIMBA_RATIOS: [f64; 3] = [1.0, 4.0, 10.0];

/// Xylophone tuning: the undercut puts the first overtone a twelfth above the fundamental (3×)
/// and the second two octaves and a fifth above it (6×) (Fletcher & Rossing §19.2; Bork, "Practical
/// tuning of xylophone bars and resonators", Applied Acoustics 46, 1995). Higher modes keep the
/// free–free bar's spacing above the third.
const XYLOPHONE_RATIOS: [f64; 3] = [1.0, 3.0, 6.0];

fn bar(out: &mut [Candidate], n: usize, tuned: Option<[f64; 3]>) -> usize {
    let b1 = bar_beta_l(0);
    for (i, c) in out.iter_mut().take(n).enumerate() {
        let b = bar_beta_l(i);
        let free_ratio = (b / b1).powi(2);
        let ratio = match tuned {
            Some(t) if i < t.len() => t[i],
            Some(t) => free_ratio * t[2] / (bar_beta_l(2) / b1).powi(2),
            None => free_ratio,
        };
        *c = Candidate {
            ratio,
            shape: Shape::Bar(b),
            decay_per_s: 0.0,
        };
    }
    n
}

/// A bar's cross-section and material as Timoshenko's theory needs them: its radius of gyration
/// r = √(I/A), m; s = E/(κG) = 2(1 + ν)/κ, κ the shear coefficient; and c = √(E/ρ), m/s.
#[derive(Clone, Copy)]
struct Section {
    gyration_m: f64,
    shear: f64,
    speed_m_per_s: f64,
}

impl Section {
    /// λ, the Timoshenko factor ([`timoshenko_factor`]) of the free–free mode βL = `b` of a bar
    /// `length_m` long, k = b/L.
    fn factor(&self, b: f64, length_m: f64) -> f64 {
        timoshenko_factor((b * self.gyration_m / length_m).powi(2), self.shear)
    }

    /// The frequency (Hz) of that mode: λ·b²·r·c/(2π·L²).
    fn mode_hz(&self, b: f64, length_m: f64) -> f64 {
        self.factor(b, length_m) * b * b * self.gyration_m * self.speed_m_per_s
            / (2.0 * PI * length_m * length_m)
    }
}

/// A glockenspiel bar's thickness, m: 3/8 in, the thick end of the 5/16–3/8 in (by 1–1¼ in wide)
/// of an orchestral glockenspiel's steel bars, which share their cross-section and differ in
/// length (Fletcher & Rossing, *The Physics of Musical Instruments*, §19.5).
const GLOCKENSPIEL_THICKNESS_M: f64 = 0.0095;

/// The glockenspiel bar's section: steel, a rectangle [`GLOCKENSPIEL_THICKNESS_M`] thick,
/// r = h/√12, Cowper's κ = 10(1 + ν)/(12 + 11ν) (J. Appl. Mech. 33, 1966), so s = (12 + 11ν)/5.
fn glockenspiel_section() -> Section {
    let steel = crate::material::STEEL;
    Section {
        gyration_m: GLOCKENSPIEL_THICKNESS_M / 12f64.sqrt(),
        shear: (12.0 + 11.0 * steel.poisson_ratio) / 5.0,
        speed_m_per_s: steel.bar_speed_m_per_s(),
    }
}

/// A chime's tube, outer diameter and wall, m: ¾ in by 1/16 in brass. Orchestral chimes are
/// 1¼–1½ in (Fletcher & Rossing §19.6), and shear lowers their upper modes about twice as much
/// as the slenderer tube the freepats recording's mode spacing asks.
const CHIME_DIAMETER_M: f64 = 0.019_05;
const CHIME_WALL_M: f64 = 0.001_59;
/// A chime's strike note, the pitch the ear infers from its 4th, 5th and 6th modes (≈ 2 : 3 : 4),
/// lies an octave under its 4th mode (Rossing, *Science of Percussion Instruments*, ch. 5).
const CHIME_STRIKE_MODE: usize = 3;

/// The chime's tube's outer and inner radii, m.
fn chime_radii_m() -> (f64, f64) {
    (
        0.5 * CHIME_DIAMETER_M,
        0.5 * CHIME_DIAMETER_M - CHIME_WALL_M,
    )
}

/// The chime's section in `material`: a thin-walled round tube, r = √(a² + b²)/2 (a, b its outer
/// and inner radii), Cowper's κ = 2(1 + ν)/(4 + 3ν), so s = 4 + 3ν.
fn chime_section(material: &crate::material::Material) -> Section {
    let (a, b) = chime_radii_m();
    Section {
        gyration_m: 0.5 * (a * a + b * b).sqrt(),
        shear: 4.0 + 3.0 * material.poisson_ratio,
        speed_m_per_s: material.bar_speed_m_per_s(),
    }
}

/// A chime's strike note (Hz) `length_m` long in `material`: half its 4th free–free mode.
pub fn chime_strike_note_hz(material: &crate::material::Material, length_m: f64) -> f64 {
    0.5 * chime_section(material).mode_hz(bar_beta_l(CHIME_STRIKE_MODE), length_m.max(1e-3))
}

/// A chime's tube's cross-section, m².
pub fn chime_tube_area_m2() -> f64 {
    let (a, b) = chime_radii_m();
    PI * (a * a - b * b)
}

/// The free–free bar of `section` whose mode `tuned` (0 the fundamental) sounds at `tuned_hz`,
/// as ratios to `tuned_hz`/`tuned_ratio` ([`Section::mode_hz`] at each βᵢL over the tuned
/// mode's). Its length solves fₜ = λₜ(L)·(βₜL)²·r·c/(2π·L²) by fixed-point iteration on
/// L² = L²_EB·λₜ(L), from λₜ = 1.
fn timoshenko_bar(
    out: &mut [Candidate],
    n: usize,
    section: Section,
    (tuned, tuned_ratio, tuned_hz): (usize, f64, f64),
) -> usize {
    let bt = bar_beta_l(tuned);
    let euler_length2 =
        bt * bt * section.gyration_m * section.speed_m_per_s / (2.0 * PI * tuned_hz.max(1.0));
    let mut length_m = euler_length2.sqrt();
    for _ in 0..4 {
        length_m = (euler_length2 * section.factor(bt, length_m)).sqrt();
    }
    let tuned_mode_hz = section.mode_hz(bt, length_m);
    for (i, c) in out.iter_mut().take(n).enumerate() {
        let b = bar_beta_l(i);
        *c = Candidate {
            ratio: tuned_ratio * section.mode_hz(b, length_m) / tuned_mode_hz,
            shape: Shape::Bar(b),
            decay_per_s: 0.0,
        };
    }
    n
}

/// ω/ω_EB of a Timoshenko beam's flexural wave of wavenumber k, a = (k·r)² and s = E/(κG): the
/// dispersion relation EI·k⁴ − ρA·ω² − ρI·(1 + s)·ω²k² + ρ²I·ω⁴/(κG) = 0 (Timoshenko, Phil. Mag.
/// 41, 1921; Han, Benaroya & Wei, J. Sound Vib. 225, 1999) in Ω = (ω/ω_EB)² reads
/// a²s·Ω² − (1 + a(1 + s))·Ω + 1 = 0, whose flexural root is Ω = 2/(B + √(B² − 4a²s)),
/// B = 1 + a(1 + s) (≈ 1 − a(1 + s) for a thin bar: Rayleigh's and the shear's lowering).
fn timoshenko_factor(a: f64, s: f64) -> f64 {
    let b = 1.0 + a * (1.0 + s);
    (2.0 / (b + (b * b - 4.0 * a * a * s).sqrt())).sqrt()
}

/// Simply supported rectangular plate of sides 1 × `aspect`: f_mn ∝ m² + (n/aspect)² (Leissa,
/// *Vibration of Plates*, NASA SP-160, §4.1), shapes sin(mπx)·sin(nπy/aspect).
fn rectangular_plate(out: &mut [Candidate], aspect: f64) -> usize {
    let base = 1.0 + 1.0 / (aspect * aspect);
    let mut count = 0;
    let side = (out.len() as f64).sqrt() as usize;
    for m in 1..=side {
        for n in 1..=side {
            let (mf, nf) = (m as f64, n as f64);
            out[count] = Candidate {
                ratio: (mf * mf + (nf / aspect).powi(2)) / base,
                shape: Shape::Plate(mf, nf),
                decay_per_s: 0.0,
            };
            count += 1;
        }
    }
    count
}

/// Free-edge circular plate: Chladni's law f ∝ (m + 2n)² (Rossing, "Chladni's law for vibrating
/// plates", Am. J. Phys. 50, 1982) for m nodal diameters and n nodal circles, normalised to the
/// lowest flexural mode (2, 0); the rigid-body modes (0, 0) and (1, 0) are excluded. Shapes are
/// approximated by J_m(κr) with κ = (m + 2n)·π/2 (the I_m part of the free-edge shape matters only
/// near the rim).
fn circular_plate(out: &mut [Candidate]) -> usize {
    let side = (out.len() as f64).sqrt() as usize;
    let mut count = 0;
    for m in 0..side {
        for n in 0..side {
            let order = (m + 2 * n) as f64;
            if m + 2 * n >= 2 {
                out[count] = Candidate {
                    ratio: (order / 2.0).powi(2),
                    shape: Shape::Bessel(m as i32, order * PI / 2.0),
                    decay_per_s: 0.0,
                };
                count += 1;
            }
        }
    }
    count
}

/// Ideal circular membrane: f_mn ∝ j_mn, the n-th zero of J_m (Fletcher & Rossing §3.6), normalised
/// to j₀₁; shapes J_m(j_mn·r)·cos(mθ).
fn membrane(out: &mut [Candidate]) -> usize {
    let j01 = MEMBRANE_ZEROS[0].1;
    for (c, &(m, j)) in out.iter_mut().zip(MEMBRANE_ZEROS.iter()) {
        *c = Candidate {
            ratio: j / j01,
            shape: Shape::Bessel(i32::from(m), j),
            decay_per_s: 0.0,
        };
    }
    MEMBRANE_ZEROS.len()
}

/// The 128 smallest zeros j_mn of the Bessel functions J_m, ascending, as (m, j_mn): found by a sign
/// scan of libm's J_m in steps of 0.25 and bisection (consecutive zeros of one J_m are more than π
/// apart), and checked in the tests against the same search and against J_m(j_mn) = 0.
const MEMBRANE_ZEROS: [(u8, f64); MAX_MODES] = [
    (0, 2.404825557696),
    (1, 3.831705970208),
    (2, 5.135622301841),
    (0, 5.520078110286),
    (3, 6.380161895924),
    (1, 7.015586669816),
    (4, 7.588342434504),
    (2, 8.417244140400),
    (0, 8.653727912911),
    (5, 8.771483815960),
    (3, 9.761023129982),
    (6, 9.936109524218),
    (1, 10.173468135063),
    (4, 11.064709488501),
    (7, 11.086370019245),
    (2, 11.619841172149),
    (0, 11.791534439014),
    (8, 12.225092264005),
    (5, 12.338604197467),
    (3, 13.015200721698),
    (1, 13.323691936314),
    (9, 13.354300477435),
    (6, 13.589290170541),
    (4, 14.372536671618),
    (10, 14.475500686555),
    (2, 14.795951782351),
    (7, 14.821268727013),
    (0, 14.930917708488),
    (11, 15.589847884455),
    (5, 15.700174079712),
    (8, 16.037774190888),
    (3, 16.223466160319),
    (1, 16.470630050878),
    (12, 16.698249933848),
    (6, 17.003819667816),
    (9, 17.241220382489),
    (4, 17.615966049805),
    (13, 17.801435153282),
    (2, 17.959819494988),
    (0, 18.071063967911),
    (7, 18.287582832482),
    (10, 18.433463666967),
    (14, 18.899997953174),
    (5, 18.980133875180),
    (3, 19.409415226435),
    (8, 19.554536430997),
    (1, 19.615858510468),
    (11, 19.615966903967),
    (15, 19.994430629816),
    (6, 20.320789213567),
    (12, 20.789906360078),
    (9, 20.807047789264),
    (4, 20.826932956962),
    (16, 21.085146113065),
    (2, 21.116997053022),
    (0, 21.211636629879),
    (7, 21.641541019848),
    (13, 21.956244067836),
    (10, 22.046985364698),
    (17, 22.172494618826),
    (5, 22.217799896561),
    (3, 22.582729593104),
    (1, 22.760084380593),
    (8, 22.945173131875),
    (14, 23.115778347253),
    (18, 23.256776085110),
    (11, 23.275853726263),
    (6, 23.586084435581),
    (4, 24.019019524771),
    (9, 24.233885257751),
    (15, 24.269180026209),
    (2, 24.270112313573),
    (19, 24.338249623407),
    (0, 24.352471530749),
    (12, 24.494885043881),
    (7, 24.934927887673),
    (16, 25.417019006343),
    (20, 25.417140814073),
    (5, 25.430341154223),
    (10, 25.509450554183),
    (13, 25.705103053925),
    (3, 25.748166699295),
    (1, 25.903672087618),
    (8, 26.266814641177),
    (21, 26.493647416019),
    (17, 26.559784138025),
    (11, 26.773322545510),
    (6, 26.820151983411),
    (14, 26.907368976182),
    (4, 27.199087765981),
    (2, 27.420573549985),
    (0, 27.493479132040),
    (22, 27.567943891262),
    (9, 27.583748963573),
    (18, 27.697898350855),
    (12, 28.026709949973),
    (15, 28.102415231668),
    (7, 28.191188459483),
    (5, 28.626618307291),
    (23, 28.640185030764),
    (19, 28.831730351301),
    (10, 28.887375063530),
    (3, 28.908350780922),
    (1, 29.046828534917),
    (13, 29.270630441875),
    (16, 29.290870696313),
    (8, 29.545659670999),
    (24, 29.710508889811),
    (20, 29.961603791625),
    (6, 30.033722386570),
    (11, 30.179061178785),
    (4, 30.371007667117),
    (17, 30.473279946334),
    (14, 30.505950163896),
    (2, 30.569204495516),
    (0, 30.634606468432),
    (25, 30.779039186567),
    (9, 30.885378967697),
    (21, 31.087804546030),
    (7, 31.422794192266),
    (12, 31.459960035318),
    (18, 31.650118151857),
    (15, 31.733413344375),
    (5, 31.811716724048),
    (26, 31.845887278687),
    (3, 32.064852407098),
    (1, 32.189679910974),
    (22, 32.210586549482),
];

/// Church-bell partials relative to the prime, with their circumferential order m: hum 0.5, prime
/// 1, tierce 1.2, quint 1.5, nominal 2, then the upper partials of a minor-third bell (Fletcher &
/// Rossing §21.1, Table 21.1); beyond the table each order's frequency grows as m².
const BELL_PARTIALS: [(f64, usize); 10] = [
    (0.5, 2),
    (1.0, 2),
    (1.2, 3),
    (1.5, 3),
    (2.0, 4),
    (2.5, 4),
    (2.61, 3),
    (3.0, 5),
    (4.0, 6),
    (5.33, 7),
];

fn bell_partial(i: usize) -> (f64, usize) {
    BELL_PARTIALS.get(i).copied().unwrap_or_else(|| {
        let m = 7 + (i - BELL_PARTIALS.len() + 1);
        (5.33 * (m as f64 / 7.0).powi(2), m)
    })
}

/// Wine-glass rim modes, m = 2, 3, …: the inextensional ring law f_m ∝ m(m² − 1)/√(m² + 1)
/// (Rayleigh, *The Theory of Sound* §233; Fletcher & Rossing §21.2), normalised to m = 2.
fn glass_partial(i: usize) -> (f64, usize) {
    let law = |m: f64| m * (m * m - 1.0) / (m * m + 1.0).sqrt();
    let m = i + 2;
    (law(m as f64) / law(2.0), m)
}

/// Rim objects: partial `i` of `partial(i) = (ratio, m)`, shapes cos(m·θ) at the angle θ = π·x.
fn rim(out: &mut [Candidate], n: usize, partial: fn(usize) -> (f64, usize)) -> usize {
    for (i, c) in out.iter_mut().take(n).enumerate() {
        let (ratio, m) = partial(i);
        *c = Candidate {
            ratio,
            shape: Shape::Rim(m as f64),
            decay_per_s: 0.0,
        };
    }
    n
}

/// A steel string's inharmonicity coefficient B = π³·E·d⁴/(64·T·L²) (Fletcher, "Normal vibration
/// frequencies of a stiff piano string", JASA 36, 1964): a hammered dulcimer's course of music
/// wire, 0.4 mm thick and 0.40 m long at 70 N (E4), has 2.2·10⁻⁴; the freepats dulcimer's
/// partials stretch so from D3 to C5 (2–3·10⁻⁴), and more above (5·10⁻⁴ at G5).
const STEEL_STRING_B: f64 = 2.5e-4;

/// A string pinned at both ends with inharmonicity `b` (0: the ideal string): partial n at
/// n·√((1 + B·n²)/(1 + B)) times the fundamental (Fletcher 1964), shape sin(nπx) (exact for
/// pinned ends).
fn string(out: &mut [Candidate], n: usize, b: f64) -> usize {
    for (i, c) in out.iter_mut().take(n).enumerate() {
        let k = (i + 1) as f64;
        *c = Candidate {
            ratio: k * ((1.0 + b * k * k) / (1.0 + b)).sqrt(),
            shape: Shape::String(k),
            decay_per_s: 0.0,
        };
    }
    n
}

mod kettledrum;
#[cfg(test)]
mod tests;
