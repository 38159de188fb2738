//! A minimal CLAP host (clack-host) that loads a built Urto plugin and renders notes, plus the
//! spectral helpers the whole-product tests and the demo share.

use clack_host::events::event_types::NoteOnEvent;
use clack_host::prelude::*;
use std::error::Error;
use std::path::{Path, PathBuf};

/// CLAP id of the plugin (plugin/src/lib.rs).
pub const URTO_CLAP_ID: &str = "org.urto.urto";

/// A note-on to send: sample time from the start of the render, MIDI key, velocity in [0, 1].
#[derive(Clone, Copy, Debug)]
pub struct Note {
    pub at_sample: u64,
    pub key: u8,
    pub velocity: f64,
}

/// The workspace root (this crate lives in `tests/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The CLAP bundle to test: `$URTO_CLAP` if set, else `target/bundled/Urto.clap`.
pub fn clap_path() -> PathBuf {
    std::env::var_os("URTO_CLAP")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/bundled/Urto.clap"))
}

struct TestHostShared;

impl SharedHandler<'_> for TestHostShared {
    fn request_restart(&self) {}
    fn request_process(&self) {}
    fn request_callback(&self) {}
}

struct TestHost;

impl HostHandlers for TestHost {
    type Shared<'a> = TestHostShared;
    type MainThread<'a> = ();
    type AudioProcessor<'a> = ();
}

/// Load the CLAP at `path`, activate it at `sample_rate_hz` with blocks of `block_frames`, send
/// `notes`, and return the first output channel over `total_frames` frames.
pub fn render(
    path: &Path,
    sample_rate_hz: f64,
    block_frames: usize,
    notes: &[Note],
    total_frames: usize,
) -> Result<Vec<f32>, Box<dyn Error>> {
    let host_info = HostInfo::new("Urto test host", "Urto", "https://example.invalid", "0.1.0")?;
    // SAFETY: loading a dynamic library runs its initialisers; the path is our own built plugin.
    let entry = unsafe { PluginEntry::load(path)? };
    let factory = entry
        .get_plugin_factory()
        .ok_or("the CLAP has no plugin factory")?;
    let descriptor = factory
        .plugin_descriptors()
        .find(|d| {
            d.id()
                .is_some_and(|id| id.to_bytes() == URTO_CLAP_ID.as_bytes())
        })
        .ok_or("Urto is not in the CLAP's factory")?;
    let id = descriptor.id().ok_or("descriptor without id")?;
    let mut instance =
        PluginInstance::<TestHost>::new(|_| TestHostShared, |_| (), &entry, id, &host_info)?;
    let config = PluginAudioConfiguration {
        sample_rate: sample_rate_hz,
        min_frames_count: 1,
        max_frames_count: block_frames as u32,
    };
    let stopped = instance.activate(|_, _| (), config)?;
    let mut processor = stopped.start_processing()?;

    let mut output = Vec::with_capacity(total_frames);
    let mut channels = vec![vec![0.0f32; block_frames]; 2];
    let mut output_ports = AudioPorts::with_capacity(2, 1);
    let input_audio = InputAudioBuffers::empty();
    let mut start = 0usize;
    while start < total_frames {
        let frames = block_frames.min(total_frames - start);
        let events: Vec<NoteOnEvent> = notes
            .iter()
            .filter(|n| (start as u64..(start + frames) as u64).contains(&n.at_sample))
            .map(|n| {
                let offset = (n.at_sample - start as u64) as u32;
                NoteOnEvent::new(
                    offset,
                    Pckn::new(0u16, 0u16, n.key as u16, u32::MAX),
                    n.velocity,
                )
            })
            .collect();
        let input_events = InputEvents::from_buffer(&events);
        let mut out_events_buffer = EventBuffer::new();
        let mut output_events = OutputEvents::from_buffer(&mut out_events_buffer);
        let mut output_audio = output_ports.with_output_buffers([AudioPortBuffer {
            latency: 0,
            channels: AudioPortBufferType::f32_output_only(
                channels.iter_mut().map(|c| &mut c.as_mut_slice()[..frames]),
            ),
        }]);
        processor.process(
            &input_audio,
            &mut output_audio,
            &input_events,
            &mut output_events,
            None,
            None,
        )?;
        output.extend_from_slice(&channels[0][..frames]);
        start += frames;
    }
    instance.deactivate(processor.stop_processing());
    Ok(output)
}

/// Frequency in Hz of the strongest bin of the Hann-windowed magnitude spectrum of `signal`,
/// refined by parabolic interpolation of the log magnitudes around the peak.
pub fn strongest_peak_hz(signal: &[f32], sample_rate_hz: f64) -> f64 {
    let n = signal.len();
    let mut buffer: Vec<rustfft::num_complex::Complex<f64>> = signal
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let w = 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n as f64).cos();
            rustfft::num_complex::Complex::new(f64::from(x) * w, 0.0)
        })
        .collect();
    rustfft::FftPlanner::new()
        .plan_fft_forward(n)
        .process(&mut buffer);
    let magnitude: Vec<f64> = buffer[..n / 2].iter().map(|c| c.norm()).collect();
    let k = (1..magnitude.len() - 1)
        .max_by(|&a, &b| magnitude[a].total_cmp(&magnitude[b]))
        .unwrap_or(1);
    let (a, b, c) = (
        magnitude[k - 1].ln(),
        magnitude[k].ln(),
        magnitude[k + 1].ln(),
    );
    let offset = 0.5 * (a - c) / (a - 2.0 * b + c);
    let offset = if offset.is_finite() { offset } else { 0.0 };
    (k as f64 + offset) * sample_rate_hz / n as f64
}

/// Root-mean-square level of `signal`.
pub fn rms(signal: &[f32]) -> f64 {
    (signal
        .iter()
        .map(|&x| f64::from(x) * f64::from(x))
        .sum::<f64>()
        / signal.len().max(1) as f64)
        .sqrt()
}

/// Equal-tempered frequency of MIDI key `key` with A4 = 440 Hz: an independent statement of the
/// tuning the plugin must have, not a call into it.
pub fn expected_fundamental_hz(key: u8) -> f64 {
    440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0)
}
