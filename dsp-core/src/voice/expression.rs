//! Per-note expression: what CLAP note expressions, polyphonic modulation and MPE channels change in one voice.

use crate::smooth::approach;

/// A note as the host names it: its MIDI key and channel, and CLAP's note id when the host gives
/// one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoteId {
    pub key: u8,
    /// MIDI channel, 0…15.
    pub channel: u8,
    pub voice_id: Option<i32>,
}

impl NoteId {
    /// `key` on channel 0, without a note id.
    pub fn key(key: u8) -> Self {
        Self {
            key,
            channel: 0,
            voice_id: None,
        }
    }
}

/// Which notes an event is for, as CLAP matches them: by note id when it has one, otherwise by
/// channel and key, `None` matching any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoteTarget {
    pub voice_id: Option<i32>,
    pub channel: Option<u8>,
    pub key: Option<u8>,
}

impl NoteTarget {
    /// Every note on `channel` (a MIDI channel message).
    pub fn channel(channel: u8) -> Self {
        Self {
            channel: Some(channel),
            ..Self::default()
        }
    }

    /// The notes of `key` on any channel.
    pub fn key(key: u8) -> Self {
        Self {
            key: Some(key),
            ..Self::default()
        }
    }

    /// The note of `key` on `channel`.
    pub fn note(channel: u8, key: u8) -> Self {
        Self {
            voice_id: None,
            channel: Some(channel),
            key: Some(key),
        }
    }

    /// The note with CLAP note id `voice_id`.
    pub fn voice(voice_id: i32) -> Self {
        Self {
            voice_id: Some(voice_id),
            ..Self::default()
        }
    }

    /// Whether `note` is one of the notes meant.
    pub fn matches(&self, note: &NoteId) -> bool {
        match self.voice_id {
            Some(id) => note.voice_id == Some(id),
            None => {
                self.channel.is_none_or(|c| c == note.channel)
                    && self.key.is_none_or(|k| k == note.key)
            }
        }
    }

    /// Whether the target names notes by channel alone (a MIDI channel message).
    pub(crate) fn is_channel_wide(&self) -> bool {
        self.voice_id.is_none() && self.key.is_none() && self.channel.is_some()
    }
}

/// Stiffness decades spanned by brightness 0…1: k × 100^(brightness − 0.5), from k/10 to 10·k.
pub const BRIGHTNESS_DECADES: f64 = 2.0;
/// Largest volume expression (CLAP's: +12 dB).
pub const MAX_VOLUME: f64 = 4.0;
/// Largest factor volume and gain modulation together put on a voice (+24 dB).
pub const MAX_VOLUME_FACTOR: f64 = 16.0;
/// Largest stiffness modulation, decades either way (the Stiffness knob's span).
const MAX_STIFFNESS_DECADES: f64 = 10.0;
/// Time constant (s) with which a voice follows its volume, pan and pressure: a step in any of
/// them would click.
pub const EXPRESSION_SMOOTHING_S: f64 = 0.005;

/// One voice's expression. [`Expression::NEUTRAL`] changes nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expression {
    /// Pressure 0…1: presses the ball into the object while it bounces, rolls or rests, with the
    /// force of `Patch::press_depth` × its weight at full pressure.
    pub pressure: f64,
    /// Brightness 0…1 (0.5 neutral): the note's next contacts have stiffness
    /// k × 100^(brightness − 0.5).
    pub brightness: f64,
    /// The note's own tuning, semitones (a CLAP or VST3 tuning expression).
    pub tuning_semitones: f64,
    /// Its channel's pitch bend, semitones (MIDI, MPE).
    pub bend_semitones: f64,
    /// Gain ratio 0…[`MAX_VOLUME`].
    pub volume: f64,
    /// Pan offset −1…1, added to the key's pan.
    pub pan: f64,
    /// Polyphonic modulation of the stiffness, decades (k × 10^this).
    pub stiffness_decades: f64,
    /// Polyphonic modulation of the output gain, dB.
    pub gain_db: f64,
    /// The note's share 0…1 of its slider's drawing speed (a CLAP note expression "expression";
    /// 1: the speed its controller gives).
    pub drive_fraction: f64,
}

impl Expression {
    pub const NEUTRAL: Expression = Expression {
        pressure: 0.0,
        brightness: 0.5,
        tuning_semitones: 0.0,
        bend_semitones: 0.0,
        volume: 1.0,
        pan: 0.0,
        stiffness_decades: 0.0,
        gain_db: 0.0,
        drive_fraction: 1.0,
    };

    /// Factor on the contact stiffness k (the hammer keeps k·scale within the knob's range).
    pub fn stiffness_scale(&self) -> f64 {
        let brightness = self.brightness.clamp(0.0, 1.0) - 0.5;
        let decades = self
            .stiffness_decades
            .clamp(-MAX_STIFFNESS_DECADES, MAX_STIFFNESS_DECADES);
        10f64.powf(BRIGHTNESS_DECADES * brightness + decades)
    }

