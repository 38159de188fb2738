//! The fixed-capacity polyphonic engine: notes, expression and releases to voices, voices summed into the output.

use super::output::{Output, Scratch};
use super::{
    flush_subnormal, note_seed, Change, Expression, NoteId, NoteTarget, Patch, PlayMode, Prepared,
    Strike, Voice, DEFAULT_POLYPHONY, ENDED_CAPACITY, MAX_CHUNK, MAX_VOICES,
};
use crate::interaction::ContactTrace;
use crate::resonator::ObjectSpec;
use crate::voice::{DropTrace, SlideTrace};

/// Fixed-capacity polyphonic engine. All memory is allocated in [`Engine::new`].
pub struct Engine {
    pub(super) voices: Vec<Voice>,
    polyphony: usize,
    scratch: Scratch,
    /// Every key's object, the contacts' tables and the level calibration of the patch.
    prepared: Box<Prepared>,
    sample_rate_hz: f64,
    samples_rendered: u64,
    non_finite_resets: u64,
    /// Notes struck since the last reset: seeds the ball's irregularity and the rolling track.
    notes_struck: u64,
    /// The voice struck last, whose contact the live view shows.
    traced_voice: Option<usize>,
    /// Notes whose voices ended since the host last took them ([`Engine::take_ended`]); never
    /// grows past its capacity.
    ended: Vec<NoteId>,
    /// A channel is a note (MPE): a channel's messages reach only the note held there.
    channel_per_note: bool,
}

impl Engine {
    /// An engine for `sample_rate_hz` with [`MAX_VOICES`] voices, [`DEFAULT_POLYPHONY`] in use.
    pub fn new(sample_rate_hz: f64) -> Self {
        let patch = Patch::default();
        Self {
            voices: (0..MAX_VOICES).map(|_| Voice::new(&patch)).collect(),
            polyphony: DEFAULT_POLYPHONY,
            scratch: Scratch::new(),
            prepared: Prepared::new(sample_rate_hz),
            sample_rate_hz,
            samples_rendered: 0,
            non_finite_resets: 0,
            notes_struck: 0,
            traced_voice: None,
            ended: Vec::with_capacity(ENDED_CAPACITY),
            channel_per_note: false,
        }
    }

    /// Whether a MIDI channel is one note (MPE) or carries many (see the field).
    pub fn set_channel_per_note(&mut self, on: bool) {
        self.channel_per_note = on;
    }

    /// Remember that `note`'s voice ended (dropped if the host has not taken the last
    /// [`ENDED_CAPACITY`]).
    fn end(ended: &mut Vec<NoteId>, note: NoteId) {
        if ended.len() < ended.capacity() {
            ended.push(note);
        }
    }

