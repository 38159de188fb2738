//! A fixed-size record of a drop for the editor's live view: the body's height and tilt over time and its impacts, filled on the audio thread without allocation.

/// Poses kept: when full, every other one is dropped and the stride doubles, so a drop of any
/// length is kept whole at a coarser resolution.
pub const DROP_TRACE_POINTS: usize = 1024;
/// Impacts kept.
pub const DROP_TRACE_IMPACTS: usize = 256;

/// The body's pose after one macro step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Time since the drop, s.
    pub t_s: f32,
    /// Height of its lowest point above the floor, m.
    pub height_m: f32,
    /// Angle of its body z axis (a die's up face at the drop, a coin's or ring's axis, a rod's
    /// length) from the vertical, rad.
    pub tilt_rad: f32,
}

/// One impact: when, and the normal impulse of all the points landing together.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DropImpact {
    pub t_s: f32,
    pub normal_impulse_n_s: f32,
}

/// The drop of the note last started.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DropTrace {
    poses: [Pose; DROP_TRACE_POINTS],
    len: usize,
    /// Steps per recorded pose, and steps since the last.
    stride: u32,
    skipped: u32,
    impacts: [DropImpact; DROP_TRACE_IMPACTS],
    impact_count: usize,
    /// When the body came to rest, s (NaN while it moves).
    pub rest_s: f32,
    /// Bumped at every change, so readers can tell a new trace from an old one.
    pub serial: u64,
}

impl Default for DropTrace {
    fn default() -> Self {
        Self {
            poses: [Pose::default(); DROP_TRACE_POINTS],
            len: 0,
            stride: 1,
            skipped: 0,
            impacts: [DropImpact::default(); DROP_TRACE_IMPACTS],
            impact_count: 0,
            rest_s: f32::NAN,
            serial: 0,
        }
    }
}

impl DropTrace {
    /// Forget everything: a new drop.
    pub fn clear(&mut self) {
        let serial = self.serial + 1;
        *self = DropTrace {
            serial,
            ..DropTrace::default()
        };
    }

    /// Record the pose after a macro step, thinning the record when it is full: `pose` is
    /// asked for it only when it is kept.
    pub fn push(&mut self, pose: impl FnOnce() -> Pose) {
        self.skipped += 1;
        if self.skipped < self.stride {
            return;
        }
        self.skipped = 0;
        if self.len == DROP_TRACE_POINTS {
            for i in 0..DROP_TRACE_POINTS / 2 {
                self.poses[i] = self.poses[2 * i + 1];
            }
            self.len = DROP_TRACE_POINTS / 2;
            self.stride *= 2;
        }
        self.poses[self.len] = pose();
        self.len += 1;
        self.serial += 1;
    }

    /// Record an impact (the first [`DROP_TRACE_IMPACTS`] are kept).
    pub fn impact(&mut self, impact: DropImpact) {
        if self.impact_count < DROP_TRACE_IMPACTS {
            self.impacts[self.impact_count] = impact;
            self.impact_count += 1;
            self.serial += 1;
        }
    }

    /// The body came to rest at `t_s`.
    pub fn rest(&mut self, t_s: f64) {
        self.rest_s = t_s as f32;
        self.serial += 1;
    }

    pub fn poses(&self) -> &[Pose] {
        &self.poses[..self.len]
    }

    pub fn impacts(&self) -> &[DropImpact] {
        &self.impacts[..self.impact_count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A drop longer than the record is kept whole, thinned, in order.
    #[test]
    fn a_long_drop_is_kept_whole_at_a_coarser_stride() {
        let mut trace = DropTrace::default();
        let steps = 5 * DROP_TRACE_POINTS;
        for i in 0..steps {
            trace.push(|| Pose {
                t_s: i as f32,
                ..Pose::default()
            });
        }
        let poses = trace.poses();
        assert!(poses.len() > DROP_TRACE_POINTS / 2 && poses.len() <= DROP_TRACE_POINTS);
        assert!(poses.windows(2).all(|w| w[1].t_s > w[0].t_s));
        assert!(poses.last().unwrap().t_s >= (steps - 8) as f32);
        assert!(poses[0].t_s < 8.0);
    }
}
