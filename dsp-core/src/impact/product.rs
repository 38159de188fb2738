//! One impact through the plugin's own voice path: a hammer on a modal object with sub-steps,
//! onsets between samples and the energy guard, measured against the rigid-wall closed forms.

use super::ImpactReport;
use crate::analytic::Impact;
use crate::body::{StrikerSpec, MAX_STRIKER_MODES};
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::interaction::{ContactSetup, Damping, Hammer};
use crate::resonator::{object_modes, ModalBank, Mode, ObjectSpec, MAX_MODES};

/// Samples simulated at most, so degenerate settings cannot hang a caller.
const MAX_SAMPLES: usize = 10_000_000;

/// A hammer striking an object as the plugin does it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectImpact {
    pub object: ObjectSpec,
    pub object_mass_kg: f64,
    /// The striker's mass (its rigid mass at the contact when it has a body).
    pub hammer_mass_kg: f64,
    /// A striker with modes of its own (none: a point mass).
    pub striker: Option<StrikerSpec>,
    pub law: HuntCrossley,
    pub method: Method,
    pub guard: bool,
    pub v_in_m_per_s: f64,
    pub sample_rate_hz: f64,
}

/// Strike the object and run until the first contact has ended. A striker body rings too (its
/// energy is in the total). The rigid-wall references
/// (exact and approximate v_out, x_max, τ) use the hammer's mass; %dev(x) and %dev(H) have no
/// closed form on a moving object and are NaN. The energy rise is measured from outside the
/// hammer: total energy (hammer, object, contact) at every sample.
pub fn simulate_object_impact(s: &ObjectImpact) -> ImpactReport {
    let mut modes = [Mode::SILENT; MAX_MODES];
    // Only energies are measured, not what is heard: any size radiates alike here.
    let count = object_modes(&s.object, 1.0, &mut modes);
    let mut bank = ModalBank::new(s.object_mass_kg);
    bank.set_modes(&modes[..count], s.sample_rate_hz);
    let setup = ContactSetup {
        law: s.law,
        method: s.method,
        guard: s.guard,
        exit_correction: true,
        damping: Damping::HuntCrossley,
        restitution: None,
    };
    let mut hammer = Hammer::new(s.hammer_mass_kg, setup);
    if let Some(striker) = &s.striker {
        let mut striker_modes = [Mode::SILENT; MAX_STRIKER_MODES];
        let body = striker.body(s.hammer_mass_kg, &mut striker_modes);
        hammer.set_striker_modes(
            &striker_modes[..body.num_modes],
            body.modal_mass_kg,
            s.sample_rate_hz,
        );
    }
    hammer.strike(&bank, s.v_in_m_per_s, 0.0, s.hammer_mass_kg);
    let mut previous = hammer.total_energy_j(&bank);
    let mut energy_rise = 0.0f64;
    for _ in 0..MAX_SAMPLES {
        hammer.process_sample(&setup, &mut bank, 1.0 / s.sample_rate_hz);
        let energy = hammer.total_energy_j(&bank);
        energy_rise = energy_rise.max(energy - previous);
        previous = energy;
        if hammer.stats().v_out_m_per_s.is_finite() {
            break;
        }
    }
    let stats = hammer.stats();
    let wall = Impact {
        stiffness: s.law.stiffness,
        mu_s_per_m: s.law.mu_s_per_m,
        alpha: s.law.alpha,
        mass_kg: s.hammer_mass_kg,
        v_in_m_per_s: s.v_in_m_per_s,
    };
    let v_out_exact = wall.v_out_exact_m_per_s();
    ImpactReport {
        n_contact: stats.contact_samples,
        v_out_sim: stats.v_out_m_per_s,
        v_out_exact,
        v_out_approx: wall.v_out_approx_m_per_s(),
        err_v_out_pct: 100.0 * (stats.v_out_m_per_s - v_out_exact) / v_out_exact,
        dev_x_pct: f64::NAN,
        dev_h_pct: f64::NAN,
        x_max_m: wall.x_max_m(),
        contact_time_s: wall.contact_time_s(),
        newton_iterations_max: stats.newton_iterations_max,
        substeps: stats.substeps,
        energy_rise_max_j: energy_rise,
    }
}
