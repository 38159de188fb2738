//! MIDI channels as per-note expression: pitch bend, pressure and CC 74 per channel, MPE's zone.

use urto_dsp::voice::{Change, Engine, Expression, NoteTarget, Patch};

/// MIDI channels.
const CHANNELS: usize = 16;
/// MPE's master channel (lower zone: MIDI channel 1), whose pitch bend moves every note.
const MASTER: u8 = 0;

/// How the channels are read: the bend ranges in semitones, and whether each channel but the
/// master is one note (MPE, lower zone over all 15 member channels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChannelMode {
    pub bend_range_semitones: f64,
    pub mpe: bool,
    pub mpe_bend_range_semitones: f64,
}

/// The latest pitch bend (−1…1), pressure (0…1) and brightness (CC 74, 0…1) of every channel:
/// they reach the notes sounding on the channel, and a new note starts with them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Channels {
    bend: [f64; CHANNELS],
    pressure: [f64; CHANNELS],
    brightness: [f64; CHANNELS],
}

impl Default for Channels {
    /// Every controller at rest: no bend, no pressure, CC 74 at its centre.
    fn default() -> Self {
        Self {
            bend: [0.0; CHANNELS],
            pressure: [0.0; CHANNELS],
            brightness: [Expression::NEUTRAL.brightness; CHANNELS],
        }
    }
}

impl Channels {
    /// The pitch bend of notes on `channel`, semitones: the channel's own bend at the common
    /// range; with MPE, a member channel's at the member range plus the master channel's.
    fn bend_semitones(&self, channel: u8, mode: &ChannelMode) -> f64 {
        let own = self.bend[usize::from(channel) % CHANNELS];
        if mode.mpe && channel != MASTER {
            own * mode.mpe_bend_range_semitones
                + self.bend[usize::from(MASTER)] * mode.bend_range_semitones
        } else {
            own * mode.bend_range_semitones
        }
    }

    /// The expression a note on `channel` starts with.
    pub fn expression(&self, channel: u8, mode: &ChannelMode) -> Expression {
        let c = usize::from(channel) % CHANNELS;
        Expression {
            bend_semitones: self.bend_semitones(c as u8, mode),
            pressure: self.pressure[c],
            brightness: self.brightness[c],
            ..Expression::NEUTRAL
        }
    }

    /// A pitch bend message, `value` as nice-plug normalises it (the 14-bit value / 16383):
    /// read back as the 14-bit value, so the centre 8192 is exactly no bend.
    pub fn pitch_bend(
        &mut self,
        engine: &mut Engine,
        patch: &Patch,
        mode: &ChannelMode,
        channel: u8,
        value: f32,
    ) {
        let raw = (f64::from(value).clamp(0.0, 1.0) * 16383.0).round();
        self.bend[usize::from(channel) % CHANNELS] = (raw - 8192.0) / 8192.0;
        let master = mode.mpe && channel == MASTER;
        for c in 0..CHANNELS as u8 {
            if c == channel || master {
                let bend = Change::Bend(self.bend_semitones(c, mode));
                engine.express(patch, NoteTarget::channel(c), bend);
            }
        }
    }

    /// Channel pressure: presses the balls of the notes on `channel`.
    pub fn pressure(&mut self, engine: &mut Engine, patch: &Patch, channel: u8, pressure: f32) {
        let pressure = f64::from(pressure).clamp(0.0, 1.0);
        self.pressure[usize::from(channel) % CHANNELS] = pressure;
        engine.express(
            patch,
            NoteTarget::channel(channel),
            Change::Pressure(pressure),
        );
    }

    /// CC 74 (MPE's third dimension, "brightness"), `value` as nice-plug normalises it (the
    /// 7-bit value / 127): the stiffness of the next contacts of the notes on `channel`. Read
    /// back as the 7-bit value with its centre, 64, exactly neutral: 0…64 → 0…0.5, 64…127 →
    /// 0.5…1.
    pub fn brightness(&mut self, engine: &mut Engine, patch: &Patch, channel: u8, value: f32) {
        let raw = (f64::from(value).clamp(0.0, 1.0) * 127.0).round();
        let brightness = if raw <= 64.0 {
            raw / 128.0
        } else {
            0.5 + (raw - 64.0) / 126.0
        };
        self.brightness[usize::from(channel) % CHANNELS] = brightness;
        engine.express(
            patch,
            NoteTarget::channel(channel),
            Change::Brightness(brightness),
        );
    }

    /// "Reset all controllers" on `channel`: its bend, pressure and brightness back at rest (the
    /// MIDI values of no bend, no pressure and CC 74's centre).
    pub fn reset(&mut self, engine: &mut Engine, patch: &Patch, mode: &ChannelMode, channel: u8) {
        self.pressure(engine, patch, channel, 0.0);
        self.brightness(engine, patch, channel, 64.0 / 127.0);
        self.pitch_bend(engine, patch, mode, channel, 8192.0 / 16383.0);
    }
}
