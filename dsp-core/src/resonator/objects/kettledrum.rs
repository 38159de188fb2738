//! The kettledrum: a membrane loaded by the air on both sides and by its kettle's volume (Christian, Davis, Tubis, Anderson & Rossing 1984).

use super::{Candidate, Shape, MEMBRANE_ZEROS};
use crate::radiation::{AIR_DENSITY_KG_PER_M3, SPEED_OF_SOUND_M_PER_S};
use crate::resonator::MAX_MODES;
use std::f64::consts::PI;

/// The air's load on the head, μ = 2ρa/σ: the mass of air a head of radius a carries on its two
/// sides over the head's own (σ its mass per m²). It is the one value that puts the (2, 1) mode
/// a fifth over the (1, 1) (the tuning a timpanist listens for: the principal modes "nearly in
/// the ratio 4 : 3 : 2", Rossing et al.), found by bisection in the tests; it gives a head of
/// σ = 2ρa/μ = 0.166 kg/m² on the kettle below (a 0.12 mm polyester film).
pub(super) const AIR_LOAD: f64 = 5.340_738;
/// The head's radius, m: a 29-inch kettledrum (C3 is in its range).
pub(super) const RADIUS_M: f64 = 0.368;
/// The kettle's volume, m³: a paraboloid bowl 0.5 m deep under the head, πa²d/2.
pub(super) const VOLUME_M3: f64 = PI * RADIUS_M * RADIUS_M * 0.5 / 2.0;

/// β_mn = 2j²·∫₀^∞ J_m(u)²/(u² − j²)² du for each of [`MEMBRANE_ZEROS`] (j = j_mn), in its
/// order: the mass of incompressible air a baffled head's mode (m, n) carries on one side, as a
/// fraction of ρa per m² of head. Each wavenumber k of the mode's Hankel transform
/// Φ(k) ∝ J_m(ka)/(k² − (j/a)²) carries ρ/k (its field decays as e^{−kz}); weighted by |Φ(k)|²
/// and divided by ∫|Φ|²k dk = ∫φ²r dr (Parseval) that is ρa·β_mn. Computed by adaptive
/// quadrature (mpmath, 15 digits, the tail past 200 half-periods in closed form) and checked in
/// the tests against a quadrature of their own.
pub(super) const AIR_MASS: [f64; MAX_MODES] = [
    0.746435130,
    0.330131942,
    0.225828562,
    0.261642428,
    0.174704861,
    0.170254359,
    0.143577067,
    0.134108373,
    0.152178919,
    0.122382143,
    0.112384744,
    0.106916998,
    0.113655313,
    0.097424941,
    0.095085551,
    0.095463694,
    0.105959257,
    0.085715495,
    0.086337708,
    0.083356325,
    0.084950304,
    0.078095929,
    0.077722472,
    0.074425749,
    0.071768911,
    0.074042419,
    0.070800226,
    0.080845614,
    0.066425256,
    0.067464859,
    0.065096785,
    0.066317662,
    0.067678078,
    0.061848211,
    0.061840691,
    0.060304323,
    0.060358907,
    0.057881053,
    0.060425826,
    0.065179550,
    0.057177712,
    0.056213063,
    0.054407506,
    0.055552244,
    0.055070135,
    0.053234844,
    0.056174103,
    0.052674481,
    0.051339383,
    0.051560683,
    0.049580123,
    0.049848462,
    0.050805875,
    0.048608534,
    0.051010762,
    0.054515052,
    0.048175782,
    0.046848748,
    0.046902755,
    0.046161418,
    0.047278698,
    0.047080756,
    0.047976120,
    0.045258745,
    0.044418170,
    0.043955364,
    0.044313008,
    0.044288891,
    0.043876746,
    0.042712321,
    0.042239907,
    0.044116308,
    0.041955927,
    0.046804551,
    0.042015573,
    0.041709462,
    0.040275554,
    0.040134984,
    0.041175146,
    0.040465732,
    0.039961564,
    0.041110672,
    0.041844884,
    0.039453621,
    0.038469339,
    0.038494256,
    0.038465918,
    0.038848135,
    0.038112716,
    0.038614882,
    0.038852174,
    0.040978767,
    0.036939681,
    0.037459100,
    0.036870924,
    0.036672140,
    0.036438594,
    0.036812937,
    0.036478192,
    0.035529801,
    0.035384924,
    0.035679603,
    0.036479813,
    0.037089989,
    0.035052493,
    0.034914651,
    0.035011910,
    0.034225988,
    0.034019126,
    0.034613882,
    0.034079752,
    0.034480777,
    0.033520841,
    0.033581566,
    0.034702766,
    0.036426605,
    0.033016563,
    0.033402949,
    0.032759176,
    0.032965128,
    0.032631912,
    0.032240618,
    0.032238827,
    0.032748095,
    0.031891514,
    0.032783082,
    0.033296859,
    0.031592955,
];

/// Fill `out` with the kettledrum's modes, its (1, 1) mode at ratio 1 sounding `note_hz`:
/// - every mode (m, n) of the head lowered by its air load, ω ∝ j_mn/√(1 + μ·β_mn);
/// - the symmetric modes (0, n), which change the kettle's volume, raised by its air's
///   stiffness, ω² ∝ 1 + ρc²·(∫φ dS)²/(V·T·∫(∇φ)² dS) = 1 + 4πρc²a⁴/(V·T·j⁴), the head's
///   tension T = σ·c_m² set by the note (ω₁₁ = c_m·(j₁₁/a)/√(1 + μβ₁₁));
/// - and those alone damped by what they radiate, a baffled source of volume velocity U
///   radiating ρck²|U|²/(4π) at low ka: an amplitude decay rate of c·k²·a·μ/(2(1 + μβ)·j²).
///
/// Returns how many it wrote.
pub(super) fn kettledrum(out: &mut [Candidate], note_hz: f64) -> usize {
    let (rho, c, a) = (AIR_DENSITY_KG_PER_M3, SPEED_OF_SOUND_M_PER_S, RADIUS_M);
    let loaded = |j: f64, beta: f64| j / (1.0 + AIR_LOAD * beta).sqrt();
    let note = loaded(MEMBRANE_ZEROS[1].1, AIR_MASS[1]);
    let wave_speed_m_per_s = 2.0 * PI * note_hz * a / note;
    let tension_n_per_m = 2.0 * rho * a / AIR_LOAD * wave_speed_m_per_s.powi(2);
    let modes = MEMBRANE_ZEROS.iter().zip(&AIR_MASS);
    for (candidate, (&(m, j), &beta)) in out.iter_mut().zip(modes) {
        let mut ratio = loaded(j, beta) / note;
        let mut decay_per_s = 0.0;
        if m == 0 {
            let kettle =
                4.0 * PI * rho * c * c * a.powi(4) / (VOLUME_M3 * tension_n_per_m * j.powi(4));
            ratio *= (1.0 + kettle).sqrt();
            let k = 2.0 * PI * ratio * note_hz / c;
            decay_per_s = c * k * k * a * AIR_LOAD / (2.0 * (1.0 + AIR_LOAD * beta) * j * j);
        }
        *candidate = Candidate {
            ratio,
            shape: Shape::Bessel(i32::from(m), j),
            decay_per_s,
        };
    }
    MEMBRANE_ZEROS.len()
}
