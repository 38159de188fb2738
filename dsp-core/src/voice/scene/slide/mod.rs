//! The slide: a slider pressed onto the object and drawn over a surface, its friction solved with the object's modes each sample; at note-off lifted.

use super::{NoteStart, Scene};
use crate::friction::{Bristle, FrictionLaw, FrictionStep, Roughness, Slip};
use crate::interaction::Gravity;
use crate::resonator::{ModalBank, Pickup, Slot};
use crate::smooth::{approach, SPEED_RESOLUTION_M_PER_S};
use crate::surface::{SurfaceReader, SurfaceSettings};
use crate::voice::bodies::Bodies;
use crate::voice::patch::{Patch, Stroke};

mod point;
mod trace;
use point::ContactPoint;
pub use trace::{SlidePoint, SlideTrace, SLIDE_TRACE_POINTS};

/// The slider's drive, its bristle and the surface under it.
pub(in crate::voice) struct SlideScene {
    reader: Box<SurfaceReader>,
    /// A rigid support (no modes): what a slider pressed against an edge meets.
    edge: Box<ModalBank>,
    /// This note's slider presses against the edge.
    on_edge: bool,
    bristle: Bristle,
    law: FrictionLaw,
    /// The flicker of the dry friction (the law's roughness noise), seeded per note.
    roughness: Roughness,
    coupling: f64,
    /// The slider is pressed and drawn (until note-off or a stop).
    drawing: bool,
    /// Drawing velocity, smoothed, m/s (signed: forwards is positive).
    velocity_m_per_s: f64,
    /// +1 or −1: where a back-and-forth stroke is heading.
    heading: f64,
    /// Where the stroke started on the surface, m.
    origin_m: f64,
    /// The friction force on the object's modes at the last sample, N (c·F).
    tangent_n: f64,
    /// The object's tangential displacement at the contact after the last sample, m (None: to
    /// be read from the object).
    tangent_m: Option<f64>,
    /// Where on the object the slider is.
    point: Box<ContactPoint>,
    /// The live view's record (filled while the voice is traced).
    pub trace: Box<SlideTrace>,
}

impl SlideScene {
    pub fn new() -> Self {
        Self {
            reader: SurfaceReader::new(48_000.0),
            edge: ModalBank::new(1.0),
            on_edge: false,
            bristle: Bristle::new(),
            law: FrictionLaw::rosin(),
            roughness: Roughness::new(0.0, 48_000.0, 0),
            coupling: 1.0,
            drawing: false,
            velocity_m_per_s: 0.0,
            heading: 1.0,
            origin_m: 0.0,
            tangent_n: 0.0,
            tangent_m: None,
            point: Box::new(ContactPoint::new()),
            trace: Box::default(),
        }
    }

    /// The normal force (N) the slider presses on the object with: the contact's, 0 off it.
    fn pressing_n(&self, bodies: &Bodies) -> f64 {
        if bodies.hammer.in_contact() {
            bodies.hammer.force_n().max(0.0)
        } else {
            0.0
        }
    }

    /// The drawing velocity the drive heads for now, m/s: the controller's share of the speed
    /// times the note's own (`drive_fraction`, its expression's, in 0…1), forwards, backwards, or
    /// turning at either end of a back-and-forth stroke.
    fn target_m_per_s(&mut self, patch: &Patch, drive_fraction: f64) -> f64 {
        if !self.drawing {
            return 0.0;
        }
        let slide = &patch.slide;
        let speed =
            slide.speed_m_per_s.max(0.0) * slide.speed_fraction.clamp(0.0, 1.0) * drive_fraction;
        match slide.stroke {
            Stroke::Forward => speed,
            Stroke::Backward => -speed,
            Stroke::BackAndForth => {
                let half = 0.5 * slide.stroke_length_m.max(1e-3);
                let along = self.reader.position_m() - self.origin_m;
                if along >= half {
                    self.heading = -1.0;
                } else if along <= -half {
                    self.heading = 1.0;
                }
                self.heading * speed
            }
        }
    }

