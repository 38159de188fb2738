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

/// The slide of the note last started: two windows, the one being filled and the one shown
/// (the last filled, or what was filled when the slider lifted), so a reader sees whole windows
/// whenever it reads, whatever the blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideTrace {
    windows: [[SlidePoint; SLIDE_TRACE_POINTS]; 2],
    /// The window being filled (the other is shown), and the samples in each.
    filling: usize,
    len: [usize; 2],
    /// The slider's friction law (for its steady curve).
    pub law: FrictionLaw,
    /// The rate the points are at, Hz.
    pub sample_rate_hz: f64,
    /// The bristle's Newton iterations a step, mean and largest, since the slide began.
    pub iterations_mean: f64,
    pub iterations_max: u32,
    /// Bumped when the window shown changes (a window filled, the slide started or lifted).
    pub serial: u64,
}

impl Default for SlideTrace {
    fn default() -> Self {
        Self {
            windows: [[SlidePoint::default(); SLIDE_TRACE_POINTS]; 2],
            filling: 0,
            len: [0; 2],
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
        self.len = [0; 2];
        self.law = law;
        self.sample_rate_hz = sample_rate_hz;
        self.iterations_mean = 0.0;
        self.iterations_max = 0;
        self.serial += 1;
    }

    /// Record one sample; a full window is shown and the other filled afresh.
    pub fn push(&mut self, point: SlidePoint) {
        let window = self.filling;
        self.windows[window][self.len[window]] = point;
        self.len[window] += 1;
        if self.len[window] == SLIDE_TRACE_POINTS {
            self.show_filling();
        }
    }

    /// The bristle's iteration counts so far (mean, largest), shown with the window.
    pub fn count(&mut self, iterations_mean: f64, iterations_max: u32) {
        self.iterations_mean = iterations_mean;
        self.iterations_max = iterations_max;
    }

    /// The slider is lifted: show what there is of the window being filled.
    pub fn lift(&mut self) {
        self.show_filling();
    }

    /// Show the window being filled and fill the other from its start.
    fn show_filling(&mut self) {
        self.filling = 1 - self.filling;
        self.len[self.filling] = 0;
        self.serial += 1;
    }

    /// The window shown, oldest first.
    pub fn points(&self) -> &[SlidePoint] {
        let shown = 1 - self.filling;
        &self.windows[shown][..self.len[shown]]
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

    /// Stick for 30 samples and slip for 10, over and over: once a window has filled, it is
    /// shown whole while the next fills (40-sample cycles, a stick 3/4 of the time), announced
    /// once; a lift shows the part filled since.
    #[test]
    fn a_window_shows_its_stick_slip_cycles() {
        let mut trace = SlideTrace::default();
        trace.begin(FrictionLaw::rosin(), 48_000.0);
        let started = trace.serial;
        assert!(trace.points().is_empty());
        for i in 0..SLIDE_TRACE_POINTS + 100 {
            trace.push(SlidePoint {
                sticking: i % 40 < 30,
                ..SlidePoint::default()
            });
        }
        assert_eq!(trace.serial, started + 1);
        assert_eq!(trace.points().len(), SLIDE_TRACE_POINTS);
        assert!((trace.stick_slip_hz() - 48_000.0 / 40.0).abs() < 1e-9);
        let share = trace.sticking_share();
        assert!((share - 0.75).abs() < 0.01, "{share}");
        trace.lift();
        assert_eq!(trace.serial, started + 2);
        assert_eq!(trace.points().len(), 100);
    }
}
