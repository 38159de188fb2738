//! PLUS (Uchida, Sherman & Delp 2015): simultaneous frictional impacts at several contacts of rigid bodies, by compression and expansion rounds of linear intervals.
//!
//! The impact is tracked on the accumulated impulse (time does not advance, the configuration is
//! fixed). Each *round* classifies every contact as compressing, expanding or observing; each
//! round is a sequence of *intervals* (Algorithm 1) whose impulse solves the least-squares problem
//! of Table 1, truncated where a sliding contact would turn by more than θ_max (2.14) or comes
//! to roll (2.13). Algorithm 2 chains the rounds with Poisson restitution and the
//! velocity-dependent coefficient of Figure 2.

mod directions;
pub mod examples;
mod interval;
mod linalg;
impl Outcome {
    /// The outcome of `contact_count` contacts before any interval.
    fn empty(contact_count: usize) -> Self {
        Outcome {
            contact_count,
            impulses_n_s: [DVec3::ZERO; MAX_CONTACTS],
            compression_impulse_n_s: [0.0; MAX_CONTACTS],
            compression_intervals: 0,
            expansion_intervals: 0,
            rounds: 0,
            phases: [[Phase::Observing; MAX_CONTACTS]; RECORDED_ROUNDS],
            rolling_from: [RollingFrom::Never; MAX_CONTACTS],
            max_cone_excess_n_s: f64::NEG_INFINITY,
            energy_capped: false,
        }
    }
}

/// The step α ≤ `alpha` whose work ½·(π·Aπ)·α² + (v·π)·α reaches `room` (J): the positive root,
/// in the form that does not cancel for v·π ≥ 0.
fn energy_cap_step(pv: f64, pap: f64, alpha: f64, room_j: f64) -> f64 {
    let room = room_j.max(0.0);
    let disc = (pv * pv + 2.0 * pap * room).max(0.0).sqrt();
    if pv >= 0.0 {
        if pv + disc > 0.0 {
            2.0 * room / (pv + disc)
        } else {
            0.0
        }
    } else if pap > 0.0 {
        (disc - pv) / pap
    } else {
        alpha
    }
}

#[cfg(test)]
mod tests;

use glam::{DMat3, DVec3};

use super::RigidBody;
use interval::Friction;
use linalg::{Matrix, SolveWorkspace, MAX_ROWS};

/// Most contacts one impact handles: eight corners of a box on a floor.
pub const MAX_CONTACTS: usize = 8;
/// Most bodies one impact handles (Newton's cradle has five).
pub const MAX_BODIES: usize = 8;
/// Rounds whose phases [`Outcome::phases`] records.
pub const RECORDED_ROUNDS: usize = 16;

/// One proximal contact: `body` touches `other` (None: the static ground) at `point_m`.
///
/// `normal` points from `other` into `body`; a negative normal velocity of `body` relative to
/// `other` at the point is an approach. Impulses are reported as acting on `body`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub body: usize,
    pub other: Option<usize>,
    /// Contact point, world frame.
    pub point_m: DVec3,
    /// Unit normal, world frame.
    pub normal: DVec3,
    /// Coulomb friction coefficient (0: frictionless).
    pub mu: f64,
}

/// The velocity-dependent coefficient of restitution of PLUS Figure 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Restitution {
    /// e reached at and above the plastic velocity.
    pub e_min: f64,
    /// Below this approach speed the contact is captured: e = 0.
    pub v_capture_m_per_s: f64,
    /// Approach speed from which plastic deformation holds e at `e_min`.
    pub v_plastic_m_per_s: f64,
}

impl Restitution {
    /// e(−v_z) of Figure 2: 0 below v_capture, falling linearly from 1 at v_capture to e_min at
    /// v_plastic, e_min above (Simbody's reading of the figure, which prints no formula).
    pub fn coefficient(&self, approach_m_per_s: f64) -> f64 {
        if approach_m_per_s < self.v_capture_m_per_s {
            0.0
        } else if approach_m_per_s >= self.v_plastic_m_per_s {
            self.e_min
        } else {
            let span = self.v_plastic_m_per_s - self.v_capture_m_per_s;
            1.0 - (1.0 - self.e_min) * (approach_m_per_s - self.v_capture_m_per_s) / span
        }
    }
}

