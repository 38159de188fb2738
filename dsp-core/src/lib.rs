//! Urto's physics and DSP: Hunt–Crossley contact, integrators, corrections, modal resonators, voices.
//!
//! Everything on the audio path is allocation-free after construction and usable per sample.
//! Data flows one way: [`voice::Patch`] (plain per-block settings) → [`voice::Engine`] → voices →
//! [`interaction::Hammer`] (contact law + integrator) → [`resonator::ModalBank`] → pickup → output.
//! [`impact`] holds the paper's mass–wall experiments that the closed forms are checked against;
//! [`material`] the material table and what follows from it (Hertz stiffness, masses, decay).

pub mod analytic;
pub mod body;
pub mod contact;
pub mod correct;
pub mod impact;
pub mod integrate;
pub mod interaction;
pub mod material;
pub mod resonator;
pub mod restitution;
pub mod rigid;
pub mod roll;
pub mod voice;
