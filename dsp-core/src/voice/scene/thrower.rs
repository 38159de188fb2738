//! A thrower: fragments of the striker's body — at every size, of its material and kind — thrown at the object from a pool of strikers so that they overlap (a crumple's events, a break's crack and fragments).
//!
//! A fragment of size s (its linear size over the whole striker's) is a geometrically similar
//! body of the same material, so its modes rise as 1/s (every length scales, the wave speeds
//! are the material's), their decay shortens as s (the material's loss factor holds:
//! T60 = 2.2/(η·f)), its mass falls as s³, and its Hertz stiffness as √s (k ∝ √R). Given an
//! energy E it arrives at the object with the speed v = √(2E/m), through the pair's contact.

use crate::interaction::{PoolStrike, StrikerPool};
use crate::resonator::{Mode, FRAGMENT_MODES};
use crate::voice::bodies::Bodies;
use crate::voice::patch::Patch;

/// The fastest a fragment is thrown, m/s: a tiny fragment given a large energy does not fly at
/// the speed of sound.
const MAX_SPEED_M_PER_S: f64 = 30.0;

/// The pool and the whole striker it throws fragments of.
pub(super) struct Thrower {
    pool: StrikerPool,
    /// The whole striker: its lowest modes, their modal mass, its rigid mass, its Hertz
    /// stiffness against the object (N/m^1.5) and the pair's restitution.
    whole: [Mode; FRAGMENT_MODES],
    whole_modes: usize,
    whole_modal_mass_kg: f64,
    pub whole_mass_kg: f64,
    whole_stiffness: f64,
    pub restitution: f64,
    /// The modes of the fragment being thrown.
    fragment: [Mode; FRAGMENT_MODES],
    /// Samples of the note rendered.
    samples: u64,
}

impl Thrower {
    pub fn new() -> Self {
        Self {
            pool: StrikerPool::new(),
            whole: [Mode::SILENT; FRAGMENT_MODES],
            whole_modes: 0,
            whole_modal_mass_kg: 1.0,
            whole_mass_kg: 1.0,
            whole_stiffness: 1e6,
            restitution: 0.5,
            fragment: [Mode::SILENT; FRAGMENT_MODES],
            samples: 0,
        }
    }

    /// Take `patch`'s striker as the whole, against its object; the pool empty and the hammer
    /// retired.
    pub fn start(&mut self, bodies: &mut Bodies, patch: &Patch, dt_s: f64) {
        bodies.hammer.retire();
        let striker = patch.striker.body(patch.hammer_mass_kg, &mut self.whole);
        self.whole_modes = striker.num_modes;
        self.whole_modal_mass_kg = striker.modal_mass_kg;
        self.whole_mass_kg = patch.striker.rigid_mass_kg(patch.hammer_mass_kg);
        (self.whole_stiffness, self.restitution) =
            patch.striker.hertz_contact(patch.object_material);
        self.pool.start(&mut bodies.bank, dt_s, patch.striker_level);
        self.samples = 0;
    }

    /// Render one piece: at each sample, `due` throws what arrives within it (it is handed the
    /// thrower, the bodies, the sample's start and end in the note's time, s, and the sample
    /// rate), then the pool takes the sample; the pickups' mid and side into `mid` and `side`.
    pub fn render(
        &mut self,
        bodies: &mut Bodies,
        dt_s: f64,
        (mid, side): (&mut [f64], &mut [f64]),
        mut due: impl FnMut(&mut Self, &mut Bodies, f64, f64, f64),
    ) {
        let fs = 1.0 / dt_s;
        for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
            let start_s = self.samples as f64 * dt_s;
            let end_s = (self.samples + 1) as f64 * dt_s;
            due(self, bodies, start_s, end_s, fs);
            let pickup = self.pool.process_sample(&mut bodies.bank, dt_s);
            (*m, *s) = (pickup.mid_pa, pickup.side_pa);
            self.samples += 1;
        }
    }

    /// Throw a fragment of `size` with `energy_j` at the object, `lead_s` before it arrives,
    /// its contact restituting `restitution`.
    pub fn throw(
        &mut self,
        bodies: &mut Bodies,
        (energy_j, size): (f64, f64),
        lead_s: f64,
        restitution: f64,
        fs: f64,
    ) {
        let volume = size * size * size;
        let (mass_kg, modal_mass_kg) = (
            self.whole_mass_kg * volume,
            self.whole_modal_mass_kg * volume,
        );
        let v_in = (2.0 * energy_j / mass_kg).sqrt().min(MAX_SPEED_M_PER_S);
        for (fragment, whole) in self
            .fragment
            .iter_mut()
            .zip(&self.whole[..self.whole_modes])
        {
            *fragment = Mode {
                freq_hz: whole.freq_hz / size,
                t60_s: whole.t60_s * size,
                ..*whole
            };
        }
        let strike = PoolStrike {
            v_in_m_per_s: v_in,
            mass_kg,
            modal_mass_kg,
            gap_m: v_in * lead_s,
            stiffness: self.whole_stiffness * size.sqrt(),
            alpha: 1.5,
            restitution,
            modes: &self.fragment[..self.whole_modes],
        };
        let before_j = self.pool.energy_in_j();
        self.pool.strike(&bodies.bank, &strike, fs);
        bodies.input_energy_j += self.pool.energy_in_j() - before_j;
        bodies.scene_pickup_per_sqrt_j = self.pool.pickup_per_sqrt_j();
    }

    /// Fragments still flying or ringing.
    pub fn is_active(&self) -> bool {
        self.pool.is_active()
    }

    /// The fragments are gone.
    pub fn silence(&mut self) {
        self.pool.silence();
    }
}
