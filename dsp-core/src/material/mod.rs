//! Materials and what follows from them: Hertz stiffness, masses, decay from the loss factor, contact duration.
//!
//! Pure functions of SI quantities, tested against closed forms (`tests.rs`). The table's values
//! are representative of ranges that sources give; each row names its sources.

/// An isotropic elastic material as a struck body sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Stable id (presets and parameters store it).
    pub id: &'static str,
    pub name: &'static str,
    /// Young's modulus E, Pa.
    pub youngs_modulus_pa: f64,
    /// Poisson's ratio ν.
    pub poisson_ratio: f64,
    /// Density ρ, kg/m³.
    pub density_kg_per_m3: f64,
    /// Structural loss factor η of the material itself at audio frequencies (a real object's
    /// supports and radiation add to it).
    pub loss_factor: f64,
    /// A typical coefficient of restitution e of an impact on the same material at about 1 m/s
    /// (not a material constant: it falls with speed once the contact yields, and a thin struck
    /// object loses more into its vibration).
    pub restitution: f64,
}

impl Material {
    /// √(E/ρ), m/s: the speed of longitudinal waves in a thin bar, which sets its bending
    /// frequencies with its radius of gyration.
    pub fn bar_speed_m_per_s(&self) -> f64 {
        (self.youngs_modulus_pa / self.density_kg_per_m3).sqrt()
    }
}