/// PLUS's parameters (Table A1 names them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub restitution: Restitution,
    /// Tangential speed below which a contact may roll (Figures 3 and 4).
    pub v_transition_m_per_s: f64,
    /// Largest turn of a sliding direction within one interval (Figure 5).
    pub theta_max_rad: f64,
    /// Smallest interval step length α (§2e).
    pub alpha_min: f64,
    /// Normal speed within which a contact counts as not approaching.
    pub velocity_tolerance_m_per_s: f64,
    /// Intervals after which the impact is abandoned.
    pub max_intervals: usize,
    /// Rounds after which the impact is abandoned.
    pub max_rounds: usize,
}

impl Settings {
    /// Table A1's parameters with the given minimum coefficient of restitution. α_min is not
    /// printed; 10⁻³ keeps a sliding direction's turn per interval within θ_max whenever the
    /// turn rate is below 1000 θ_max per interval's impulse.
    pub fn paper(e_min: f64) -> Self {
        Self {
            restitution: Restitution {
                e_min,
                v_capture_m_per_s: 0.01,
                v_plastic_m_per_s: 0.1,
            },
            v_transition_m_per_s: 0.1,
            theta_max_rad: 0.01,
            alpha_min: 1e-3,
            velocity_tolerance_m_per_s: 1e-10,
            max_intervals: 100_000,
            max_rounds: 1000,
        }
    }

    /// Settings for the audio thread: Table A1's restitution, a coarser θ_max (0.15: Figure 10's
    /// 11 intervals for the corner brick instead of 116) and a bound on the work of one impact
    /// (2 000 intervals, 50 rounds; past it [`PlusError::DidNotFinish`]).
    pub fn real_time(e_min: f64) -> Self {
        Self {
            theta_max_rad: 0.15,
            max_intervals: 2000,
            max_rounds: 50,
            ..Self::paper(e_min)
        }
    }
}

/// What a contact does during one round (Table 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Observing,
    Compressing,
    Expanding,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Observing => "observing",
            Phase::Compressing => "compressing",
            Phase::Expanding => "expanding",
        }
    }
}

/// The phase in which a contact first came to roll (Table A1's three behaviours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollingFrom {
    Never,
    Compression,
    Expansion,
}

impl RollingFrom {
    pub fn name(self) -> &'static str {
        match self {
            RollingFrom::Never => "never",
            RollingFrom::Compression => "compression",
            RollingFrom::Expansion => "expansion",
        }
    }
}

/// The result of one impact.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub contact_count: usize,
    /// Total impulse on each contact's `body`, world frame (its `other` receives the opposite).
    pub impulses_n_s: [DVec3; MAX_CONTACTS],
    /// Normal impulse each contact delivered while compressing.
    pub compression_impulse_n_s: [f64; MAX_CONTACTS],
    /// Intervals in which some contact compressed, and the rest.
    pub compression_intervals: usize,
    pub expansion_intervals: usize,
    pub rounds: usize,
    /// Each contact's phase in each of the first [`RECORDED_ROUNDS`] rounds.
    pub phases: [[Phase; MAX_CONTACTS]; RECORDED_ROUNDS],
    pub rolling_from: [RollingFrom; MAX_CONTACTS],
    /// Largest excess ‖π_xy‖ − μ π_z of any contact's impulse in any interval (≤ round-off).
    pub max_cone_excess_n_s: f64,
    /// The restitution was cut short where the kinetic energy regained its pre-impact value.
    pub energy_capped: bool,
}

/// Why an impact could not be resolved; the bodies are left untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlusError {
    /// More than [`MAX_CONTACTS`] contacts or [`MAX_BODIES`] bodies.
    TooMany,
    /// A body index out of range, or a non-positive or non-finite mass or inertia.
    BadBody(usize),
    /// A contact with a bad body index, a non-unit normal, a negative μ or a non-finite value.
    BadContact(usize),
    BadSettings,
    /// `max_intervals` or `max_rounds` ran out.
    DidNotFinish,
}

