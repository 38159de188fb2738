//! Where on the object the slider touches: the strike point moving with the slider along the object's strike axis, the object's shapes interpolated there each sample.

use crate::resonator::{ModalBank, ObjectSpec, PointShapes, StrikeLine};

/// The object's shapes are evaluated at points this share of its length apart, from where the
/// note began (a 0.4 m bar: every 1.6 mm), and interpolated linearly between; wider where the
/// slider is fast enough to cross [`CELL_SAMPLES`] of them a sample.
const POINT_STEP: f64 = 1.0 / 256.0;

/// The fewest samples the slider takes to cross an interval at its full speed: a new point's
/// shapes cost a shape function per mode (a bar's, two exponentials and a sine), which a
/// slider crossing several intervals a sample would pay several times a sample.
const CELL_SAMPLES: f64 = 4.0;

/// The point turns back this share of the length before an end (or at the note's start point,
/// if that is nearer the end): a supported plate's or a string's end is still, and a slide that
/// turned there would fall silent each time it passed.
const END_MARGIN: f64 = 0.1;

/// A move of the point smaller than this share of the length is not made (a slider coming to
/// rest creeps by less and less).
const LEAST_MOVE: f64 = 1e-9;

/// The note's object and where on it the slider is.
pub(super) struct ContactPoint {
    /// The object's mode shapes along its strike line.
    line: StrikeLine,
    /// Where the note began (0…1), and the shapes there.
    start: f64,
    origin: PointShapes,
    /// Its length along the strike axis, m.
    size_m: f64,
    /// The interval between evaluated points, a share of the length.
    step: f64,
    /// The ends of the point's path (0…1), where it turns back.
    turns: [f64; 2],
    /// Whether the point moves: not for a slider drawn across an edge (a bow across a bar's
    /// end), nor for one that slides in place ([`crate::voice::Slide::in_place`]), nor round a
    /// rim (a glass's, a bell's), where a mode pair's pattern turns with the finger and its
    /// shape under the finger stays as it was.
    moves: bool,
    /// The position (0…1) whose shapes the object has now.
    at: f64,
    /// The interval of the evaluated points the position is in (index from the note's start
    /// point; None while the object has the start point's shapes), its ends (0…1) and their
    /// shapes.
    cell: Option<i64>,
    ends: [f64; 2],
    shapes: [PointShapes; 2],
}

impl ContactPoint {
    pub fn new() -> Self {
        Self {
            line: StrikeLine::new(&ObjectSpec::marimba(440.0)),
            start: 0.0,
            origin: PointShapes::ZERO,
            size_m: 1.0,
            step: POINT_STEP,
            turns: [0.0, 1.0],
            moves: false,
            at: 0.0,
            cell: None,
            ends: [0.0; 2],
            shapes: [PointShapes::ZERO, PointShapes::ZERO],
        }
    }

    /// A note on `spec`, whose modes `bank` was loaded with, of length `size_m`, the point moving
    /// with the slider or not; the slider is drawn at `fastest_m_per_s` at most, in steps of
    /// `dt_s`.
    pub fn start(
        &mut self,
        spec: &ObjectSpec,
        size_m: f64,
        moves: bool,
        fastest_m_per_s: f64,
        dt_s: f64,
        bank: &ModalBank,
    ) {
        self.start = spec.strike_position.clamp(0.0, 1.0);
        self.size_m = size_m.max(1e-3);
        self.step = POINT_STEP.max(CELL_SAMPLES * fastest_m_per_s.abs() * dt_s / self.size_m);
        let margin = END_MARGIN.min(self.start).min(1.0 - self.start);
        self.turns = [margin, 1.0 - margin];
        self.moves = moves;
        self.at = self.start;
        self.cell = None;
        if moves {
            self.line = StrikeLine::new(spec);
            let (line, start) = (&self.line, self.start);
            bank.point_shapes(|i| line.shapes_at(i, start), &mut self.origin);
        }
    }

