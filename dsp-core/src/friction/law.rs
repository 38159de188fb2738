//! The elasto-plastic bristle law of friction (Dupont, Hayward, Armstrong & Altpeter, IEEE TAC 47(5), 2002): its parameters, steady sliding and the bristle's adhesion map.

/// Smallest Stribeck velocity, m/s: below it the law is Coulomb's (µs at rest, µk in motion).
pub const MIN_STRIBECK_M_PER_S: f64 = 1e-9;
/// Softest and stiffest bristle, N/m (the stiff end is solved as stably as the soft one).
pub const MIN_BRISTLE_STIFFNESS: f64 = 1.0;
pub const MAX_BRISTLE_STIFFNESS: f64 = 1e9;
/// Largest break-away fraction: z_ba must stay below z_ss (Dupont's condition 0 < z_ba < z_ss).
pub const MAX_BREAKAWAY: f64 = 0.99;

/// The tangential contact between two bodies pressed together by a normal force N.
///
/// The bristle deflection z obeys ż = v·(1 − α(z, v)·z/z_ss(v)), with v the relative sliding
/// velocity, z_ss(v) = sgn(v)·F_ss(v)/σ₀ the steady deflection and F_ss(v) = N·(µk + (µs − µk)·
/// e^(−(v/vs)²)) the Stribeck curve; the force is F = σ₀·z + σ₁·ż + σ₂·v (Dupont et al.'s
/// elasto-plastic model; Avanzini, Serafin & Rocchesso, IEEE TSAP 13(5), 2005, §II). The
/// adhesion map α is 0 while the bristle is within its break-away deflection z_ba (it is purely
/// elastic there, so a force below break-away causes no drift) or deflects against the motion,
/// rises smoothly to 1 at z_ss ([`adhesion_and_slope`]), and is 1 beyond. Here z_ba = β·z_ss(v), a fraction of the
/// steady deflection (a reading: the paper's z_ba is a constant below every z_ss(v); a fraction
/// keeps it below z_ss for every normal force, including zero µk).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionLaw {
    /// Static coefficient µs ≥ 0 (not limited to 1: rubber on glass exceeds it).
    pub mu_static: f64,
    /// Kinetic coefficient µk ≥ 0.
    pub mu_kinetic: f64,
    /// Stribeck velocity vs, m/s: how fast µ falls from µs to µk as sliding speeds up.
    pub stribeck_m_per_s: f64,
    /// Bristle stiffness σ₀, N/m.
    pub bristle_stiffness_n_per_m: f64,
    /// Bristle damping σ₁, N·s/m.
    pub bristle_damping_n_s_per_m: f64,
    /// Viscous friction σ₂, N·s/m.
    pub viscous_n_s_per_m: f64,
    /// Break-away fraction β = z_ba/z_ss, in [0, 0.99].
    pub breakaway: f64,
    /// Roughness noise D, 1/√Hz: the dry friction's relative fluctuation per √Hz, white, in
    /// [0, [`super::MAX_ROUGHNESS_PER_SQRT_HZ`]] (0: none). The step does not apply it: its
    /// caller draws [`super::Roughness`]'s factor each step and scales the normal force it hands
    /// the step by it, as the slide does.
    pub roughness_per_sqrt_hz: f64,
}

impl FrictionLaw {
    /// Rosin on a string, roughly: µs 0.8, µk 0.3.
    pub fn rosin() -> Self {
        Self {
            mu_static: 0.8,
            mu_kinetic: 0.3,
            stribeck_m_per_s: 0.1,
            bristle_stiffness_n_per_m: 1e5,
            bristle_damping_n_s_per_m: 0.0,
            viscous_n_s_per_m: 0.0,
            breakaway: 0.7,
            roughness_per_sqrt_hz: 0.0,
        }
    }

