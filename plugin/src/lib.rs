//! Urto, the nice-plug wrapper: parameters and MIDI in, the dsp-core engine, audio out.

mod editor;
mod live_view;
pub mod params;
mod preparation;
pub mod presets;

use nice_plug::midi::Key;
use nice_plug::prelude::*;
use nice_plug_egui::EguiEditorState;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use urto_dsp::interaction::ContactTrace;
use urto_dsp::voice::{flush_subnormal, Engine};

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
    /// The audio side of the live view's triple buffer, and the serial of the trace last sent.
    trace_in: triple_buffer::Input<ContactTrace>,
    trace_sent: u64,
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
const POLY_MODE_ON: u8 = 127;

/// The note the editor's strike button plays, and its velocity.
const STRIKE_NOTE: u8 = 60;
const STRIKE_VELOCITY: f32 = 0.7;

impl Default for Urto {
    fn default() -> Self {
        let (trace_in, trace_out) = triple_buffer::triple_buffer(&ContactTrace::default());
        Self {
            params: Arc::new(UrtoParams::default()),
            editor_state: editor::default_state(),
            engine: None,
            left: Vec::new(),
            right: Vec::new(),
            controllers: Controllers::default(),
            trace_in,
            trace_sent: 0,
            shared: editor::Shared {
                trace: Arc::new(Mutex::new(trace_out)),
                strike_held: Arc::new(AtomicBool::new(false)),
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
        // Every key's object and the level are prepared on the worker thread when the patch
        // changes; a note that comes first is prepared at its note-on, to the same result.
        self.preparation.update(engine, &patch, self.sample_rate_hz);
        engine.set_polyphony(self.params.polyphony.value().max(1) as usize);
        let (left, right) = (
            &mut self.left[..num_samples],
            &mut self.right[..num_samples],
        );
        // The editor's strike button: a note while it is held.
        let held = self.shared.strike_held.load(Ordering::Relaxed);
        if held != self.strike_sounding {
            self.strike_sounding = held;
            if held {
                engine.note_on(&patch, STRIKE_NOTE, STRIKE_VELOCITY);
            } else {
                engine.note_off(&patch, STRIKE_NOTE);
            }
        }
        // Render up to each note event, then apply it: note timing is sample-accurate.
        let mut next_event = context.next_event();
        let mut start = 0;
        loop {
            while let Some(event) = next_event {
                if event.timing() as usize > start {
                    break;
                }
                match event {
                    NoteEvent::NoteOn {
                        key: Key::Number(note),
                        velocity,
                        ..
                    } => engine.note_on(&patch, note, velocity),
                    NoteEvent::NoteOff {
                        key: Key::Number(note),
                        ..
                    } => engine.note_off(&patch, note),
                    // CLAP's wildcard key (−1) matches every note.
                    NoteEvent::NoteOff {
                        key: Key::Wildcard, ..
                    } => engine.all_notes_off(&patch),
                    NoteEvent::Choke {
                        key: Key::Number(note),
                        ..
                    } => engine.choke(note),
                    NoteEvent::Choke {
                        key: Key::Wildcard, ..
                    } => engine.all_sound_off(),
                    NoteEvent::MidiCC { cc, value, .. } => match cc {
                        ALL_SOUND_OFF => engine.all_sound_off(),
                        ALL_NOTES_OFF..=POLY_MODE_ON => engine.all_notes_off(&patch),
                        _ => {
                            match cc {
                                MOD_WHEEL => self.controllers.mod_wheel = value,
                                EXPRESSION => self.controllers.expression = value,
                                // As if no controller had moved (Controllers::default).
                                RESET_ALL_CONTROLLERS => self.controllers = Controllers::default(),
                                _ => {}
                            }
                            patch = self.params.patch(&self.controllers);
                        }
                    },
                    NoteEvent::MidiChannelPressure { pressure, .. } => {
                        self.controllers.pressure = pressure;
                        patch = self.params.patch(&self.controllers);
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
            start = end;
        }
        if let Some(trace) = engine.trace() {
            if trace.serial != self.trace_sent {
                self.trace_sent = trace.serial;
                self.trace_in.write(*trace);
            }
        }
        // The left (or mono) signal on channel 0, the right on channel 1 (and any further).
        for (i, mut frame) in buffer.iter_samples().enumerate() {
            let gain = util::db_to_gain(self.params.gain_db.smoothed.next());
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

impl ClapPlugin for Urto {
    const CLAP_ID: &'static str = "org.urto.urto";
    const CLAP_DESCRIPTION: Option<&'static str> =
        Some("Physical impact synthesizer: Hunt–Crossley contact on modal objects");
    const CLAP_MANUAL_URL: Option<&'static str> = None;
    const CLAP_SUPPORT_URL: Option<&'static str> = None;
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

nice_export_clap!(Urto);
nice_export_vst3!(Urto);
