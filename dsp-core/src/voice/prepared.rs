//! What notes need that depends only on the patch — every key's object, the contacts' tables and
//! the level calibration — built off the audio thread, or at a note-on when the note comes first.

use super::output::{Output, Scratch};
use super::scene::LevelReference;
use super::{
    note_seed, Crumple, DropSettings, Expression, Level, Patch, Roll, Voice, MAX_CHUNK,
    OUTPUT_PER_PA,
};
use crate::interaction::ContactPrep;
use crate::resonator::{object_modes, BankSetup, Mode, ObjectSpec, MAX_MODES};

/// MIDI keys.
pub const NUM_KEYS: usize = 128;
/// The note whose velocity-127 strike the calibrated level puts at [`REFERENCE_PEAK_DBFS`]:
/// middle C.
pub const REFERENCE_NOTE: u8 = 60;
/// Peak level of the reference note's velocity-127 strike at the calibrated level, dBFS: loud
/// enough to mix, with headroom for chords and for the other keys' spread.
pub const REFERENCE_PEAK_DBFS: f64 = -9.0;
/// Length of a reference strike or bounce, s: a strike peaks within the first periods of its
/// lowest modes, and 50 ms holds three periods down to 60 Hz.
const REFERENCE_STRIKE_S: f64 = 0.05;
/// A reference roll: the first part (the ball speeding up) is skipped, the rest measured, s: the
/// level a rolling note is heard at over its first two seconds. (Extrapolating the modes'
/// growth from a shorter window missed a long-ringing object's build-up by 3–4 dB, and an
/// out-of-round wheel's thumps, one per turn, need turns to average over.)
const REFERENCE_ROLL_SETTLE_S: f64 = 0.1;
const REFERENCE_ROLL_S: f64 = 1.9;
/// The reference note's rolls a calibration measures: its first four (each on a track of its
/// own; one track's level is a random draw, ±2–3 dB about the mean, more on an object one
/// resonance rules, such as a marimba bar through its tube).
const REFERENCE_ROLLS: u64 = 4;
/// A reference drop is heard until this long after its fall, s: it lands, tumbles and rattles.
const REFERENCE_DROP_AFTER_FALL_S: f64 = 1.0;
/// The reference note's drops a calibration measures: its first three (each a different pose and
/// spin; the level of one drop is a random draw, ±3 dB about their mean).
const REFERENCE_DROPS: u64 = 3;
/// Peak over RMS the calibration assumes for a rolling ball: its sound is filtered noise, whose
/// peak over a second or two lies about 4 standard deviations out. A peak measured over a short
/// render would scatter by several dB with the track's random draw; the RMS scatters less.
pub const ROLL_CREST: f64 = 4.0;
/// Peak over RMS the calibration assumes for a stream of impacts (a crumple): its loudest event
/// in a second or two stands 22–25 dB above its RMS (the three factory crumples, rendered
/// through the CLAP at velocity 127), so 24 dB.
pub const STREAM_CREST: f64 = 16.0;
/// Impact speeds the calibration measures, from the softest strike to the hardest.
const LADDER: usize = 8;
/// Press forces the calibration of a slide measures, from the softest velocity's to the
/// hardest's: the whole force over [`REFERENCE_ROLLS`] notes (the make-up gain's), each lower one
/// over [`LOWER_PRESS_NOTES`].
const PRESS_RUNGS: usize = 4;
/// Notes a lower press rung measures, at least two (spread about it). A slide's calibration
/// renders 4 + 3·2 notes of two seconds in all, so each more costs three.
const LOWER_PRESS_NOTES: u64 = 2;
const _: () = assert!(LOWER_PRESS_NOTES >= 2);
/// The press of the softest velocity, a fraction of the patch's force: a slider pressed half
/// as hard. Between, the press is geometric in the velocity's level (the velocity
/// curve's range spans this range of forces).
const SOFTEST_PRESS: f64 = 0.5;
/// A lower press rung's notes press this factor either side of it: a slider
/// that hops from ridge to ridge is chaotic, its level a rough function of its force (a comb's
/// nail 2.5 dB louder at 0.3 % less force), and the calibration follows its average over a few
/// per cent, not one draw.
const PRESS_SPREAD: f64 = 1.05;
/// The gain that brings a slide's press to its velocity's level lifts it by at most this factor
/// (+18 dB) over the level's own: a press too light to make the object sing is heard as quiet as
/// it is, not lifted by up to +120 dB.
const MAX_PRESS_GAIN: f64 = 8.0;
/// The make-up gain stays within this factor of the physical level's (±120 dB): a patch heard on
/// a node of every mode (silent) is not amplified without bound.
const MAX_MAKEUP: f64 = 1e6;

