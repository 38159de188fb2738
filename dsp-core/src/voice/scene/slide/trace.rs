//! A fixed-size record of a slide for the editor's live view: windows of the slip velocity, the friction and the normal force sample by sample, filled on the audio thread without allocation.

use crate::friction::FrictionLaw;

/// Samples in one window (21 ms at 48 kHz: a dozen cycles of a glass's stick–slip).
pub const SLIDE_TRACE_POINTS: usize = 1024;

/// The tangential contact over one sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlidePoint {
    /// Mean slip velocity over the sample, m/s.
    pub slip_m_per_s: f32,
    /// Friction force along the slip (on the object; the slider feels its opposite), N.
    pub friction_n: f32,
    /// Normal force, N.
    pub normal_n: f32,
    /// The bristle stuck (held elastically, α = 0) over the sample.
    pub sticking: bool,
}

/// The slide of the note last started: the window being filled, shown whole each time it fills.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideTrace {
    points: [SlidePoint; SLIDE_TRACE_POINTS],
    len: usize,
    /// The slider's friction law (for its steady curve).
    pub law: FrictionLaw,
    pub sample_rate_hz: f64,
    /// The bristle's Newton iterations a step, mean and largest, since the slide began.
    pub iterations_mean: f64,
    pub iterations_max: u32,
    /// Bumped when a window fills, when the slide starts and when it is lifted: a reader that
    /// copies the trace at each new serial sees whole windows.
    pub serial: u64,
}

impl Default for SlideTrace {
    fn default() -> Self {
        Self {
            points: [SlidePoint::default(); SLIDE_TRACE_POINTS],
            len: 0,
            law: FrictionLaw::rosin(),
            sample_rate_hz: 48_000.0,
            iterations_mean: 0.0,
            iterations_max: 0,
            serial: 0,
        }
    }
}

impl SlideTrace {
    /// Forget everything: a new slide with `law` at `sample_rate_hz`.
    pub fn begin(&mut self, law: FrictionLaw, sample_rate_hz: f64) {
        self.len = 0;
        self.law = law;
        self.sample_rate_hz = sample_rate_hz;
        self.iterations_mean = 0.0;
        self.iterations_max = 0;
        self.serial += 1;
    }

    /// Record one sample; a full window starts over.
    pub fn push(&mut self, point: SlidePoint) {
        if self.len == SLIDE_TRACE_POINTS {
            self.len = 0;
        }
        self.points[self.len] = point;
        self.len += 1;
        if self.len == SLIDE_TRACE_POINTS {
            self.serial += 1;
        }
    }

    /// The bristle's iteration counts so far (mean, largest); shown with the next window.
    pub fn count(&mut self, iterations_mean: f64, iterations_max: u32) {
        self.iterations_mean = iterations_mean;
        self.iterations_max = iterations_max;
    }

    /// The slider is lifted: show what there is of the window.
    pub fn lift(&mut self) {
        self.serial += 1;
    }

    pub fn points(&self) -> &[SlidePoint] {
        &self.points[..self.len]
    }

    /// The stick–slip frequency over the window, Hz: the slips that begin (a sticking sample
    /// followed by a slipping one) counted between the first and the last, over the time between
    /// them. NaN with fewer than two.
    pub fn stick_slip_hz(&self) -> f64 {
        let points = self.points();
        let mut onsets = points
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0].sticking && !w[1].sticking)
            .map(|(i, _)| i);
        let Some(first) = onsets.next() else {
            return f64::NAN;
        };
        let (count, last) = onsets.fold((0usize, first), |(n, _), i| (n + 1, i));
        if count == 0 {
            return f64::NAN;
        }
        count as f64 * self.sample_rate_hz / (last - first) as f64
    }

    /// The share of the window's samples in which the bristle stuck, 0…1 (NaN when empty).
    pub fn sticking_share(&self) -> f64 {
        let points = self.points();
        points.iter().filter(|p| p.sticking).count() as f64 / points.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stick for 30 samples and slip for 10, over and over: the window shows 40-sample cycles,
    /// a stick 3/4 of the time, and a full window is announced once.
    #[test]
    fn a_window_shows_its_stick_slip_cycles() {
        let mut trace = SlideTrace::default();
        trace.begin(FrictionLaw::rosin(), 48_000.0);
        let started = trace.serial;
        for i in 0..SLIDE_TRACE_POINTS + 100 {
            trace.push(SlidePoint {
                sticking: i % 40 < 30,
                ..SlidePoint::default()
            });
            if i == SLIDE_TRACE_POINTS - 1 {
                assert_eq!(trace.serial, started + 1);
                assert!((trace.stick_slip_hz() - 48_000.0 / 40.0).abs() < 1e-9);
                let share = trace.sticking_share();
                assert!((share - 0.75).abs() < 0.01, "{share}");
            }
        }
        assert_eq!(trace.points().len(), 100);
        assert_eq!(trace.serial, started + 1);
    }
}
