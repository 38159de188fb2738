//! The scrape experiment: a light probe pressed onto a rigid surface and drawn over its profile, the contact force it feels sample by sample.

use super::{SurfaceReader, SurfaceSettings};
use crate::contact::HuntCrossley;
use crate::integrate::Method;
use crate::interaction::{ContactSetup, Damping, Gravity, Hammer};
use crate::resonator::ModalBank;

/// A probe of `probe_kg` pressed with `press_n` onto a rigid object through `law` and
/// `damping`, drawn over `surface` at `speed_m_per_s` (negative: backwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scrape {
    pub surface: SurfaceSettings,
    pub speed_m_per_s: f64,
    pub probe_kg: f64,
    pub press_n: f64,
    pub law: HuntCrossley,
    pub damping: Damping,
    pub sample_rate_hz: f64,
}

impl Scrape {
    /// A 0.1 g stylus pressed with 0.05 N through a stiff Hertz contact with a damper (its
    /// resonance, √(k′/m) with k′ = (3/2)·k^(2/3)·F^(1/3) = 2.6·10⁶ N/m, is at 25 kHz, damped to
    /// ζ ≈ 0.6: the stylus follows the surface throughout the audio band), drawn over `surface`
    /// at `speed_m_per_s`.
    pub fn stylus(surface: SurfaceSettings, speed_m_per_s: f64, sample_rate_hz: f64) -> Self {
        Self {
            surface,
            speed_m_per_s,
            probe_kg: 1e-4,
            press_n: 0.05,
            law: HuntCrossley {
                stiffness: 1e10,
                mu_s_per_m: 0.0,
                alpha: 1.5,
            },
            damping: Damping::Linear { n_s_per_m: 20.0 },
            sample_rate_hz,
        }
    }
}

/// The contact force on the probe at each of `samples` samples, N: the mean over the sample,
/// from the probe's change of momentum, F = m·(a_press + ḧ) − m·Δv/dt (ḧ the profile's
/// acceleration under it, in the frame that moves with the surface). `from_m` is where on the
/// surface the probe starts.
pub fn scrape(s: &Scrape, from_m: f64, samples: usize) -> Vec<f64> {
    let setup = ContactSetup {
        law: s.law,
        method: Method::Am1,
        guard: true,
        exit_correction: false,
        damping: s.damping,
        restitution: None,
    };
    let mass = s.probe_kg.max(1e-9);
    let press = s.press_n.max(0.0) / mass;
    let mut rigid = ModalBank::new(1.0);
    let mut probe = Hammer::new(mass, setup);
    probe.set_gravity(Gravity {
        accel_m_per_s2: press,
        in_contact: true,
        capture_m_per_s: 0.0,
    });
    probe.place(&rigid, &setup, mass);
    let mut reader = SurfaceReader::new(s.sample_rate_hz);
    reader.set_surface(&s.surface, 0.0, from_m);
    let dt = 1.0 / s.sample_rate_hz;
    (0..samples)
        .map(|_| {
            let profile = reader.advance(s.speed_m_per_s);
            probe.set_track_acceleration(profile.accel_m_per_s2);
            let v0 = probe.velocity_m_per_s();
            probe.process_sample(&setup, &mut rigid, dt);
            mass * (press + profile.accel_m_per_s2) - mass * (probe.velocity_m_per_s() - v0) / dt
        })
        .collect()
}
