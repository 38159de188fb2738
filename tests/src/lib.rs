//! A minimal CLAP host (clack-host) that loads a built Urto plugin, renders notes on its own audio
//! thread and checks the threads of the plugin's calls into it, plus the spectral helpers the
//! whole-product tests and the demo share.

pub mod compare;
pub mod reference;

use clack_extensions::params::{
    HostParams, HostParamsImplMainThread, HostParamsImplShared, ParamClearFlags, ParamInfoBuffer,
    ParamInfoFlags, ParamRescanFlags, PluginParams,
};
use clack_extensions::state::PluginState;
use clack_extensions::thread_check::{HostThreadCheck, HostThreadCheckImpl};
pub use clack_host::events::event_types::NoteExpressionType;
use clack_host::events::event_types::{
    MidiEvent, NoteChokeEvent, NoteEndEvent, NoteExpressionEvent, NoteOffEvent, NoteOnEvent,
    ParamModEvent, ParamValueEvent,
};
use clack_host::events::Match;
use clack_host::events::UnknownEvent;
use clack_host::prelude::*;
use std::error::Error;
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard};
use std::thread::ThreadId;

/// CLAP id of the plugin (plugin/src/lib.rs).
pub const URTO_CLAP_ID: &str = "org.urto.urto";

/// A note-on to send: sample time from the start of the render, MIDI key, velocity in [0, 1].
#[derive(Clone, Copy, Debug)]
pub struct Note {
    pub at_sample: u64,
    pub key: u8,
    pub velocity: f64,
}

/// A note-off to send.
#[derive(Clone, Copy, Debug)]
pub struct NoteOff {
    pub at_sample: u64,
    pub key: u8,
}

/// A note-off or a choke for one key, or with `key: None` for every key (CLAP's wildcard −1).
#[derive(Clone, Copy, Debug)]
pub struct NoteEnd {
    pub at_sample: u64,
    pub key: Option<u8>,
    pub choke: bool,
}

/// A note-on naming its channel and CLAP note id.
#[derive(Clone, Copy, Debug)]
pub struct VoicedNote {
    pub at_sample: u64,
    pub key: u8,
    pub channel: u8,
    pub note_id: u32,
    pub velocity: f64,
}

/// A CLAP note expression for the note with `note_id` (CLAP's units: volume 0…4, pan 0…1,
/// tuning in semitones, the others 0…1).
#[derive(Clone, Copy, Debug)]
pub struct Expression {
    pub at_sample: u64,
    pub note_id: u32,
    pub kind: NoteExpressionType,
    pub value: f64,
}

/// A CLAP polyphonic modulation: `amount` added to parameter `param_id` (in the units the plugin
/// declares) for the note with `note_id`.
#[derive(Clone, Copy, Debug)]
pub struct Modulation {
    pub at_sample: u64,
    pub param_id: u32,
    pub note_id: u32,
    pub amount: f64,
}

/// A note the plugin reported ended (CLAP_EVENT_NOTE_END): when, its note id (−1: none) and key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndedNote {
    pub at_sample: u64,
    pub note_id: i64,
    pub key: i64,
}

/// A MIDI 1.0 message to send through the note port (a CLAP MIDI event).
#[derive(Clone, Copy, Debug)]
pub struct Midi {
    pub at_sample: u64,
    pub bytes: [u8; 3],
}

/// A parameter change to send: CLAP parameter id and its value as the plugin declares it
/// (nice-plug declares continuous parameters on 0…1 and stepped ones on 0…steps).
#[derive(Clone, Copy, Debug)]
pub struct ParamChange {
    pub at_sample: u64,
    pub param_id: u32,
    pub value: f64,
}

/// A parameter as the plugin declares it to a CLAP host.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    pub id: u32,
    pub name: String,
    pub min: f64,
    pub max: f64,
    pub default: f64,
    pub stepped: bool,
}

