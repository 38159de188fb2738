//! The parameters' choices (object, striker, material, law, mode, body, level, speed source, integrator) with their stable variant ids, and what each means to the engine.

use nice_plug::prelude::*;
use urto_dsp::body::DropBody;
use urto_dsp::body::{Grip, StrikerKind};
use urto_dsp::integrate::Method;
use urto_dsp::material::{Material, MATERIALS};
use urto_dsp::resonator::ObjectKind;
use urto_dsp::surface::SurfaceKind;
use urto_dsp::voice::{Gesture, PlayMode, Stroke};

/// The struck object, as the host lists it. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectChoice {
    #[id = "marimba"]
    #[name = "Marimba bar"]
    Marimba,
    #[id = "bar"]
    #[name = "Free bar"]
    Bar,
    #[id = "circular-plate"]
    #[name = "Circular plate"]
    CircularPlate,
    #[id = "rectangular-plate"]
    #[name = "Rectangular plate"]
    RectangularPlate,
    #[id = "membrane"]
    #[name = "Membrane"]
    Membrane,
    #[id = "bell"]
    #[name = "Bell"]
    Bell,
    #[id = "glass"]
    #[name = "Glass"]
    Glass,
    #[id = "plank"]
    #[name = "Wooden plank"]
    Plank,
    #[id = "string"]
    #[name = "String"]
    String,
    #[id = "xylophone"]
    #[name = "Xylophone bar"]
    Xylophone,
    #[id = "glockenspiel"]
    #[name = "Glockenspiel bar"]
    Glockenspiel,
    #[id = "chime"]
    #[name = "Chime (tubular bell)"]
    Chime,
    #[id = "steel-string"]
    #[name = "Steel string (stiff)"]
    SteelString,
    #[id = "kettledrum"]
    #[name = "Kettledrum (timpani)"]
    Kettledrum,
}

impl ObjectChoice {
    pub(super) fn kind(self) -> ObjectKind {
        match self {
            ObjectChoice::Marimba => ObjectKind::MarimbaBar,
            ObjectChoice::Bar => ObjectKind::FreeBar,
            ObjectChoice::CircularPlate => ObjectKind::CircularPlate,
            ObjectChoice::RectangularPlate => ObjectKind::RectangularPlate,
            ObjectChoice::Membrane => ObjectKind::Membrane,
            ObjectChoice::Bell => ObjectKind::Bell,
            ObjectChoice::Glass => ObjectKind::Glass,
            ObjectChoice::Plank => ObjectKind::Plank,
            ObjectChoice::String => ObjectKind::String,
            ObjectChoice::Xylophone => ObjectKind::XylophoneBar,
            ObjectChoice::Glockenspiel => ObjectKind::GlockenspielBar,
            ObjectChoice::Chime => ObjectKind::Chime,
            ObjectChoice::SteelString => ObjectKind::SteelString,
            ObjectChoice::Kettledrum => ObjectKind::Kettledrum,
        }
    }
}

/// What strikes the object. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrikerChoice {
    #[id = "point-mass"]
    #[name = "Point mass"]
    PointMass,
    #[id = "ball"]
    #[name = "Ball"]
    Ball,
    #[id = "mallet"]
    #[name = "Mallet"]
    Mallet,
    #[id = "rod"]
    #[name = "Rod or spoon end"]
    Rod,
    #[id = "coin"]
    #[name = "Coin edge"]
    Coin,
}

impl StrikerChoice {
    pub(super) fn kind(self) -> StrikerKind {
        match self {
            StrikerChoice::PointMass => StrikerKind::PointMass,
            StrikerChoice::Ball => StrikerKind::Ball,
            StrikerChoice::Mallet => StrikerKind::Mallet,
            StrikerChoice::Rod => StrikerKind::Rod,
            StrikerChoice::Coin => StrikerKind::Coin,
        }
    }
}

/// How a hand holds the striker ([`Grip`]); variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GripChoice {
    #[id = "free"]
    #[name = "Free"]
    Free,
    #[id = "loose"]
    #[name = "Loose (two fingertips)"]
    Loose,
    #[id = "firm"]
    #[name = "Firm (hand)"]
    Firm,
}

