//! Jia & Wang's single-point 3D frictional impact between two rigid bodies, solved on the normal impulse.