/// The material table. Sources, by key:
/// - **B** Bies, Hansen & Howard, *Engineering Noise Control*, 5th ed. (2017), Table C.1 (the
///   material's own loss factor, not the in-situ one);
/// - **C** Cremer, Heckl & Petersson, *Structure-Borne Sound*, 3rd ed. (2005), Table 4.3;
/// - **N** Norton & Karczub, *Fundamentals of Noise and Vibration Analysis for Engineers*, 2nd
///   ed. (2003), Table 6.1 and Appendix 4A;
/// - **V** Vigran, *Building Acoustics* (2008), Table 3.1;
/// - **D** Dowling, *Mechanical Behavior of Materials*, 4th ed., Table 5.2;
/// - **W** USDA Forest Products Laboratory, *Wood Handbook*, FPL-GTR-190 (2010), Tables 5-1,
///   5-2, 5-3a (along the grain; E across the grain is about E/15–E/20);
/// - **G** Granta Design, *Materials Universe* (polymers);
/// - **R** makeitfrom.com, "Granite" (and published ranges of 30–70 GPa);
/// - **P** material-properties.org, "Porcelain";
/// - **NZ** Netzsch polymer database, natural rubber; **SH** Gent's relation of Shore A hardness
///   to modulus (Gent, Rubber Chem. Technol. 31 (1958) 896), 50A ≈ 2.5 MPa;
/// - **E** Great Soviet Encyclopedia, "Ebonite" (ρ 1150–1680 kg/m³, E 2–3 GPa);
/// - **F** The Physics Factbook, "Coefficient of restitution" (balls on a hard floor);
/// - **S** measured glass–glass ~0.95 and steel–steel 0.7–0.9 (sciphylabs collection);
/// - **I** Gammon, Kiefte, Clouter & Denner, "Elastic constants of artificial and natural ice
///   samples by Brillouin spectroscopy", J. Glaciology 29 (1983): polycrystalline ice Ih at
///   −16 °C, E 9.33 GPa, ν 0.325; ρ 917 kg/m³ at 0 °C;
/// - **Est.** our estimate within the published range, where no source gives the quantity for
///   this pair (stated so: the restitution of most pairs, the loss factor of ceramics, granite,
///   ebonite and rubber).
pub const MATERIALS: [Material; 16] = [
    // Carbon steel. E B, C, D, N (195–212 GPa); ν C, D, N; ρ B, C; η C, B, N (2e-5–6e-4);
    // e S (0.7–0.9; hardened bearing steel 0.9).
    Material {
        id: "steel",
        name: "Steel",
        youngs_modulus_pa: 205e9,
        poisson_ratio: 0.29,
        density_kg_per_m3: 7850.0,
        loss_factor: 1e-4,
        restitution: 0.8,
    },
    // E B, C, D, N (95–104 GPa); ν 0.33–0.37; ρ B, C, N; η C, B (2e-4–1e-3); e Est.
    Material {
        id: "brass",
        name: "Brass",
        youngs_modulus_pa: 100e9,
        poisson_ratio: 0.34,
        density_kg_per_m3: 8500.0,
        loss_factor: 5e-4,
        restitution: 0.8,
    },
    // Aluminium alloy. E B, C, D (70–72 GPa); ν 0.33; ρ B, C; η C, B, N (3e-6–1e-3); e Est.
    Material {
        id: "aluminium",
        name: "Aluminium",
        youngs_modulus_pa: 70e9,
        poisson_ratio: 0.33,
        density_kg_per_m3: 2700.0,
        loss_factor: 1e-4,
        restitution: 0.75,
    },
    // Bell bronze. E 96–120 GPa, ρ 8200–8800 (Est. within published ranges); η Est.; e Est.
    Material {
        id: "bronze",
        name: "Bell bronze",
        youngs_modulus_pa: 105e9,
        poisson_ratio: 0.34,
        density_kg_per_m3: 8700.0,
        loss_factor: 3e-4,
        restitution: 0.75,
    },
    // Copper. E C, B, N, D (122–130 GPa); ρ B, C; η C, B, N (1e-3–2e-3); e Est.
    Material {
        id: "copper",
        name: "Copper",
        youngs_modulus_pa: 125e9,
        poisson_ratio: 0.35,
        density_kg_per_m3: 8900.0,
        loss_factor: 2e-3,
        restitution: 0.7,
    },
    // Soda-lime glass. E D, B, V (60–70 GPa); ν D, B (0.20–0.24); ρ B, V; η B, N, V (6e-4–6e-3);
    // e S.
    Material {
        id: "glass",
        name: "Glass",
        youngs_modulus_pa: 69e9,
        poisson_ratio: 0.22,
        density_kg_per_m3: 2500.0,
        loss_factor: 1e-3,
        restitution: 0.95,
    },
    // Porcelain, vitreous china (tiles, cups). E 50–100 GPa Est.; ν Est.; ρ P (2200–2480);
    // η Est. (1e-3–5e-3); e Est.
    Material {
        id: "ceramic",
        name: "Ceramic (porcelain)",
        youngs_modulus_pa: 70e9,
        poisson_ratio: 0.2,
        density_kg_per_m3: 2400.0,
        loss_factor: 2e-3,
        restitution: 0.85,
    },
    // Granite. E D, R (30–70 GPa); ν D, R (0.21–0.25); ρ R (2600–2900); η Est. (2e-3–1e-2);
    // e Est.
    Material {
        id: "granite",
        name: "Granite",
        youngs_modulus_pa: 50e9,
        poisson_ratio: 0.22,
        density_kg_per_m3: 2650.0,
        loss_factor: 5e-3,
        restitution: 0.8,
    },
    // Oak along the grain. E W, B (12–14 GPa); ν_LR W, B; ρ W, B (630–750); η V, N, B
    // (0.005–0.04); e F (wood 0.6).
    Material {
        id: "oak",
        name: "Oak",
        youngs_modulus_pa: 12.5e9,
        poisson_ratio: 0.35,
        density_kg_per_m3: 700.0,
        loss_factor: 0.01,
        restitution: 0.55,
    },
    // Maple along the grain. E W, B (11.3–13 GPa); ν W, B; ρ B (600–705); η as oak; e F.
    Material {
        id: "maple",
        name: "Maple",
        youngs_modulus_pa: 12.6e9,
        poisson_ratio: 0.42,
        density_kg_per_m3: 700.0,
        loss_factor: 0.008,
        restitution: 0.55,
    },
    // Pine along the grain. E W, B (8.5–13.7 GPa); ν W; ρ W, B (390–590); η V, B; e Est.
    Material {
        id: "pine",
        name: "Pine",
        youngs_modulus_pa: 10e9,
        poisson_ratio: 0.33,
        density_kg_per_m3: 500.0,
        loss_factor: 0.01,
        restitution: 0.5,
    },
    // ABS. E G, D (2.0–2.9 GPa); ν D, G (0.35–0.42); ρ G (1020–1080); η G (0.014–0.045);
    // e F (hard plastic 0.69).
    Material {
        id: "abs",
        name: "ABS plastic",
        youngs_modulus_pa: 2.2e9,
        poisson_ratio: 0.38,
        density_kg_per_m3: 1040.0,
        loss_factor: 0.02,
        restitution: 0.65,
    },
    // PMMA (acrylic). E D, B (2.7–3.5 GPa); ν 0.35–0.37; ρ B; η Est. (sources range
    // 0.002–0.06); e Est.
    Material {
        id: "acrylic",
        name: "Acrylic (PMMA)",
        youngs_modulus_pa: 3.2e9,
        poisson_ratio: 0.36,
        density_kg_per_m3: 1190.0,
        loss_factor: 0.03,
        restitution: 0.8,
    },
    // Hard rubber (ebonite, as in hard-rubber mallets). E N, E (2–3 GPa); ν N; ρ N, E
    // (1100–1680); η Est. (0.01–0.05); e Est.
    Material {
        id: "hard-rubber",
        name: "Hard rubber (ebonite)",
        youngs_modulus_pa: 2.3e9,
        poisson_ratio: 0.4,
        density_kg_per_m3: 1150.0,
        loss_factor: 0.02,
        restitution: 0.7,
    },
    // Soft natural rubber, Shore 40–60A. E NZ, SH, N (1.5–6 MPa); ν ≈ 0.5 (nearly
    // incompressible; 0.49 keeps E* finite); ρ NZ, N (910 unfilled – 1150 filled); η Est.
    // (0.02–0.15); e Est. (0.7–0.9).
    Material {
        id: "soft-rubber",
        name: "Soft rubber",
        youngs_modulus_pa: 2.5e6,
        poisson_ratio: 0.49,
        density_kg_per_m3: 950.0,
        loss_factor: 0.05,
        restitution: 0.8,
    },
    // Freshwater ice, cold (about −10 °C). E, ν, ρ I; η Est. (internal friction of cold ice at
    // audio frequencies, 1e-3–1e-2); e Est. (ice spheres at low speed and temperature 0.8–0.9,
    // less near melting).
    Material {
        id: "ice",
        name: "Ice",
        youngs_modulus_pa: 9.3e9,
        poisson_ratio: 0.33,
        density_kg_per_m3: 917.0,
        loss_factor: 3e-3,
        restitution: 0.7,
    },
];

