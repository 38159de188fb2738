//! The crumple: while its note is held, a stream of small impacts — fragments of the striker's body at every size, thrown at the object from a pool of strikers so that they overlap.
//!
//! The events are a Poisson stream in continuous time ([`crate::stream`]), its rate the patch's
//! times the gesture's share, the rate controller's and the note's expression (its drive), set
//! every [`CONTROL_S`] of the note's time: a seed gives the same events at every sample rate.
//! Each event of energy E throws a fragment of size s = √(E/E_max) of the striker
//! ([`crate::stream::StreamSettings::size`]) at the object at its event's time
//! ([`super::thrower`]).

use super::thrower::Thrower;
use super::{NoteStart, Scene};
use crate::stream::{EnergyLaw, EventStream, StreamSettings};
use crate::voice::bodies::Bodies;
use crate::voice::patch::{Crumple, Gesture, Patch};

/// How often the rate is set, s of the note's time (the same instants at every sample rate).
const CONTROL_S: f64 = 1e-3;
/// The settings' bounds where they enter the scene (the plugin's ranges lie within them).
const EXPONENT_RANGE: (f64, f64) = (0.5, 3.0);
const SPAN_RANGE: (f64, f64) = (1.01, 1e6);
const MIN_ENERGY_J: f64 = 1e-15;
/// A footstep's bursts: each (τ/b)·e^(1 − τ/b) with b this share of the step, the toe's this
/// share of the step after the heel and this loud.
const STEP_BURST: f64 = 0.04;
const TOE_DELAY: f64 = 0.25;
const TOE_SHARE: f64 = 0.8;

/// The most events per second a crumple's calibration renders: its ten two-second references
/// (a pressed ladder, see [`super::LevelReference::Pressed`]) at thousands of events a second
/// took seconds at each change of the patch.
const REFERENCE_RATE_PER_S: f64 = 200.0;

/// `patch` as its calibration renders it, its rate at most [`REFERENCE_RATE_PER_S`], and the
/// factor that brings the RMS measured to the whole rate's: √(rate/rendered rate). Campbell's
/// theorem: the power of a stream of independent shots (here impacts on a linear object, which
/// overlap little) is their rate times the mean energy of one shot's sound, so their RMS goes as
/// the square root of the rate, whatever the gesture that shapes it in time.
pub(super) fn reference_stream(patch: Patch) -> (Patch, f64) {
    let rate_per_s = patch.crumple.rate_per_s.max(0.0);
    if rate_per_s <= REFERENCE_RATE_PER_S {
        return (patch, 1.0);
    }
    let rendered = Patch {
        crumple: Crumple {
            rate_per_s: REFERENCE_RATE_PER_S,
            ..patch.crumple
        },
        ..patch
    };
    (rendered, (rate_per_s / REFERENCE_RATE_PER_S).sqrt())
}

/// The stream and what it throws.
pub(in crate::voice) struct CrumpleScene {
    stream: Stream,
    thrower: Thrower,
}

/// The stream, the control instants it has passed, whether its note is held, and the share of
/// the events' energies the note's velocity throws them with.
struct Stream {
    events: EventStream,
    controls: u64,
    held: bool,
    energy_scale: f64,
}

impl CrumpleScene {
    pub fn new() -> Self {
        Self {
            stream: Stream {
                events: EventStream::new(
                    StreamSettings::new(EnergyLaw::Exponential { scale_j: 1.0 }),
                    0.0,
                    0,
                ),
                controls: 0,
                held: false,
                energy_scale: 1.0,
            },
            thrower: Thrower::new(),
        }
    }
}

impl Stream {
    /// The rate at `t_s` into the note, events per second.
    fn rate_per_s(crumple: &Crumple, t_s: f64, drive_fraction: f64) -> f64 {
        let controlled = crumple.rate_fraction.clamp(0.0, 1.0) * drive_fraction.clamp(0.0, 1.0);
        crumple.rate_per_s.max(0.0) * controlled * gesture_share(crumple, t_s)
    }

