//! A fixed-size record of a hammer's first contact after a strike and of its rebound onsets, for
//! the editor's live view; filled on the audio thread without allocation.

use crate::contact::HuntCrossley;

/// Points kept of one contact: when full, every other point is dropped and the stride doubles,
/// so a contact of any length is kept whole at a coarser resolution.
pub const TRACE_POINTS: usize = 512;
/// Rebound onsets kept (bounce mode).
pub const TRACE_ONSETS: usize = 64;

/// One step of the contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TracePoint {
    /// Time since the contact began, s.
    pub t_s: f32,
    /// Compression, m.
    pub x_m: f32,
    /// Compression velocity, m/s.
    pub v_m_per_s: f32,
    /// Contact force, N.
    pub force_n: f32,
    /// Hammer kinetic energy plus contact potential, J.
    pub energy_j: f32,
}

/// The last strike's first contact and its rebound timeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactTrace {
    pub points: [TracePoint; TRACE_POINTS],
    pub len: usize,
    /// Steps per recorded point.
    stride: u32,
    /// Steps since the last recorded point.
    skipped: u32,
    /// The contact as it began: law (with any per-contact irregularity or restitution applied),
    /// hammer mass, closing velocity.
    pub law: HuntCrossley,
    pub mass_kg: f64,
    pub v_in_m_per_s: f64,
    /// Relative velocity at separation, m/s (NaN while the contact lasts or if it never ends).
    pub v_out_m_per_s: f64,
    /// Samples the contact touched and sub-steps per sample.
    pub contact_samples: usize,
    pub substeps: usize,
    pub sample_rate_hz: f64,
    /// Rebound onsets since the strike, s.
    pub onsets_s: [f32; TRACE_ONSETS],
    pub onset_count: usize,
    /// Bumped at every change, so readers can tell a new trace from an old one.
    pub serial: u64,
}

impl Default for ContactTrace {
    fn default() -> Self {
        Self {
            points: [TracePoint::default(); TRACE_POINTS],
            len: 0,
            stride: 1,
            skipped: 0,
            law: HuntCrossley {
                stiffness: 0.0,
                mu_s_per_m: 0.0,
                alpha: 1.5,
            },
            mass_kg: 0.0,
            v_in_m_per_s: 0.0,
            v_out_m_per_s: f64::NAN,
            contact_samples: 0,
            substeps: 0,
            sample_rate_hz: 0.0,
            onsets_s: [0.0; TRACE_ONSETS],
            onset_count: 0,
            serial: 0,
        }
    }
}

impl ContactTrace {
    /// Forget everything: a new strike.
    pub fn clear(&mut self) {
        let serial = self.serial + 1;
        *self = ContactTrace {
            serial,
            ..ContactTrace::default()
        };
    }

    /// The first contact begins.
    pub fn begin(&mut self, law: HuntCrossley, mass_kg: f64, v_in_m_per_s: f64, dt_s: f64) {
        self.law = law;
        self.mass_kg = mass_kg;
        self.v_in_m_per_s = v_in_m_per_s;
        self.sample_rate_hz = 1.0 / dt_s;
        self.serial += 1;
    }

    /// Record one step, thinning the record when it is full.
    pub fn push(&mut self, point: TracePoint) {
        self.skipped += 1;
        if self.skipped < self.stride {
            return;
        }
        self.skipped = 0;
        if self.len == TRACE_POINTS {
            for i in 0..TRACE_POINTS / 2 {
                self.points[i] = self.points[2 * i + 1];
            }
            self.len = TRACE_POINTS / 2;
            self.stride *= 2;
        }
        self.points[self.len] = point;
        self.len += 1;
        self.serial += 1;
    }

    /// The first contact ended with relative velocity `v_out_m_per_s`.
    pub fn end(&mut self, v_out_m_per_s: f64, contact_samples: usize, substeps: usize) {
        self.v_out_m_per_s = v_out_m_per_s;
        self.contact_samples = contact_samples;
        self.substeps = substeps;
        self.serial += 1;
    }

    /// A contact (any, in bounce mode) began at `t_s` after the strike.
    pub fn onset(&mut self, t_s: f64) {
        if self.onset_count < TRACE_ONSETS {
            self.onsets_s[self.onset_count] = t_s as f32;
            self.onset_count += 1;
            self.serial += 1;
        }
    }

    /// The recorded points.
    pub fn points(&self) -> &[TracePoint] {
        &self.points[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_contact_is_kept_whole_at_a_coarser_stride() {
        let mut trace = ContactTrace::default();
        let steps = 5 * TRACE_POINTS;
        for i in 0..steps {
            trace.push(TracePoint {
                t_s: i as f32,
                ..TracePoint::default()
            });
        }
        let points = trace.points();
        assert!(points.len() > TRACE_POINTS / 2 && points.len() <= TRACE_POINTS);
        assert!(points.windows(2).all(|w| w[1].t_s > w[0].t_s));
        assert!(
            points.last().unwrap().t_s >= (steps - 8) as f32,
            "{:?}",
            points.last()
        );
        assert!(points[0].t_s < 8.0);
    }
}
