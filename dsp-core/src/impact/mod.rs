//! The paper's mass–wall experiments: one impact with its error metrics (eqs. 27–28) and the
//! rebound sequence of Table III, for any integrator and correction.

pub mod paper;
mod product;

pub use product::{simulate_object_impact, ObjectImpact};

use crate::analytic::Impact;
use crate::contact::{ContactLaw, HuntCrossley};
use crate::correct::{Correction, ExitVelocity};
use crate::integrate::{step, MassState, Method};

/// Upper bound on simulated samples per contact, so degenerate settings cannot hang a caller.
pub const MAX_CONTACT_SAMPLES: usize = 10_000_000;

/// How an impact is discretized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Discretization {
    pub sample_rate_hz: f64,
    pub method: Method,
    pub correction: Correction,
    pub exit_velocity: ExitVelocity,
}

/// The result of one simulated contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactRun {
    /// Samples counted as contact: the start sample and every sample with x > 0.
    pub n_contact: usize,
    /// Velocity at the first sample with x ≤ 0 after v turned negative (after any correction), m/s.
    pub v_out_m_per_s: f64,
    /// Largest number of Newton iterations in one step (AM1; 0 otherwise).
    pub newton_iterations_max: u32,
    /// Whether the contact ended within [`MAX_CONTACT_SAMPLES`].
    pub ended: bool,
}

/// Simulate one contact of a mass `mass_kg` with a rigid wall through `law`, from x = 0,
/// v = `v_in_m_per_s` on a sample, with a constant external force `external_force_n` (eq. 21).
///
/// `corrected` carries the closed forms and the corrections to apply (Hunt–Crossley only, with the
/// same k, μ, α as `law`; the corrections assume no external force, Section II-B). `observe` sees (x, v) of every contact
/// sample. The contact ends at the first sample with x ≤ 0 after v has turned negative.
#[allow(clippy::too_many_arguments)] // the paper's experiment: law, mass, v_in, force, h, scheme, corrections, observer
pub fn run_contact<L: ContactLaw>(
    law: &L,
    mass_kg: f64,
    v_in_m_per_s: f64,
    external_force_n: f64,
    h_s: f64,
    method: Method,
    corrected: Option<(&Impact, Correction, ExitVelocity)>,
    mut observe: impl FnMut(f64, f64),
) -> ContactRun {
    let mut state = MassState::new(law, 0.0, v_in_m_per_s);
    let (hybrid_v_out, exit_v_out) = match corrected {
        Some((impact, correction, exit)) if external_force_n == 0.0 => (
            correction.hybrid().then(|| impact.v_out_exact_m_per_s()),
            correction.exit().then(|| exit.v_out_m_per_s(impact)),
        ),
        _ => (None, None),
    };
    let hybrid = corrected
        .filter(|_| hybrid_v_out.is_some())
        .map(|(impact, ..)| impact.compression_curve());
    observe(state.x_m, state.v_m_per_s);
    let mut run = ContactRun {
        n_contact: 1,
        v_out_m_per_s: v_in_m_per_s,
        newton_iterations_max: 0,
        ended: false,
    };
    let mut turned = false;
    while run.n_contact < MAX_CONTACT_SAMPLES {
        let iterations = step(method, law, mass_kg, external_force_n, h_s, &mut state);
        run.newton_iterations_max = run.newton_iterations_max.max(iterations);
        turned |= state.v_m_per_s < 0.0;
        if let (Some(curve), Some(v_out)) = (&hybrid, hybrid_v_out) {
            // Section IV-A1: follow x(v). The analytic curve closes at x = 0 when v reaches v_out,
            // so the contact is closed (x = 0) once v is at or past v_out, or once, in restitution,
            // x(v) is shorter than one step's travel h·|v|: an implicit step creeps towards v_out,
            // where the force vanishes, without ever crossing it.
            //
            // In restitution with large μ·v_in, v sits within rounding of v_lim while x falls (see
            // Impact::contact_time_s): v stops moving and x(v) would undo the step's travel every
            // sample, so the contact would never end. A correction that would take back more than
            // half of the step's travel h·|v| (a resolved curve differs from the step by O(h²)) is
            // skipped: the integrated x is below the curve there, so the energy stays below H(v).
            if state.x_m > 0.0 {
                let v = state.v_m_per_s;
                let (x_curve, force_curve) = curve.x_and_force(v);
                if v <= v_out || (v < 0.0 && x_curve <= -h_s * v) {
                    state.x_m = 0.0;
                    state.force_n = 0.0;
                } else if v >= 0.0 || x_curve - state.x_m < -0.5 * h_s * v {
                    state.x_m = x_curve;
                    state.force_n = force_curve;
                }
            }
        }
        if state.x_m <= 0.0 && turned {
            if let Some(v_out) = exit_v_out {
                // Section IV-A2: release at v_out with zero compression.
                state = MassState {
                    x_m: 0.0,
                    v_m_per_s: v_out,
                    force_n: 0.0,
                };
            }
            run.v_out_m_per_s = state.v_m_per_s;
            run.ended = true;
            break;
        }
        observe(state.x_m, state.v_m_per_s);
        run.n_contact += 1;
    }
    run
}