    /// The slider has travelled `travelled_m` from where it started, pressing and rubbing with
    /// `loads_n` (normal and tangential, N): the object takes the shapes of the point now under
    /// it, interpolated between the evaluated points on either side, and the loads' deflection
    /// with them ([`ModalBank::set_point`]). Drawn past the path's end, the point turns back
    /// ([`ContactPoint::folded`]). Returns whether the point moved.
    pub fn follow(&mut self, travelled_m: f64, loads_n: [f64; 2], bank: &mut ModalBank) -> bool {
        if !self.moves {
            return false;
        }
        let at = self.folded(self.start + travelled_m / self.size_m);
        if !((at - self.at).abs() >= LEAST_MOVE) {
            return false;
        }
        self.at = at;
        let cell = ((at - self.start) / self.step).floor() as i64;
        if self.cell != Some(cell) {
            self.enter(cell, bank);
        }
        let [lo, hi] = self.ends;
        let s = if hi > lo { (at - lo) / (hi - lo) } else { 0.0 };
        bank.set_point(&self.shapes, s, loads_n);
        true
    }

    /// The slider is lifted (`bank` bears no load of it): the object takes its start point's
    /// shapes again, for the key's next note.
    pub fn lift(&mut self, bank: &mut ModalBank) {
        if self.cell.take().is_some() {
            self.shapes[0].clone_from(&self.origin);
            self.shapes[1].clone_from(&self.origin);
            bank.set_point(&self.shapes, 0.0, [0.0; 2]);
        }
        self.at = self.start;
    }

    /// The position on the path (0…1) `along` lengths from the object's start: a triangle wave
    /// between the path's ends. A slide drawn on and on goes back and forth over the object, as
    /// a slide along a long board would sound its modes from every point in turn.
    fn folded(&self, along: f64) -> f64 {
        let [lo, hi] = self.turns;
        let width = hi - lo;
        if width <= 0.0 {
            return lo;
        }
        let r = ((along - lo) / width).rem_euclid(2.0);
        lo + width * if r > 1.0 { 2.0 - r } else { r }
    }

    /// Evaluate the shapes at the ends of interval `cell`: one end when the point crossed into
    /// a neighbour (or left the start point, whose shapes are known); when it jumped further
    /// (a slider sped up past the step it started with), only the end nearer, the interval
    /// holding those shapes until the point crosses into a neighbour.
    fn enter(&mut self, cell: i64, bank: &ModalBank) {
        let end = |k: i64| (self.start + k as f64 * self.step).clamp(0.0, 1.0);
        let ends = [end(cell), end(cell + 1)];
        let last = match (self.cell, cell) {
            (Some(last), _) => last,
            (None, 0) => {
                self.shapes[1].clone_from(&self.origin);
                -1
            }
            (None, -1) => {
                self.shapes[0].clone_from(&self.origin);
                0
            }
            (None, _) => i64::MIN,
        };
        if last.checked_add(1) == Some(cell) {
            self.shapes.swap(0, 1);
            self.evaluate(1, ends[1], bank);
        } else if last.checked_sub(1) == Some(cell) {
            self.shapes.swap(0, 1);
            self.evaluate(0, ends[0], bank);
        } else {
            let near = usize::from(self.at - ends[0] > ends[1] - self.at);
            self.evaluate(near, ends[near], bank);
            let [a, b] = &mut self.shapes;
            if near == 0 {
                b.clone_from(a);
            } else {
                a.clone_from(b);
            }
        }
        self.cell = Some(cell);
        self.ends = ends;
    }

