//! A hand holding the striker: the fingers' loss on its modes where they hold it.

use super::{StrikerBody, StrikerKind, StrikerSpec};
use crate::resonator::{Mode, MAX_MODES};

/// How the striker is held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Grip {
    /// Nothing holds it (a ball, a striker on a string or a spring).
    #[default]
    Free,
    /// Pinched lightly between two fingertips.
    Loose,
    /// Held firmly: three fingers and the thumb pressed around it.
    Firm,
}

impl Grip {
    /// The resistance of the hand where it holds the striker, N·s/m. A fingertip pad is a damper
    /// of 1.5–3.7 N·s/m, more the harder it presses (Hajian & Howe, "Identification of the
    /// mechanical impedance at the human finger tip", J. Biomech. Eng. 119, 1997): a loose pinch
    /// between two fingertips is 2 × 1.5; a firm grip four pads at the top of the range.
    pub fn resistance_n_s_per_m(self) -> f64 {
        match self {
            Grip::Free => 0.0,
            Grip::Loose => 3.0,
            Grip::Firm => 15.0,
        }
    }
}

/// Where the fingers hold a rod or a mallet's stick: from this fraction of its length (from the
/// striking end) to the handle's end.
const HELD_FROM: f64 = 0.85;
/// The hand's resistance is spread evenly over this many points across the held span.
const HELD_POINTS: usize = 3;

impl StrikerSpec {
    /// Hold the striker with `grip`: fold into each of its `modes` (as [`StrikerSpec::body`]
    /// wrote them into `body`) the loss of a damper of the grip's resistance R spread over the
    /// held span, σᵢ += ⟨ψᵢ²⟩·R/(2M) (⟨ψᵢ²⟩ the mean square over the span of the mode's shape,
    /// normalised to the bank's modal mass M; the power R·⟨v²⟩ over twice the mode's energy),
    /// as a shorter T60, σ at most the mode's (damped) angular frequency ω: a damping ratio of
    /// 1/√2, past which it hardly rings as a mode. A rod and a mallet's stick are held at the end
    /// of the handle; a coin by its rim opposite the strike, where its modes' shapes are the
    /// strike point's, cos(m·π)·J_m(κ) = ±J_m(κ); a ball or a point mass is never held.
    pub fn hold(&self, grip: Grip, body: &StrikerBody, modes: &mut [Mode]) {
        let resistance_n_s_per_m = grip.resistance_n_s_per_m();
        if resistance_n_s_per_m == 0.0 {
            return;
        }
        let modes = &mut modes[..body.num_modes];
        let mut held = [0.0; MAX_MODES];
        match self.kind {
            StrikerKind::PointMass | StrikerKind::Ball => return,
            StrikerKind::Coin => {
                for (h, mode) in held.iter_mut().zip(modes.iter()) {
                    *h = mode.strike_shape * mode.strike_shape;
                }
            }
            StrikerKind::Rod => held_span(|at, out| self.rod_modes(at, out), modes, &mut held),
            StrikerKind::Mallet => {
                let stick = |at, out: &mut [Mode]| Self::stick_modes(body.modal_mass_kg, at, out);
                held_span(stick, modes, &mut held);
            }
        }
        for (mode, mean_square) in modes.iter_mut().zip(held) {
            let omega = std::f64::consts::TAU * mode.freq_hz;
            let added = mean_square * resistance_n_s_per_m / (2.0 * body.modal_mass_kg);
            let sigma = (1000f64.ln() / mode.t60_s + added).min(omega);
            mode.t60_s = 1000f64.ln() / sigma;
        }
    }
}

/// Add to `held` the mean square over the held span of the shapes of a bar's modes
/// (`modes_at(at, out)` writes them read at `at`), for each of `modes` that is one of them:
/// matched by frequency, which the same computation gives exactly.
fn held_span(modes_at: impl Fn(f64, &mut [Mode]) -> usize, modes: &[Mode], held: &mut [f64]) {
    let mut bar = [Mode::SILENT; MAX_MODES];
    for k in 0..HELD_POINTS {
        let at = HELD_FROM + (1.0 - HELD_FROM) * k as f64 / (HELD_POINTS - 1) as f64;
        let n = modes_at(at, &mut bar);
        for (h, mode) in held.iter_mut().zip(modes) {
            if let Some(point) = bar[..n].iter().find(|b| b.freq_hz == mode.freq_hz) {
                *h += point.strike_shape * point.strike_shape / HELD_POINTS as f64;
            }
        }
    }
}
