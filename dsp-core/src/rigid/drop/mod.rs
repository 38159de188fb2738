//! The macro scene of the drop mode (issue 16): one rigid body falling on the floor plane z = 0, flying exactly between contacts, its impacts resolved by Jia–Wang (one point) or PLUS (several).
//!
//! Time advances on a fixed grid (the caller's step, a fraction of a millisecond). Between
//! contacts the body flies (`RigidBody::fly`: the exact parabola, and a rotation that keeps the
//! angular momentum exactly and the energy up to a bounded O(h²) oscillation). A lowest point
//! that reaches the floor faster than the capture velocity is an impact, resolved at the moment
//! of touching (bisected on the exact flight): by Jia–Wang's exact solution when one point
//! touches, by PLUS when several do. Slower contacts — resting, sliding, rolling — are contact
//! steps at the velocity level, as in impulse-based simulation (Mirtich &
//! Canny, PLUS ref. 23): gravity's impulse first, then PLUS on the lowest points (a body on the
//! floor meets it in a stream of captured micro-impacts, and Coulomb friction emerges from
//! PLUS's sliding and rolling intervals), then the move. The body comes to rest when it has
//! stayed in contact with less kinetic energy than a fall through the capture velocity for a
//! while.

use std::cell::Cell;

use glam::{DQuat, DVec3};

use super::jia_wang::{self, Method, Problem};
use super::plus::{Contact, Plus, PlusError, Restitution, Settings};
use super::shape::{Shape, MAX_LOWEST_POINTS};
use super::{inverse_inertia_at, RigidBody};

/// Points closer to the floor than this count as touching it together (simultaneous contacts).
const PROXIMITY_M: f64 = 1e-6;
/// A bounce whose rebound would be slower than this many capture velocities is captured.
const REBOUND_CAPTURE: f64 = 1.5;
/// Restitution of a captured contact: none at any speed.
const CAPTURED: Restitution = Restitution {
    e_min: 0.0,
    v_capture_m_per_s: 1e9,
    v_plastic_m_per_s: 2e9,
};
/// Integration steps one Jia–Wang impact may take (the paper's examples take a few hundred);
/// past them PLUS resolves it: a bound on the audio thread's work.
const SINGLE_POINT_MAX_STEPS: usize = 5000;
/// Halvings of a step that find the moment of touching.
const TOUCH_BISECTIONS: usize = 20;
/// How close to the floor a quiet body's lowest point must stay to be at rest, m.
const REST_CLEARANCE_M: f64 = 1e-4;
/// How long a quiet body must stay quiet to be at rest.
const QUIET_TO_REST_S: f64 = 0.05;
/// A body stands still when its kinetic energy after a step is below this fraction of what one
/// step of gravity gives it (½m(g·dt)²: a contact step on a support takes all of that away).
const STILL: f64 = 1e-6;
/// The centre of mass is over a support when no half-plane through it, opened this much less
/// than π, misses all the support points, rad (a margin on the largest angle between them).
const SUPPORT_MARGIN_RAD: f64 = 1e-3;

/// Height of `body`'s lowest point above the floor.
fn clearance(body: &RigidBody, shape: &Shape) -> f64 {
    let (points, _) = shape.lowest_points(body.orientation, 0.0);
    body.position_m.z + points[0].z
}

/// What a contact step did at one point, for the micro scale to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactKind {
    /// Approach faster than the capture velocity: an impact.
    Impact,
    /// A captured contact sliding along the floor faster than the transition velocity.
    Slide,
    /// A captured contact whose body still turns: rolling on the floor.
    Roll,
    /// The body has come to rest (reported once, at the end).
    Rest,
}

impl ContactKind {
    pub fn name(self) -> &'static str {
        match self {
            ContactKind::Impact => "impact",
            ContactKind::Slide => "slide",
            ContactKind::Roll => "roll",
            ContactKind::Rest => "rest",
        }
    }
}

