//! Where voices add their sound: a voice's place in the stereo image, the mono or stereo output, and a voice's working buffers.

use super::expression::Follower;
use super::MAX_CHUNK;

/// A voice's place in the stereo image and its volume: the width of its pickups' image, set at
/// its note-on, and its pan and volume, which follow its expression.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Placement {
    /// Side signal's share, 0 (mono) … 1 (the two pickups as they are).
    pub(super) width: f64,
    /// The key's pan, −1…1, which the pan expression moves.
    pub(super) key_pan: f64,
    /// −1 (left) … 1 (right), constant-sum: the channels' gains are 1 − pan and 1 + pan, so
    /// their sum does not depend on it.
    pub(super) pan: Follower,
    /// Factor on the output (the volume expression).
    pub(super) volume: Follower,
}

impl Placement {
    /// Left and right output of a voice at `gain` hearing `mid` and `side` (Pa), one sample on.
    #[inline]
    fn mix(&mut self, gain: f64, mid: f64, side: f64) -> (f64, f64) {
        let (pan, gain) = (self.pan.next(), gain * self.volume.next());
        Self::mix_at(self.width, pan, gain, mid, side)
    }

    /// [`Placement::mix`] with the pan and the gain (volume included) given.
    #[inline]
    fn mix_at(width: f64, pan: f64, gain: f64, mid: f64, side: f64) -> (f64, f64) {
        let side = width * side;
        (
            gain * (1.0 - pan) * (mid + side),
            gain * (1.0 + pan) * (mid - side),
        )
    }

    /// Whether pan and volume stay where they are (no glide under way).
    fn is_steady(&self) -> bool {
        !self.pan.is_moving() && !self.volume.is_moving()
    }
}

/// Where voices add their output: one mono channel (the mean of left and right) or two.
pub(super) enum Output<'a> {
    Mono(&'a mut [f32]),
    Stereo(&'a mut [f32], &'a mut [f32]),
}

impl Output<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Output::Mono(out) | Output::Stereo(out, _) => out.len(),
        }
    }

    /// Samples `start..end` of the channels.
    pub(super) fn part(&mut self, start: usize, end: usize) -> Output<'_> {
        match self {
            Output::Mono(out) => Output::Mono(&mut out[start..end]),
            Output::Stereo(left, right) => {
                Output::Stereo(&mut left[start..end], &mut right[start..end])
            }
        }
    }

    /// Add a voice's `mid` and `side` signals (Pa), placed by `stereo` at `gain`. Without a
    /// glide under way the placement is read once for the whole piece.
    pub(super) fn add(&mut self, stereo: &mut Placement, gain: f64, mid: &[f64], side: &[f64]) {
        if stereo.is_steady() {
            let (width, pan, gain) = (stereo.width, stereo.pan.now, gain * stereo.volume.now);
            self.add_with(mid, side, |m, s| Placement::mix_at(width, pan, gain, m, s));
        } else {
            self.add_with(mid, side, |m, s| stereo.mix(gain, m, s));
        }
    }

    /// Add what `mix` makes of each sample of `mid` and `side` (left, right).
    #[inline]
    fn add_with(&mut self, mid: &[f64], side: &[f64], mut mix: impl FnMut(f64, f64) -> (f64, f64)) {
        match self {
            Output::Mono(out) => {
                for ((o, m), s) in out.iter_mut().zip(mid).zip(side) {
                    let (left, right) = mix(*m, *s);
                    *o += (0.5 * (left + right)) as f32;
                }
            }
            Output::Stereo(out_left, out_right) => {
                for (((l, r), m), s) in out_left
                    .iter_mut()
                    .zip(out_right.iter_mut())
                    .zip(mid)
                    .zip(side)
                {
                    let (left, right) = mix(*m, *s);
                    *l += left as f32;
                    *r += right as f32;
                }
            }
        }
    }
}

/// A voice's working buffers: what its pickups hear over one piece of a block, Pa.
pub(super) struct Scratch {
    pub(super) mid: Vec<f64>,
    pub(super) side: Vec<f64>,
}

impl Scratch {
    pub(super) fn new() -> Self {
        Self {
            mid: vec![0.0; MAX_CHUNK],
            side: vec![0.0; MAX_CHUNK],
        }
    }
}