/// What to render: the audio configuration and the events.
#[derive(Clone, Debug, Default)]
pub struct Render<'a> {
    pub sample_rate_hz: f64,
    pub block_frames: usize,
    pub total_frames: usize,
    pub notes: &'a [Note],
    pub note_offs: &'a [NoteOff],
    pub changes: &'a [ParamChange],
    pub note_ends: &'a [NoteEnd],
    pub midi: &'a [Midi],
    pub voiced: &'a [VoicedNote],
    pub expressions: &'a [Expression],
    pub modulations: &'a [Modulation],
    /// Sample times at which the host calls `reset()` (a block starts there).
    pub resets: &'a [u64],
    /// Block sizes to cycle through (each at most `block_frames`; 0 makes a zero-length process
    /// call); empty: every block is `block_frames` long.
    pub block_pattern: &'a [usize],
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

/// What the host knows of its threads, and what the plugin asked of it.
struct TestHostShared {
    main_thread: ThreadId,
    /// The thread processing audio while a render runs.
    audio_thread: Mutex<Option<ThreadId>>,
    callback_requested: AtomicBool,
    /// Host functions the plugin called from a thread CLAP does not allow for them.
    violations: Mutex<Vec<String>>,
    /// Thread-restricted host functions the plugin called, by name.
    calls: Mutex<Vec<&'static str>>,
}

impl TestHostShared {
    fn new() -> Self {
        Self {
            main_thread: std::thread::current().id(),
            audio_thread: Mutex::new(None),
            callback_requested: AtomicBool::new(false),
            violations: Mutex::new(vec![]),
            calls: Mutex::new(vec![]),
        }
    }

    fn is_audio_thread_now(&self) -> bool {
        *lock(&self.audio_thread) == Some(std::thread::current().id())
    }

    /// Record `call` as a violation unless it comes from the main thread.
    fn expect_main_thread(&self, call: &'static str) {
        lock(&self.calls).push(call);
        if std::thread::current().id() != self.main_thread {
            lock(&self.violations).push(format!("{call} called off the main thread"));
        }
    }
}

/// A lock the test host takes (poisoning cannot lose anything here).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl SharedHandler<'_> for TestHostShared {
    fn request_restart(&self) {}
    fn request_process(&self) {}
    fn request_callback(&self) {
        self.callback_requested.store(true, Ordering::Release);
    }
}

impl HostThreadCheckImpl for TestHostShared {
    fn is_main_thread(&self) -> bool {
        std::thread::current().id() == self.main_thread
    }

    fn is_audio_thread(&self) -> bool {
        self.is_audio_thread_now()
    }
}

impl HostParamsImplShared for TestHostShared {
    fn request_flush(&self) {
        lock(&self.calls).push("params.request_flush");
        // CLAP: never from the audio thread (the plugin is inside process() there).
        if self.is_audio_thread_now() {
            lock(&self.violations).push("params.request_flush called on the audio thread".into());
        }
    }
}

/// The host's main-thread side: it checks that main-thread-only calls come from there.
struct TestHostMainThread<'a> {
    shared: &'a TestHostShared,
}

impl<'a> MainThreadHandler<'a> for TestHostMainThread<'a> {}

impl HostParamsImplMainThread for TestHostMainThread<'_> {
    fn rescan(&self, _flags: ParamRescanFlags) {
        self.shared.expect_main_thread("params.rescan");
    }

    fn clear(&self, _param_id: ClapId, _flags: ParamClearFlags) {
        self.shared.expect_main_thread("params.clear");
    }
}

struct TestHost;

impl HostHandlers for TestHost {
    type Shared<'a> = TestHostShared;
    type MainThread<'a> = TestHostMainThread<'a>;
    type AudioProcessor<'a> = ();

    fn declare_extensions(builder: &mut HostExtensions<Self>, _shared: &Self::Shared<'_>) {
        builder
            .register::<HostThreadCheck>()
            .register::<HostParams>();
    }
}

