//! One implicit step of the tangential contact: the bristle's backward-Euler update and the friction force solved together with the bodies' responses over the same step.

use super::law::{adhesion_and_slope, FrictionLaw};

/// Newton iterations one step may take (each one evaluation of the law, whose own Newton is
/// bounded alike); a bisection safeguard keeps every iterate in the bracket. The stick–slip
/// experiments of docs/physics.md take at most 6.
pub const MAX_NEWTON_ITERATIONS: u32 = 48;

/// A steady deflection below this holds nothing, m (a normal force of about 10⁻¹⁹⁰ N): the
/// bristle's closed forms divide by it.
const MIN_STEADY_DEFLECTION_M: f64 = 1e-200;

/// What the bodies offer the tangential contact over one step: the slip the step would make
/// with no friction, and how much a friction force held over the step takes off it. Both bodies'
/// responses are linear over a step (exact modal transitions under a held force), so the slip is
/// s(F) = `free_m` − `compliance_m_per_n`·F.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slip {
    /// Relative sliding over the step with no friction force, m: the slider's travel minus the
    /// object's free travel at the contact.
    pub free_m: f64,
    /// Slip taken off per newton of friction held over the step, m/N (≥ 0): the two bodies'
    /// compliances at the contact, summed (0 for a rigid, driven body against a rigid one).
    pub compliance_m_per_n: f64,
}

/// The outcome of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrictionStep {
    /// Friction force on the object along the slip, N (the slider feels −F).
    pub force_n: f64,
    /// Mean relative sliding velocity over the step, m/s: slip/dt.
    pub slip_m_per_s: f64,
    /// The adhesion map α after the step: 0 while the bristle sticks elastically, 1 in full
    /// sliding.
    pub adhesion: f64,
    /// Law evaluations the solve took (0: the elastic guess held).
    pub iterations: u32,
}

/// The bristle of one tangential contact: its deflection z, and how hard its solves were.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bristle {
    /// Deflection z, m.
    pub z_m: f64,
    /// Largest iteration count of one step since the last [`Bristle::reset`].
    pub iterations_max: u32,
    /// Iterations and steps summed since the last reset (their ratio is the mean).
    pub iterations_sum: u64,
    pub steps: u64,
}

/// The law as one step sees it: what does not change within the step's solve.
struct StepLaw<'a> {
    law: &'a FrictionLaw,
    normal_n: f64,
    dt_s: f64,
    /// The bristle's deflection before the step, m.
    z0_m: f64,
    /// 1/σ₀, m/N: the deflection per newton of the bristle's spring.
    bristle_m_per_n: f64,
    /// 1/(1 − β): the adhesion map's ramp per unit of w.
    ramp_per_w: f64,
}

/// The bristle after the step at slip velocity v, with the force and dF/dv.
#[derive(Clone, Copy)]
struct Evaluation {
    z_m: f64,
    force_n: f64,
    slope_n_s_per_m: f64,
    adhesion: f64,
}

/// The bristle's update in the frame of the motion: ζ₁, dζ₁/du and α(ζ₁/Z).
struct InFrame {
    zeta1_m: f64,
    dzeta_du_s: f64,
    adhesion: f64,
}

impl<'a> StepLaw<'a> {
    fn new(law: &'a FrictionLaw, normal_n: f64, dt_s: f64, z0_m: f64) -> Self {
        Self {
            law,
            normal_n,
            dt_s,
            z0_m,
            bristle_m_per_n: 1.0 / law.bristle_stiffness_n_per_m,
            ramp_per_w: 1.0 / (1.0 - law.breakaway),
        }
    }

