//! Urto, the nice-plug wrapper: parameters and MIDI in, the dsp-core engine, audio out.

mod channels;
mod clap_entry;
pub mod editor;
mod live_view;
pub mod params;
mod preparation;
pub mod presets;

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use nice_plug_egui::EguiEditorState;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use urto_dsp::interaction::ContactTrace;
use urto_dsp::voice::{
    flush_subnormal, Change, DropTrace, Engine, NoteId, NoteTarget, SlideTrace, MAX_VOICES,
};

use channels::{ChannelMode, Channels};

use params::Controllers;
pub use params::UrtoParams;

/// The plugin instance.
pub struct Urto {
    params: Arc<UrtoParams>,
    editor_state: Arc<EguiEditorState>,
    /// Built in `initialize()` for the host's sample rate; `None` before.
    engine: Option<Engine>,
    /// Render buffers (left, right; the mono layout uses the left), sized in `activate()` for
    /// the host's largest block.
    left: Vec<f32>,
    right: Vec<f32>,
    /// MIDI controllers the rolling speed can follow.
    controllers: Controllers,
    /// Every MIDI channel's bend, pressure and brightness (per-note expression, MPE).
    channels: Channels,
    /// The polyphony last reported to the host.
    voice_capacity: u32,
    /// The audio side of the live view's triple buffer, and the serial of the trace last sent.
    trace_in: triple_buffer::Input<ContactTrace>,
    trace_sent: u64,
    /// The same for the drop mode's live view.
    drop_trace_in: triple_buffer::Input<DropTrace>,
    drop_trace_sent: u64,
    /// And for the slide mode's.
    slide_trace_in: triple_buffer::Input<SlideTrace>,
    slide_trace_sent: u64,
    /// What the editor sees (its side of the buffer, the strike button).
    shared: editor::Shared,
    /// The strike button's note is sounding.
    strike_sounding: bool,
    /// Patch preparations from the instance's worker thread.
    preparation: preparation::Preparation,
    sample_rate_hz: f64,
}

/// MIDI controller numbers Urto answers (MIDI 1.0 channel mode messages 120, 121 and 123–127:
/// the mode changes 124–127 also end every note).
const MOD_WHEEL: u8 = 1;
const EXPRESSION: u8 = 11;
const ALL_SOUND_OFF: u8 = 120;
const RESET_ALL_CONTROLLERS: u8 = 121;
const ALL_NOTES_OFF: u8 = 123;
/// Sound controller 5, MPE's third dimension ("timbre"): a note's brightness.
const BRIGHTNESS: u8 = 74;
const POLY_MODE_ON: u8 = 127;

/// The note the editor's strike button plays, and its velocity.
const STRIKE_NOTE: u8 = 60;
const STRIKE_VELOCITY: f32 = 0.7;

impl Default for Urto {
    fn default() -> Self {
        let (trace_in, trace_out) = triple_buffer::triple_buffer(&ContactTrace::default());
        let (drop_trace_in, drop_trace_out) = triple_buffer::triple_buffer(&DropTrace::default());
        let (slide_trace_in, slide_trace_out) =
            triple_buffer::triple_buffer(&SlideTrace::default());
        Self {
            params: Arc::new(UrtoParams::default()),
            editor_state: editor::default_state(),
            engine: None,
            left: Vec::new(),
            right: Vec::new(),
            controllers: Controllers::default(),
            channels: Channels::default(),
            voice_capacity: MAX_VOICES as u32,
            trace_in,
            trace_sent: 0,
            drop_trace_in,
            drop_trace_sent: 0,
            slide_trace_in,
            slide_trace_sent: 0,
            shared: editor::Shared {
                trace: Arc::new(Mutex::new(trace_out)),
                drop_trace: Arc::new(Mutex::new(drop_trace_out)),
                slide_trace: Arc::new(Mutex::new(slide_trace_out)),
                strike_held: Arc::new(AtomicBool::new(false)),
                played: Arc::new(AtomicU32::new(0)),
            },
            strike_sounding: false,
            preparation: preparation::Preparation::default(),
            sample_rate_hz: 0.0,
        }
    }
}

impl Plugin for Urto {
    const NAME: &'static str = "Urto";
    const VENDOR: &'static str = "Urto";
    const URL: &'static str = "https://example.invalid/urto";
    const EMAIL: &'static str = "urto@example.invalid";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    const AUDIO_IO_LAYOUTS: &'static [AudioIOLayout] = &[
        AudioIOLayout {
            main_input_channels: None,
            main_output_channels: NonZeroU32::new(2),
            ..AudioIOLayout::const_default()
        },
        AudioIOLayout {
            main_input_channels: None,
            main_output_channels: NonZeroU32::new(1),
            ..AudioIOLayout::const_default()
        },
    ];
    const MIDI_INPUT: MidiConfig = MidiConfig::MidiCCs;
    const SAMPLE_ACCURATE_AUTOMATION: bool = true;

