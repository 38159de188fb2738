//! The modal bank's kernels: a mode's exact decay over a step, and the per-sample loops over lanes of modes (compiled twice, for AVX2 + FMA and for the baseline, chosen at run time).

use super::{
    BankSetup, Pickup, Pushed, ShapeView, Step, Surface, LANES, MAX_MODES, NEGLIGIBLE_STATE,
    NODE_SHAPE,
};

/// e^(−σ·dt)·(cos ω_d·dt, sin(ω_d·dt)/ω_d) of a mode with decay rate `sigma` and stiffness
/// `omega0_sq` = ω₀² over `dt_s`, with ω_d = √(ω₀² − σ²); past critical damping, where ω_d = i·β,
/// the same analytic functions: e^(−σ·dt)·(cosh β·dt, sinh(β·dt)/β), written with the two real
/// decay rates σ ∓ β so that neither overflows however heavy the damping (the slow rate as
/// ω₀²/(σ + β), which does not cancel), and as the series near critical damping.
pub(super) fn decay_pair(sigma: f64, omega0_sq: f64, dt_s: f64) -> (f64, f64) {
    let wd_sq = omega0_sq - sigma * sigma;
    if wd_sq > 0.0 {
        let wd = wd_sq.sqrt();
        let e = (-sigma * dt_s).exp();
        let (s, c) = (wd * dt_s).sin_cos();
        return (e * c, e * s / wd);
    }
    let beta = (-wd_sq).sqrt();
    let x = beta * dt_s;
    if x < 1e-3 {
        // cosh x = 1 + x²/2 + …, sinh(x)/β = dt·(1 + x²/6 + …): the next terms, x⁴/24 and
        // x⁴/120, are below 5e-14.
        let e = (-sigma * dt_s).exp();
        return (e * (1.0 + 0.5 * x * x), e * dt_s * (1.0 + x * x / 6.0));
    }
    let slow = (-omega0_sq / (sigma + beta) * dt_s).exp();
    let fast = (-(sigma + beta) * dt_s).exp();
    (0.5 * (slow + fast), (slow - fast) / (2.0 * beta))
}

/// A mode's exact transition over a step: Φ = [[a00, a01], [a10, a11]] and the zero-order-hold
/// input's factor `held` = 1 − a11 − 2σ·a01, which a force through gain φ/M enters with as
/// b0 = (φ/M)·held/ω₀², b1 = (φ/M)·a01 (see [`BankSetup`]'s transition).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ModeStep {
    pub a00: f64,
    pub a01: f64,
    pub a10: f64,
    pub a11: f64,
    pub held: f64,
}

impl ModeStep {
    /// The transition of a mode with decay rate `sigma` and stiffness `omega0_sq` over `dt_s`,
    /// from [`decay_pair`].
    #[inline]
    pub fn exact(sigma: f64, omega0_sq: f64, dt_s: f64) -> Self {
        let (ec, es) = decay_pair(sigma, omega0_sq, dt_s);
        let a11 = ec - sigma * es;
        Self {
            a00: ec + sigma * es,
            a01: es,
            a10: -omega0_sq * es,
            a11,
            held: 1.0 - a11 - 2.0 * sigma * es,
        }
    }
}

/// The first `groups` lane groups of a per-mode array, as fixed-size groups the compiler keeps
/// in vector registers without bounds checks.
#[inline(always)]
fn lane_groups(values: &[f64; MAX_MODES], groups: usize) -> &[[f64; LANES]] {
    &values.as_chunks::<LANES>().0[..groups]
}

#[inline(always)]
fn lane_groups_mut(values: &mut [f64; MAX_MODES], groups: usize) -> &mut [[f64; LANES]] {
    &mut values.as_chunks_mut::<LANES>().0[..groups]
}