/// How one note starts: the hammer's speed towards the object, the height it starts from (a
/// bounce), the output per pascal at the listener, and the pan (see [`super::Stereo`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strike {
    pub v_in_m_per_s: f64,
    pub drop_height_m: f64,
    pub gain: f64,
    pub pan: f64,
    /// The share of the patch's press force a slider presses with, or of its energies a
    /// crumple's events release (its velocity's); 1 in the other modes.
    pub press_fraction: f64,
}

/// The patch's level, measured by rendering its reference note: the peak output of a strike at
/// each of [`LADDER`] impact speeds between the softest and the hardest (in bounce mode, the
/// first impact of a ball thrown at that speed; in roll mode, the rolling ball).
///
/// The make-up gain puts the hardest strike's peak at [`REFERENCE_PEAK_DBFS`]. A velocity's
/// level (its [`super::VelocityCurve::level_db`]) is then met by the impact speed whose measured
/// peak is that much below the hardest, interpolated in (ln speed, ln peak): the physics, not a
/// gain, makes a soft note soft, with the timbre of a soft strike. A rolling ball's level follows
/// the velocity as a gain. A slider's velocity sets its press, and a gain brings the level the
/// press gives (measured at [`PRESS_RUNGS`] presses) to the velocity's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    speeds_m_per_s: [f64; LADDER],
    /// Peak pressure of the reference note at the listener at each speed, Pa.
    peaks_pa: [f64; LADDER],
    /// A slide's presses, fractions of the patch's force, the softest first.
    press_fractions: [f64; PRESS_RUNGS],
    /// The reference slide's steady peak at each press, Pa.
    press_peaks_pa: [f64; PRESS_RUNGS],
    /// Output per pascal that puts the hardest peak at [`REFERENCE_PEAK_DBFS`].
    makeup_gain: f64,
}

impl Calibration {
    const NONE: Calibration = Calibration {
        speeds_m_per_s: [0.0; LADDER],
        peaks_pa: [0.0; LADDER],
        press_fractions: [1.0; PRESS_RUNGS],
        press_peaks_pa: [1.0; PRESS_RUNGS],
        makeup_gain: OUTPUT_PER_PA,
    };

    /// How a note of normalised MIDI velocity `velocity` ∈ [0, 1] starts under `patch`.
    pub fn strike(&self, patch: &Patch, velocity: f32) -> Strike {
        let level_db = patch.velocity.level_db(velocity);
        let gain = match patch.level {
            Level::Calibrated => self.makeup_gain,
            Level::Physical => OUTPUT_PER_PA,
        };
        patch.mode.strike(patch, level_db, gain, self)
    }

    /// The impact speed (m/s) whose reference peak is `level_db` below the hardest strike's; the
    /// softest speed where the physics cannot go that low.
    pub(super) fn speed_for(&self, level_db: f64) -> f64 {
        let (speeds, peaks) = (&self.speeds_m_per_s, &self.peaks_pa);
        let target = peaks[LADDER - 1] * 10f64.powf(level_db / 20.0);
        if !(target < peaks[LADDER - 1]) {
            return speeds[LADDER - 1];
        }
        // The highest rung at or below the target, interpolated towards the one above it.
        for j in (0..LADDER - 1).rev() {
            if peaks[j] <= target {
                if !(peaks[j] > 0.0) {
                    return speeds[j];
                }
                let t = ((target / peaks[j]).ln() / (peaks[j + 1] / peaks[j]).ln()).clamp(0.0, 1.0);
                return speeds[j] * (speeds[j + 1] / speeds[j]).powf(t);
            }
        }
        speeds[0]
    }

