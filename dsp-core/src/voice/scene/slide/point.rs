//! Where on the object the slider touches: the strike point moving with the slider along the object's strike axis, the object's shapes interpolated there each sample.

use crate::resonator::{ModalBank, ObjectSpec, PointShapes, StrikeLine};

/// The object's shapes are evaluated at points this share of its length apart, from where the
/// note began (a 0.4 m bar: every 1.6 mm), and interpolated linearly between.
const POINT_STEP: f64 = 1.0 / 256.0;

/// The note's object and where on it the slider is.
pub(super) struct ContactPoint {
    /// The object's mode shapes along its strike line.
    line: StrikeLine,
    /// Where the note began (0…1).
    start: f64,
    /// Its length along the strike axis, m.
    size_m: f64,
    /// Whether the point moves: not for a slider drawn across an edge (a bow across a bar's
    /// end), nor for one that slides in place ([`crate::voice::Slide::in_place`]), nor round a
    /// rim (a glass's, a bell's), where a mode pair's pattern turns with the finger and its
    /// shape under the finger stays as it was.
    moves: bool,
    /// The position (0…1) whose shapes the object has now.
    at: f64,
    /// The interval of the evaluated points the position is in (index from the note's start
    /// point; None before the first move), its ends (0…1) and their shapes.
    cell: Option<i64>,
    ends: [f64; 2],
    shapes: [PointShapes; 2],
}

impl ContactPoint {
    pub fn new() -> Self {
        Self {
            line: StrikeLine::new(&ObjectSpec::marimba(440.0)),
            start: 0.0,
            size_m: 1.0,
            moves: false,
            at: 0.0,
            cell: None,
            ends: [0.0; 2],
            shapes: [PointShapes::ZERO, PointShapes::ZERO],
        }
    }

    /// A note on `spec` (the object the voice was loaded with) of length `size_m`, the point
    /// moving with the slider or not.
    pub fn start(&mut self, spec: &ObjectSpec, size_m: f64, moves: bool) {
        if moves {
            self.line = StrikeLine::new(spec);
        }
        self.start = spec.strike_position;
        self.size_m = size_m.max(1e-3);
        self.moves = moves;
        self.at = spec.strike_position;
        self.cell = None;
    }

    /// The slider has travelled `travelled_m` from where it started, pressing and rubbing with
    /// `loads_n` (normal and tangential, N): the object takes the shapes of the point now under
    /// it, interpolated between the evaluated points on either side, and the loads' deflection
    /// with them ([`ModalBank::set_point`]). Drawn past an end, the point turns back along the
    /// object ([`folded`]). Returns whether the point moved.
    pub fn follow(&mut self, travelled_m: f64, loads_n: [f64; 2], bank: &mut ModalBank) -> bool {
        if !self.moves {
            return false;
        }
        let at = folded(self.start + travelled_m / self.size_m);
        if at == self.at {
            return false;
        }
        self.at = at;
        let cell = ((at - self.start) / POINT_STEP).floor() as i64;
        if self.cell != Some(cell) {
            self.enter(cell, bank);
        }
        let [lo, hi] = self.ends;
        let s = if hi > lo { (at - lo) / (hi - lo) } else { 0.0 };
        bank.set_point(&self.shapes, s, loads_n);
        true
    }

    /// Evaluate the shapes at the ends of interval `cell` (one end is the last interval's when
    /// the point crossed into a neighbour).
    fn enter(&mut self, cell: i64, bank: &ModalBank) {
        let end = |k: i64| (self.start + k as f64 * POINT_STEP).clamp(0.0, 1.0);
        let ends = [end(cell), end(cell + 1)];
        match self.cell {
            Some(last) if last + 1 == cell => {
                self.shapes.swap(0, 1);
                self.evaluate(1, ends[1], bank);
            }
            Some(last) if last == cell + 1 => {
                self.shapes.swap(0, 1);
                self.evaluate(0, ends[0], bank);
            }
            _ => {
                self.evaluate(0, ends[0], bank);
                self.evaluate(1, ends[1], bank);
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

/// The point on the object (0…1) a slider reaches `along` lengths from the object's start,
/// folded at its ends: a slide drawn on and on goes back and forth over the object (a triangle
/// wave of the distance), as a slide held on one spot of a long board would sound the board's
/// modes from its every point in turn, instead of stopping at the end and sounding only that
/// (a supported plate's edge is still: a slide held there would fall silent).
fn folded(along: f64) -> f64 {
    let r = along.rem_euclid(2.0);
    if r > 1.0 {
        2.0 - r
    } else {
        r
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

    /// A slider drawn 10 cm along a 40 cm bar from 0.3 of its length: the object takes its
    /// shapes at 0.55, as a bank loaded there has them (the strike point's and the tangential
    /// compliance over a sample and over the sub-step), and nothing moves when the point is held.
    /// Drawn past an end, it comes back along the bar.
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
        point.start(&bar, 0.4, false);
        assert!(
            !point.follow(0.1, [0.0; 2], &mut bank),
            "a point held stays"
        );
        point.start(&bar, 0.4, true);
        assert!(point.follow(0.1, [0.0; 2], &mut bank));
        let expected = bank_at(&bar, 0.55);
        for slot in [Slot::Full, Slot::Sub] {
            let (got, want) = (bank.compliance(slot).0, expected.compliance(slot).0);
            assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
        }
        let (got, want) = (
            bank.tangent_compliance_m_per_n(),
            expected.tangent_compliance_m_per_n(),
        );
        assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
        let moved = expected.compliance(Slot::Full).0;
        assert!((bank_at(&bar, 0.3).compliance(Slot::Full).0 / moved - 1.0).abs() > 0.01);
        // Drawn 0.66 m, 1.65 lengths, the point passed the far end at 1 and came back to 0.05.
        assert!(point.follow(0.66, [0.0; 2], &mut bank));
        let (got, want) = (
            bank.compliance(Slot::Full).0,
            bank_at(&bar, 0.05).compliance(Slot::Full).0,
        );
        assert!((got / want - 1.0).abs() < 1e-12, "{got} against {want}");
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
        point.start(&bar, 0.4, true);
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