/// One instance of the plugin in a minimal CLAP host.
///
/// A host calls a plugin's main-thread functions from one thread; the test harness runs tests on
/// several. Sessions therefore take turns: one lives at a time in a process (without this,
/// instances created and loaded from parallel test threads crashed nice-plug's wrapper now and
/// then).
pub struct Session {
    instance: PluginInstance<TestHost>,
    /// The notes the plugin reported ended during the last render.
    ended: Vec<EndedNote>,
    /// Held by the first session of a thread; its later sessions share the turn.
    _turn: Option<MutexGuard<'static, ()>>,
}

static MAIN_THREAD: Mutex<()> = Mutex::new(());

thread_local! {
    /// Sessions alive on this thread.
    static SESSIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Drop for Session {
    fn drop(&mut self) {
        SESSIONS.with(|n| n.set(n.get() - 1));
    }
}

impl Session {
    /// Load the CLAP at `path` and create an instance of Urto.
    pub fn new(path: &Path) -> Result<Session, Box<dyn Error>> {
        let turn = (SESSIONS.with(|n| n.get()) == 0)
            .then(|| MAIN_THREAD.lock().unwrap_or_else(|e| e.into_inner()));
        let host_info =
            HostInfo::new("Urto test host", "Urto", "https://example.invalid", "0.1.0")?;
        // SAFETY: loading a dynamic library runs its initialisers; the path is our own plugin.
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
        let instance = PluginInstance::<TestHost>::new(
            |_| TestHostShared::new(),
            |shared| TestHostMainThread { shared },
            &entry,
            id,
            &host_info,
        )?;
        SESSIONS.with(|n| n.set(n.get() + 1));
        Ok(Session {
            instance,
            ended: Vec::new(),
            _turn: turn,
        })
    }

    /// The plugin's saved state (clap.state save).
    pub fn save_state(&mut self) -> Result<Vec<u8>, Box<dyn Error>> {
        let mut bytes = Vec::new();
        self.save_state_to(&mut bytes)?;
        Ok(bytes)
    }

    /// Save the state into `stream` (which may take fewer bytes per write than offered).
    pub fn save_state_to(&mut self, stream: &mut impl Write) -> Result<(), Box<dyn Error>> {
        let handle = self.instance.plugin_handle();
        let state: PluginState = handle.get_extension().ok_or("no state extension")?;
        state.save(&handle, stream)?;
        Ok(())
    }

    /// Restore a saved state (clap.state load); an error if the plugin refuses it.
    pub fn load_state(&mut self, bytes: &[u8]) -> Result<(), Box<dyn Error>> {
        self.load_state_from(&mut Cursor::new(bytes))
    }

    /// Restore a state from `stream` (which may give fewer bytes per read than asked).
    pub fn load_state_from(&mut self, stream: &mut impl Read) -> Result<(), Box<dyn Error>> {
        let handle = self.instance.plugin_handle();
        let state: PluginState = handle.get_extension().ok_or("no state extension")?;
        state.load(&handle, stream)?;
        self.run_main_thread_callbacks();
        Ok(())
    }

    /// The plugin's main-thread handle, for querying extensions directly.
    pub fn main_thread(&mut self) -> PluginMainThreadHandle<'_> {
        self.instance.plugin_handle()
    }

    /// Every parameter as the host lists it (clap.params get_info).
    pub fn params(&mut self) -> Result<Vec<ParamSpec>, Box<dyn Error>> {
        let handle = self.instance.plugin_handle();
        let params: PluginParams = handle.get_extension().ok_or("no params extension")?;
        let mut buffer = ParamInfoBuffer::default();
        let mut specs = Vec::new();
        for index in 0..params.count(&handle) {
            let info = params
                .get_info(&handle, index, &mut buffer)
                .ok_or_else(|| format!("no info for parameter index {index}"))?;
            specs.push(ParamSpec {
                id: info.id.get(),
                name: String::from_utf8_lossy(info.name).into_owned(),
                min: info.min_value,
                max: info.max_value,
                default: info.default_value,
                stepped: info.flags.contains(ParamInfoFlags::IS_STEPPED),
            });
        }
        Ok(specs)
    }

    /// CLAP id of the parameter named `name`, as the host lists it.
    pub fn param_id(&mut self, name: &str) -> Result<u32, Box<dyn Error>> {
        self.params()?
            .into_iter()
            .find(|p| p.name == name)
            .map(|p| p.id)
            .ok_or_else(|| format!("no parameter named {name}").into())
    }

    /// The parameter's current value (clap.params get_value).
    pub fn param_value(&mut self, id: u32) -> Result<f64, Box<dyn Error>> {
        let handle = self.instance.plugin_handle();
        let params: PluginParams = handle.get_extension().ok_or("no params extension")?;
        params
            .get_value(&handle, ClapId::new(id))
            .ok_or_else(|| format!("no value for parameter {id}").into())
    }

    /// Set parameters while the plugin is inactive (clap.params flush), as a host does when the
    /// user edits a parameter with processing stopped.
    pub fn flush(&mut self, changes: &[(u32, f64)]) -> Result<(), Box<dyn Error>> {
        let params: PluginParams = self
            .instance
            .plugin_handle()
            .get_extension()
            .ok_or("no params extension")?;
        let mut buffer = EventBuffer::new();
        for &(id, value) in changes {
            let event = ParamValueEvent::new(0, ClapId::new(id), Pckn::match_all(), value);
            buffer.push(&event);
        }
        let mut inactive = self
            .instance
            .inactive_plugin_handle()
            .ok_or("flush on an active plugin")?;
        let mut out_buffer = EventBuffer::new();
        params.flush(
            &mut inactive,
            &InputEvents::from_buffer(&buffer),
            &mut OutputEvents::from_buffer(&mut out_buffer),
        );
        self.run_main_thread_callbacks();
        Ok(())
    }

    /// Activate, send the events of `r` sample-accurately, and return the first output channel.
    pub fn render(&mut self, r: &Render) -> Result<Vec<f32>, Box<dyn Error>> {
        let mut output = Vec::with_capacity(r.total_frames);
        self.render_streaming(r, |_, block| output.extend_from_slice(block))?;
        Ok(output)
    }

    /// Like [`Session::render`], returning both output channels (left, right).
    pub fn render_stereo(&mut self, r: &Render) -> Result<[Vec<f32>; 2], Box<dyn Error>> {
        let mut output = [
            Vec::with_capacity(r.total_frames),
            Vec::with_capacity(r.total_frames),
        ];
        self.render_channels(r, |_, left, right| {
            output[0].extend_from_slice(left);
            output[1].extend_from_slice(right);
        })?;
        Ok(output)
    }

    /// Like [`Session::render`], handing each host block's first channel to `on_block` with the
    /// frame it starts at, instead of keeping the whole render.
    pub fn render_streaming(
        &mut self,
        r: &Render,
        mut on_block: impl FnMut(usize, &[f32]) + Send,
    ) -> Result<(), Box<dyn Error>> {
        self.render_channels(r, |start, left, _| on_block(start, left))
    }

    /// Like [`Session::render_streaming`], with both channels (left, right).
    pub fn render_channels(
        &mut self,
        r: &Render,
        mut on_block: impl FnMut(usize, &[f32], &[f32]) + Send,
    ) -> Result<(), Box<dyn Error>> {
        let config = PluginAudioConfiguration {
            sample_rate: r.sample_rate_hz,
            min_frames_count: 1,
            max_frames_count: r.block_frames as u32,
        };
        // Every event with its time, in time order (notes before parameter changes at a tie is
        // not promised: callers keep their events apart).
        let mut timeline: Vec<(u64, EventStorage)> = vec![];
        for n in r.notes {
            let pckn = Pckn::new(0u16, 0u16, u16::from(n.key), u32::MAX);
            timeline.push((
                n.at_sample,
                EventStorage::NoteOn(NoteOnEvent::new(0, pckn, n.velocity)),
            ));
        }
        for n in r.note_offs {
            let pckn = Pckn::new(0u16, 0u16, u16::from(n.key), u32::MAX);
            timeline.push((
                n.at_sample,
                EventStorage::NoteOff(NoteOffEvent::new(0, pckn, 0.0)),
            ));
        }
        for e in r.note_ends {
            let key = e.key.map_or(Match::All, |k| Match::Specific(u16::from(k)));
            let pckn = Pckn::new(0u16, 0u16, key, Match::All);
            let event = if e.choke {
                EventStorage::Choke(NoteChokeEvent::new(0, pckn))
            } else {
                EventStorage::NoteOff(NoteOffEvent::new(0, pckn, 0.0))
            };
            timeline.push((e.at_sample, event));
        }
        for n in r.voiced {
            let pckn = Pckn::new(0u16, u16::from(n.channel), u16::from(n.key), n.note_id);
            timeline.push((
                n.at_sample,
                EventStorage::NoteOn(NoteOnEvent::new(0, pckn, n.velocity)),
            ));
        }
        for e in r.expressions {
            let pckn = Pckn::new(0u16, Match::All, Match::All, e.note_id);
            timeline.push((
                e.at_sample,
                EventStorage::Expression(NoteExpressionEvent::new(0, pckn, e.kind, e.value)),
            ));
        }
        for m in r.modulations {
            let pckn = Pckn::new(0u16, Match::All, Match::All, m.note_id);
            let event = ParamModEvent::new(0, ClapId::new(m.param_id), pckn, m.amount);
            timeline.push((m.at_sample, EventStorage::Modulation(event)));
        }
        for m in r.midi {
            timeline.push((
                m.at_sample,
                EventStorage::Midi(MidiEvent::new(0, 0, m.bytes)),
            ));
        }
        for c in r.changes {
            let id = ClapId::new(c.param_id);
            let event = ParamValueEvent::new(0, id, Pckn::match_all(), c.value);
            timeline.push((c.at_sample, EventStorage::Param(event)));
        }
        timeline.sort_by_key(|(at, _)| *at);
        let stopped = self.instance.activate(|_, _| (), config)?;
        // As in a host, audio is processed on its own thread (which the thread-check extension
        // names), while activation and callbacks stay on the main thread.
        let (go, wait_for_go) = mpsc::channel::<()>();
        let ended = &mut self.ended;
        ended.clear();
        let mut audio_thread = move |stopped: StoppedPluginAudioProcessor<TestHost>| {
            wait_for_go.recv().map_err(|e| e.to_string())?;
            let mut processor = stopped.start_processing().map_err(|e| e.to_string())?;
            let mut channels = vec![vec![0.0f32; r.block_frames]; 2];
            let mut output_ports = AudioPorts::with_capacity(2, 1);
            let input_audio = InputAudioBuffers::empty();
            let mut next = 0;
            let mut start = 0usize;
            let mut pattern = r.block_pattern.iter().cycle();
            while start < r.total_frames {
                let block_frames = pattern
                    .next()
                    .map_or(r.block_frames, |&n| n.min(r.block_frames));
                let mut frames = block_frames.min(r.total_frames - start);
                if r.resets.contains(&(start as u64)) {
                    processor.reset();
                }
                // A block ends where the next reset is due.
                if let Some(&reset) = r.resets.iter().find(|&&at| at > start as u64) {
                    frames = frames.min(reset as usize - start);
                }
                let end = (start + frames) as u64;
                let mut buffer = EventBuffer::new();
                while next < timeline.len() && timeline[next].0 < end {
                    let (at, event) = &mut timeline[next];
                    event.set_time((*at - start as u64) as u32);
                    buffer.push(event.as_unknown());
                    next += 1;
                }
                let input_events = InputEvents::from_buffer(&buffer);
                let mut out_events_buffer = EventBuffer::new();
                let mut output_events = OutputEvents::from_buffer(&mut out_events_buffer);
                let mut output_audio = output_ports.with_output_buffers([AudioPortBuffer {
                    latency: 0,
                    channels: AudioPortBufferType::f32_output_only(
                        channels.iter_mut().map(|c| &mut c.as_mut_slice()[..frames]),
                    ),
                }]);
                processor
                    .process(
                        &input_audio,
                        &mut output_audio,
                        &input_events,
                        &mut output_events,
                        None,
                        None,
                    )
                    .map_err(|e| e.to_string())?;
                for event in out_events_buffer.iter() {
                    if let Some(end) = event.as_event::<NoteEndEvent>() {
                        let pckn = end.pckn();
                        ended.push(EndedNote {
                            at_sample: start as u64 + u64::from(event.header().time()),
                            note_id: pckn.raw_note_id().into(),
                            key: pckn.raw_key().into(),
                        });
                    }
                }
                on_block(start, &channels[0][..frames], &channels[1][..frames]);
                start += frames;
            }
            Ok::<_, String>(processor.stop_processing())
        };
        let processed = std::thread::scope(|scope| {
            let handle = scope.spawn(move || audio_thread(stopped));
            let id = handle.thread().id();
            self.instance
                .access_shared_handler(|h| *lock(&h.audio_thread) = Some(id));
            go.send(()).ok();
            handle.join()
        });
        self.instance
            .access_shared_handler(|h| *lock(&h.audio_thread) = None);
        let stopped = processed.map_err(|_| "the audio thread panicked")??;
        self.instance.deactivate(stopped);
        self.run_main_thread_callbacks();
        Ok(())
    }

    /// The notes the plugin reported ended (CLAP note end events) during the last render.
    pub fn ended_notes(&self) -> &[EndedNote] {
        &self.ended
    }

    /// Run the plugin's main-thread callback if it asked for one (clap.host request_callback).
    fn run_main_thread_callbacks(&mut self) {
        let requested = self
            .instance
            .access_shared_handler(|h| h.callback_requested.swap(false, Ordering::AcqRel));
        if requested {
            self.instance.call_on_main_thread_callback();
        }
    }

    /// Host calls the plugin made from a thread CLAP does not allow for them (the validator's
    /// thread-safety check); empty when all is well.
    pub fn thread_violations(&self) -> Vec<String> {
        self.instance
            .access_shared_handler(|h| lock(&h.violations).clone())
    }

    /// The thread-restricted host functions the plugin has called so far.
    pub fn host_calls(&self) -> Vec<&'static str> {
        self.instance
            .access_shared_handler(|h| lock(&h.calls).clone())
    }
}

