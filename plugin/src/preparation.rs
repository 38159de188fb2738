//! The patch's preparation (every key's object, the contacts' tables, the level calibration),
//! built on the background thread and handed to the audio thread without locks or allocation.

use crossbeam_queue::ArrayQueue;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use urto_dsp::voice::{preparation_key, Engine, Patch, Prepared};

/// Finished preparations waiting for the audio thread.
const READY_CAPACITY: usize = 2;
/// Preparations the engine gave back, for reuse. The background thread makes a new one only when
/// none is spare, so at most 1 (in the engine) + [`READY_CAPACITY`] + 1 (being built) exist, and
/// the audio thread always finds room here: it never frees one.
const SPARE_CAPACITY: usize = READY_CAPACITY + 2;

/// A request for the background thread: prepare `patch` at `sample_rate_hz`.
pub struct Task {
    patch: Patch,
    sample_rate_hz: f64,
    /// The request's number: a request overtaken by a newer one is skipped.
    generation: u64,
}

/// What both threads hold.
#[derive(Clone)]
pub struct Shared {
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
    /// The background thread's work: build the preparation `task` asks for (milliseconds), unless
    /// a newer request has come since.
    pub fn run(&self, task: Task) {
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

/// The audio thread's end.
#[derive(Default)]
pub struct Preparation {
    shared: Shared,
    /// The patch last asked for, as far as a preparation depends on it.
    requested: Option<Patch>,
}

impl Preparation {
    /// Both threads' handles, for the background task executor.
    pub fn shared(&self) -> Shared {
        self.shared.clone()
    }

    /// Forget the last request (the engine was rebuilt).
    pub fn forget(&mut self) {
        self.requested = None;
    }

    /// Audio thread, before a block: hand `engine` a finished preparation of `patch`, and return
    /// the request to post if `patch` has none under way. Lock- and allocation-free.
    pub fn update(
        &mut self,
        engine: &mut Engine,
        patch: &Patch,
        sample_rate_hz: f64,
    ) -> Option<Task> {
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
            return None;
        }
        self.requested = Some(key);
        let generation = self.shared.generation.fetch_add(1, Ordering::AcqRel) + 1;
        Some(Task {
            patch: *patch,
            sample_rate_hz,
            generation,
        })
    }
}