impl GripChoice {
    pub(super) fn grip(self) -> Grip {
        match self {
            GripChoice::Free => Grip::Free,
            GripChoice::Loose => Grip::Loose,
            GripChoice::Firm => Grip::Firm,
        }
    }
}

/// A material of [`MATERIALS`], in its order. Variant IDs are the table's stable ids.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialChoice {
    #[id = "steel"]
    #[name = "Steel"]
    Steel,
    #[id = "brass"]
    #[name = "Brass"]
    Brass,
    #[id = "aluminium"]
    #[name = "Aluminium"]
    Aluminium,
    #[id = "bronze"]
    #[name = "Bronze"]
    Bronze,
    #[id = "copper"]
    #[name = "Copper"]
    Copper,
    #[id = "glass"]
    #[name = "Glass"]
    Glass,
    #[id = "ceramic"]
    #[name = "Ceramic"]
    Ceramic,
    #[id = "granite"]
    #[name = "Granite"]
    Granite,
    #[id = "oak"]
    #[name = "Oak"]
    Oak,
    #[id = "maple"]
    #[name = "Maple"]
    Maple,
    #[id = "pine"]
    #[name = "Pine"]
    Pine,
    #[id = "abs"]
    #[name = "ABS plastic"]
    Abs,
    #[id = "acrylic"]
    #[name = "Acrylic"]
    Acrylic,
    #[id = "hard-rubber"]
    #[name = "Hard rubber"]
    HardRubber,
    #[id = "soft-rubber"]
    #[name = "Soft rubber"]
    SoftRubber,
    #[id = "ice"]
    #[name = "Ice"]
    Ice,
}

impl MaterialChoice {
    pub(super) fn material(self) -> &'static Material {
        // The variants are the table's rows in order (checked in the tests).
        &MATERIALS[(self as usize).min(MATERIALS.len() - 1)]
    }
}

/// The contact law. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LawChoice {
    #[id = "hunt-crossley"]
    #[name = "Hunt–Crossley"]
    HuntCrossley,
    #[id = "hertz-damper"]
    #[name = "Hertz + linear damper"]
    HertzDamper,
}

/// Where the contact's damping comes from. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DampingFromChoice {
    #[id = "dissipation"]
    #[name = "Dissipation (μ or c)"]
    Dissipation,
    #[id = "restitution"]
    #[name = "Target restitution e"]
    Restitution,
}

/// What a note does: the engine's play modes ([`PlayMode::ALL`]), under their stable ids and
/// names (a new mode needs nothing here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeChoice(pub PlayMode);

impl Enum for ModeChoice {
    fn variants() -> &'static [&'static str] {
        &PlayMode::NAMES
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&PlayMode::IDS)
    }

    fn to_index(self) -> usize {
        self.0.index()
    }

    fn from_index(index: usize) -> Self {
        ModeChoice(
            PlayMode::ALL
                .get(index)
                .copied()
                .unwrap_or(PlayMode::Strike),
        )
    }
}

/// The body a drop note drops. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropBodyChoice {
    #[id = "die"]
    #[name = "Die"]
    Die,
    #[id = "coin"]
    #[name = "Coin"]
    Coin,
    #[id = "rod"]
    #[name = "Rod or pencil"]
    Rod,
    #[id = "spoon"]
    #[name = "Spoon or fork"]
    Spoon,
    #[id = "brick"]
    #[name = "Brick"]
    Brick,
    #[id = "ring"]
    #[name = "Ring"]
    Ring,
    #[id = "sphere"]
    #[name = "Ball"]
    Sphere,
}

impl DropBodyChoice {
    pub(super) fn body(self) -> DropBody {
        match self {
            DropBodyChoice::Die => DropBody::Die,
            DropBodyChoice::Coin => DropBody::Coin,
            DropBodyChoice::Rod => DropBody::Rod,
            DropBodyChoice::Spoon => DropBody::Spoon,
            DropBodyChoice::Brick => DropBody::Brick,
            DropBodyChoice::Ring => DropBody::Ring,
            DropBodyChoice::Sphere => DropBody::Sphere,
        }
    }
}

/// How a crumple's rate moves while its note is held. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum GestureChoice {
    #[id = "steady"]
    #[name = "Steady"]
    Steady,
    #[id = "crush"]
    #[name = "Crush (builds, relaxes)"]
    Crush,
    #[id = "steps"]
    #[name = "Footsteps (heel, toe)"]
    Steps,
}