/// The parts of step `t` that the shapes of `view` enter, from its Φ and unit inputs: the
/// forces' inputs Γ = φ·unit_b (eq. of [`BankSetup::transition`]), the strike point's
/// prediction φ·a00, φ·a01 and the sums over the modes (compliance Σ φ²·unit_b0, mobility
/// Σ φ²·unit_b1, and their tangential counterparts), with no division; compiled for AVX2 + FMA as
/// well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
pub(super) fn shape_inputs_lanes(view: &ShapeView<'_>, t: &mut Step) {
    let groups = padded(view.num_modes).min(MAX_MODES) / LANES;
    let (strike, tangent) = (
        lane_groups(view.strike, groups),
        lane_groups(view.tangent, groups),
    );
    let (pickup, side) = (
        lane_groups(view.pickup, groups),
        lane_groups(view.side, groups),
    );
    let Step {
        a00,
        a01,
        b0,
        b1,
        unit_b0,
        unit_b1,
        strike_a00,
        strike_a01,
        tangent_b0,
        tangent_b1,
        ..
    } = t;
    let (a00, a01) = (lane_groups(a00, groups), lane_groups(a01, groups));
    let (unit_b0, unit_b1) = (lane_groups(unit_b0, groups), lane_groups(unit_b1, groups));
    let (b0, b1) = (lane_groups_mut(b0, groups), lane_groups_mut(b1, groups));
    let (sa00, sa01) = (
        lane_groups_mut(strike_a00, groups),
        lane_groups_mut(strike_a01, groups),
    );
    let (tb0, tb1) = (
        lane_groups_mut(tangent_b0, groups),
        lane_groups_mut(tangent_b1, groups),
    );
    let mut compliance = [0.0; LANES];
    let mut mobility = [0.0; LANES];
    let mut tangent_compliance = [0.0; LANES];
    let mut tangent_mid = [0.0; LANES];
    let mut tangent_side = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let (phi, tau) = (strike[j][lane], tangent[j][lane]);
            let (u0, u1) = (unit_b0[j][lane], unit_b1[j][lane]);
            b0[j][lane] = phi * u0;
            b1[j][lane] = phi * u1;
            tb0[j][lane] = tau * u0;
            tb1[j][lane] = tau * u1;
            sa00[j][lane] = phi * a00[j][lane];
            sa01[j][lane] = phi * a01[j][lane];
            compliance[lane] += phi * b0[j][lane];
            mobility[lane] += phi * b1[j][lane];
            tangent_compliance[lane] += tau * tb0[j][lane];
            tangent_mid[lane] += pickup[j][lane] * tb1[j][lane];
            tangent_side[lane] += side[j][lane] * tb1[j][lane];
        }
    }
    t.compliance_m_per_n = compliance.iter().sum();
    t.mobility_m_per_s_per_n = mobility.iter().sum();
    t.tangent_compliance_m_per_n = tangent_compliance.iter().sum();
    t.tangent_pickup_per_n = Pickup {
        mid_pa: tangent_mid.iter().sum(),
        side_pa: tangent_side.iter().sum(),
    };
}

/// The free-ringing pass of [`ModalBank::ring`] over the first `n` modes (a multiple of [`LANES`]),
/// compiled for AVX2 + FMA as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
pub(super) fn ring_lanes(
    t: &Step,
    pickup: &[f64; MAX_MODES],
    side: &[f64; MAX_MODES],
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    n: usize,
) -> Pickup {
    let groups = n.min(MAX_MODES) / LANES;
    let (a00, a01) = (lane_groups(&t.a00, groups), lane_groups(&t.a01, groups));
    let (a10, a11) = (lane_groups(&t.a10, groups), lane_groups(&t.a11, groups));
    let (pickup, side) = (lane_groups(pickup, groups), lane_groups(side, groups));
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    let mut mid_sum = [0.0; LANES];
    let mut side_sum = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let (qi, pi) = (q[j][lane], p[j][lane]);
            q[j][lane] = a00[j][lane] * qi + a01[j][lane] * pi;
            let p_next = a10[j][lane] * qi + a11[j][lane] * pi;
            p[j][lane] = p_next;
            mid_sum[lane] += pickup[j][lane] * p_next;
            side_sum[lane] += side[j][lane] * p_next;
        }
    }
    Pickup {
        mid_pa: mid_sum.iter().sum(),
        side_pa: side_sum.iter().sum(),
    }
}

/// One sample's sums of what the pickups hear, lane by lane, before the lanes are added up:
/// mid, then side.
pub(super) type LaneSums = [[f64; LANES]; 2];