/// Steel, the table's first entry.
pub const STEEL: &Material = &MATERIALS[0];
/// Brass, the table's second.
pub const BRASS: &Material = &MATERIALS[1];

/// The material with stable id `id`.
pub fn by_id(id: &str) -> Option<&'static Material> {
    MATERIALS.iter().find(|m| m.id == id)
}

/// The coefficient of restitution of an impact between two materials: the smaller of their
/// typical ones (the lossier body decides; the table's values are for each on a hard floor).
pub fn pair_restitution(a: &Material, b: &Material) -> f64 {
    a.restitution.min(b.restitution)
}

/// The effective modulus of two bodies in contact, E* with 1/E* = (1−ν₁²)/E₁ + (1−ν₂²)/E₂, Pa
/// (Johnson, *Contact Mechanics*, 1985, eq. 4.22).
pub fn effective_modulus_pa(a: &Material, b: &Material) -> f64 {
    let compliance = |m: &Material| (1.0 - m.poisson_ratio * m.poisson_ratio) / m.youngs_modulus_pa;
    1.0 / (compliance(a) + compliance(b))
}

/// The effective radius of two curved surfaces in contact, R* with 1/R* = 1/R₁ + 1/R₂, m; a flat
/// surface has an infinite radius (Johnson, eq. 4.21).
pub fn effective_radius_m(radius_1_m: f64, radius_2_m: f64) -> f64 {
    1.0 / (1.0 / radius_1_m + 1.0 / radius_2_m)
}

/// Hertz's contact stiffness k = (4/3)·E*·√R*, N/m^(3/2): the force is k·δ^(3/2) at a
/// compression δ (Johnson, eq. 4.23), the law of eq. (1) with α = 3/2.
pub fn hertz_stiffness(effective_modulus_pa: f64, effective_radius_m: f64) -> f64 {
    4.0 / 3.0 * effective_modulus_pa * effective_radius_m.sqrt()
}