impl GestureChoice {
    pub(super) fn gesture(self) -> Gesture {
        match self {
            GestureChoice::Steady => Gesture::Steady,
            GestureChoice::Crush => Gesture::Crush,
            GestureChoice::Steps => Gesture::Steps,
        }
    }
}

/// How loud a note is. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelChoice {
    #[id = "calibrated"]
    #[name = "Calibrated"]
    Calibrated,
    #[id = "physical"]
    #[name = "Physical (Pa at 1 m)"]
    Physical,
}

/// What sets the rolling speed (a fraction of "Roll speed"). Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedSourceChoice {
    #[id = "fixed"]
    #[name = "Fixed"]
    Fixed,
    #[id = "mod-wheel"]
    #[name = "Mod wheel (CC 1)"]
    ModWheel,
    #[id = "pressure"]
    #[name = "Channel pressure"]
    Pressure,
    #[id = "expression"]
    #[name = "Expression (CC 11)"]
    Expression,
}

impl SpeedSourceChoice {
    /// The share of a speed the source gives now, 0…1.
    pub(super) fn fraction(self, controllers: &super::Controllers) -> f64 {
        f64::from(match self {
            SpeedSourceChoice::Fixed => 1.0,
            SpeedSourceChoice::ModWheel => controllers.mod_wheel,
            SpeedSourceChoice::Pressure => controllers.pressure,
            SpeedSourceChoice::Expression => controllers.expression,
        })
    }
}

/// Which way a slider is drawn. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrokeChoice {
    #[id = "forward"]
    #[name = "Forward"]
    Forward,
    #[id = "backward"]
    #[name = "Backward"]
    Backward,
    #[id = "back-and-forth"]
    #[name = "Back and forth"]
    BackAndForth,
}

impl StrokeChoice {
    pub(super) fn stroke(self) -> Stroke {
        match self {
            StrokeChoice::Forward => Stroke::Forward,
            StrokeChoice::Backward => Stroke::Backward,
            StrokeChoice::BackAndForth => Stroke::BackAndForth,
        }
    }
}

/// The surface a slider is drawn over, a ball rolls on and a landed body slides on. Variant IDs
/// are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurfaceChoice {
    #[id = "smooth"]
    #[name = "Smooth"]
    Smooth,
    #[id = "fractal"]
    #[name = "Rough (fractal)"]
    Fractal,
    #[id = "ridges"]
    #[name = "Ridges"]
    Ridges,
    #[id = "grain"]
    #[name = "Grain (sandpaper)"]
    Grain,
}

impl SurfaceChoice {
    pub(super) fn kind(self) -> SurfaceKind {
        match self {
            SurfaceChoice::Smooth => SurfaceKind::Smooth,
            SurfaceChoice::Fractal => SurfaceKind::Fractal,
            SurfaceChoice::Ridges => SurfaceKind::Ridges,
            SurfaceChoice::Grain => SurfaceKind::Grain,
        }
    }
}

/// The shape of a surface's ridges. Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum RidgeShapeChoice {
    #[id = "rounded"]
    #[name = "Rounded (washboard)"]
    Rounded,
    #[id = "saw"]
    #[name = "Saw (guiro)"]
    Saw,
    #[id = "teeth"]
    #[name = "Teeth (zip, comb)"]
    Teeth,
}

/// The hammer's integrator (Papetti et al., Section III-A). Variant IDs are stable.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegratorChoice {
    #[id = "am1"]
    #[name = "AM1 (trapezoid, energy-consistent)"]
    Am1,
    #[id = "verlet"]
    #[name = "Verlet"]
    Verlet,
    #[id = "heun"]
    #[name = "Heun"]
    Heun,
    #[id = "rk4"]
    #[name = "RK4"]
    Rk4,
}

impl IntegratorChoice {
    pub(super) fn method(self) -> Method {
        match self {
            IntegratorChoice::Am1 => Method::Am1,
            IntegratorChoice::Verlet => Method::Verlet,
            IntegratorChoice::Heun => Method::Heun,
            IntegratorChoice::Rk4 => Method::Rk4,
        }
    }
}
