//! Contact laws: the force between two bodies as a function of compression and its velocity.

mod hunt_crossley;

pub use hunt_crossley::HuntCrossley;
