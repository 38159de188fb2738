//! Urto, the nice-plug wrapper: parameters and MIDI in, the dsp-core engine, audio out.

mod editor;
mod params;
pub mod presets;

use nice_plug::midi::Key;
use nice_plug::prelude::*;
use nice_plug_egui::EguiEditorState;
use std::sync::Arc;
use urto_dsp::voice::Engine;

use params::Controllers;
pub use params::UrtoParams;

/// The plugin instance.
pub struct Urto {
    params: Arc<UrtoParams>,
    editor_state: Arc<EguiEditorState>,
    /// Built in `initialize()` for the host's sample rate; `None` before.
    engine: Option<Engine>,
    /// Mono render buffer, sized in `initialize()` for the host's largest block.
    mono: Vec<f32>,
    /// MIDI controllers the rolling speed can follow.
    controllers: Controllers,
}

impl Default for Urto {
    fn default() -> Self {
        Self {
            params: Arc::new(UrtoParams::default()),
            editor_state: editor::default_state(),
            engine: None,
            mono: Vec::new(),
            controllers: Controllers::default(),
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
        editor::create(self.params.clone(), self.editor_state.clone())
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
        self.mono = vec![0.0; buffer_config.max_buffer_size as usize];
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
        let num_samples = buffer.samples().min(self.mono.len());
        let Some(engine) = &mut self.engine else {
            return ProcessStatus::Error("process() before activate()");
        };
        let mut patch = self.params.patch(&self.controllers);
        engine.set_polyphony(self.params.polyphony.value().max(1) as usize);
        let mono = &mut self.mono[..num_samples];
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
                    NoteEvent::MidiCC { cc, value, .. } => {
                        match cc {
                            1 => self.controllers.mod_wheel = value,
                            11 => self.controllers.expression = value,
                            _ => {}
                        }
                        patch = self.params.patch(&self.controllers);
                    }
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
            engine.process(&patch, &mut mono[start..end]);
            start = end;
        }
        for (i, mut frame) in buffer.iter_samples().enumerate() {
            let gain = util::db_to_gain(self.params.gain_db.smoothed.next());
            let y = gain * mono.get(i).copied().unwrap_or(0.0);
            for sample in frame.iter_mut() {
                *sample = y;
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