    /// Record the sample's tangential contact in the trace, and the bristle's iteration counts
    /// with each full window.
    fn record(&mut self, normal_n: f64, step: &FrictionStep) {
        let shown = self.trace.serial;
        self.trace.push(SlidePoint {
            slip_m_per_s: step.slip_m_per_s as f32,
            friction_n: step.force_n as f32,
            normal_n: normal_n as f32,
            sticking: step.adhesion == 0.0,
        });
        if self.trace.serial != shown {
            self.count_iterations();
        }
    }

    /// Give the trace the bristle's Newton counts so far.
    fn count_iterations(&mut self) {
        let bristle = &self.bristle;
        let mean = bristle.iterations_sum as f64 / bristle.steps.max(1) as f64;
        self.trace.count(mean, bristle.iterations_max);
    }
}

impl Scene for SlideScene {
    fn start(&mut self, bodies: &mut Bodies, note: &NoteStart<'_>) {
        let patch = note.patch;
        let slide = &patch.slide;
        let mass_kg = patch.hammer_mass_kg.max(1e-6);
        // The velocity's share of the force (see `Calibration::press_for`).
        let force_n = slide.force_n.max(0.0) * note.strike.press_fraction.clamp(0.0, 1.0);
        let hammer = &mut bodies.hammer;
        // Pressed by its force throughout (as by a weight), and the note's press on top.
        hammer.set_gravity(Gravity {
            accel_m_per_s2: force_n / mass_kg,
            in_contact: true,
            capture_m_per_s: 0.0,
        });
        hammer.set_irregularity(0.0, note.seed);
        self.on_edge = slide.against_edge;
        if self.on_edge {
            hammer.place(&self.edge, &patch.contact, mass_kg);
        } else {
            // Laid on gently: the object starts deflected under the slider's force.
            bodies
                .bank
                .preload(force_n + mass_kg * bodies.press.now.max(0.0));
            hammer.place(&bodies.bank, &patch.contact, mass_kg);
        }
        bodies.input_energy_j = f64::INFINITY;
        self.reader.set_sample_rate(1.0 / note.dt_s);
        let surface = SurfaceSettings {
            seed: note.seed,
            ..slide.surface
        };
        self.reader.set_surface(&surface, slide.tip_radius_m, 0.0);
        self.bristle.reset();
        self.law = slide.friction.clamped();
        // A stream of its own: the surface's partials draw from the note's seed too.
        let stream = note.seed ^ 0x9e37_79b9_7f4a_7c15;
        self.roughness = Roughness::new(self.law.roughness_per_sqrt_hz, 1.0 / note.dt_s, stream);
        self.coupling = slide.coupling.clamp(0.0, 1.0);
        self.drawing = true;
        self.velocity_m_per_s = 0.0;
        self.heading = 1.0;
        self.origin_m = 0.0;
        self.tangent_n = 0.0;
        self.tangent_m = None;
        self.trace.begin(self.law, 1.0 / note.dt_s);
        self.point.start(
            note.floor,
            patch.object_radiating_size_m(),
            !slide.against_edge && !slide.in_place && !note.floor.kind.is_rim(),
            slide.speed_m_per_s,
            note.dt_s,
            &bodies.bank,
        );
    }