/// Hertz's contact duration of an elastic impact at closing speed `v_m_per_s` between bodies of
/// effective mass `mass_kg` (m₁m₂/(m₁+m₂)), s: τ = 2.87·(m²/(R*·E*²·v))^(1/5). It is
/// τ = 2.9432·δ_max/v with δ_max = (15·m·v²/(16·E*·√R*))^(2/5) (Johnson, §11.4), and
/// 2.9432·(15/16)^(2/5) = 2.868.
pub fn hertz_contact_time_s(
    mass_kg: f64,
    effective_radius_m: f64,
    effective_modulus_pa: f64,
    v_m_per_s: f64,
) -> f64 {
    const HERTZ_DURATION: f64 = 2.868;
    HERTZ_DURATION
        * (mass_kg * mass_kg
            / (effective_radius_m * effective_modulus_pa * effective_modulus_pa * v_m_per_s))
            .powf(0.2)
}

/// Mass of a solid sphere of `radius_m` in `material`, kg.
pub fn sphere_mass_kg(material: &Material, radius_m: f64) -> f64 {
    4.0 / 3.0 * std::f64::consts::PI * radius_m.powi(3) * material.density_kg_per_m3
}

/// The fundamental (Hz) of a free–free bar of `length_m` bending across its `thickness_m`, in
/// `material`: f₁ = (β₁L)²/(2π·L²)·√(E·I/(ρ·A)) with β₁L = 4.7300 (Euler–Bernoulli; Fletcher &
/// Rossing, *The Physics of Musical Instruments*, §2.14) and √(I/A) = h/√12 for a rectangular
/// section, so f₁ = 1.0279·(h/L²)·√(E/ρ). Shear and rotary inertia lower it by a few % once
/// h/L passes about 0.1.
pub fn free_bar_fundamental_hz(material: &Material, length_m: f64, thickness_m: f64) -> f64 {
    const BETA_1_L: f64 = 4.7300;
    let radius_of_gyration_m = thickness_m / 12f64.sqrt();
    BETA_1_L * BETA_1_L / (std::f64::consts::TAU * length_m * length_m)
        * radius_of_gyration_m
        * material.bar_speed_m_per_s()
}

/// Bending stiffness per unit area over mass per unit area of a plate of `thickness_m` in
/// `material`, √(D/(ρh)) with D = E·h³/(12(1 − ν²)), m²/s.
fn plate_wave_constant(material: &Material, thickness_m: f64) -> f64 {
    let nu = material.poisson_ratio;
    let rigidity = material.youngs_modulus_pa * thickness_m.powi(3) / (12.0 * (1.0 - nu * nu));
    (rigidity / (material.density_kg_per_m3 * thickness_m)).sqrt()
}

/// The fundamental (Hz) of a simply supported rectangular plate `a_m` × `b_m` of `thickness_m`:
/// ω₁₁ = π²·(1/a² + 1/b²)·√(D/(ρh)) (Leissa, *Vibration of Plates*, NASA SP-160, 1969, §4.1).
pub fn supported_plate_fundamental_hz(
    material: &Material,
    a_m: f64,
    b_m: f64,
    thickness_m: f64,
) -> f64 {
    let pi = std::f64::consts::PI;
    pi * pi * (1.0 / (a_m * a_m) + 1.0 / (b_m * b_m)) * plate_wave_constant(material, thickness_m)
        / std::f64::consts::TAU
}

/// The lowest flexural mode (Hz) of a free circular plate of `radius_m` and `thickness_m`
/// (two nodal diameters): ω = λ²/a²·√(D/(ρh)) with λ² = 5.26 for ν ≈ 0.3 (Leissa, NASA SP-160,
/// Table 2.4: 5.253 at ν = 0.33).
pub fn free_disc_fundamental_hz(material: &Material, radius_m: f64, thickness_m: f64) -> f64 {
    const LAMBDA_SQ: f64 = 5.26;
    LAMBDA_SQ / (radius_m * radius_m) * plate_wave_constant(material, thickness_m)
        / std::f64::consts::TAU
}

/// The time (s) for a mode at `freq_hz` to decay by 60 dB with loss factor `loss_factor`: its
/// envelope decays at σ = η·ω/2 = π·η·f (η = 2ζ), so T60 = ln(1000)/σ ≈ 2.2/(η·f) (Cremer,
/// Heckl & Petersson, §3.7).
pub fn t60_from_loss_factor_s(loss_factor: f64, freq_hz: f64) -> f64 {
    1000f64.ln() / (std::f64::consts::PI * loss_factor * freq_hz)
}

#[cfg(test)]
mod tests;