/// One contact of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactEvent {
    pub time_s: f64,
    /// The contact point on the floor, world frame.
    pub point_m: DVec3,
    /// Approach speed before the step's impulse.
    pub normal_speed_m_per_s: f64,
    /// Speed the point leaves the floor with after it (0 when it stays).
    pub rebound_speed_m_per_s: f64,
    /// How fast the contact travels over the floor: the slip speed of a sliding point, the
    /// body's horizontal speed when it rolls, m/s.
    pub track_speed_m_per_s: f64,
    pub normal_impulse_n_s: f64,
    pub kind: ContactKind,
}

/// How a body is let go: its shape and density, from where, how fast it is thrown and spun.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launch {
    pub shape: Shape,
    pub density_kg_per_m3: f64,
    /// Height of the body's lowest point above the floor, m.
    pub height_m: f64,
    /// Speed it is thrown down with, m/s.
    pub throw_m_per_s: f64,
    /// Largest spin about each axis, rad/s (each drawn uniformly within ±spin).
    pub spin_rad_per_s: f64,
    /// Largest horizontal drift along each floor axis, m/s.
    pub drift_m_per_s: f64,
    /// Friction coefficient between body and floor.
    pub mu: f64,
}

/// SplitMix64: a 64-bit seed spread into a well-mixed stream seed.
fn mix_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A step that left the body standing still: its length and its contacts.
#[derive(Clone, Copy, Debug)]
struct Standing {
    step_s: f64,
    events: [Option<ContactEvent>; MAX_LOWEST_POINTS],
}

/// One body dropped on the floor.
#[derive(Clone, Debug)]
pub struct DropScene {
    pub body: RigidBody,
    shape: Shape,
    /// The last clearance found and the pose it is for (orientation, height of the centre): a
    /// step, the rest rule and the editor's record all ask it of the same pose, and the answer
    /// costs the shape's lowest points.
    clearance_memo: Cell<(DQuat, f64, f64)>,
    /// Friction coefficient between body and floor.
    pub mu: f64,
    /// PLUS's parameters: restitution (Figure 2), transition velocity, θ_max.
    pub settings: Settings,
    pub gravity_m_per_s2: DVec3,
    /// Rolling resistance arm, m (a hard ball on wood: about 10⁻⁴ … 10⁻³).
    pub rolling_resistance_m: f64,
    pub time_s: f64,
    pub at_rest: bool,
    quiet_s: f64,
    /// Whether the last step left the body standing still ([`DropScene::stands_still`]).
    still: bool,
    /// The second step in a row that left the body standing still (the first may still have
    /// stopped what was left of its motion): every step of its length replays its contacts
    /// until the body rests. Nothing but `step` may move the body meanwhile.
    standing: Option<Standing>,
    plus: Plus,
}

impl DropScene {
    /// `body` placed above the floor (its lowest point at or above z = 0).
    pub fn new(body: RigidBody, shape: Shape, mu: f64, settings: Settings) -> Self {
        Self {
            body,
            shape,
            clearance_memo: Cell::new((DQuat::NAN, f64::NAN, f64::NAN)),
            mu,
            settings,
            gravity_m_per_s2: DVec3::new(0.0, 0.0, -9.81),
            rolling_resistance_m: 5e-4,
            time_s: 0.0,
            at_rest: false,
            quiet_s: 0.0,
            still: false,
            standing: None,
            plus: Plus::new(),
        }
    }

    /// `drop` with its orientation, spin and drift drawn from `seed` (the same seed, the same
    /// drop): orientation uniform over rotations, spin and drift uniform within their bounds.
    pub fn dropped(drop: &Launch, settings: Settings, seed: u64) -> Self {
        let shape = drop.shape;
        let mass_kg = shape.volume_m3() * drop.density_kg_per_m3.max(1.0);
        let mut body = RigidBody::at_rest(mass_kg, shape.inertia_kg_m2(mass_kg));
        let mut rng = fastrand::Rng::with_seed(mix_seed(seed));
        // Shoemake's uniform random rotation.
        let (u1, u2, u3) = (rng.f64(), rng.f64(), rng.f64());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let tau = std::f64::consts::TAU;
        body.orientation = DQuat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize();
        let mut unit = || 2.0 * rng.f64() - 1.0;
        let spin = drop.spin_rad_per_s.clamp(0.0, 1000.0);
        body.angular_velocity_rad_per_s = DVec3::new(unit(), unit(), unit()) * spin;
        let drift = drop.drift_m_per_s.clamp(0.0, 10.0);
        body.velocity_m_per_s = DVec3::new(
            unit() * drift,
            unit() * drift,
            -drop.throw_m_per_s.clamp(0.0, 100.0),
        );
        let mut scene = Self::new(body, shape, drop.mu.clamp(0.0, 2.0), settings);
        scene.body.position_m.z = drop.height_m.clamp(0.0, 10.0) - scene.clearance_m();
        scene
    }