impl std::fmt::Display for PlusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlusError::TooMany => {
                write!(
                    f,
                    "more than {MAX_CONTACTS} contacts or {MAX_BODIES} bodies"
                )
            }
            PlusError::BadBody(i) => write!(f, "body {i}: mass and inertia must be positive"),
            PlusError::BadContact(i) => {
                write!(
                    f,
                    "contact {i}: bad body index, normal or friction coefficient"
                )
            }
            PlusError::BadSettings => write!(f, "PLUS settings out of range"),
            PlusError::DidNotFinish => write!(f, "the impact did not finish within its limits"),
        }
    }
}

impl std::error::Error for PlusError {}

/// One row of the contact Jacobian G: the velocity of the contact along direction d is
/// Σ (lin · V_b + ang · ω_b) over the (up to two) bodies involved.
#[derive(Clone, Copy, Debug, Default)]
struct JacobianTerm {
    body: usize,
    lin: DVec3,
    ang: DVec3,
}

/// The PLUS impact solver with its fixed-size workspace: construct once, solve many impacts
/// without allocating.
#[derive(Clone, Debug)]
pub struct Plus {
    /// Number of contacts K; rows are 3K (x, y, normal per contact).
    contacts: usize,
    /// Columns t₁, t₂, n of each contact's frame, world coordinates.
    frames: [DMat3; MAX_CONTACTS],
    mu: [f64; MAX_CONTACTS],
    jacobian: [[JacobianTerm; 2]; MAX_ROWS],
    /// Delassus operator A = G M⁻¹ Gᵀ (2.2).
    a: Matrix,
    /// Contact velocities in the contact frames.
    v: [f64; MAX_ROWS],
    phase: [Phase; MAX_CONTACTS],
    friction: [Friction; MAX_CONTACTS],
    normal_active: [bool; MAX_CONTACTS],
    /// Resting contacts that take part in this round's compression (see `Plus::solve`).
    rests: [bool; MAX_CONTACTS],
    /// Normal impulse of a jammed contact's slide (0: not jammed), see `Plus::jammed`.
    advance: [f64; MAX_CONTACTS],
    /// Expansion impulse still to apply this round, and the one accumulated for the next.
    pi_expansion: [f64; MAX_CONTACTS],
    pi_accumulated: [f64; MAX_CONTACTS],
    restitution: [f64; MAX_CONTACTS],
    /// The square system of an active set's velocity rows (see `Plus::solve_linear`); only its
    /// first n rows and columns are written and read.
    system: Matrix,
    solve: SolveWorkspace,
}

impl Default for Plus {
    fn default() -> Self {
        Self::new()
    }
}

impl Plus {
    pub fn new() -> Self {
        Self {
            contacts: 0,
            frames: [DMat3::IDENTITY; MAX_CONTACTS],
            mu: [0.0; MAX_CONTACTS],
            jacobian: [[JacobianTerm::default(); 2]; MAX_ROWS],
            a: Matrix::zeros(0),
            v: [0.0; MAX_ROWS],
            phase: [Phase::Observing; MAX_CONTACTS],
            friction: [Friction::Frictionless; MAX_CONTACTS],
            normal_active: [false; MAX_CONTACTS],
            advance: [0.0; MAX_CONTACTS],
            rests: [false; MAX_CONTACTS],
            pi_expansion: [0.0; MAX_CONTACTS],
            pi_accumulated: [0.0; MAX_CONTACTS],
            restitution: [0.0; MAX_CONTACTS],
            system: Matrix::zeros(0),
            solve: SolveWorkspace::default(),
        }
    }