/// A plugin state (nice-plug's JSON) as Urto's CLAP stores it: the JSON's length as 8 bytes,
/// little-endian, then the JSON (CLAP streams do not say how long they are).
pub fn clap_state(json: &[u8]) -> Vec<u8> {
    let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(json);
    bytes
}

/// The JSON inside a state saved by Urto's CLAP.
pub fn state_json(state: &[u8]) -> &[u8] {
    state.get(8..).unwrap_or_default()
}

/// The events a render sends, kept until the block's buffer is built.
enum EventStorage {
    NoteOn(NoteOnEvent),
    NoteOff(NoteOffEvent),
    Choke(NoteChokeEvent),
    Midi(MidiEvent),
    Param(ParamValueEvent),
    Expression(NoteExpressionEvent),
    Modulation(ParamModEvent),
}

impl EventStorage {
    /// Set the event's time within its block.
    fn set_time(&mut self, time: u32) {
        match self {
            EventStorage::NoteOn(e) => e.set_time(time),
            EventStorage::NoteOff(e) => e.set_time(time),
            EventStorage::Choke(e) => e.set_time(time),
            EventStorage::Midi(e) => e.set_time(time),
            EventStorage::Param(e) => e.set_time(time),
            EventStorage::Expression(e) => e.set_time(time),
            EventStorage::Modulation(e) => e.set_time(time),
        }
    }