    /// Each sample: the drive moves the slider over the surface (its profile pushing the slider
    /// as a rolling track does), the normal contact is solved with the object (or with the rigid
    /// edge, the object ringing freely meanwhile), then the
    /// friction under that contact's force with the object's tangential response over the same
    /// sample (its force added to the step by linearity: [`crate::resonator::ModalBank::push_tangent`]).
    fn render(
        &mut self,
        bodies: &mut Bodies,
        patch: &Patch,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
        _decide: bool,
    ) {
        if bodies.hammer.is_retired() {
            bodies.render_free(&patch.contact, patch.hammer_mass_kg, dt_s, mid, side);
            return;
        }
        let keep = (-dt_s / patch.slide.smoothing_s.max(1e-4)).exp();
        let c = self.coupling;
        for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
            let target = self.target_m_per_s(patch, bodies.drive_fraction);
            self.velocity_m_per_s = approach(
                self.velocity_m_per_s,
                target,
                keep,
                SPEED_RESOLUTION_M_PER_S,
            );
            let profile = self.reader.advance(self.velocity_m_per_s);
            // The point under the slider moves with it (the reader starts each note at 0), the
            // deflection its loads hold with it, and the contact and the friction read the
            // object there.
            let loads_n = [held_load_n(bodies, patch.hammer_mass_kg), self.tangent_n];
            if self
                .point
                .follow(self.reader.position_m(), loads_n, &mut bodies.bank)
            {
                self.tangent_m = Some(bodies.hammer.point_moved(&mut bodies.bank));
            }
            bodies
                .hammer
                .set_track_acceleration(profile.accel_m_per_s2 + bodies.press.next());
            let before_m = self
                .tangent_m
                .unwrap_or_else(|| bodies.bank.tangent_displacement_m());
            let pickup = if self.on_edge {
                let slider = bodies
                    .hammer
                    .process_sample(&patch.contact, &mut self.edge, dt_s);
                let object = bodies.bank.ring();
                Pickup {
                    mid_pa: slider.mid_pa + object.mid_pa,
                    side_pa: slider.side_pa + object.side_pa,
                }
            } else {
                bodies
                    .hammer
                    .process_sample(&patch.contact, &mut bodies.bank, dt_s)
            };
            let normal_n = self.pressing_n(bodies);
            // The slider moves at the drive's smoothed speed; the surface is read at the speed
            // of each block, within a fraction of a millimetre of it.
            let drive_m = self.velocity_m_per_s * dt_s;
            let after_m = bodies.bank.tangent_displacement_m();
            let slip = Slip {
                free_m: drive_m - c * (after_m - before_m),
                compliance_m_per_n: c * c * bodies.bank.tangent_compliance_m_per_n(),
            };
            // The roughness modulates the dry friction the law sees, not the normal contact.
            let law_normal_n = normal_n * self.roughness.next_factor();
            let step = self.bristle.step(&self.law, law_normal_n, slip, dt_s);
            self.tangent_n = c * step.force_n;
            if bodies.hammer.is_tracing() {
                self.record(normal_n, &step);
            }
            let more = if step.force_n != 0.0 {
                // The normal contact's next step starts from where the friction moved the
                // object.
                let pushed = if self.on_edge {
                    bodies.bank.push_tangent(c * step.force_n, Slot::Full)
                } else {
                    bodies
                        .hammer
                        .push_tangent(&mut bodies.bank, c * step.force_n)
                };
                self.tangent_m = Some(pushed.tangent_m);
                pushed.added
            } else {
                self.tangent_m = Some(after_m);
                Pickup::default()
            };
            (*m, *s) = (pickup.mid_pa + more.mid_pa, pickup.side_pa + more.side_pa);
        }
    }

    /// A slider on the object keeps its voice.
    fn in_play(&self, bodies: &Bodies) -> bool {
        !bodies.hammer.is_retired()
    }

    /// Lift the slider off; the object rings on.
    fn release(&mut self, bodies: &mut Bodies, _patch: &Patch) -> bool {
        self.stop(bodies);
        false
    }

    fn stop(&mut self, bodies: &mut Bodies) {
        if self.drawing {
            self.drawing = false;
            let pressed = if self.on_edge {
                &mut self.edge
            } else {
                &mut bodies.bank
            };
            if !bodies.hammer.is_retired() {
                bodies.hammer.lift_off(pressed);
                // The friction's load goes with the slider, as the normal one does: the modes
                // ring on about their unloaded rest, without the jolt of a load let go at once.
                bodies.bank.hold_static_tangent(self.tangent_n);
            }
            self.point.lift(&mut bodies.bank);
            self.tangent_n = 0.0;
            self.count_iterations();
            self.trace.lift();
            self.bristle.reset();
        }
    }
}

/// The load the slider's press holds on the object while it touches, N: its press and the note's
/// pressure, the steady part of the contact force, whose deflection moves with the point
/// ([`ModalBank::set_point`]); the contact's fluctuation about it is the object's vibration, not
/// its equilibrium. (Moved with the contact's instantaneous force, the shift fed back into that
/// force through the object's compliance every sample: on a very soft object, a pressed bar
/// retuned down six octaves, it ran away.)
fn held_load_n(bodies: &Bodies, mass_kg: f64) -> f64 {
    if bodies.hammer.in_contact() {
        (mass_kg * (bodies.hammer.gravity().accel_m_per_s2 + bodies.press.now)).max(0.0)
    } else {
        0.0
    }
}