    type Editor = nice_plug_egui::EguiEditor<editor::UrtoApp>;
    type SysExMessage = ();
    type BackgroundTask = ();

    fn filter_state(state: &mut PluginState) {
        presets::migrate_state(state);
    }

    fn params(&self) -> Arc<dyn Params> {
        self.params.clone()
    }

    fn editor(&mut self, _async_executor: AsyncExecutor<Self>) -> Option<Self::Editor> {
        editor::create(
            self.params.clone(),
            self.editor_state.clone(),
            self.shared.clone(),
        )
    }

    fn activate(
        &mut self,
        _audio_io_layout: &AudioIOLayout,
        buffer_config: &BufferConfig,
        _context: &mut impl ActivateContext<Self>,
    ) -> bool {
        let sample_rate_hz = f64::from(buffer_config.sample_rate);
        if !(sample_rate_hz.is_finite() && sample_rate_hz > 0.0) {
            return false;
        }
        self.engine = Some(Engine::new(sample_rate_hz));
        self.channels = Channels::default();
        self.sample_rate_hz = sample_rate_hz;
        self.preparation.forget();
        self.left = vec![0.0; buffer_config.max_buffer_size as usize];
        self.right = vec![0.0; buffer_config.max_buffer_size as usize];
        true
    }

    fn reset(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.reset();
        }
        // A bend or pressure left over from before would bend the next notes.
        self.channels = Channels::default();
    }

    fn process(
        &mut self,
        buffer: &mut Buffer,
        _aux: &mut AuxiliaryBuffers,
        context: &mut impl ProcessContext<Self>,
    ) -> ProcessStatus {
        let num_samples = buffer.samples().min(self.left.len());
        let stereo = buffer.channels() >= 2;
        let Some(engine) = &mut self.engine else {
            return ProcessStatus::Error("process() before activate()");
        };
        let mut patch = self.params.patch(&self.controllers);
        let mode = ChannelMode {
            bend_range_semitones: f64::from(self.params.expression.bend_range_semitones.value()),
            mpe: self.params.expression.mpe.value(),
            mpe_bend_range_semitones: f64::from(
                self.params.expression.mpe_bend_range_semitones.value(),
            ),
        };
        engine.set_channel_per_note(mode.mpe);
        // Every key's object and the level are prepared on the worker thread when the patch
        // changes; a note that comes first is prepared at its note-on, to the same result.
        self.preparation.update(engine, &patch, self.sample_rate_hz);
        let polyphony = self
            .params
            .output
            .polyphony
            .value()
            .clamp(1, MAX_VOICES as i32) as u32;
        engine.set_polyphony(polyphony as usize);
        if polyphony != self.voice_capacity {
            // For a CLAP host's polyphonic modulation (clap.voice-info).
            self.voice_capacity = polyphony;
            context.set_current_voice_capacity(polyphony);
        }
        let (left, right) = (
            &mut self.left[..num_samples],
            &mut self.right[..num_samples],
        );
        // The editor's strike button: a note while it is held.
        let held = self.shared.strike_held.load(Ordering::Relaxed);
        if held != self.strike_sounding {
            self.strike_sounding = held;
            if held {
                let note = NoteId::key(STRIKE_NOTE);
                let expression = self.channels.expression(note.channel, &mode);
                engine.start_note(&patch, note, STRIKE_VELOCITY, &expression);
                self.shared.note_played(STRIKE_NOTE);
            } else {
                engine.release(&patch, NoteTarget::note(0, STRIKE_NOTE));
            }
        }
        // Render up to each note event, then apply it: note timing is sample-accurate.
        let vst3 = context.plugin_api() == PluginApi::Vst3;
        let mut next_event = context.next_event();
        let mut start = 0;
        loop {
            while let Some(event) = next_event {
                if event.timing() as usize > start {
                    break;
                }
                // Per-note events name their note by CLAP's note id, or by channel and key
                // (CLAP's −1 wildcards match every note).
                match event {
                    NoteEvent::NoteOn {
                        voice_id,
                        channel,
                        key: Key::Number(key),
                        velocity,
                        ..
                    } => {
                        let note = NoteId {
                            key,
                            channel: channel.number().unwrap_or(0),
                            voice_id: voice_id.id(),
                        };
                        let expression = self.channels.expression(note.channel, &mode);
                        engine.start_note(&patch, note, velocity, &expression);
                        self.shared.note_played(key);
                    }
                    NoteEvent::NoteOff {
                        voice_id,
                        channel,
                        key,
                        ..
                    } => engine.release(&patch, target(voice_id, channel, key)),
                    NoteEvent::Choke {
                        voice_id,
                        channel,
                        key,
                        ..
                    } => engine.choke(target(voice_id, channel, key)),
                    NoteEvent::PolyPressure { .. }
                    | NoteEvent::PolyBrightness { .. }
                    | NoteEvent::PolyTuning { .. }
                    | NoteEvent::PolyVolume { .. }
                    | NoteEvent::PolyPan { .. }
                    | NoteEvent::PolyExpression { .. } => {
                        if let Some((target, change)) = note_expression(&event, vst3) {
                            engine.express(&patch, target, change);
                        }
                    }
                    NoteEvent::PolyModulation {
                        voice_id,
                        poly_modulation_id,
                        normalized_offset,
                        ..
                    } => {
                        if let Some(change) =
                            params::poly_modulation(poly_modulation_id, normalized_offset)
                        {
                            engine.express(&patch, NoteTarget::voice(voice_id), change);
                        }
                    }
                    NoteEvent::MidiPitchBend { channel, value, .. } => {
                        self.channels
                            .pitch_bend(engine, &patch, &mode, channel, value);
                    }
                    NoteEvent::MidiCC {
                        channel, cc, value, ..
                    } => match cc {
                        ALL_SOUND_OFF => engine.all_sound_off(),
                        ALL_NOTES_OFF..=POLY_MODE_ON => engine.all_notes_off(&patch),
                        BRIGHTNESS => self.channels.brightness(engine, &patch, channel, value),
                        _ => {
                            match cc {
                                MOD_WHEEL => self.controllers.mod_wheel = value,
                                EXPRESSION => self.controllers.expression = value,
                                // As if no controller had moved (Controllers::default).
                                RESET_ALL_CONTROLLERS => {
                                    self.controllers = Controllers::default();
                                    self.channels.reset(engine, &patch, &mode, channel);
                                }
                                _ => {}
                            }
                            patch = self.params.patch(&self.controllers);
                        }
                    },
                    NoteEvent::MidiChannelPressure {
                        channel, pressure, ..
                    } => {
                        // With MPE a member channel's pressure is its note's alone: only the
                        // master channel's moves the rolling speed of every note.
                        if !mode.mpe || channel == 0 {
                            self.controllers.pressure = pressure;
                            patch = self.params.patch(&self.controllers);
                        }
                        self.channels.pressure(engine, &patch, channel, pressure);
                    }
                    _ => {}
                }
                next_event = context.next_event();
            }
            if start == num_samples {
                break;
            }
            let end = next_event.map_or(num_samples, |e| (e.timing() as usize).min(num_samples));
            if stereo {
                engine.process_stereo(&patch, &mut left[start..end], &mut right[start..end]);
            } else {
                engine.process(&patch, &mut left[start..end]);
            }
            // The host frees what it keeps for a note (its modulation) when told it ended (an
            // event the host has no room for is dropped: it only frees resources).
            let timing = (end.max(1) - 1) as u32;
            for note in engine.take_ended() {
                let _ = context.try_send_event(NoteEvent::VoiceTerminated {
                    timing,
                    voice_id: note.voice_id.map_or(VoiceID::Wildcard, VoiceID::ID),
                    channel: Channel::Number(note.channel),
                    key: Key::Number(note.key),
                });
            }
            start = end;
        }
        if let Some(trace) = engine.trace() {
            if trace.serial != self.trace_sent {
                self.trace_sent = trace.serial;
                self.trace_in.write(*trace);
            }
        }
        if let Some(trace) = engine.drop_trace() {
            if trace.serial != self.drop_trace_sent {
                self.drop_trace_sent = trace.serial;
                self.drop_trace_in.write(*trace);
            }
        }
        if let Some(trace) = engine.slide_trace() {
            if trace.serial != self.slide_trace_sent {
                self.slide_trace_sent = trace.serial;
                self.slide_trace_in.write(*trace);
            }
        }
        // The left (or mono) signal on channel 0, the right on channel 1 (and any further).
        for (i, mut frame) in buffer.iter_samples().enumerate() {
            let gain = util::db_to_gain(self.params.output.gain_db.smoothed.next());
            let (l, r) = (
                left.get(i).copied().unwrap_or(0.0),
                right.get(i).copied().unwrap_or(0.0),
            );
            for (channel, sample) in frame.iter_mut().enumerate() {
                let y = if channel == 0 || !stereo { l } else { r };
                *sample = flush_subnormal(gain * y);
            }
        }
        ProcessStatus::Normal
    }
}