    /// A slider's press at `level_db` below velocity 127, a fraction of `patch`'s force:
    /// [`SOFTEST_PRESS`]^(level/−range), geometric between the softest press at the velocity
    /// curve's range and the whole force at 0 dB; and the gain that brings the level measured at
    /// that press (interpolated in (ln press, ln peak)) to the velocity's, at most
    /// [`MAX_PRESS_GAIN`] times the level's own.
    pub(super) fn press_for(&self, patch: &Patch, level_db: f64) -> (f64, f64) {
        let range_db = patch.velocity.range_db;
        let depth = if range_db > 0.0 {
            (level_db / -range_db).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let press = SOFTEST_PRESS.powf(depth);
        let (presses, peaks) = (&self.press_fractions, &self.press_peaks_pa);
        let j = (0..PRESS_RUNGS - 1)
            .rev()
            .find(|&j| presses[j] <= press)
            .unwrap_or(0);
        let span = (presses[j + 1] / presses[j]).ln();
        let t = if span > 0.0 {
            ((press / presses[j]).ln() / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let floor = f64::MIN_POSITIVE;
        let peak = (peaks[j].max(floor).ln() * (1.0 - t) + peaks[j + 1].max(floor).ln() * t).exp();
        let level = 10f64.powf(level_db / 20.0);
        let top = peaks[PRESS_RUNGS - 1];
        let gain = if top > 0.0 && top.is_finite() {
            (level * top / peak).min(MAX_PRESS_GAIN * level)
        } else {
            level
        };
        (press, gain)
    }

    /// Output per pascal at the calibrated level.
    pub fn makeup_gain(&self) -> f64 {
        self.makeup_gain
    }
}

/// Everything a note-on reads for one key.
pub(super) struct KeyPrep<'a> {
    pub bank: &'a BankSetup,
    /// The striker's own modes.
    pub striker: &'a BankSetup,
    pub contact: &'a ContactPrep,
}

/// The preparation of one patch at one sample rate: the modes and transitions of every key's
/// object, the contacts' tables ([`ContactPrep`]) and the [`Calibration`].
///
/// [`Prepared::prepare`] builds all of it (a few milliseconds) on a thread other than the audio
/// thread; an [`super::Engine`] adopts it with [`super::Engine::install`] without copying. A note
/// whose patch has no preparation yet is prepared at its note-on by the same functions, key by
/// key, so the sound never depends on which thread got there first.
pub struct Prepared {
    /// The patch this is for, as [`preparation_key`] keeps it; `None` before the first.
    patch: Option<Patch>,
    sample_rate_hz: f64,
    contact: ContactPrep,
    calibration: Calibration,
    ready: [bool; NUM_KEYS],
    banks: Vec<BankSetup>,
    /// The striker's own modes (none for a point mass).
    striker: BankSetup,
    modes: Box<[Mode; MAX_MODES]>,
    /// The voice that renders the reference notes, and its buffers.
    reference: Voice,
    left: Vec<f32>,
    right: Vec<f32>,
    scratch: Scratch,
    /// A reference roll's mean square on the louder channel, m²/s².
    steady_mean_square: f64,
}

/// The part of `patch` a preparation depends on: the live controls (output gain, roll
/// controller, release damping, level switch) are set to fixed values. Two patches with the same
/// key share a preparation.
pub fn preparation_key(patch: &Patch) -> Patch {
    Patch {
        gain: 1.0,
        release_fraction: 0.0,
        level: Level::Calibrated,
        roll: Roll {
            speed_fraction: 1.0,
            ..patch.roll
        },
        drop: DropSettings {
            lift_on_release: false,
            ..patch.drop
        },
        crumple: Crumple {
            rate_fraction: 1.0,
            ..patch.crumple
        },
        ..*patch
    }
}

/// How a rung at `press_fraction` is measured: the notes it renders and the press of each (1-based
/// `count`). The whole force, velocity 127's, over [`REFERENCE_ROLLS`] notes as it is; a lower
/// rung over [`LOWER_PRESS_NOTES`] notes spread geometrically over ÷…× [`PRESS_SPREAD`].
fn rung_notes(press_fraction: f64) -> (u64, impl Fn(u64) -> f64) {
    let (notes, spread) = if press_fraction < 1.0 {
        (LOWER_PRESS_NOTES, PRESS_SPREAD)
    } else {
        (REFERENCE_ROLLS, 1.0)
    };
    let press = move |count: u64| {
        let place = 2.0 * (count - 1) as f64 / (notes - 1) as f64 - 1.0;
        press_fraction * spread.powf(place)
    };
    (notes, press)
}

impl Prepared {
    /// Storage for a preparation at `sample_rate_hz`, for no patch yet. Allocates (about 2.7 MB).
    pub fn new(sample_rate_hz: f64) -> Box<Self> {
        let patch = Patch::default();
        Box::new(Self {
            patch: None,
            sample_rate_hz,
            contact: ContactPrep::default(),
            calibration: Calibration::NONE,
            ready: [false; NUM_KEYS],
            banks: (0..NUM_KEYS)
                .map(|_| BankSetup::new(patch.object_mass_kg))
                .collect(),
            striker: BankSetup::new(patch.hammer_mass_kg),
            modes: Box::new([Mode::SILENT; MAX_MODES]),
            reference: Voice::new(&patch),
            left: vec![0.0; MAX_CHUNK],
            right: vec![0.0; MAX_CHUNK],
            scratch: Scratch::new(),
            steady_mean_square: 0.0,
        })
    }

    /// The sample rate this preparation is for, Hz.
    pub fn sample_rate_hz(&self) -> f64 {
        self.sample_rate_hz
    }

    /// Whether this is the preparation of `patch`.
    pub fn is_for(&self, patch: &Patch) -> bool {
        self.patch == Some(preparation_key(patch))
    }

    /// Prepare `patch` completely: every key, the contacts' tables, the calibration. Allocation
    /// free, but milliseconds of work: for a thread other than the audio thread.
    pub fn prepare(&mut self, patch: &Patch) {
        self.retarget(patch);
        for note in 0..NUM_KEYS as u8 {
            // The calibration has prepared the reference key already.
            if !self.ready[usize::from(note)] {
                self.prepare_key(patch, note);
            }
        }
    }

    /// The level calibration of the patch last prepared.
    pub fn calibration(&self) -> &Calibration {
        &self.calibration
    }

    /// Make `note` of `patch` ready: the patch's calibration and tables first if this is not its
    /// preparation, then the key if it is not ready.
    pub(super) fn ensure(&mut self, patch: &Patch, note: u8) {
        if !self.is_for(patch) {
            self.retarget(patch);
        }
        if !self.ready[usize::from(note) % NUM_KEYS] {
            self.prepare_key(patch, note);
        }
    }

    /// What a note-on of `note` reads (after [`Prepared::ensure`]).
    pub(super) fn key(&self, note: u8) -> KeyPrep<'_> {
        KeyPrep {
            bank: &self.banks[usize::from(note) % NUM_KEYS],
            striker: &self.striker,
            contact: &self.contact,
        }
    }

    /// Become the preparation of `patch`: no key ready, the contacts' tables where they changed,
    /// and the calibration measured.
    fn retarget(&mut self, patch: &Patch) {
        self.patch = Some(preparation_key(patch));
        self.ready = [false; NUM_KEYS];
        self.contact
            .update(&patch.contact, patch.mode.steps_per_contact());
        let striker = patch
            .striker
            .body(patch.hammer_mass_kg, &mut self.modes[..]);
        patch
            .striker
            .hold(patch.grip, &striker, &mut self.modes[..]);
        self.striker.set(
            &self.modes[..striker.num_modes],
            striker.modal_mass_kg,
            self.sample_rate_hz,
        );
        self.striker
            .set_modal_count_exponent(patch.striker.kind.modal_count_exponent());
        self.calibration = self.calibrate(patch);
    }

    fn prepare_key(&mut self, patch: &Patch, note: u8) {
        let spec = ObjectSpec {
            f0_hz: patch.tuning.f0_hz(note),
            ..patch.object
        };
        let count = object_modes(&spec, patch.object_radiating_size_m(), &mut self.modes);
        let index = usize::from(note) % NUM_KEYS;
        self.banks[index].set(
            &self.modes[..count],
            patch.object_mass_kg,
            self.sample_rate_hz,
        );
        self.banks[index].set_modal_count_exponent(patch.object.kind.modal_count_exponent());
        self.ready[index] = true;
    }

    /// Render the reference note at every speed of the ladder, or a slide at every press (see
    /// [`Calibration`]).
    fn calibrate(&mut self, patch: &Patch) -> Calibration {
        self.prepare_key(patch, REFERENCE_NOTE);
        let lo = patch.velocity.min_m_per_s.max(1e-6);
        let hi = patch.velocity.max_m_per_s.max(lo);
        let reference = patch.mode.level_reference(patch, hi);
        let hi = match reference {
            LevelReference::Ladder { hardest_m_per_s } => hardest_m_per_s,
            LevelReference::Steady
            | LevelReference::Pressed
            | LevelReference::Drops
            | LevelReference::Breaks { .. } => hi,
        };
        let mut calibration = Calibration::NONE;
        for (j, speed) in calibration.speeds_m_per_s.iter_mut().enumerate() {
            *speed = lo * (hi / lo).powf(j as f64 / (LADDER - 1) as f64);
        }
        match reference {
            LevelReference::Ladder { .. } => {
                for j in 0..LADDER {
                    let speed = calibration.speeds_m_per_s[j];
                    calibration.peaks_pa[j] = self.reference_peak(patch, reference, speed, 1.0);
                }
            }
            LevelReference::Pressed => {
                for j in 0..PRESS_RUNGS {
                    let press = SOFTEST_PRESS.powf(1.0 - j as f64 / (PRESS_RUNGS - 1) as f64);
                    calibration.press_fractions[j] = press;
                    let peak = self.reference_peak(patch, reference, 0.0, press);
                    // A rung that blew up says nothing of its level (it is capped as silent).
                    calibration.press_peaks_pa[j] = if peak.is_finite() { peak } else { 0.0 };
                }
                calibration.peaks_pa = [calibration.press_peaks_pa[PRESS_RUNGS - 1]; LADDER];
            }
            LevelReference::Steady | LevelReference::Drops | LevelReference::Breaks { .. } => {
                let peak = self.reference_peak(patch, reference, 0.0, 1.0);
                calibration.peaks_pa = [peak; LADDER];
            }
        }
        let top = calibration.peaks_pa[LADDER - 1];
        if top > 0.0 && top.is_finite() {
            calibration.makeup_gain = (10f64.powf(REFERENCE_PEAK_DBFS / 20.0) / top)
                .clamp(OUTPUT_PER_PA / MAX_MAKEUP, OUTPUT_PER_PA * MAX_MAKEUP);
        }
        calibration
    }

    /// Peak pressure (Pa) of the reference note at the listener, on the louder channel: struck at `v_in`
    /// over [`REFERENCE_STRIKE_S`] (a bounce: thrown at `v_in` from the object's surface, so its
    /// first impacts are the real ones); a drop: the geometric mean of the peaks of its first
    /// [`REFERENCE_DROPS`] drops, each over its fall and [`REFERENCE_DROP_AFTER_FALL_S`]; or rolling: the mode's crest ([`super::PlayMode::crest`]) times the RMS over
    /// [`REFERENCE_ROLL_S`] after [`REFERENCE_ROLL_SETTLE_S`], in power averaged over its first
    /// [`REFERENCE_ROLLS`] rolls (a slide: pressed with `press_fraction` of its force, below the
    /// whole force over [`LOWER_PRESS_NOTES`] notes spread about it).
    fn reference_peak(
        &mut self,
        patch: &Patch,
        level: LevelReference,
        v_in_m_per_s: f64,
        press_fraction: f64,
    ) -> f64 {
        let (reference, rms_scale) = patch.mode.reference_stream(Patch {
            gain: 1.0,
            ..preparation_key(patch)
        });
        let strike = Strike {
            v_in_m_per_s,
            drop_height_m: 0.0,
            gain: 1.0,
            pan: 0.0,
            press_fraction,
        };
        let fs = self.sample_rate_hz;
        let whole_s = match level {
            LevelReference::Drops => {
                let height_m = patch.fall.height_m.max(0.0);
                let g = patch.fall.gravity.accel_m_per_s2.max(0.1);
                Some((
                    height_m,
                    (2.0 * height_m / g).sqrt() + REFERENCE_DROP_AFTER_FALL_S,
                ))
            }
            LevelReference::Breaks { seconds } => Some((0.0, seconds)),
            _ => None,
        };
        if let Some((drop_height_m, seconds)) = whole_s {
            let strike = Strike {
                drop_height_m,
                ..strike
            };
            let samples = (seconds * fs).ceil() as usize;
            let mut log_sum = 0.0;
            for count in 1..=REFERENCE_DROPS {
                let seed = note_seed(count, REFERENCE_NOTE);
                let peak = self.render_reference(&reference, strike, seed, samples, None);
                log_sum += peak.max(f64::MIN_POSITIVE).ln();
            }
            return (log_sum / REFERENCE_DROPS as f64).exp();
        }
        if let LevelReference::Ladder { .. } = level {
            let samples = (REFERENCE_STRIKE_S * fs).ceil() as usize;
            return self.render_reference(&reference, strike, 0, samples, None);
        }
        let skip = (REFERENCE_ROLL_SETTLE_S * fs).ceil() as usize;
        let samples = skip + (REFERENCE_ROLL_S * fs).ceil() as usize;
        let mut mean_square = 0.0;
        let (notes, press_of) = rung_notes(press_fraction);
        for count in 1..=notes {
            let seed = note_seed(count, REFERENCE_NOTE);
            let strike = Strike {
                press_fraction: press_of(count),
                ..strike
            };
            self.render_reference(&reference, strike, seed, samples, Some(skip));
            mean_square += self.steady_mean_square;
        }
        patch.mode.crest() * rms_scale * (mean_square / notes as f64).sqrt()
    }

    /// Render the reference note of `patch` for `samples` samples at unit gain and return the
    /// peak of the louder channel (Pa). With `steady = Some(skip)`, also leave the louder
    /// channel's mean square from sample `skip` on in `steady_mean_square` (Pa²).
    fn render_reference(
        &mut self,
        patch: &Patch,
        strike: Strike,
        seed: u64,
        samples: usize,
        steady: Option<usize>,
    ) -> f64 {
        let bank = &self.banks[usize::from(REFERENCE_NOTE)];
        let dt_s = 1.0 / self.sample_rate_hz;
        self.reference.start(
            patch,
            Some((bank, &self.striker)),
            &self.contact,
            strike,
            &Expression::NEUTRAL,
            seed,
            dt_s,
            &ObjectSpec {
                f0_hz: patch.tuning.f0_hz(REFERENCE_NOTE),
                ..patch.object
            },
        );
        let (mut peak, mut done) = (0.0f64, 0);
        let mut sums = [0.0f64; 2];
        while done < samples && self.reference.active {
            let len = (samples - done).min(MAX_CHUNK);
            let (left, right) = (&mut self.left[..len], &mut self.right[..len]);
            left.fill(0.0);
            right.fill(0.0);
            let mut out = Output::Stereo(left, right);
            self.reference
                .render(patch, dt_s, &mut out, &mut self.scratch);
            peak = self.left[..len]
                .iter()
                .chain(&self.right[..len])
                .fold(peak, |p, y| p.max(f64::from(y.abs())));
            if let Some(skip) = steady {
                let from = skip.saturating_sub(done).min(len);
                for (sum, channel) in sums.iter_mut().zip([&self.left, &self.right]) {
                    *sum += channel[from..len]
                        .iter()
                        .map(|y| f64::from(*y).powi(2))
                        .sum::<f64>();
                }
            }
            done += len;
        }
        if let Some(skip) = steady {
            let heard = samples.saturating_sub(skip).max(1) as f64;
            self.steady_mean_square = sums[0].max(sums[1]) / heard;
        }
        self.reference.silence();
        peak
    }
}