    /// Backward Euler on ż = v·(1 − α(z)·z/z_ss(v)) at v: z₁ = z₀ + dt·v·(1 − α(z₁)·z₁/z_ss(v)),
    /// then F = σ₀·z₁ + σ₁·(z₁ − z₀)/dt + σ₂·v with its slope dF/dv. In the frame of the motion
    /// (ζ = sgn(v)·z, u = |v|, a = u·dt, Z = |z_ss(v)|) the update solves
    /// G(ζ₁) = ζ₁ − ζ₀ − a + a·h(ζ₁/Z) = 0, h(w) = α(w)·w, which rises strictly in ζ₁: the
    /// elastic branch (h = 0) and the plastic one (h = w) in closed form, the smoothstep between
    /// by safeguarded Newton.
    fn evaluate(&self, v: f64) -> Evaluation {
        let law = self.law;
        let (sigma0, sigma1) = (law.bristle_stiffness_n_per_m, law.bristle_damping_n_s_per_m);
        let dt = self.dt_s;
        let s = if v < 0.0 { -1.0 } else { 1.0 };
        let (zeta0, u) = (s * self.z0_m, v.abs());
        let (stribeck_n, stribeck_slope) = law.stribeck_and_slope(self.normal_n, u);
        let z_ss = stribeck_n * self.bristle_m_per_n;
        let frame = if z_ss > MIN_STEADY_DEFLECTION_M {
            self.bristle_in_frame(zeta0, u, z_ss, stribeck_slope * self.bristle_m_per_n)
        } else {
            // No dry friction to hold the bristle (or too little to divide by): it lets go at
            // once.
            InFrame {
                zeta1_m: 0.0,
                dzeta_du_s: 0.0,
                adhesion: 1.0,
            }
        };
        let zeta1 = frame.zeta1_m;
        // The damper acts while the bristle loads along the motion (ζ₁ ≥ ζ₀); a bristle relaxing
        // against it, past a z_ss that fell, slides plastically and the damper does nothing
        // (see [`Bristle::step`]: passivity).
        let loading = zeta1 >= zeta0;
        let (damping_n, damping_slope) = if loading {
            (s * sigma1 * (zeta1 - zeta0) / dt, sigma1 / dt)
        } else {
            (0.0, 0.0)
        };
        Evaluation {
            z_m: s * zeta1,
            force_n: sigma0 * s * zeta1 + damping_n + law.viscous_n_s_per_m * v,
            slope_n_s_per_m: (sigma0 + damping_slope) * frame.dzeta_du_s + law.viscous_n_s_per_m,
            adhesion: frame.adhesion,
        }
    }

    /// ζ₁, its slope dζ₁/du = −(∂G/∂u)/(∂G/∂ζ₁) (with dZ/du = `dz_ss` from the Stribeck curve)
    /// and α at w = ζ₁/Z (see [`StepLaw::evaluate`]): G = ζ₁ − ζ₀ − u·dt + u·dt·h(ζ₁/Z) gives
    /// dζ₁/du = Z·(dt·(1 − h) + a·h′·w·Z′/Z) / (Z + a·h′), with a = u·dt.
    fn bristle_in_frame(&self, zeta0: f64, u: f64, z_ss: f64, dz_ss: f64) -> InFrame {
        let dt = self.dt_s;
        let a = u * dt;
        let elastic = zeta0 + a;
        if elastic <= self.law.breakaway * z_ss {
            return InFrame {
                zeta1_m: elastic,
                dzeta_du_s: dt,
                adhesion: 0.0,
            };
        }
        let (w, h, h_slope, adhesion) = if zeta0 >= z_ss {
            // Plastic throughout (ζ₁ = (ζ₀ + a)·Z/(Z + a) ≥ Z exactly when ζ₀ ≥ Z).
            let w = elastic / (z_ss + a);
            (w, w, 1.0, 1.0)
        } else {
            self.transition(zeta0, a, z_ss)
        };
        InFrame {
            zeta1_m: w * z_ss,
            dzeta_du_s: (z_ss * dt * (1.0 - h) + a * h_slope * w * dz_ss) / (z_ss + a * h_slope),
            adhesion,
        }
    }

    /// w = ζ₁/Z where the bristle is neither elastic nor plastic throughout, with h(w), h′(w)
    /// and α(w). The two closed forms bracket the root: G(plastic) = −a·w·(1 − α) ≤ 0 and
    /// G(elastic) = a·α·w ≥ 0, and G rises. Newton from the plastic guess (near the root when
    /// the bristle is nearly in full slide), converged once G is down to the rounding of its
    /// terms.
    fn transition(&self, zeta0: f64, a: f64, z_ss: f64) -> (f64, f64, f64, f64) {
        let beta = self.law.breakaway;
        let elastic = zeta0 + a;
        let (mut lo, mut hi) = ((elastic / (z_ss + a)).max(beta), (elastic / z_ss).min(1.0));
        let mut w = lo;
        let scale = 1e-14 * (z_ss + zeta0.abs() + a);
        let (mut alpha, mut slope) = self.adhesion_and_slope(w);
        for _ in 0..MAX_NEWTON_ITERATIONS {
            let g = z_ss * w - elastic + a * alpha * w;
            if g.abs() <= scale {
                break;
            }
            if g > 0.0 {
                hi = w;
            } else {
                lo = w;
            }
            let dg = z_ss + a * (alpha + w * slope);
            let mut next = w - g / dg;
            if !(next >= lo && next <= hi) {
                next = 0.5 * (lo + hi);
            }
            if next == w {
                break;
            }
            w = next;
            (alpha, slope) = self.adhesion_and_slope(w);
        }
        (w, alpha * w, alpha + w * slope, alpha)
    }

    /// The adhesion map α(w) and its slope ([`adhesion_and_slope`]).
    #[inline]
    fn adhesion_and_slope(&self, w: f64) -> (f64, f64) {
        adhesion_and_slope(w, self.law.breakaway, self.ramp_per_w)
    }
}