    /// The body's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Height of the body's lowest point above the floor.
    pub fn clearance_m(&self) -> f64 {
        self.clearance_of(&self.body)
    }

    /// Height of `body`'s lowest point above the floor (this scene's shape in `body`'s pose),
    /// from the memo when it is for that pose.
    fn clearance_of(&self, body: &RigidBody) -> f64 {
        let (q, z) = (body.orientation, body.position_m.z);
        let (memo_q, memo_z, memo_m) = self.clearance_memo.get();
        if q == memo_q && z == memo_z {
            return memo_m;
        }
        let clearance_m = clearance(body, &self.shape);
        self.clearance_memo.set((q, z, clearance_m));
        clearance_m
    }

    /// Whether no point of `body` can be below the floor: its centre stands higher than the
    /// shape reaches (with 10⁻⁹ of it for the rounding of the lowest points).
    fn surely_clear(&self, body: &RigidBody) -> bool {
        body.position_m.z >= self.shape.reach_m() * (1.0 + 1e-9)
    }

    /// Mechanical energy: kinetic plus potential in gravity, relative to the floor.
    pub fn energy_j(&self) -> f64 {
        self.body.kinetic_energy_j()
            - self.body.mass_kg * self.gravity_m_per_s2.dot(self.body.position_m)
    }

    /// Advance by `dt_s`, reporting every contact of the step to `on_contact`. Allocation-free.
    ///
    /// An impact (a lowest point reaching the floor faster than the capture velocity) is
    /// resolved at the moment of touching, found by bisection on the exact flight, and the
    /// flight goes on for the rest of the step; slower contacts are contact steps. Once two
    /// contact steps in a row leave the body standing still over its support, the steps until
    /// it rests replay the second one's contacts: each would only cancel gravity's pull again.
    pub fn step(
        &mut self,
        dt_s: f64,
        on_contact: &mut impl FnMut(ContactEvent),
    ) -> Result<(), PlusError> {
        if self.at_rest {
            self.time_s += dt_s;
            return Ok(());
        }
        if let Some(standing) = self.standing.filter(|s| s.step_s == dt_s) {
            for event in standing.events.iter().flatten() {
                on_contact(ContactEvent {
                    time_s: self.time_s,
                    ..*event
                });
            }
            self.time_s += dt_s;
        } else {
            self.standing = None;
            let mut events = [None; MAX_LOWEST_POINTS];
            let (mut count, mut impact) = (0, false);
            self.advance(dt_s, &mut |event| {
                if let Some(slot) = events.get_mut(count) {
                    *slot = Some(event);
                }
                count += 1;
                impact |= event.kind == ContactKind::Impact;
                on_contact(event);
            })?;
            let replayable = !impact && (1..=MAX_LOWEST_POINTS).contains(&count);
            let was_still = self.still;
            self.still = replayable && self.stands_still(dt_s);
            if was_still && self.still {
                self.standing = Some(Standing {
                    step_s: dt_s,
                    events,
                });
            }
        }
        self.settle_if_quiet(dt_s, on_contact);
        Ok(())
    }

