//! Voices and the fixed-capacity polyphonic engine: MIDI-level events in, mono audio out.

use crate::contact::HuntCrossley;
use crate::interaction::Hammer;
use crate::resonator::{free_free_bar, ModalBank};

/// Voice capacity of an [`Engine`].
pub const MAX_VOICES: usize = 64;
/// Samples an engine renders per internal chunk; longer host blocks are split.
pub const MAX_CHUNK: usize = 256;
/// Hammer mass in kg (the paper's m = 10⁻² kg).
pub const HAMMER_MASS_KG: f64 = 0.01;
/// Modal mass of the struck object in kg.
pub const OBJECT_MASS_KG: f64 = 0.1;
/// T60 of the object's fundamental in seconds.
pub const OBJECT_T60_S: f64 = 1.5;
/// Impact velocity range in m/s mapped from MIDI velocity.
pub const V_MIN_M_PER_S: f64 = 0.05;
pub const V_MAX_M_PER_S: f64 = 5.0;
/// Ranges of the contact parameters in which the engine is stable at every sample rate from
/// 8 kHz up (the sub-step rule of [`Hammer`] needs at most its maximum there).
pub const MIN_STIFFNESS: f64 = 1e3;
pub const MAX_STIFFNESS: f64 = 1e10;
pub const MAX_MU_S_PER_M: f64 = 50.0;
pub const MIN_ALPHA: f64 = 1.0;
pub const MAX_ALPHA: f64 = 3.0;
/// Output level per m/s of pickup velocity.
const OUTPUT_GAIN_PER_M_PER_S: f64 = 0.25;
/// A voice ends when its object's energy is this far below its peak (−120 dB).
const END_ENERGY_RATIO: f64 = 1e-12;

/// Plain per-block settings the plugin hands to the engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Patch {
    pub contact: HuntCrossley,
}

impl Default for Patch {
    fn default() -> Self {
        Self {
            contact: HuntCrossley {
                stiffness: 1e8,
                mu_s_per_m: 0.5,
                alpha: 1.5,
            },
        }
    }
}

/// Impact velocity in m/s for a normalised MIDI velocity in [0, 1]: exponential between
/// [`V_MIN_M_PER_S`] and [`V_MAX_M_PER_S`], so equal velocity steps are equal loudness steps.
pub fn impact_velocity_m_per_s(velocity: f32) -> f64 {
    let v = f64::from(velocity).clamp(0.0, 1.0);
    V_MIN_M_PER_S * (V_MAX_M_PER_S / V_MIN_M_PER_S).powf(v)
}

/// Equal-tempered frequency of a MIDI note number with A4 = 440 Hz.
pub fn note_freq_hz(note: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(note) - 69.0) / 12.0)
}

/// One sounding object with its hammer.
struct Voice {
    note: u8,
    active: bool,
    /// Engine sample count at the last strike, for stealing the oldest voice.
    started_at: u64,
    peak_energy_j: f64,
    bank: Box<ModalBank>,
    hammer: Hammer,
}

impl Voice {
    fn new(patch: &Patch) -> Self {
        Self {
            note: 0,
            active: false,
            started_at: 0,
            peak_energy_j: 0.0,
            bank: ModalBank::new(OBJECT_MASS_KG),
            hammer: Hammer::new(HAMMER_MASS_KG, patch.contact),
        }
    }

    fn energy_j(&self) -> f64 {
        self.bank.energy_j() + self.hammer.energy_j()
    }

    fn silence(&mut self) {
        self.active = false;
        self.bank.reset();
        self.hammer.retire();
    }