    /// Resolve one impact (Algorithm 2) and apply it to `bodies`' velocities.
    ///
    /// On error nothing is changed. Allocation-free.
    pub fn solve(
        &mut self,
        bodies: &mut [RigidBody],
        contacts: &[Contact],
        settings: &Settings,
    ) -> Result<Outcome, PlusError> {
        check(bodies, contacts, settings)?;
        self.assemble(bodies, contacts);
        let k_count = contacts.len();
        let rows = 3 * k_count;
        let mut total = [0.0; MAX_ROWS];
        let mut outcome = Outcome::empty(k_count);
        self.pi_accumulated = [0.0; MAX_CONTACTS];
        let energy_j: f64 = bodies.iter().map(RigidBody::kinetic_energy_j).sum();
        let energy_tolerance_j = 1e-12 * energy_j;
        // Work done on the bodies so far: their kinetic energy's change.
        let mut work_j = 0.0;
        let mut captured = [false; MAX_CONTACTS];
        let mut stalled = false;
        let mut restitution_dropped = false;
        let round_budget = 100 + (4.0 * std::f64::consts::PI / settings.theta_max_rad) as usize;
        loop {
            // Algorithm 2: the expansion impulses accumulated last round are applied this round.
            self.pi_expansion = self.pi_accumulated;
            self.pi_accumulated = [0.0; MAX_CONTACTS];
            if !self.begin_round(settings, k_count, &captured) {
                break;
            }
            if outcome.rounds >= settings.max_rounds {
                return Err(PlusError::DidNotFinish);
            }
            if let Some(record) = outcome.phases.get_mut(outcome.rounds) {
                record[..k_count].copy_from_slice(&self.phase[..k_count]);
            }
            outcome.rounds += 1;
            let mut round_intervals = 0usize;
            loop {
                if outcome.compression_intervals + outcome.expansion_intervals
                    >= settings.max_intervals
                {
                    return Err(PlusError::DidNotFinish);
                }
                // A round that has turned its sliding directions through two full turns in
                // θ_max steps and still goes on is cycling (a slide that neither stops nor
                // settles, kept alive by another contact's jam): it is treated as stalled.
                round_intervals += 1;
                stalled |= round_intervals > round_budget;
                let (pi, alpha, round_ends) = self.interval(settings, stalled);
                let compressing = (0..k_count).any(|k| {
                    self.phase[k] == Phase::Compressing
                        && (self.normal_active[k] || self.advance[k] > 0.0)
                });
                if compressing {
                    outcome.compression_intervals += 1;
                } else {
                    outcome.expansion_intervals += 1;
                }
                // Poisson's hypothesis can create energy in an eccentric frictional impact
                // (Stronge 1991, the paper's refs. 7 and 29); PLUS inherits it. The kinetic
                // energy's change is the work Σ (v + ½ A δπ) · δπ of the intervals; a step that
                // would lift it above the pre-impact energy is cut where it returns to it, and
                // the restitution still owed is dropped.
                let (mut alpha, mut round_ends) = (alpha, round_ends);
                let pv: f64 = (0..rows).map(|i| pi[i] * self.v[i]).sum();
                let pap: f64 = (0..rows).map(|i| pi[i] * self.a.mul_row(i, &pi)).sum();
                let step_work = alpha * pv + 0.5 * alpha * alpha * pap;
                if work_j + step_work > energy_tolerance_j {
                    let root = energy_cap_step(pv, pap, alpha, energy_tolerance_j - work_j);
                    alpha = root.clamp(0.0, alpha);
                    self.pi_expansion = [0.0; MAX_CONTACTS];
                    self.pi_accumulated = [0.0; MAX_CONTACTS];
                    restitution_dropped = true;
                    outcome.energy_capped = true;
                    round_ends = true;
                }
                work_j += alpha * pv + 0.5 * alpha * alpha * pap;
                let mut step = [0.0; MAX_ROWS];
                for (s, p) in step.iter_mut().zip(&pi).take(rows) {
                    *s = alpha * p;
                }
                self.book_step(
                    &step,
                    alpha,
                    restitution_dropped,
                    &mut captured,
                    &mut outcome,
                );
                let dv = self.a.mul_vec(&step);
                let mut moved = 0.0f64;
                for i in 0..rows {
                    self.v[i] += dv[i];
                    total[i] += step[i];
                    moved = moved.max(step[i].abs());
                }
                // Table 1's heuristic can leave an interval (or a round) with nothing to apply
                // while a contact still approaches (the paper: "the heuristic can fail to satisfy some velocity
                // conditions"), e.g. a rigid body's frictional jam, where no impulse in the
                // friction cones stops the approach. The next interval then drops friction at
                // the compressing contacts, which always has a pushing solution.
                let scale = total.iter().fold(0.0f64, |m, t| m.max(t.abs()));
                stalled = moved <= 1e-12 * scale;
                if round_ends {
                    break;
                }
            }
        }
        self.apply(bodies, contacts, &total, &mut outcome);
        Ok(outcome)
    }