    /// [`DropScene::step`]'s mechanics: flight, impacts at the moments of touching, a contact
    /// step.
    fn advance(
        &mut self,
        dt_s: f64,
        on_contact: &mut impl FnMut(ContactEvent),
    ) -> Result<(), PlusError> {
        let mut left_s = dt_s;
        // A step holds at most a few impacts (several corners landing in turn).
        for _ in 0..MAX_LOWEST_POINTS {
            let mut flown = self.body;
            flown.fly(left_s, self.gravity_m_per_s2);
            if self.surely_clear(&flown) || self.clearance_of(&flown) >= 0.0 {
                self.body = flown;
                self.time_s += left_s;
                return Ok(());
            }
            if self.fastest_approach_bound_m_per_s(left_s)
                < self.settings.restitution.v_capture_m_per_s
            {
                // No point can reach the floor faster than the capture velocity in this step:
                // whenever it touches, the step is a contact step (what the bisection below
                // would find, without its twenty flights).
                break;
            }
            // Bisect the moment of touching within the step (to a millionth of it: 0.25 ns in a
            // 0.25 ms step).
            let (mut before, mut after) = (0.0, left_s);
            // The body flown to `before` (none yet for 0).
            let mut touching = None;
            for _ in 0..TOUCH_BISECTIONS {
                let mid = 0.5 * (before + after);
                let mut probe = self.body;
                probe.fly(mid, self.gravity_m_per_s2);
                if self.clearance_of(&probe) >= 0.0 {
                    (before, touching) = (mid, Some(probe));
                } else {
                    after = mid;
                }
            }
            let touching = touching.unwrap_or_else(|| {
                let mut touching = self.body;
                touching.fly(before, self.gravity_m_per_s2);
                touching
            });
            let (points, count) = self.shape.lowest_points(touching.orientation, PROXIMITY_M);
            let fastest = points[..count]
                .iter()
                .map(|p| -touching.velocity_at(*p).z)
                .fold(f64::NEG_INFINITY, f64::max);
            if fastest <= self.settings.restitution.v_capture_m_per_s {
                break;
            }
            self.body = touching;
            self.time_s += before;
            left_s -= before;
            self.resolve(0.0, on_contact)?;
        }
        self.contact_step(left_s, on_contact)
    }

    /// A bound on how fast any point of the body can approach the floor while it flies for
    /// `dt_s` from now, m/s: the centre's fall speed at the faster end of the step (gravity
    /// changes it linearly), plus the surface's reach times the fastest turn the flight allows.
    /// The flight keeps the body-frame momentum Π's length (it only rotates it), so
    /// |ω| = |I⁻¹Π| ≤ |Π| / I_min; a point r from the centre moves at most |ω|·|r| about it.
    /// A margin of 10⁻⁹ of the terms covers the flight's round-off.
    fn fastest_approach_bound_m_per_s(&self, dt_s: f64) -> f64 {
        let body = &self.body;
        let fall_start = -body.velocity_m_per_s.z;
        let fall_end = fall_start - self.gravity_m_per_s2.z * dt_s;
        let fall_m_per_s = fall_start.max(fall_end);
        let momentum = body.angular_momentum_world().length();
        let turn_m_per_s = momentum / body.inertia_kg_m2.min_element() * self.shape.reach_m();
        fall_m_per_s + turn_m_per_s + 1e-9 * (fall_m_per_s.abs() + turn_m_per_s)
    }