impl Bristle {
    /// A relaxed bristle.
    pub fn new() -> Self {
        Self::default()
    }

    /// Relax the bristle and clear the solve's counts.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Potential energy of the deflected bristle, ½·σ₀·z², J.
    pub fn energy_j(&self, law: &FrictionLaw) -> f64 {
        0.5 * law.bristle_stiffness_n_per_m * self.z_m * self.z_m
    }

    /// One step of `dt_s` under the normal force `normal_n`: the friction force F that the
    /// bristle's backward-Euler update gives at the slip velocity v = (free − C·F)/dt that F
    /// itself leaves (Newton on r(v) = v·dt − free + C·F(v), in a bracket). `law` must be
    /// [`FrictionLaw::clamped`].
    ///
    /// Passive by construction, at the v Newton stops at (where the slip equation's residual r
    /// is within 10⁻¹⁰ of its terms, so the energy the residual moves is at most
    /// 10⁻¹⁰·|F|·(|v·dt| + |s_free| + |C·F|) a step): v·dt = (z₁ − z₀) + dt·v·α·z₁/z_ss, so the spring's part of the
    /// force takes in σ₀·z₁·v·dt = σ₀·z₁·(z₁ − z₀) + σ₀·dt·v·α·z₁²/z_ss ≥ ½σ₀(z₁² − z₀²) (the
    /// last term ≥ 0 since z_ss has the sign of v); σ₂·v² ≥ 0. The damper's σ₁·ż·v is not of one sign in
    /// the law as published: when z_ss(v) falls below z (sliding speeds up through the Stribeck
    /// drop) the bristle relaxes against the motion, ż·v < 0, and σ₁·ż·v would put energy in.
    /// Here the damper acts only while the bristle loads along the motion (a reading; ż = 0
    /// where the two meet, so the force stays continuous). With the slip s = v·dt, what a
    /// driven slider puts in, F·(its travel), is the object's F·(its travel) plus F·s ≥ the
    /// bristle's gain.
    pub fn step(
        &mut self,
        law: &FrictionLaw,
        normal_n: f64,
        slip: Slip,
        dt_s: f64,
    ) -> FrictionStep {
        let law_now = StepLaw::new(law, normal_n.max(0.0), dt_s, self.z_m);
        if !(normal_n > 0.0) {
            // Apart: no friction, the bristle relaxes.
            self.z_m = 0.0;
            return FrictionStep {
                slip_m_per_s: slip.free_m / dt_s,
                adhesion: 1.0,
                ..FrictionStep::default()
            };
        }
        let c = slip.compliance_m_per_n.max(0.0);
        let residual = |e: &Evaluation, v: f64| v * dt_s - slip.free_m + c * e.force_n;
        // The elastic guess: α = 0 makes r linear in v.
        let stiffness = law.bristle_stiffness_n_per_m;
        let v_elastic = (slip.free_m - c * stiffness * self.z_m)
            / (dt_s
                + c * (stiffness * dt_s + law.bristle_damping_n_s_per_m + law.viscous_n_s_per_m));
        let mut v = v_elastic;
        let mut e = law_now.evaluate(v);
        let mut iterations = 0;
        if e.adhesion > 0.0 {
            let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
            let mut reach = (slip.free_m.abs() / dt_s).max(1e-9);
            while iterations < MAX_NEWTON_ITERATIONS {
                let r = residual(&e, v);
                // Converged once r is within 10⁻¹⁰ of the step's terms (the slip it leaves is 200
                // dB below the slip itself); in steady sliding one Newton step from the elastic
                // guess gets there (to 10⁻¹⁰…10⁻¹³), so a step takes two evaluations of the law.
                let scale = (v * dt_s).abs() + slip.free_m.abs() + (c * e.force_n).abs();
                if r.abs() <= 1e-10 * scale {
                    break;
                }
                if r > 0.0 {
                    hi = v;
                } else {
                    lo = v;
                }
                let dr = dt_s + c * e.slope_n_s_per_m;
                let mut next = if dr > 0.0 { v - r / dr } else { f64::NAN };
                if !(next >= lo && next <= hi) {
                    next = if lo.is_finite() && hi.is_finite() {
                        0.5 * (lo + hi)
                    } else {
                        reach *= 2.0;
                        v - reach.copysign(r)
                    };
                }
                let done = (next - v).abs() <= 1e-14 * v.abs() + 1e-18;
                v = next;
                e = law_now.evaluate(v);
                iterations += 1;
                if done {
                    break;
                }
            }
        }
        self.z_m = e.z_m;
        self.iterations_max = self.iterations_max.max(iterations);
        self.iterations_sum += u64::from(iterations);
        self.steps += 1;
        FrictionStep {
            force_n: e.force_n,
            slip_m_per_s: v,
            adhesion: e.adhesion,
            iterations,
        }
    }
}
