//! Event streams: when the events of a crumple or a break fall (in continuous time, whatever the sample rate), the energy each releases and the size of what gives.
//!
//! A stream is a Poisson process whose rate may change at any moment. It is drawn by time
//! rescaling (Brown et al., "The time-rescaling theorem and its application to neural spike
//! train data analysis", Neural Computation 14, 2002): each event waits for a unit-rate
//! exponential draw to be used up by the integral of the rate, Λ(t) = ∫λ dt, so the next event
//! falls at t = t₀ + b/λ while the rate λ holds from t₀ with b of the draw left. The draws are
//! made in the order of the events, never per sample, so a seed gives the same events at every
//! sample rate, and any number of them may fall within one sample (the reference toolkit fires
//! with a probability per sample: its rate follows the sample rate, and one event fits a sample).

mod fracture;
#[cfg(test)]
mod fracture_tests;
mod law;
#[cfg(test)]
mod tests;

pub use fracture::{
    BreakEvent, BreakPlan, BreakSettings, Fragment, Ledger, Piece, CRACK_ENERGY_EXPONENT,
    MAX_FRAGMENTS, MAX_IMPACTS,
};
pub use law::{power_law_quantile, EnergyLaw};

/// The smallest size of what gives in an event, a share of the whole object.
pub const MIN_SIZE: f64 = 0.01;

/// One event of a stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// When it falls, s from the stream's start.
    pub time_s: f64,
    /// The energy it releases, J.
    pub energy_j: f64,
    /// The size of what gives, a share [`MIN_SIZE`]…1 of the whole object's linear size.
    pub size: f64,
}

/// What a stream draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamSettings {
    pub law: EnergyLaw,
    /// The energy of an event that breaks the whole object loose, J (size 1).
    pub whole_object_j: f64,
}

impl StreamSettings {
    /// A stream of `law`, its sizes scaled to the law's largest energy
    /// ([`EnergyLaw::whole_object_j`]).
    pub fn new(law: EnergyLaw) -> Self {
        Self {
            law,
            whole_object_j: law.whole_object_j(),
        }
    }

    /// The size of what gives when `energy_j` is released: by Griffith's balance the energy a
    /// crack releases makes new surface, E = 2γ·A, so its linear size goes as √E:
    /// s = √(E / E_whole), within [`MIN_SIZE`]…1.
    pub fn size(&self, energy_j: f64) -> f64 {
        (energy_j / self.whole_object_j).sqrt().clamp(MIN_SIZE, 1.0)
    }
}

/// A Poisson stream of events whose rate may change at any moment (allocation-free).
pub struct EventStream {
    settings: StreamSettings,
    rng: fastrand::Rng,
    rate_per_s: f64,
    /// When the current rate took effect or the last event fell, s, and how much of the
    /// unit-rate exponential draw of the next event is left to integrate from then.
    anchor_s: f64,
    left: f64,
}

impl EventStream {
    /// A stream from time 0 at `rate_per_s` events per second (negative: none), its draws from
    /// `seed`.
    pub fn new(settings: StreamSettings, rate_per_s: f64, seed: u64) -> Self {
        let mut rng = fastrand::Rng::with_seed(seed);
        let left = unit_exponential(&mut rng);
        Self {
            settings,
            rng,
            rate_per_s: rate_per_s.max(0.0),
            anchor_s: 0.0,
            left,
        }
    }

    pub fn rate_per_s(&self) -> f64 {
        self.rate_per_s
    }

    /// The rate from `now_s` on (not before the last event taken; NaN or negative: none). The
    /// events before `now_s` should have been taken first: one still due falls at `now_s`.
    pub fn set_rate(&mut self, now_s: f64, rate_per_s: f64) {
        let rate_per_s = if rate_per_s > 0.0 { rate_per_s } else { 0.0 };
        if rate_per_s == self.rate_per_s {
            return;
        }
        if now_s > self.anchor_s {
            self.left = (self.left - self.rate_per_s * (now_s - self.anchor_s)).max(0.0);
            self.anchor_s = now_s;
        }
        self.rate_per_s = rate_per_s;
    }

    /// When the next event falls at the present rate, s (infinite at rate 0).
    pub fn next_time_s(&self) -> f64 {
        if self.rate_per_s > 0.0 {
            self.anchor_s + self.left / self.rate_per_s
        } else {
            f64::INFINITY
        }
    }

    /// The next event if it falls before `end_s`: its energy and size drawn, and the wait for
    /// the one after.
    pub fn next_before(&mut self, end_s: f64) -> Option<Event> {
        let time_s = self.next_time_s();
        if !(time_s < end_s) {
            return None;
        }
        let energy_j = self.settings.law.energy_j(self.rng.f64());
        self.anchor_s = time_s;
        self.left = unit_exponential(&mut self.rng);
        Some(Event {
            time_s,
            energy_j,
            size: self.settings.size(energy_j),
        })
    }
}

/// A unit-rate exponential variate, −ln(1 − u) with u uniform in [0, 1).
fn unit_exponential(rng: &mut fastrand::Rng) -> f64 {
    -(1.0 - rng.f64()).ln()
}