    /// Gravity's impulse over `dt_s` (0 for an impact at the moment of touching), then PLUS on
    /// the body's lowest points; every contact that takes an impulse is reported.
    fn resolve(
        &mut self,
        dt_s: f64,
        on_contact: &mut impl FnMut(ContactEvent),
    ) -> Result<f64, PlusError> {
        self.body.velocity_m_per_s += self.gravity_m_per_s2 * dt_s;
        let (points, count) = self.shape.lowest_points(self.body.orientation, PROXIMITY_M);
        let mut contacts = [Contact {
            body: 0,
            other: None,
            point_m: DVec3::ZERO,
            normal: DVec3::Z,
            mu: self.mu,
        }; MAX_LOWEST_POINTS];
        let mut approach = [0.0; MAX_LOWEST_POINTS];
        let mut slip = [0.0; MAX_LOWEST_POINTS];
        for k in 0..count {
            contacts[k].point_m = self.body.position_m + points[k];
            let v = self.body.velocity_at(points[k]);
            approach[k] = -v.z;
            slip[k] = v.truncate().length();
        }
        // Figure 2's e rises to 1 as the approach falls to v_capture, so exact bounces would
        // approach v_capture for ever (e(v)·v > v_capture for every v > v_capture). A bounce
        // whose rebound would be slower than REBOUND_CAPTURE × v_capture is captured instead.
        let fastest = approach[..count].iter().fold(0.0f64, |m, a| m.max(*a));
        let restitution = self.settings.restitution;
        let rebound = restitution.coefficient(fastest) * fastest;
        let settings = if rebound < REBOUND_CAPTURE * restitution.v_capture_m_per_s {
            Settings {
                restitution: CAPTURED,
                ..self.settings
            }
        } else {
            self.settings
        };
        let mut impulses = [DVec3::ZERO; MAX_LOWEST_POINTS];
        let single = count == 1 && dt_s == 0.0 && settings.restitution != CAPTURED;
        let solved = single && self.single_point(points[0], &settings, &mut impulses[0]);
        if !solved {
            let mut bodies = [self.body];
            let outcome = self
                .plus
                .solve(&mut bodies, &contacts[..count], &settings)?;
            self.body = bodies[0];
            impulses[..count].copy_from_slice(&outcome.impulses_n_s[..count]);
        }
        let capture = self.settings.restitution.v_capture_m_per_s;
        for k in 0..count {
            let impulse = impulses[k].z;
            if impulse <= 0.0 {
                continue;
            }
            let kind = if approach[k] > capture {
                ContactKind::Impact
            } else if slip[k] > self.settings.v_transition_m_per_s {
                ContactKind::Slide
            } else {
                ContactKind::Roll
            };
            let mut point_m = contacts[k].point_m;
            point_m.z = 0.0;
            let track_speed_m_per_s = match kind {
                ContactKind::Roll => self.body.velocity_m_per_s.truncate().length(),
                _ => slip[k],
            };
            on_contact(ContactEvent {
                time_s: self.time_s,
                point_m,
                normal_speed_m_per_s: approach[k],
                rebound_speed_m_per_s: self.body.velocity_at(points[k]).z.max(0.0),
                track_speed_m_per_s,
                normal_impulse_n_s: impulse,
                kind,
            });
        }
        Ok(impulses[..count].iter().map(|p| p.z).sum())
    }

    /// An impact at one point (`r_m` from the centre) resolved by Jia–Wang's exact solution
    /// (§6): friction with stick and slip along the hodograph, Stronge's restitution with the
    /// coefficient Figure 2 gives at the approach speed. Applies the impulse and leaves it (world
    /// frame) in `impulse`; false (nothing changed) if the solver refuses the problem or needs
    /// more than [`SINGLE_POINT_MAX_STEPS`], and PLUS takes the impact instead.
    fn single_point(&mut self, r_m: DVec3, settings: &Settings, impulse: &mut DVec3) -> bool {
        let (w, frame) = inverse_inertia_at(&self.body, r_m, None, DVec3::Z);
        let v_minus = frame.transpose() * self.body.velocity_at(r_m);
        let problem = Problem {
            w,
            v_minus,
            mu: self.mu,
            e: settings.restitution.coefficient(-v_minus.z),
        };
        match jia_wang::solve_within(&problem, Method::Exact, SINGLE_POINT_MAX_STEPS) {
            Ok(solution) if solution.impulse_n_s.is_finite() => {
                *impulse = frame * solution.impulse_n_s;
                self.body.apply_impulse(r_m, *impulse);
                true
            }
            _ => false,
        }
    }

    /// Rolling and pivoting resistance: the floor's reaction sits ahead of the contact by
    /// `rolling_resistance_m`, a couple of that arm times the normal impulse against the turn
    /// (never reversing it); the same arm stands for the pivoting friction of the contact patch
    /// against a spin about the vertical. Without it a ball, a pencil or a rolling coin would
    /// roll, and a ball spin in place, for ever on the ideal plane.
    fn resist_rolling(&mut self, normal_impulse_n_s: f64) {
        let w = self.body.angular_velocity_rad_per_s;
        let Some(axis) = w.try_normalize() else {
            return;
        };
        let inertia = axis.dot(self.body.inertia_world() * axis);
        let slowing = (self.rolling_resistance_m * normal_impulse_n_s / inertia).min(w.length());
        self.body.angular_velocity_rad_per_s -= axis * slowing;
    }

