//! Macro mechanics, no audio: rigid bodies, the inverse inertia at a contact, and the two impact solvers (Jia–Wang, PLUS).
//!
//! Everything here is double precision and allocation-free after construction: the drop mode
//! (issue 16) runs it inside a voice. The reproduction commands are `cargo xtask rigid …`.

pub mod body;
pub mod drop;
pub mod flight;
pub mod jia_wang;
pub mod plus;
pub mod shape;

pub use body::{inverse_inertia_at, RigidBody};