    /// Throw every event that arrives before `end_s`, the rate set at each control instant on
    /// the way; `start_s` is where the sample about to be rendered begins.
    fn throw_until(
        &mut self,
        thrower: &mut Thrower,
        bodies: &mut Bodies,
        crumple: &Crumple,
        start_s: f64,
        end_s: f64,
        fs: f64,
    ) {
        loop {
            let control_s = self.controls as f64 * CONTROL_S;
            while let Some(event) = self.events.next_before(control_s.min(end_s)) {
                let restitution = thrower.restitution;
                thrower.throw(
                    bodies,
                    (event.energy_j * self.energy_scale, event.size),
                    event.time_s - start_s,
                    restitution,
                    fs,
                );
            }
            if control_s >= end_s {
                return;
            }
            let rate = if self.held {
                Self::rate_per_s(crumple, control_s, bodies.drive_fraction)
            } else {
                0.0
            };
            self.events.set_rate(control_s, rate);
            self.controls += 1;
        }
    }
}

/// The gesture's share of the rate at `t_s` into the note.
fn gesture_share(crumple: &Crumple, t_s: f64) -> f64 {
    let period_s = crumple.gesture_s.max(1e-3);
    let burst = |tau: f64, width: f64| {
        if tau > 0.0 {
            tau / width * (1.0 - tau / width).exp()
        } else {
            0.0
        }
    };
    match crumple.gesture {
        Gesture::Steady => 1.0,
        Gesture::Crush => burst(t_s, period_s),
        Gesture::Steps => {
            let tau = t_s % period_s;
            let width = STEP_BURST * period_s;
            burst(tau, width) + TOE_SHARE * burst(tau - TOE_DELAY * period_s, width)
        }
    }
}

impl Scene for CrumpleScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let patch = note.patch;
        let crumple = &patch.crumple;
        self.thrower.start(bodies, patch, note.dt_s);
        let min_j = crumple.min_energy_j.max(MIN_ENERGY_J);
        let span = crumple.energy_span.clamp(SPAN_RANGE.0, SPAN_RANGE.1);
        let law = EnergyLaw::PowerLaw {
            exponent: crumple
                .energy_exponent
                .clamp(EXPONENT_RANGE.0, EXPONENT_RANGE.1),
            min_j,
            max_j: min_j * span,
        };
        let settings = StreamSettings::new(law);
        // The velocity's share of the energies (the fragments' sizes are the crumple's own): a
        // fragment's impulse goes as √(E·m), so a level of L dB below velocity 127 throws them
        // with 10^(L/10) of their energies.
        self.stream = Stream {
            events: EventStream::new(settings, 0.0, note.seed),
            controls: 0,
            held: true,
            energy_scale: note.strike.press_fraction,
        };
    }

    fn render(
        &mut self,
        bodies: &mut Bodies,
        patch: &Patch,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
        _decide: bool,
    ) {
        let stream = &mut self.stream;
        let due = |thrower: &mut Thrower, bodies: &mut Bodies, start_s, end_s, fs| {
            stream.throw_until(thrower, bodies, &patch.crumple, start_s, end_s, fs);
        };
        self.thrower.render(bodies, dt_s, (mid, side), due);
    }

    /// A held note, or fragments still flying or ringing, keep the voice.
    fn in_play(&self, _bodies: &Bodies) -> bool {
        self.stream.held || self.thrower.is_active()
    }

    /// No event is thrown after the note-off; those thrown ring out.
    fn release(&mut self, _bodies: &mut Bodies, _patch: &Patch) -> bool {
        self.stream.held = false;
        false
    }

    /// No event from now on, and the fragments are gone.
    fn stop(&mut self, _bodies: &mut Bodies) {
        self.stream.held = false;
        self.thrower.silence();
    }
}