    /// Render `out.len()` samples, added to `out`. Returns false (and adds nothing) if the state
    /// went non-finite, in which case the voice is silenced.
    fn render(&mut self, patch: &Patch, dt_s: f64, out: &mut [f32], scratch: &mut [f64]) -> bool {
        let scratch = &mut scratch[..out.len()];
        for y in scratch.iter_mut() {
            let pickup_m_per_s = if self.hammer.is_retired() {
                self.bank.ring()
            } else {
                self.hammer.step(&patch.contact, &mut self.bank, dt_s);
                self.bank.pickup_velocity_m_per_s()
            };
            *y = OUTPUT_GAIN_PER_M_PER_S * pickup_m_per_s;
        }
        if !(self.bank.is_finite() && self.hammer.is_finite()) {
            self.silence();
            return false;
        }
        for (o, y) in out.iter_mut().zip(scratch.iter()) {
            *o += *y as f32;
        }
        let energy = self.bank.energy_j();
        self.peak_energy_j = self.peak_energy_j.max(energy);
        if self.hammer.is_retired() && energy <= END_ENERGY_RATIO * self.peak_energy_j {
            self.silence();
        }
        true
    }
}

/// Fixed-capacity polyphonic engine. All memory is allocated in [`Engine::new`].
pub struct Engine {
    voices: Vec<Voice>,
    scratch: Vec<f64>,
    sample_rate_hz: f64,
    samples_rendered: u64,
    non_finite_resets: u64,
}

impl Engine {
    /// An engine for `sample_rate_hz` with [`MAX_VOICES`] voices.
    pub fn new(sample_rate_hz: f64) -> Self {
        let patch = Patch::default();
        Self {
            voices: (0..MAX_VOICES).map(|_| Voice::new(&patch)).collect(),
            scratch: vec![0.0; MAX_CHUNK],
            sample_rate_hz,
            samples_rendered: 0,
            non_finite_resets: 0,
        }
    }

    /// Silence every voice.
    pub fn reset(&mut self) {
        self.voices.iter_mut().for_each(Voice::silence);
    }

    /// Strike note `note` with normalised velocity `velocity` ∈ [0, 1]. A note already sounding is
    /// struck again where it rings; otherwise a free voice is used, or the quietest one is stolen.
    pub fn note_on(&mut self, note: u8, velocity: f32) {
        let index = self
            .voices
            .iter()
            .position(|v| v.active && v.note == note)
            .or_else(|| self.voices.iter().position(|v| !v.active))
            .or_else(|| {
                (0..self.voices.len()).min_by(|&a, &b| {
                    let (va, vb) = (&self.voices[a], &self.voices[b]);
                    va.energy_j()
                        .total_cmp(&vb.energy_j())
                        .then(va.started_at.cmp(&vb.started_at))
                })
            });
        let Some(voice) = index.and_then(|i| self.voices.get_mut(i)) else {
            return;
        };
        if !(voice.active && voice.note == note) {
            voice.bank.set_modes(
                &free_free_bar(note_freq_hz(note), OBJECT_T60_S),
                self.sample_rate_hz,
            );
            voice.peak_energy_j = 0.0;
        }
        voice.note = note;
        voice.active = true;
        voice.started_at = self.samples_rendered;
        voice
            .hammer
            .strike(&voice.bank, impact_velocity_m_per_s(velocity));
    }

    /// Render `out.len()` samples of the sum of all voices into `out` (overwritten).
    pub fn process(&mut self, patch: &Patch, out: &mut [f32]) {
        out.fill(0.0);
        let dt_s = 1.0 / self.sample_rate_hz;
        for chunk in out.chunks_mut(MAX_CHUNK) {
            for voice in self.voices.iter_mut().filter(|v| v.active) {
                if !voice.render(patch, dt_s, chunk, &mut self.scratch) {
                    self.non_finite_resets += 1;
                }
            }
            self.samples_rendered += chunk.len() as u64;
        }
    }

    /// Number of sounding voices.
    pub fn active_voices(&self) -> usize {
        self.voices.iter().filter(|v| v.active).count()
    }

    /// Voices silenced because their state went non-finite since construction.
    pub fn non_finite_resets(&self) -> u64 {
        self.non_finite_resets
    }
}

#[cfg(test)]
mod tests;