    /// A contact step at the velocity level: gravity's impulse, PLUS on the lowest points, move.
    fn contact_step(
        &mut self,
        dt_s: f64,
        on_contact: &mut impl FnMut(ContactEvent),
    ) -> Result<(), PlusError> {
        let normal_impulse_n_s = self.resolve(dt_s, on_contact)?;
        self.resist_rolling(normal_impulse_n_s);
        self.body.fly(dt_s, DVec3::ZERO);
        // Keep the body out of the floor (the velocity step leaves at most round-off and the
        // turn of a step inside it).
        let sink = self.clearance_m();
        if sink < 0.0 {
            self.body.position_m.z -= sink;
        }
        self.time_s += dt_s;
        Ok(())
    }

    /// The body rests once it has stayed on the floor (its lowest point within
    /// [`REST_CLEARANCE_M`]) with less kinetic energy than a fall through the capture velocity
    /// for [`QUIET_TO_REST_S`], whatever the steps did meanwhile (a coin flat on its face can
    /// otherwise rock in a cycle of captured micro-impacts that never ends).
    fn settle_if_quiet(&mut self, dt_s: f64, on_contact: &mut impl FnMut(ContactEvent)) {
        let capture = self.settings.restitution.v_capture_m_per_s;
        let fall_energy = 0.5 * self.body.mass_kg * capture * capture;
        if self.body.kinetic_energy_j() < fall_energy && self.clearance_m() <= REST_CLEARANCE_M {
            self.quiet_s += dt_s;
            if self.quiet_s >= QUIET_TO_REST_S {
                self.at_rest = true;
                self.body.velocity_m_per_s = DVec3::ZERO;
                self.body.angular_velocity_rad_per_s = DVec3::ZERO;
                let mut point_m = self.body.position_m;
                point_m.z = 0.0;
                on_contact(ContactEvent {
                    time_s: self.time_s,
                    point_m,
                    normal_speed_m_per_s: 0.0,
                    rebound_speed_m_per_s: 0.0,
                    track_speed_m_per_s: 0.0,
                    normal_impulse_n_s: 0.0,
                    kind: ContactKind::Rest,
                });
            }
        } else {
            self.quiet_s = 0.0;
        }
    }

    /// Whether the body stands still in static equilibrium: a step left it (next to) no kinetic
    /// energy ([`STILL`] of a step of gravity's), and its centre of mass lies over the inside of
    /// the polygon of three or more lowest points (every half-plane through the centre holds
    /// one: the largest angle between neighbours about it is under π). Gravity's pull through
    /// the centre then presses the support and cannot turn the body: every later contact step
    /// would only cancel it again, with the same contacts. Only under gravity along −z, the
    /// floor's normal.
    fn stands_still(&self, dt_s: f64) -> bool {
        let g = self.gravity_m_per_s2;
        if !(g.z < 0.0 && g.x == 0.0 && g.y == 0.0) {
            return false;
        }
        let step_energy_j = 0.5 * self.body.mass_kg * (g.z * dt_s).powi(2);
        if !(self.body.kinetic_energy_j() < STILL * step_energy_j) {
            return false;
        }
        let (points, count) = self.shape.lowest_points(self.body.orientation, PROXIMITY_M);
        if count < 3 {
            return false;
        }
        let mut angles = [0.0; MAX_LOWEST_POINTS];
        for (angle, p) in angles.iter_mut().zip(&points[..count]) {
            *angle = p.y.atan2(p.x);
        }
        let angles = &mut angles[..count];
        angles.sort_unstable_by(f64::total_cmp);
        let wrap = angles[0] + std::f64::consts::TAU - angles[count - 1];
        let widest = angles.windows(2).map(|w| w[1] - w[0]).fold(wrap, f64::max);
        widest < std::f64::consts::PI - SUPPORT_MARGIN_RAD
    }
}

#[cfg(test)]
mod tests;
