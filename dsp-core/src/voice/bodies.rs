//! A voice's two bodies — the object's modes and the hammer (its striker's modes, its contact) — and the energy and forces held between them, which every scene acts on.

use super::expression::Follower;
use super::CHOKE_T60_S;
use crate::interaction::Hammer;
use crate::resonator::{BankSetup, ModalBank};

/// The object, the hammer, the press of a note's pressure, and what bounds the voice's output
/// (the energy put in, the swing of forces held on the object).
pub(super) struct Bodies {
    pub bank: Box<ModalBank>,
    pub hammer: Hammer,
    /// The press on the ball (m/s² towards the object) and, while it rests, the press force held
    /// on the object (N).
    pub press: Follower,
    pub held_press_n: f64,
    /// The note's share 0…1 of a slider's drawing speed (its expression's, kept here for the
    /// scene).
    pub drive_fraction: f64,
    /// The most the forces held on the object by a ball at rest (its weight, its press) can
    /// have set it swinging, Pa at either pickup (see [`ModalBank::step_pickup_bound_per_n`]):
    /// part of the runaway limit.
    pub press_swing_pa: f64,
    /// What a scene's own strikers (a crumple's fragments) can add to either pickup per √(2E) of
    /// the energy put in, Pa/√J (see [`crate::interaction::StrikerPool::pickup_per_sqrt_j`]):
    /// part of the runaway limit.
    pub scene_pickup_per_sqrt_j: f64,
    /// The weight of a ball come to rest is in `press_swing_pa`.
    pub rest_counted: bool,
    /// The energy the strikes put in since the voice started (J; infinite while a contact is
    /// driven, as a rolling track drives it).
    pub input_energy_j: f64,
}

impl Bodies {
    pub fn new(object_mass_kg: f64, hammer: Hammer) -> Self {
        Self {
            bank: ModalBank::new(object_mass_kg),
            hammer,
            press: Follower::default(),
            held_press_n: 0.0,
            drive_fraction: 1.0,
            press_swing_pa: 0.0,
            scene_pickup_per_sqrt_j: 0.0,
            rest_counted: false,
            input_energy_j: 0.0,
        }
    }

    /// Load a new note's object and striker: both at rest, nothing put in yet.
    pub fn load(&mut self, object: &BankSetup, striker: &BankSetup) {
        self.bank.load(object);
        self.hammer.load_striker(striker);
        self.input_energy_j = 0.0;
        self.press_swing_pa = 0.0;
        self.scene_pickup_per_sqrt_j = 0.0;
    }

    /// The force a ball at rest holds on the object: its weight and its press, N.
    pub fn held_n(&self) -> f64 {
        self.hammer.resting_weight_n() + self.held_press_n
    }

    /// Whether the press acts now or has acted (a force held on the object).
    pub fn is_pressed(&self) -> bool {
        self.press.is_moving() || self.press.now != 0.0 || self.held_press_n != 0.0
    }

    /// Tune the bank by `change` (the new frequency ratio over the old) holding `held_n` (see
    /// [`Bodies::held_n`]), about whose equilibrium the bank's state is kept: the true position
    /// is kept, and the equilibrium moves with the modes' stiffness, so the object settles there
    /// (a soft thump, as a press is).
    pub fn retune_holding(&mut self, ratio: f64, change: f64, held_n: f64, dt_s: f64) {
        let in_contact = self.hammer.in_contact();
        self.bank.hold_static_force(-held_n);
        self.bank.retune(ratio, 1.0 / dt_s, CHOKE_T60_S, in_contact);
        self.bank.hold_static_force(held_n);
        // A contact goes on with the new transitions, and its energy balance starts again from
        // here, or the energy guard would take the retune's change of the object's energy for
        // the step's own; a hammer in flight takes the reach it must stay beyond again.
        self.hammer.object_changed(&self.bank);
        // The runaway limit takes in what a retune can put in: tuning up with the displacements
        // kept raises each mode's energy ½·M·ω₀²·q² by up to the ratio squared; tuning down raises
        // a held force's swing by up to its inverse; the held force's equilibrium moves by
        // φ·F/M·|1/ω₀² − 1/ω₀'²|, a swing of velocity φ·F/(M·ω₀')·|r² − 1|.
        self.input_energy_j *= change.max(1.0).powi(2);
        self.press_swing_pa /= change.min(1.0);
        self.press_swing_pa +=
            held_n.abs() * (change * change - 1.0).abs() * self.bank.step_pickup_bound_per_n();
    }

