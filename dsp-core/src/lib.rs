//! Urto's physics and DSP: Hunt–Crossley contact, hammer integration, modal resonators, voices.
//!
//! Everything here is allocation-free after construction and usable per sample on the audio thread.
//! Data flows one way: [`voice::Patch`] (plain per-block settings) → [`voice::Engine`] → voices →
//! [`interaction::Hammer`] (contact law + integrator) → [`resonator::ModalBank`] → pickup → output.

pub mod analytic;
pub mod contact;
pub mod interaction;
pub mod resonator;
pub mod voice;