    /// Classify each contact for a new round (Algorithm 2): expanding while it owes restitution,
    /// observing unless it approaches, compressing otherwise; a captured contact that rests takes
    /// part as a constraint. Whether anything is left to resolve.
    fn begin_round(&mut self, settings: &Settings, k_count: usize, captured: &[bool]) -> bool {
        let mut anything = false;
        self.rests = [false; MAX_CONTACTS];
        for k in 0..k_count {
            let approach = -self.v[3 * k + 2];
            self.phase[k] = if self.pi_expansion[k] > 0.0 {
                Phase::Expanding
            } else if approach <= settings.velocity_tolerance_m_per_s {
                Phase::Observing
            } else {
                Phase::Compressing
            };
            anything |= self.phase[k] != Phase::Observing;
            self.restitution[k] = settings.restitution.coefficient(approach);
        }
        if !anything {
            return false;
        }
        // A contact that was captured (compressed with e = 0) in an earlier round and now
        // rests (not separating faster than v_capture) takes part in this round's compression with
        // its complementarity condition, rather than observing: as a resting contact it is
        // a constraint. Without this, two resting contacts of a sliding body can take turns
        // being pressed in by each other's compression, round after round (a reading the
        // paper leaves open: it classifies every non-negative normal velocity as observing).
        for k in 0..k_count {
            if self.phase[k] == Phase::Observing
                && captured[k]
                && self.v[3 * k + 2] <= settings.restitution.v_capture_m_per_s
            {
                self.phase[k] = Phase::Compressing;
                self.rests[k] = true;
            }
        }
        true
    }

    /// Book an interval's `step` of impulse (its fraction `alpha` of the interval) per contact:
    /// the cones' largest excess, the expansion still owed, the compression impulse and the
    /// restitution it earns (unless dropped), captures, and when rolling began.
    fn book_step(
        &mut self,
        step: &[f64; MAX_ROWS],
        alpha: f64,
        restitution_dropped: bool,
        captured: &mut [bool; MAX_CONTACTS],
        outcome: &mut Outcome,
    ) {
        let k_count = outcome.contact_count;
        for k in 0..k_count {
            let (x, y, z) = (step[3 * k], step[3 * k + 1], step[3 * k + 2]);
            let excess = x.hypot(y) - self.mu[k] * z;
            outcome.max_cone_excess_n_s = outcome.max_cone_excess_n_s.max(excess);
            match self.phase[k] {
                Phase::Expanding => self.pi_expansion[k] *= 1.0 - alpha,
                Phase::Compressing => {
                    if !restitution_dropped {
                        self.pi_accumulated[k] += self.restitution[k] * z;
                    }
                    outcome.compression_impulse_n_s[k] += z;
                    captured[k] |= z > 0.0 && self.restitution[k] == 0.0;
                }
                Phase::Observing => {}
            }
            if self.friction[k] == Friction::Rolling
                && self.phase[k] != Phase::Observing
                && outcome.rolling_from[k] == RollingFrom::Never
            {
                outcome.rolling_from[k] = if self.phase[k] == Phase::Compressing {
                    RollingFrom::Compression
                } else {
                    RollingFrom::Expansion
                };
            }
        }
    }

    /// The impulses in world axes, applied to the bodies at their contact points.
    fn apply(
        &self,
        bodies: &mut [RigidBody],
        contacts: &[Contact],
        total: &[f64; MAX_ROWS],
        outcome: &mut Outcome,
    ) {
        let k_count = outcome.contact_count;
        for (k, impulse) in outcome.impulses_n_s.iter_mut().enumerate().take(k_count) {
            *impulse =
                self.frames[k] * DVec3::new(total[3 * k], total[3 * k + 1], total[3 * k + 2]);
        }
        for (k, c) in contacts.iter().enumerate() {
            let p = outcome.impulses_n_s[k];
            let body = &mut bodies[c.body];
            body.apply_impulse(c.point_m - body.position_m, p);
            if let Some(o) = c.other {
                let other = &mut bodies[o];
                other.apply_impulse(c.point_m - other.position_m, -p);
            }
        }
    }