    /// One sample of the press: pulls the ball in flight or in contact (its work towards the
    /// object counts as energy put in); on a ball at rest, the change of force is held on the
    /// object.
    #[inline]
    pub fn press_sample(&mut self, mass_kg: f64, dt_s: f64) {
        let accel = self.press.next();
        if self.hammer.is_at_rest() {
            let force_n = mass_kg * accel;
            if force_n != self.held_press_n {
                let step_n = force_n - self.held_press_n;
                self.bank.hold_static_force(step_n);
                self.hammer.striker_mut().hold_static_force(-step_n);
                self.press_swing_pa += step_n.abs() * self.step_swing_per_n();
                self.held_press_n = force_n;
            }
        } else {
            self.hammer.set_track_acceleration(accel);
            let travel_m = self.hammer.velocity_m_per_s() * dt_s;
            self.input_energy_j += mass_kg * accel * travel_m.max(0.0);
        }
    }

    /// The most a step of one newton held between the striker at rest and the object can set
    /// either channel swinging by, Pa (see [`ModalBank::step_pickup_bound_per_n`]): both bodies,
    /// the striker's at its level.
    pub fn step_swing_per_n(&self) -> f64 {
        self.bank.step_pickup_bound_per_n()
            + self.hammer.striker_level() * self.hammer.striker().step_pickup_bound_per_n()
    }

    /// Count the weight of a ball just come to rest in the runaway limit, once: a step of force
    /// laid on the object at once (a heavy ball captured on a light object sets it swinging about
    /// where the weight holds it).
    pub fn count_rest(&mut self) {
        if self.hammer.is_at_rest() && !self.rest_counted {
            self.rest_counted = true;
            self.press_swing_pa += self.hammer.resting_weight_n() * self.step_swing_per_n();
        }
    }

    /// Energy still in play: the object's, plus the hammer's (kinetic and in the contact) until
    /// it has flown out of reach or come to rest.
    pub fn energy_j(&self) -> f64 {
        if self.hammer.is_retired() {
            self.bank.energy_j() + self.hammer.striker_energy_j()
        } else {
            self.hammer.elastic_energy_j(&self.bank)
        }
    }

    /// Render one piece with the hammer left to itself (struck, bouncing, at rest) and the press
    /// (if any) pulling it: the pickups' mid and side into `mid` and `side`, Pa.
    pub fn render_free(
        &mut self,
        contact: &crate::interaction::ContactSetup,
        mass_kg: f64,
        dt_s: f64,
        mid: &mut [f64],
        side: &mut [f64],
    ) {
        let g = self.hammer.gravity().accel_m_per_s2.max(0.0);
        if self.hammer.is_retired() && !self.is_pressed() {
            self.hammer.ring_block(&mut self.bank, mid, side);
        } else if self.is_pressed() {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                self.press_sample(mass_kg, dt_s);
                self.count_fall(mass_kg * g, dt_s);
                let pickup = self.hammer.process_sample(contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_pa, pickup.side_pa);
            }
        } else if g > 0.0 {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                self.count_fall(mass_kg * g, dt_s);
                let pickup = self.hammer.process_sample(contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_pa, pickup.side_pa);
            }
        } else {
            for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
                let pickup = self.hammer.process_sample(contact, &mut self.bank, dt_s);
                (*m, *s) = (pickup.mid_pa, pickup.side_pa);
            }
        }
    }

    /// Count gravity's work on the ball's next sample towards the object as energy put in (its
    /// `weight_n` times the travel, each way down counted): the fall from the drop height, and
    /// the sinking into a soft contact and a yielding object below where it was let go, which a
    /// fall from the height alone would miss.
    #[inline]
    fn count_fall(&mut self, weight_n: f64, dt_s: f64) {
        if !self.hammer.is_retired() {
            let travel_m = self.hammer.velocity_m_per_s() * dt_s;
            self.input_energy_j += weight_n * travel_m.max(0.0);
        }
    }
}