    /// The notes whose voices ended (decayed, stolen, struck again under a new note id, reset)
    /// since the last call: a CLAP host is told, so it can free what it holds for them.
    pub fn take_ended(&mut self) -> std::vec::Drain<'_, NoteId> {
        self.ended.drain(..)
    }

    /// Voices in use, 1…[`MAX_VOICES`]. Voices beyond a lowered limit finish their tails.
    pub fn set_polyphony(&mut self, voices: usize) {
        self.polyphony = voices.clamp(1, MAX_VOICES);
    }

    /// Silence every voice.
    pub fn reset(&mut self) {
        for voice in self.voices.iter_mut().filter(|v| v.active) {
            Self::end(&mut self.ended, voice.note);
            voice.silence();
        }
        self.notes_struck = 0;
    }

    /// Strike `key` on channel 0 with normalised velocity `velocity` ∈ [0, 1] and no expression
    /// (see [`Engine::start_note`]).
    pub fn note_on(&mut self, patch: &Patch, key: u8, velocity: f32) {
        self.start_note(patch, NoteId::key(key), velocity, &Expression::NEUTRAL);
    }

    /// Strike `note` with normalised velocity `velocity` ∈ [0, 1] and `expression` (its
    /// channel's state). The same key on the same channel, still sounding and not released (see
    /// [`Patch::release_fraction`]), is struck again where it rings; otherwise a free voice is used, or the quietest (then the oldest) is stolen.
    pub fn start_note(
        &mut self,
        patch: &Patch,
        note: NoteId,
        velocity: f32,
        expression: &Expression,
    ) {
        let limit = self.polyphony;
        let sounding = self.voices.iter().position(|v| {
            v.active && v.note.key == note.key && v.note.channel == note.channel && !v.released
        });
        let index = sounding
            .or_else(|| self.voices[..limit].iter().position(|v| !v.active))
            .or_else(|| {
                (0..limit).min_by(|&a, &b| {
                    let (va, vb) = (&self.voices[a], &self.voices[b]);
                    va.stealing_energy_j()
                        .total_cmp(&vb.stealing_energy_j())
                        .then(va.started_at.cmp(&vb.started_at))
                })
            });
        let Some(index) = index else {
            return;
        };
        let previous = &self.voices[index];
        if previous.active && (sounding.is_none() || previous.note.voice_id != note.voice_id) {
            Self::end(&mut self.ended, previous.note);
        }
        if let Some(previous) = self.traced_voice.replace(index) {
            self.voices[previous].bodies.hammer.set_tracing(false);
        }
        self.notes_struck += 1;
        let seed = note_seed(self.notes_struck, note.key);
        self.prepared.ensure(patch, note.key);
        let key = self.prepared.key(note.key);
        let strike = Strike {
            pan: patch.stereo.pan(note.key),
            ..self.prepared.calibration().strike(patch, velocity)
        };
        let dt_s = 1.0 / self.sample_rate_hz;
        let voice = &mut self.voices[index];
        voice.bodies.hammer.set_tracing(true);
        let bodies = if sounding.is_none() {
            Some((key.bank, key.striker))
        } else {
            None
        };
        let floor = ObjectSpec {
            f0_hz: patch.tuning.f0_hz(note.key),
            ..patch.object
        };
        voice.start(
            patch,
            bodies,
            key.contact,
            strike,
            expression,
            seed,
            dt_s,
            &floor,
        );
        voice.note = note;
        voice.started_at = self.samples_rendered;
    }

    /// Count the notes struck so far as `count`: the next note is the `count + 1`-th, and its
    /// drop (or bounce irregularity, or rolling track) is the one [`note_seed`] gives it. For
    /// tools that render a chosen drop.
    pub fn set_notes_struck(&mut self, count: u64) {
        self.notes_struck = count;
    }

    /// The drop of the voice last started, if it is a drop: its body and the time, for tools.
    pub fn drop_scene(&self) -> Option<&crate::rigid::drop::DropScene> {
        let voice = &self.voices[self.traced_voice?];
        (voice.active && voice.scenes.mode() == PlayMode::Drop).then_some(&voice.scenes.drop.scene)
    }

    /// The live view's record of the drop of the voice last started in drop mode (kept after it
    /// ends).
    pub fn drop_trace(&self) -> Option<&DropTrace> {
        let voice = &self.voices[self.traced_voice?];
        (voice.scenes.mode() == PlayMode::Drop).then_some(&voice.scenes.drop.trace)
    }

    /// The live view's record of the slide of the voice last started, if it is a slide (kept
    /// after it ends).
    pub fn slide_trace(&self) -> Option<&SlideTrace> {
        let voice = &self.voices[self.traced_voice?];
        (voice.scenes.mode() == PlayMode::Slide).then_some(&*voice.scenes.slide.trace)
    }

    /// Micro-impacts the drop of the voice last started has struck so far (0 for other modes).
    pub fn drop_impacts(&self) -> usize {
        self.traced_voice
            .map(|i| &self.voices[i])
            .filter(|v| v.scenes.mode() == PlayMode::Drop)
            .map_or(0, |v| v.scenes.drop.struck)
    }

    /// Adopt `prepared` (built by [`Prepared::prepare`] off the audio thread) and return the
    /// preparation it replaces, to be reused or dropped there: no copy, no allocation, no
    /// deallocation. One for another sample rate is returned unused.
    pub fn install(&mut self, prepared: Box<Prepared>) -> Box<Prepared> {
        if prepared.sample_rate_hz() == self.sample_rate_hz {
            std::mem::replace(&mut self.prepared, prepared)
        } else {
            prepared
        }
    }

    /// The preparation new notes use (its calibration, whether it is for a patch).
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// Release `key` on any channel (see [`Engine::release`]).
    pub fn note_off(&mut self, patch: &Patch, key: u8) {
        self.release(patch, NoteTarget::key(key));
    }

    /// Release the notes of `target`: with a release fraction set, their modes decay that much
    /// faster from now on; a rolling ball is lifted off or rolls to a stop.
    pub fn release(&mut self, patch: &Patch, target: NoteTarget) {
        let fs = self.sample_rate_hz;
        self.voices
            .iter_mut()
            .filter(|v| v.active && !v.released && target.matches(&v.note))
            .for_each(|voice| voice.release(patch, fs));
    }

    /// Change one dimension of the expression of the notes of `target`, from the next sample on.
    /// Notes that are not sounding are not touched; with a channel per note (MPE), a message to
    /// a whole channel reaches only the note held there, not a released one still ringing (the
    /// channel's next note's controllers may already be on their way).
    pub fn express(&mut self, patch: &Patch, target: NoteTarget, change: Change) {
        let dt_s = 1.0 / self.sample_rate_hz;
        let released_too = !(self.channel_per_note && target.is_channel_wide());
        self.voices
            .iter_mut()
            .filter(|v| v.active && target.matches(&v.note) && (v.held || released_too))
            .for_each(|voice| voice.express(patch, change, dt_s));
    }

    /// Release every held note (MIDI "all notes off"): each rings on as after its note-off.
    pub fn all_notes_off(&mut self, patch: &Patch) {
        self.release(patch, NoteTarget::default());
    }

    /// Silence the notes of `target` within [`CHOKE_T60_S`] (a CLAP note choke), without a
    /// click.
    pub fn choke(&mut self, target: NoteTarget) {
        let fs = self.sample_rate_hz;
        self.voices
            .iter_mut()
            .filter(|v| v.active && target.matches(&v.note))
            .for_each(|voice| voice.choke(fs));
    }

    /// Silence every voice within [`CHOKE_T60_S`] (MIDI "all sound off"), without a click.
    pub fn all_sound_off(&mut self) {
        self.choke(NoteTarget::default());
    }

    /// Render `out.len()` samples of the sum of all voices into `out` (overwritten), mono: the
    /// mean of the left and right channels of [`Engine::process_stereo`].
    pub fn process(&mut self, patch: &Patch, out: &mut [f32]) {
        out.fill(0.0);
        self.render(patch, Output::Mono(out));
    }

    /// Render `left.len()` samples of the sum of all voices into `left` and `right`
    /// (overwritten; `right` as long as `left`).
    pub fn process_stereo(&mut self, patch: &Patch, left: &mut [f32], right: &mut [f32]) {
        let len = left.len().min(right.len());
        let (left, right) = (&mut left[..len], &mut right[..len]);
        left.fill(0.0);
        right.fill(0.0);
        self.render(patch, Output::Stereo(left, right));
    }

    fn render(&mut self, patch: &Patch, mut out: Output<'_>) {
        let dt_s = 1.0 / self.sample_rate_hz;
        let len = out.len();
        let mut start = 0;
        while start < len {
            let end = (start + MAX_CHUNK).min(len);
            let mut chunk = out.part(start, end);
            for voice in self.voices.iter_mut().filter(|v| v.active) {
                if !voice.render(patch, dt_s, &mut chunk, &mut self.scratch) {
                    self.non_finite_resets += 1;
                }
                if !voice.active {
                    Self::end(&mut self.ended, voice.note);
                }
            }
            self.samples_rendered += (end - start) as u64;
            start = end;
        }
        match out {
            Output::Mono(out) => out.iter_mut().for_each(|y| *y = flush_subnormal(*y)),
            Output::Stereo(left, right) => left
                .iter_mut()
                .chain(right.iter_mut())
                .for_each(|y| *y = flush_subnormal(*y)),
        }
    }

    /// The record of the last strike's first contact and its rebounds (for the live view).
    pub fn trace(&self) -> Option<&ContactTrace> {
        self.traced_voice
            .map(|i| self.voices[i].bodies.hammer.trace())
    }

    /// Number of sounding voices.
    pub fn active_voices(&self) -> usize {
        self.voices.iter().filter(|v| v.active).count()
    }

    /// Voices silenced because their state went non-finite or ran away since construction.
    pub fn non_finite_resets(&self) -> u64 {
        self.non_finite_resets
    }
}
