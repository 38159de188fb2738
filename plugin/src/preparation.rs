//! The patch's preparation (every key's object, the contacts' tables, the level calibration),
//! built on the instance's own worker thread and handed to the audio thread without locks or
//! allocation.
//!
//! The worker is this module's, not nice-plug's background task: nice-plug 0.4.2 shares one worker
//! thread among all instances, and that thread exits when it receives a task for an instance
//! already destroyed; the next instance to be destroyed then panics in its wrapper (seen with
//! clack-host creating and destroying instances in quick succession).

use crossbeam_channel::{Receiver, Sender, TrySendError};
use crossbeam_queue::ArrayQueue;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use urto_dsp::voice::{preparation_key, Engine, Patch, Prepared};

/// Finished preparations waiting for the audio thread.
const READY_CAPACITY: usize = 2;
/// Preparations the engine gave back, for reuse. The worker makes a new one only when
/// none is spare, so at most 1 (in the engine) + [`READY_CAPACITY`] + 1 (being built) exist, and
/// the audio thread always finds room here: it never frees one.
const SPARE_CAPACITY: usize = READY_CAPACITY + 2;

/// Requests waiting for the worker; it takes the newest of those waiting.
const REQUEST_CAPACITY: usize = 16;

/// A request for the worker: prepare `patch` at `sample_rate_hz`.
struct Task {
    patch: Patch,
    sample_rate_hz: f64,
    /// The request's number: a request overtaken by a newer one is skipped.
    generation: u64,
}

/// What both threads hold.
#[derive(Clone)]
struct Shared {
    ready: Arc<ArrayQueue<Box<Prepared>>>,
    spare: Arc<ArrayQueue<Box<Prepared>>>,
    generation: Arc<AtomicU64>,
}

impl Default for Shared {
    fn default() -> Self {
        Self {
            ready: Arc::new(ArrayQueue::new(READY_CAPACITY)),
            spare: Arc::new(ArrayQueue::new(SPARE_CAPACITY)),
            generation: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl Shared {
    /// The worker: take the newest request waiting, build the preparation it asks for
    /// (milliseconds), and publish it; until the audio thread's end is dropped.
    fn work(&self, requests: Receiver<Task>) {
        while let Ok(mut task) = requests.recv() {
            while let Ok(newer) = requests.try_recv() {
                task = newer;
            }
            self.run(task);
        }
    }

    /// Build the preparation `task` asks for, unless a newer request has come since.
    fn run(&self, task: Task) {
        let current = || self.generation.load(Ordering::Acquire) == task.generation;
        if !current() {
            return;
        }
        let mut prepared = loop {
            match self.spare.pop() {
                Some(p) if p.sample_rate_hz() == task.sample_rate_hz => break p,
                // One for an earlier sample rate is freed here, off the audio thread.
                Some(_) => continue,
                None => break Prepared::new(task.sample_rate_hz),
            }
        };
        prepared.prepare(&task.patch);
        if current() {
            // Full only if the audio thread has not collected two finished ones: drop this one.
            let _ = self.ready.push(prepared);
        }
    }
}

/// The audio thread's end, and the worker thread it owns.
pub struct Preparation {
    shared: Shared,
    /// Requests to the worker (`None` once dropping).
    requests: Option<Sender<Task>>,
    worker: Option<JoinHandle<()>>,
    /// The patch last asked for, as far as a preparation depends on it.
    requested: Option<Patch>,
}

impl Default for Preparation {
    /// Start the worker thread.
    fn default() -> Self {
        let shared = Shared::default();
        let (requests, received) = crossbeam_channel::bounded(REQUEST_CAPACITY);
        let worker_side = shared.clone();
        let worker = std::thread::Builder::new()
            .name("urto-prepare".into())
            .spawn(move || worker_side.work(received))
            .ok();
        Self {
            shared,
            requests: Some(requests),
            worker,
            requested: None,
        }
    }
}

impl Drop for Preparation {
    /// Stop the worker (closing its request channel) and wait for it.
    fn drop(&mut self) {
        self.requests = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Preparation {
    /// Forget the last request (the engine was rebuilt).
    pub fn forget(&mut self) {
        self.requested = None;
    }

    /// Audio thread, before a block: hand `engine` a finished preparation of `patch`, and ask
    /// the worker for one if `patch` has none under way. Lock- and allocation-free; without a
    /// worker (it could not be started) notes prepare themselves.
    pub fn update(&mut self, engine: &mut Engine, patch: &Patch, sample_rate_hz: f64) {
        while let Some(prepared) = self.shared.ready.pop() {
            let unused = if prepared.is_for(patch) {
                engine.install(prepared)
            } else {
                prepared
            };
            let returned = self.shared.spare.push(unused);
            debug_assert!(returned.is_ok(), "the spare queue holds every preparation");
        }
        let key = preparation_key(patch);
        if engine.prepared().is_for(patch) || self.requested == Some(key) {
            return;
        }
        let Some(requests) = &self.requests else {
            return;
        };
        let generation = self.shared.generation.fetch_add(1, Ordering::AcqRel) + 1;
        let task = Task {
            patch: *patch,
            sample_rate_hz,
            generation,
        };
        // A full channel: the worker is behind; the next block asks again.
        match requests.try_send(task) {
            Ok(()) => self.requested = Some(key),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {}
        }
    }
}
