//! Urto's physics and DSP: Hunt–Crossley contact, integrators, corrections, modal resonators, voices.
//!
//! Everything on the audio path is allocation-free after construction and usable per sample.
//! Data flows one way: [`voice::Patch`] (plain per-block settings) → [`voice::Engine`] → voices →
//! [`interaction::Hammer`] (contact law + integrator) → [`resonator::ModalBank`] → pickup → output.
//! [`impact`] holds the paper's mass–wall experiments that the closed forms are checked against;
//! [`material`] the material table and what follows from it (Hertz stiffness, masses, decay).

// `!(x > 0.0)` is written on purpose: it is also true for NaN, which these guards must catch
// (clippy's rewrites, `x <= 0.0` and its De Morgan forms, would let NaN through).
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::nonminimal_bool)]
// The numerical kernels index several arrays in step (modes' lanes, matrix rows and columns,
// contacts' rows); an index loop is their clearest form.
#![allow(clippy::needless_range_loop)]

pub mod analysis;
pub mod analytic;
pub mod body;
pub mod contact;
pub mod correct;
pub mod friction;
pub mod impact;
pub mod integrate;
pub mod interaction;
pub mod material;
pub mod radiation;
pub mod resonator;
pub mod restitution;
pub mod rigid;
pub mod roll;
pub mod smooth;
pub mod stream;
pub mod surface;
pub mod voice;