    fn as_unknown(&self) -> &UnknownEvent {
        match self {
            EventStorage::NoteOn(e) => e.as_unknown(),
            EventStorage::NoteOff(e) => e.as_unknown(),
            EventStorage::Choke(e) => e.as_unknown(),
            EventStorage::Midi(e) => e.as_unknown(),
            EventStorage::Param(e) => e.as_unknown(),
            EventStorage::Expression(e) => e.as_unknown(),
            EventStorage::Modulation(e) => e.as_unknown(),
        }
    }
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
    Session::new(path)?.render(&Render {
        sample_rate_hz,
        block_frames,
        total_frames,
        notes,
        ..Render::default()
    })
}

/// A factory or user preset's note through the CLAP at `sample_rate_hz` in blocks of 512: `key`
/// struck at `velocity` (0…1), released after `hold_s`, `seconds` long; the left and right
/// channels.
pub fn render_preset_note(
    preset: &urto::presets::Preset,
    key: u8,
    velocity: f64,
    hold_s: f64,
    seconds: f64,
    sample_rate_hz: f64,
) -> [Vec<f32>; 2] {
    let state = clap_state(
        &serde_json::to_vec(&preset.to_state(&urto::UrtoParams::default())).expect("state JSON"),
    );
    let mut session = Session::new(&clap_path()).expect("load the CLAP");
    session.load_state(&state).expect("state accepted");
    let notes = [Note {
        at_sample: 0,
        key,
        velocity,
    }];
    let offs = [NoteOff {
        at_sample: (hold_s * sample_rate_hz) as u64,
        key,
    }];
    session
        .render_stereo(&Render {
            sample_rate_hz,
            block_frames: 512,
            total_frames: (seconds * sample_rate_hz) as usize,
            notes: &notes,
            note_offs: &offs,
            ..Render::default()
        })
        .expect("render")
}