    /// The law with every parameter in its range (negative coefficients to zero, the bristle's
    /// stiffness into [1, 10⁹] N/m, the break-away fraction into [0, 0.99], the roughness into
    /// [0, [`super::MAX_ROUGHNESS_PER_SQRT_HZ`]]); NaN becomes the
    /// range's low end.
    pub fn clamped(&self) -> Self {
        let non_negative = |x: f64| if x > 0.0 { x } else { 0.0 };
        Self {
            mu_static: non_negative(self.mu_static),
            mu_kinetic: non_negative(self.mu_kinetic),
            stribeck_m_per_s: non_negative(self.stribeck_m_per_s).max(MIN_STRIBECK_M_PER_S),
            bristle_stiffness_n_per_m: non_negative(self.bristle_stiffness_n_per_m)
                .clamp(MIN_BRISTLE_STIFFNESS, MAX_BRISTLE_STIFFNESS),
            bristle_damping_n_s_per_m: non_negative(self.bristle_damping_n_s_per_m),
            viscous_n_s_per_m: non_negative(self.viscous_n_s_per_m),
            breakaway: non_negative(self.breakaway).min(MAX_BREAKAWAY),
            roughness_per_sqrt_hz: non_negative(self.roughness_per_sqrt_hz)
                .min(super::MAX_ROUGHNESS_PER_SQRT_HZ),
        }
    }

    /// The Stribeck curve F_ss(|v|) = N·(µk + (µs − µk)·e^(−(v/vs)²)), N: the dry friction of
    /// steady sliding at speed |v| under the normal force N ≥ 0.
    #[inline]
    pub fn stribeck_n(&self, normal_n: f64, v_m_per_s: f64) -> f64 {
        self.stribeck_and_slope(normal_n, v_m_per_s.abs()).0
    }

    /// The Stribeck curve at speed `u_m_per_s` ≥ 0 and its slope dF_ss/du, N and N·s/m (one
    /// exponential).
    #[inline]
    pub fn stribeck_and_slope(&self, normal_n: f64, u_m_per_s: f64) -> (f64, f64) {
        let vs = self.stribeck_m_per_s;
        let r = u_m_per_s / vs;
        let drop_n = normal_n * (self.mu_static - self.mu_kinetic) * (-r * r).exp();
        (normal_n * self.mu_kinetic + drop_n, -2.0 * r / vs * drop_n)
    }

    /// The force of steady sliding at `v_m_per_s`: sgn(v)·F_ss(v) + σ₂·v, N (the law's fixed
    /// point, z = z_ss(v), ż = 0).
    pub fn steady_force_n(&self, normal_n: f64, v_m_per_s: f64) -> f64 {
        if v_m_per_s == 0.0 {
            return 0.0;
        }
        v_m_per_s.signum() * self.stribeck_n(normal_n, v_m_per_s)
            + self.viscous_n_s_per_m * v_m_per_s
    }

    /// The break-away force σ₀·z_ba at rest, N: below it a force moves the contact only
    /// elastically.
    pub fn breakaway_force_n(&self, normal_n: f64) -> f64 {
        self.breakaway * self.stribeck_n(normal_n, 0.0)
    }
}

/// The adhesion map α at w = |z|/|z_ss| for a bristle deflected along the motion, and its
/// slope dα/dw: 0 up to β, the smoothstep t²·(3 − 2t) of t = (w − β)/(1 − β) between, 1 from
/// 1 on. Dupont et al. ask of α only that it rise from 0 at z_ba to 1 at z_ss; their example
/// is a half sine, ½ + ½·sin(π·(t − ½)). The smoothstep has the same ends and the same zero
/// slopes there (C¹, which Newton needs), within 0.011 of it everywhere, and costs no sine.
/// `beta` is the break-away fraction β and `ramp_per_w` = 1/(1 − β), taken once a step.
#[inline]
pub(super) fn adhesion_and_slope(w: f64, beta: f64, ramp_per_w: f64) -> (f64, f64) {
    if w <= beta {
        (0.0, 0.0)
    } else if w >= 1.0 {
        (1.0, 0.0)
    } else {
        let t = (w - beta) * ramp_per_w;
        (t * t * (3.0 - 2.0 * t), 6.0 * t * (1.0 - t) * ramp_per_w)
    }
}