/// [`ring_lanes`] for `sums.len()` samples, adding what the pickups hear each sample, at `gain`,
/// into that sample's `sums`: one lane group at a time through every sample, its coefficients
/// and state held in registers, each sample's sums built lane by lane in the same order as
/// [`ring_lanes`] builds them (the same bits at a gain of 1). Compiled for AVX2 + FMA as well as
/// the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
#[allow(clippy::too_many_arguments)]
pub(super) fn ring_block_lanes(
    t: &Step,
    pickup: &[f64; MAX_MODES],
    side: &[f64; MAX_MODES],
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    n: usize,
    gain: f64,
    sums: &mut [LaneSums],
) {
    let groups = n.min(MAX_MODES) / LANES;
    let (a00, a01) = (lane_groups(&t.a00, groups), lane_groups(&t.a01, groups));
    let (a10, a11) = (lane_groups(&t.a10, groups), lane_groups(&t.a11, groups));
    let (pickup, side) = (lane_groups(pickup, groups), lane_groups(side, groups));
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    for j in 0..groups {
        let (c00, c01, c10, c11) = (a00[j], a01[j], a10[j], a11[j]);
        let (g, s) = (pickup[j].map(|w| w * gain), side[j].map(|w| w * gain));
        let (mut qj, mut pj) = (q[j], p[j]);
        for [mid_sum, side_sum] in sums.iter_mut() {
            for lane in 0..LANES {
                let (qi, pi) = (qj[lane], pj[lane]);
                qj[lane] = c00[lane] * qi + c01[lane] * pi;
                let p_next = c10[lane] * qi + c11[lane] * pi;
                pj[lane] = p_next;
                mid_sum[lane] += g[lane] * p_next;
                side_sum[lane] += s[lane] * p_next;
            }
        }
        (q[j], p[j]) = (qj, pj);
    }
}

/// One step of every mode under the held force `force_n` over the first `n` modes (a multiple
/// of [`LANES`]), reading the strike point, the pickup and the next force-free prediction in the
/// same pass; compiled for AVX2 + FMA as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
#[allow(clippy::too_many_arguments)]
pub(super) fn advance_lanes(
    t: &Step,
    strike: &[f64; MAX_MODES],
    pickup: &[f64; MAX_MODES],
    side: &[f64; MAX_MODES],
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    n: usize,
    force_n: f64,
) -> Surface {
    let groups = n.min(MAX_MODES) / LANES;
    let (a00, a01) = (lane_groups(&t.a00, groups), lane_groups(&t.a01, groups));
    let (a10, a11) = (lane_groups(&t.a10, groups), lane_groups(&t.a11, groups));
    let (b0, b1) = (lane_groups(&t.b0, groups), lane_groups(&t.b1, groups));
    let (sa00, sa01) = (
        lane_groups(&t.strike_a00, groups),
        lane_groups(&t.strike_a01, groups),
    );
    let (strike, pickup) = (lane_groups(strike, groups), lane_groups(pickup, groups));
    let side = lane_groups(side, groups);
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    let mut w = [0.0; LANES];
    let mut w_dot = [0.0; LANES];
    let mut out = [0.0; LANES];
    let mut out_side = [0.0; LANES];
    let mut w_next = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let (qi, pi) = (q[j][lane], p[j][lane]);
            let q_next = a00[j][lane] * qi + a01[j][lane] * pi + b0[j][lane] * force_n;
            let p_next = a10[j][lane] * qi + a11[j][lane] * pi + b1[j][lane] * force_n;
            q[j][lane] = q_next;
            p[j][lane] = p_next;
            w[lane] += strike[j][lane] * q_next;
            w_dot[lane] += strike[j][lane] * p_next;
            out[lane] += pickup[j][lane] * p_next;
            out_side[lane] += side[j][lane] * p_next;
            w_next[lane] += sa00[j][lane] * q_next + sa01[j][lane] * p_next;
        }
    }
    Surface {
        displacement_m: w.iter().sum(),
        velocity_m_per_s: w_dot.iter().sum(),
        pickup: Pickup {
            mid_pa: out.iter().sum(),
            side_pa: out_side.iter().sum(),
        },
        next_free_displacement_m: w_next.iter().sum(),
    }
}