    /// The object's shapes at position `at` (0…1) into end `which`.
    fn evaluate(&mut self, which: usize, at: f64, bank: &ModalBank) {
        let line = &self.line;
        bank.point_shapes(|i| line.shapes_at(i, at), &mut self.shapes[which]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resonator::{object_modes, Mode, ObjectKind, Slot, MAX_MODES};

    const FS: f64 = 48_000.0;

    /// A bank of `spec`'s modes struck at `at`, with its sub-step prepared.
    fn bank_at(spec: &ObjectSpec, at: f64) -> Box<ModalBank> {
        let mut modes = [Mode::SILENT; MAX_MODES];
        let spec = ObjectSpec {
            strike_position: at,
            ..*spec
        };
        let count = object_modes(&spec, 0.4, &mut modes);
        let mut bank = ModalBank::new(0.1);
        bank.set_modes(&modes[..count], FS);
        bank.prepare(Slot::Sub, 0.5 / FS);
        bank
    }

    /// The bank's shapes match `expected`'s: the strike point's compliance and mobility over a
    /// sample and over the sub-step, and the tangential compliance.
    fn assert_shapes_as(bank: &ModalBank, expected: &ModalBank) {
        for slot in [Slot::Full, Slot::Sub] {
            let (got, want) = (bank.compliance(slot), expected.compliance(slot));
            for (got, want) in [(got.0, want.0), (got.1, want.1)] {
                assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
            }
        }
        let (got, want) = (
            bank.tangent_compliance_m_per_n(),
            expected.tangent_compliance_m_per_n(),
        );
        assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
    }

    /// A slider drawn along a 40 cm bar from 0.3 of its length, a millimetre a sample: 10 cm on,
    /// the object has its shapes at 0.55, as a bank loaded there has them; 5 cm back, at 0.425;
    /// drawn on to 53 cm, past the path's far end at 0.9, it has come back to 0.175; lifted, it
    /// has its start point's shapes again. Held, nothing moves.
    #[test]
    fn the_object_takes_its_shapes_where_the_slider_is() {
        let bar = ObjectSpec {
            kind: ObjectKind::FreeBar,
            num_modes: 12,
            strike_position: 0.3,
            ..ObjectSpec::marimba(300.0)
        };
        let mut bank = bank_at(&bar, 0.3);
        let mut point = ContactPoint::new();
        point.start(&bar, 0.4, false, 1.0, 1.0 / FS, &bank);
        assert!(
            !point.follow(0.1, [0.0; 2], &mut bank),
            "a point held stays"
        );
        point.start(&bar, 0.4, true, 1.0, 1.0 / FS, &bank);
        for mm in (1..=100).chain((50..100).rev()) {
            assert!(point.follow(mm as f64 * 1e-3, [0.0; 2], &mut bank));
            match mm {
                100 => assert_shapes_as(&bank, &bank_at(&bar, 0.55)),
                50 => assert_shapes_as(&bank, &bank_at(&bar, 0.425)),
                _ => {}
            }
        }
        let (start, moved) = (bank_at(&bar, 0.3), bank_at(&bar, 0.55));
        let ratio = start.compliance(Slot::Full).0 / moved.compliance(Slot::Full).0;
        assert!((ratio - 1.0).abs() > 0.01, "the move matters");
        assert!(point.follow(0.53, [0.0; 2], &mut bank));
        assert_shapes_as(&bank, &bank_at(&bar, 0.175));
        point.lift(&mut bank);
        assert_shapes_as(&bank, &bank_at(&bar, 0.3));
    }

    /// A slider pressing with 2 N and rubbing with 0.5 N, drawn from 0.3 to 0.55 of a bar held
    /// in its loaded equilibrium: the bar is in the equilibrium of those loads at 0.55, as one
    /// loaded there is (its displacement under the point and the tangential one), no mode set
    /// ringing by the move.
    #[test]
    fn the_deflection_under_the_loads_moves_with_the_point() {
        let bar = ObjectSpec {
            kind: ObjectKind::FreeBar,
            num_modes: 12,
            strike_position: 0.3,
            ..ObjectSpec::marimba(300.0)
        };
        let loaded = |at: f64| {
            let mut bank = bank_at(&bar, at);
            bank.preload(2.0);
            bank.hold_static_tangent(-0.5);
            bank
        };
        let mut bank = loaded(0.3);
        let mut point = ContactPoint::new();
        point.start(&bar, 0.4, true, 1.0, 1.0 / FS, &bank);
        assert!(point.follow(0.1, [2.0, 0.5], &mut bank));
        let expected = loaded(0.55);
        let pairs = [
            (
                bank.strike_displacement_m(),
                expected.strike_displacement_m(),
            ),
            (
                bank.tangent_displacement_m(),
                expected.tangent_displacement_m(),
            ),
            (bank.energy_j(), expected.energy_j()),
        ];
        for (got, want) in pairs {
            assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
        }
        assert!((loaded(0.3).strike_displacement_m() / pairs[0].1 - 1.0).abs() > 0.01);
    }
}