/// The notes a note expression names and the change it makes (CLAP's and VST3's note expressions
/// and polyphonic pressure, as nice-plug delivers them: pan −1…1, tuning in semitones, the
/// "expression" expression a slider's share of its speed 0…1); `None` for any other event.
/// nice-plug 0.4.2's VST3 wrapper delivers a host's brightness as `PolyExpression` and its
/// expression as `PolyBrightness` (its `note_expressions.rs` swaps the two ids), so under VST3
/// (`vst3`) they are swapped back here.
fn note_expression(event: &NoteEvent<()>, vst3: bool) -> Option<(NoteTarget, Change)> {
    let (voice_id, channel, key, change) = match *event {
        NoteEvent::PolyPressure {
            voice_id,
            channel,
            key,
            pressure,
            ..
        } => (voice_id, channel, key, Change::Pressure(pressure.into())),
        NoteEvent::PolyBrightness {
            voice_id,
            channel,
            key,
            brightness,
            ..
        } => (
            voice_id,
            channel,
            key,
            brightness_or_drive(brightness, vst3),
        ),
        NoteEvent::PolyTuning {
            voice_id,
            channel,
            key,
            tuning,
            ..
        } => (voice_id, channel, key, Change::Tuning(tuning.into())),
        NoteEvent::PolyVolume {
            voice_id,
            channel,
            key,
            gain,
            ..
        } => (voice_id, channel, key, Change::Volume(gain.into())),
        NoteEvent::PolyPan {
            voice_id,
            channel,
            key,
            pan,
            ..
        } => (voice_id, channel, key, Change::Pan(pan.into())),
        NoteEvent::PolyExpression {
            voice_id,
            channel,
            key,
            expression,
            ..
        } => (
            voice_id,
            channel,
            key,
            brightness_or_drive(expression, !vst3),
        ),
        _ => return None,
    };
    Some((target(voice_id, channel, key), change))
}