/// Frequency in Hz of the strongest bin of the Hann-windowed magnitude spectrum of `signal`,
/// refined by parabolic interpolation of the log magnitudes around the peak.
pub fn strongest_peak_hz(signal: &[f32], sample_rate_hz: f64) -> f64 {
    let samples: Vec<f64> = signal.iter().map(|&x| f64::from(x)).collect();
    let magnitude = hann_magnitudes(&samples, samples.len());
    peak_hz(&magnitude, 1, sample_rate_hz / samples.len() as f64)
}

/// Value `i` of the periodic Hann window of `n` samples: ½ − ½·cos(2πi/n).
pub fn hann(i: usize, n: usize) -> f64 {
    0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n as f64).cos()
}

/// |X| over bins 0 … len/2 − 1 of `samples` under a Hann window of their length, zero-padded to
/// `len` ≥ their length points.
pub fn hann_magnitudes(samples: &[f64], len: usize) -> Vec<f64> {
    let n = samples.len();
    let mut buffer: Vec<rustfft::num_complex::Complex<f64>> = (0..len)
        .map(|i| {
            let x = samples.get(i).map_or(0.0, |&x| x * hann(i, n));
            rustfft::num_complex::Complex::new(x, 0.0)
        })
        .collect();
    rustfft::FftPlanner::new()
        .plan_fft_forward(len)
        .process(&mut buffer);
    buffer[..len / 2].iter().map(|c| c.norm()).collect()
}

/// The frequency of the strongest bin of `magnitude` from `first_bin` on, refined by a parabola
/// through the log magnitudes around it, Hz.
pub fn peak_hz(magnitude: &[f64], first_bin: usize, hz_per_bin: f64) -> f64 {
    let first = first_bin.max(1);
    let k = (first..magnitude.len() - 1)
        .max_by(|&a, &b| magnitude[a].total_cmp(&magnitude[b]))
        .unwrap_or(first);
    let (a, b, c) = (
        magnitude[k - 1].ln(),
        magnitude[k].ln(),
        magnitude[k + 1].ln(),
    );
    let offset = 0.5 * (a - c) / (a - 2.0 * b + c);
    let offset = if offset.is_finite() { offset } else { 0.0 };
    (k as f64 + offset) * hz_per_bin
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