/// A tangential force `force_n` held over the full sample just stepped, added by linearity
/// (qᵢ += tb0ᵢ·F, q̇ᵢ += tb1ᵢ·F), reading the strike point, the pickups, the tangential
/// displacement and the force-free prediction of a step of `next` in the same pass; compiled
/// for AVX2 + FMA as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2+fma"))]
pub(super) fn push_tangent_lanes(
    setup: &BankSetup,
    next: &Step,
    q: &mut [f64; MAX_MODES],
    p: &mut [f64; MAX_MODES],
    force_n: f64,
) -> Pushed {
    let held = &setup.full;
    let groups = padded(setup.num_modes).min(MAX_MODES) / LANES;
    let (tb0, tb1) = (
        lane_groups(&held.tangent_b0, groups),
        lane_groups(&held.tangent_b1, groups),
    );
    let (sa00, sa01) = (
        lane_groups(&next.strike_a00, groups),
        lane_groups(&next.strike_a01, groups),
    );
    let (strike, tangent) = (
        lane_groups(&setup.strike, groups),
        lane_groups(&setup.tangent, groups),
    );
    let (pickup, side) = (
        lane_groups(&setup.pickup, groups),
        lane_groups(&setup.side, groups),
    );
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    let mut w = [0.0; LANES];
    let mut w_dot = [0.0; LANES];
    let mut out = [0.0; LANES];
    let mut out_side = [0.0; LANES];
    let mut w_next = [0.0; LANES];
    let mut u = [0.0; LANES];
    for j in 0..groups {
        for lane in 0..LANES {
            let q_next = q[j][lane] + tb0[j][lane] * force_n;
            let p_next = p[j][lane] + tb1[j][lane] * force_n;
            q[j][lane] = q_next;
            p[j][lane] = p_next;
            w[lane] += strike[j][lane] * q_next;
            w_dot[lane] += strike[j][lane] * p_next;
            out[lane] += pickup[j][lane] * p_next;
            out_side[lane] += side[j][lane] * p_next;
            w_next[lane] += sa00[j][lane] * q_next + sa01[j][lane] * p_next;
            u[lane] += tangent[j][lane] * q_next;
        }
    }
    let per_n = held.tangent_pickup_per_n;
    Pushed {
        surface: Surface {
            displacement_m: w.iter().sum(),
            velocity_m_per_s: w_dot.iter().sum(),
            pickup: Pickup {
                mid_pa: out.iter().sum(),
                side_pa: out_side.iter().sum(),
            },
            next_free_displacement_m: w_next.iter().sum(),
        },
        added: Pickup {
            mid_pa: per_n.mid_pa * force_n,
            side_pa: per_n.side_pa * force_n,
        },
        tangent_m: u.iter().sum(),
    }
}

/// Set every mode of the first `n` (a multiple of [`LANES`]) whose displacement and velocity
/// are both below [`NEGLIGIBLE_STATE`] to exactly zero, without a branch (zero stays zero); compiled
/// for AVX2 as well as the baseline and chosen once at run time.
#[multiversion::multiversion(targets("x86_64+avx2"))]
pub(super) fn flush_lanes(q: &mut [f64; MAX_MODES], p: &mut [f64; MAX_MODES], n: usize) {
    let groups = n.min(MAX_MODES) / LANES;
    let (q, p) = (lane_groups_mut(q, groups), lane_groups_mut(p, groups));
    for j in 0..groups {
        for lane in 0..LANES {
            // Written as "negligible", not "not heard": a NaN state is neither and stays NaN,
            // for the voice's check of its state to find.
            let negligible =
                q[j][lane].abs() < NEGLIGIBLE_STATE && p[j][lane].abs() < NEGLIGIBLE_STATE;
            q[j][lane] = if negligible { 0.0 } else { q[j][lane] };
            p[j][lane] = if negligible { 0.0 } else { p[j][lane] };
        }
    }
}

/// `n` rounded up to whole groups of [`LANES`].
#[inline]
pub(super) fn padded(n: usize) -> usize {
    n.div_ceil(LANES) * LANES
}

/// Σ aᵢ·bᵢ over the first `n` entries (rounded up to whole lane groups; padding is zero).
#[inline]
pub(super) fn dot(a: &[f64; MAX_MODES], b: &[f64; MAX_MODES], n: usize) -> f64 {
    let mut sum = [0.0; LANES];
    for base in (0..padded(n)).step_by(LANES) {
        for lane in 0..LANES {
            sum[lane] += a[base + lane] * b[base + lane];
        }
    }
    sum.iter().sum()
}

/// `shape`, or exactly 0 on a node (|shape| < [`NODE_SHAPE`]).
pub(super) fn snap_node(shape: f64) -> f64 {
    if shape.abs() < NODE_SHAPE {
        0.0
    } else {
        shape
    }
}