    /// Factor on every mode's frequency: 2^((tuning + bend)/12).
    pub fn frequency_ratio(&self) -> f64 {
        let semitones = (self.tuning_semitones + self.bend_semitones).clamp(-240.0, 240.0);
        (semitones / 12.0).exp2()
    }

    /// Factor on the voice's output, at most [`MAX_VOLUME_FACTOR`].
    pub fn volume_factor(&self) -> f64 {
        let gain = 10f64.powf(self.gain_db.clamp(-120.0, 24.0) / 20.0);
        (self.volume.clamp(0.0, MAX_VOLUME) * gain).min(MAX_VOLUME_FACTOR)
    }

    /// This expression with every dimension in its range and anything not finite neutral.
    pub fn sanitized(&self) -> Expression {
        let mut clean = Expression::NEUTRAL;
        for change in [
            Change::Pressure(self.pressure),
            Change::Brightness(self.brightness),
            Change::Tuning(self.tuning_semitones),
            Change::Bend(self.bend_semitones),
            Change::Volume(self.volume),
            Change::Pan(self.pan),
            Change::StiffnessDecades(self.stiffness_decades),
            Change::GainDb(self.gain_db),
            Change::Drive(self.drive_fraction),
        ] {
            clean.apply(change);
        }
        clean
    }
}

impl Default for Expression {
    fn default() -> Self {
        Self::NEUTRAL
    }
}

/// A change of one dimension of a voice's [`Expression`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    Pressure(f64),
    Brightness(f64),
    Tuning(f64),
    Bend(f64),
    Volume(f64),
    Pan(f64),
    StiffnessDecades(f64),
    GainDb(f64),
    Drive(f64),
}

impl Expression {
    /// Apply `change`; non-finite values are ignored.
    pub fn apply(&mut self, change: Change) {
        let (field, value) = match change {
            Change::Pressure(x) => (&mut self.pressure, x.clamp(0.0, 1.0)),
            Change::Brightness(x) => (&mut self.brightness, x.clamp(0.0, 1.0)),
            Change::Tuning(x) => (&mut self.tuning_semitones, x),
            Change::Bend(x) => (&mut self.bend_semitones, x),
            Change::Volume(x) => (&mut self.volume, x.clamp(0.0, MAX_VOLUME)),
            Change::Pan(x) => (&mut self.pan, x.clamp(-1.0, 1.0)),
            Change::StiffnessDecades(x) => (&mut self.stiffness_decades, x),
            Change::GainDb(x) => (&mut self.gain_db, x),
            Change::Drive(x) => (&mut self.drive_fraction, x.clamp(0.0, 1.0)),
        };
        if value.is_finite() {
            *field = value;
        }
    }
}

/// A one-pole follower: moves towards its target with time constant [`EXPRESSION_SMOOTHING_S`]
/// and lands on it exactly once within 10⁻⁶ of the step (−120 dB, 14 time constants), by
/// [`approach`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Follower {
    pub now: f64,
    pub target: f64,
    /// Share of the remaining distance kept per sample.
    keep: f64,
    snap: f64,
}

impl Follower {
    /// At `value`, for steps of `dt_s`.
    pub fn new(value: f64, dt_s: f64) -> Self {
        Self {
            now: value,
            target: value,
            keep: (-dt_s / EXPRESSION_SMOOTHING_S).exp(),
            snap: 0.0,
        }
    }

    /// Head for `target` from where it is now; the same target again changes nothing (a host
    /// that sends a value over and over would otherwise shrink the snap to nothing and leave
    /// the follower creeping into subnormal numbers).
    pub fn set(&mut self, target: f64) {
        if target != self.target {
            self.snap = 1e-6 * (target - self.now).abs();
            self.target = target;
        }
    }

    pub fn is_moving(&self) -> bool {
        self.now != self.target
    }

    /// One sample on; the new value.
    #[inline]
    pub fn next(&mut self) -> f64 {
        self.now = approach(self.now, self.target, self.keep, self.snap);
        self.now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_sent_the_same_target_every_sample_still_lands_on_it() {
        // A host resending pressure 0 every sample after a press of 1: the follower lands on 0
        // exactly within ln(10⁶) ≈ 13.8 time constants, never passing through subnormals.
        let dt_s = 1.0 / 48_000.0;
        let mut press = Follower::new(1.0, dt_s);
        let within = (13.9 * EXPRESSION_SMOOTHING_S / dt_s) as usize;
        for n in 0..within {
            press.set(0.0);
            assert!(!press.next().is_subnormal(), "sample {n}");
        }
        assert!(!press.is_moving(), "still at {}", press.now);
    }
}