/// One mass–wall Hunt–Crossley impact with the paper's metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpactReport {
    pub n_contact: usize,
    pub v_out_sim: f64,
    pub v_out_exact: f64,
    pub v_out_approx: f64,
    /// 100·(v_sim − v_out)/v_out against the exact v_out; positive means energy gain.
    pub err_v_out_pct: f64,
    /// Eq. (28): 100·max|x_n − x(v_n)|/x_max (see [`Impact::x_deviation_m`]).
    pub dev_x_pct: f64,
    /// Eq. (27): 100·max|H_sim(x_n, v_n) − H(v_n)|/|ΔH_τ|.
    pub dev_h_pct: f64,
    /// Eq. (4).
    pub x_max_m: f64,
    /// Eq. (9).
    pub contact_time_s: f64,
    pub newton_iterations_max: u32,
    /// Largest sub-step count per sample (1 for the paper's engine).
    pub substeps: usize,
    /// Largest rise of the total energy from one sample to the next during the impact, J (0 when
    /// it never rises).
    pub energy_rise_max_j: f64,
}

/// Simulate `impact` (starting at x = 0, v = v_in on a sample) and measure it against the closed
/// forms of Section II-A.
pub fn simulate_impact(impact: &Impact, d: &Discretization) -> ImpactReport {
    let law = HuntCrossley {
        stiffness: impact.stiffness,
        mu_s_per_m: impact.mu_s_per_m,
        alpha: impact.alpha,
    };
    let x_max = impact.x_max_m();
    let (mut dev_x, mut dev_h) = (0.0f64, 0.0f64);
    let (mut previous_h, mut energy_rise) = (f64::INFINITY, 0.0f64);
    let run = run_contact(
        &law,
        impact.mass_kg,
        impact.v_in_m_per_s,
        0.0,
        1.0 / d.sample_rate_hz,
        d.method,
        Some((impact, d.correction, d.exit_velocity)),
        |x, v| {
            dev_x = dev_x.max(impact.x_deviation_m(x, v));
            let h_sim = 0.5 * impact.mass_kg * v * v
                + impact.stiffness * x.max(0.0).powf(impact.alpha + 1.0) / (impact.alpha + 1.0);
            dev_h = dev_h.max((h_sim - impact.hamiltonian_of_v_j(v)).abs());
            energy_rise = energy_rise.max(h_sim - previous_h);
            previous_h = h_sim;
        },
    );
    let v_out_exact = impact.v_out_exact_m_per_s();
    ImpactReport {
        n_contact: run.n_contact,
        v_out_sim: run.v_out_m_per_s,
        v_out_exact,
        v_out_approx: impact.v_out_approx_m_per_s(),
        err_v_out_pct: 100.0 * (run.v_out_m_per_s - v_out_exact) / v_out_exact,
        dev_x_pct: 100.0 * dev_x / x_max,
        dev_h_pct: 100.0 * dev_h / impact.delta_h_tau_j().abs(),
        x_max_m: x_max,
        contact_time_s: impact.contact_time_s(),
        newton_iterations_max: run.newton_iterations_max,
        substeps: 1,
        energy_rise_max_j: energy_rise.max(0.0),
    }
}

/// A rebound sequence as in Table III.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BounceReport {
    pub impacts: usize,
    /// 100·(H_sim − H)/H of the residual energy after the last impact, H from the exact v_out chain.
    pub accum_err_pct: f64,
    /// Largest %dev(H) of any impact, each normalised by its own ΔH_τ.
    pub max_dev_h_pct: f64,
    pub v_out_last_sim: f64,
    pub v_out_last_exact: f64,
}

/// `impacts` rebounds starting at `first.v_in_m_per_s`: gravity acts only in free flight, which is
/// conservative, so each impact starts at x = 0 with v_in(i+1) = |v_out_sim(i)| (Section IV-B2).
pub fn simulate_bounces(first: &Impact, d: &Discretization, impacts: usize) -> BounceReport {
    let mut v_sim = first.v_in_m_per_s;
    let mut v_exact = first.v_in_m_per_s;
    let mut max_dev_h_pct = 0.0f64;
    let (mut last_sim, mut last_exact) = (0.0, 0.0);
    for _ in 0..impacts {
        let report = simulate_impact(
            &Impact {
                v_in_m_per_s: v_sim,
                ..*first
            },
            d,
        );
        max_dev_h_pct = max_dev_h_pct.max(report.dev_h_pct);
        last_sim = report.v_out_sim;
        last_exact = Impact {
            v_in_m_per_s: v_exact,
            ..*first
        }
        .v_out_exact_m_per_s();
        v_sim = last_sim.abs();
        v_exact = last_exact.abs();
    }
    BounceReport {
        impacts,
        accum_err_pct: 100.0 * (last_sim * last_sim - last_exact * last_exact)
            / (last_exact * last_exact),
        max_dev_h_pct,
        v_out_last_sim: last_sim,
        v_out_last_exact: last_exact,
    }
}