/// A brightness note expression as Urto reads it, or (`drive`) a slider's share of its speed.
fn brightness_or_drive(value: f32, drive: bool) -> Change {
    if drive {
        Change::Drive(value.into())
    } else {
        Change::Brightness(value.into())
    }
}

/// The notes an event names: by note id if it has one, else by channel and key (a wildcard matches
/// any).
fn target(voice_id: VoiceID, channel: Channel, key: Key) -> NoteTarget {
    NoteTarget {
        voice_id: voice_id.id(),
        channel: channel.number(),
        key: key.number(),
    }
}

impl ClapPlugin for Urto {
    const CLAP_ID: &'static str = "org.urto.urto";
    const CLAP_DESCRIPTION: Option<&'static str> =
        Some("Physical impact synthesizer: Hunt–Crossley contact on modal objects");
    const CLAP_MANUAL_URL: Option<&'static str> = None;
    const CLAP_SUPPORT_URL: Option<&'static str> = None;
    const CLAP_POLY_MODULATION_CONFIG: Option<PolyModulationConfig> = Some(PolyModulationConfig {
        max_voice_capacity: MAX_VOICES as u32,
        supports_overlapping_voices: false,
    });
    const CLAP_FEATURES: &'static [ClapFeature] = &[
        ClapFeature::Instrument,
        ClapFeature::Synthesizer,
        ClapFeature::Stereo,
        ClapFeature::Mono,
    ];
}

impl Vst3Plugin for Urto {
    const VST3_CLASS_ID: [u8; 16] = *b"UrtoImpactSynth1";
    const VST3_SUBCATEGORIES: &'static [Vst3SubCategory] =
        &[Vst3SubCategory::Instrument, Vst3SubCategory::Synth];
}

nice_export_vst3!(Urto);

#[cfg(test)]
mod tests {
    use super::*;

    /// nice-plug 0.4.2 hands a VST3 host's brightness over as `PolyExpression` and its
    /// expression as `PolyBrightness`; a CLAP host's arrive as named. Either way, brightness
    /// reaches the contact's stiffness and expression a slider's speed.
    #[test]
    fn brightness_and_expression_arrive_as_named_through_either_api() {
        let brightness = |value| NoteEvent::<()>::PolyBrightness {
            timing: 0,
            voice_id: VoiceID::ID(7),
            channel: Channel::Number(0),
            key: Key::Number(60),
            brightness: value,
        };
        let expression = |value| NoteEvent::<()>::PolyExpression {
            timing: 0,
            voice_id: VoiceID::ID(7),
            channel: Channel::Number(0),
            key: Key::Number(60),
            expression: value,
        };
        let change = |event, vst3| note_expression(&event, vst3).map(|(_, change)| change);
        assert_eq!(
            change(brightness(0.25), false),
            Some(Change::Brightness(0.25))
        );
        assert_eq!(change(expression(0.75), false), Some(Change::Drive(0.75)));
        // Through VST3: the host's brightness came as PolyExpression, its expression as
        // PolyBrightness.
        assert_eq!(
            change(expression(0.25), true),
            Some(Change::Brightness(0.25))
        );
        assert_eq!(change(brightness(0.75), true), Some(Change::Drive(0.75)));
    }
}