    /// Contact frames, the Jacobian G, the Delassus operator A = G M⁻¹ Gᵀ (2.2) and the
    /// contact velocities v = G u.
    fn assemble(&mut self, bodies: &[RigidBody], contacts: &[Contact]) {
        let rows = 3 * contacts.len();
        self.contacts = contacts.len();
        for (k, c) in contacts.iter().enumerate() {
            let n = c.normal;
            let t1 = n.any_orthonormal_vector();
            self.frames[k] = DMat3::from_cols(t1, n.cross(t1), n);
            self.mu[k] = c.mu;
            for axis in 0..3 {
                let d = self.frames[k].col(axis);
                let term = |b: usize, sign: f64| {
                    let r = c.point_m - bodies[b].position_m;
                    JacobianTerm {
                        body: b,
                        lin: sign * d,
                        ang: sign * r.cross(d),
                    }
                };
                let mut row = [term(c.body, 1.0), JacobianTerm::default()];
                if let Some(o) = c.other {
                    row[1] = term(o, -1.0);
                }
                self.jacobian[3 * k + axis] = row;
            }
        }
        let mut inverse_inertia = [DMat3::ZERO; MAX_BODIES];
        for (w, b) in inverse_inertia.iter_mut().zip(bodies) {
            *w = b.inverse_inertia_world();
        }
        let used = |i: usize| {
            if contacts[i / 3].other.is_some() {
                2
            } else {
                1
            }
        };
        self.a = Matrix::zeros(rows);
        for i in 0..rows {
            for j in 0..rows {
                let mut sum = 0.0;
                for p in &self.jacobian[i][..used(i)] {
                    for q in self.jacobian[j][..used(j)]
                        .iter()
                        .filter(|q| q.body == p.body)
                    {
                        sum += p.lin.dot(q.lin) / bodies[p.body].mass_kg
                            + p.ang.dot(inverse_inertia[p.body] * q.ang);
                    }
                }
                self.a.a[i][j] = sum;
            }
            self.v[i] = self.jacobian[i][..used(i)]
                .iter()
                .map(|p| {
                    let b = &bodies[p.body];
                    p.lin.dot(b.velocity_m_per_s) + p.ang.dot(b.angular_velocity_rad_per_s)
                })
                .sum();
        }
    }
}

/// Reject inputs the solver cannot resolve, before anything changes.
fn check(bodies: &[RigidBody], contacts: &[Contact], s: &Settings) -> Result<(), PlusError> {
    if contacts.len() > MAX_CONTACTS || bodies.len() > MAX_BODIES {
        return Err(PlusError::TooMany);
    }
    for (i, b) in bodies.iter().enumerate() {
        let finite = b.velocity_m_per_s.is_finite()
            && b.angular_velocity_rad_per_s.is_finite()
            && b.position_m.is_finite()
            && b.orientation.is_normalized();
        if !(b.mass_kg > 0.0 && b.mass_kg.is_finite() && b.inertia_kg_m2.min_element() > 0.0)
            || !b.inertia_kg_m2.is_finite()
            || !finite
        {
            return Err(PlusError::BadBody(i));
        }
    }
    for (i, c) in contacts.iter().enumerate() {
        let bodies_ok =
            c.body < bodies.len() && c.other.is_none_or(|o| o < bodies.len() && o != c.body);
        let normal_ok = c.normal.is_finite() && (c.normal.length() - 1.0).abs() < 1e-9;
        if !bodies_ok || !normal_ok || !c.point_m.is_finite() || !(c.mu >= 0.0 && c.mu.is_finite())
        {
            return Err(PlusError::BadContact(i));
        }
    }
    let r = s.restitution;
    let ok = (0.0..=1.0).contains(&r.e_min)
        && r.v_capture_m_per_s >= 0.0
        && r.v_plastic_m_per_s > r.v_capture_m_per_s
        && s.v_transition_m_per_s > 0.0
        && s.theta_max_rad > 0.0
        && s.theta_max_rad < std::f64::consts::FRAC_PI_2
        && s.alpha_min > 0.0
        && s.alpha_min <= 1.0
        && s.velocity_tolerance_m_per_s >= 0.0;
    if ok {
        Ok(())
    } else {
        Err(PlusError::BadSettings)
    }
}
