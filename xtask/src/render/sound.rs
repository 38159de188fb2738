//! One variation of a sound: what it draws within the job's ranges (velocity, strike position, the object's scale, the striker's material, the engine's note count that seeds a drop, crumple or break), and its note played on the engine until it ends.

use super::job::Ranges;
use serde::Deserialize;
use urto_dsp::body::StrikerKind;
use urto_dsp::material::MATERIALS;
use urto_dsp::voice::{Engine, Patch, PlayMode};

/// How samples are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SampleFormat {
    /// 24-bit integer PCM.
    Pcm24,
    /// 32-bit IEEE float.
    Float32,
}

/// How many channels a file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Channels {
    /// The mean of the two pickups, as the plugin's mono layout.
    Mono,
    /// The left and right pickups.
    Stereo,
}

/// What one variation drew.
#[derive(Debug, Clone, PartialEq)]
pub struct Draws {
    /// MIDI velocity, 1…127.
    pub velocity: u8,
    /// Notes the engine has struck before this one: the seed of its drop, crumple, break, a
    /// bounce's irregularity and a roll's track.
    pub notes_before: u64,
    /// Where the object is struck, 0…1 along it.
    pub strike_position: f64,
    /// The object's scale: every length × this (its modes ÷ it, its mass × its cube).
    pub size_scale: f64,
    /// The striker's (or the dropped, crumpling or breaking body's) material; none where it is
    /// not heard (a point mass with the contact set by hand).
    pub striker_material: Option<&'static str>,
}

impl Draws {
    /// Draw within `ranges` around `patch` played at `velocity`, from `rng`.
    pub fn draw(rng: &mut fastrand::Rng, patch: &Patch, velocity: u8, ranges: &Ranges) -> Draws {
        let spread = i32::from(ranges.velocity_spread);
        let velocity = (i32::from(velocity) + rng.i32(-spread..=spread)).clamp(1, 127) as u8;
        let centred =
            |rng: &mut fastrand::Rng, half_width: f64| (2.0 * rng.f64() - 1.0) * half_width;
        let strike_position = (patch.object.strike_position
            + centred(rng, ranges.strike_position_spread))
        .clamp(0.0, 1.0);
        let size_scale = 1.0 + centred(rng, ranges.size_tolerance);
        let drawn = if ranges.striker_materials.is_empty() {
            patch.striker.material.id
        } else {
            ranges.striker_materials[rng.usize(..ranges.striker_materials.len())]
        };
        let heard = patch.contact_from_materials
            || patch.striker.kind != StrikerKind::PointMass
            || matches!(
                patch.mode,
                PlayMode::Drop | PlayMode::Crumple | PlayMode::Break
            );
        Draws {
            velocity,
            notes_before: rng.u64(..1 << 32),
            strike_position,
            size_scale,
            striker_material: heard.then_some(drawn),
        }
    }

    /// `patch` with these draws: the strike position, a geometrically similar object `size_scale`
    /// times the size (a bending body of the same material and shape: every mode's frequency
    /// ∝ thickness/length² ∝ 1/scale, its mass ∝ scale³), and the striker's material.
    pub fn applied(&self, patch: &Patch) -> Patch {
        let mut varied = *patch;
        varied.object.strike_position = self.strike_position;
        varied.tuning.a4_hz /= self.size_scale;
        varied.tuning.fixed_f0_hz /= self.size_scale;
        varied.object_size_m *= self.size_scale;
        varied.object_mass_kg *= self.size_scale.powi(3);
        if let Some(material) = MATERIALS
            .iter()
            .find(|m| Some(m.id) == self.striker_material)
        {
            varied.striker.material = material;
        }
        varied
    }
}

/// A note as the engine played it.
pub struct Played {
    /// One buffer per channel, the output gain applied.
    pub channels: Vec<Vec<f32>>,
    /// The impact speed the velocity gave, m/s (strike and bounce; none in the other modes).
    pub impact_speed_m_per_s: Option<f64>,
    /// Whether the sound was still going when the file's longest length cut it.
    pub cut_short: bool,
}

/// Samples the engine renders at a time.
const BLOCK: usize = 512;

/// `note` of `patch` with `draws`, at `rate_hz`: held for `hold_s` in the steady modes (roll,
/// slide, crumple) and for as long as it sounds in the others, until the voice ends or
/// `max_seconds`; times `output_gain`.
pub fn play(
    patch: &Patch,
    note: u8,
    draws: &Draws,
    rate_hz: u32,
    channels: Channels,
    (hold_s, max_seconds): (f64, f64),
    output_gain: f64,
) -> Played {
    let rate = f64::from(rate_hz);
    let mut engine = Engine::new(rate);
    engine.set_notes_struck(draws.notes_before);
    let velocity = f32::from(draws.velocity) / 127.0;
    engine.note_on(patch, note, velocity);
    let impact_speed_m_per_s =
        matches!(patch.mode, PlayMode::Strike | PlayMode::Bounce).then(|| {
            engine
                .prepared()
                .calibration()
                .strike(patch, velocity)
                .v_in_m_per_s
        });
    let steady = matches!(
        patch.mode,
        PlayMode::Roll | PlayMode::Slide | PlayMode::Crumple
    );
    let release_at = if steady {
        (hold_s * rate) as usize
    } else {
        usize::MAX
    };
    let total = (max_seconds * rate) as usize;
    let (mut left, mut right) = (Vec::with_capacity(total), Vec::with_capacity(total));
    let (mut l, mut r) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
    let mut cut_short = true;
    while left.len() < total {
        let done = left.len();
        if done == release_at {
            engine.note_off(patch, note);
        }
        let until = if done < release_at { release_at } else { total };
        let n = BLOCK.min(total - done).min(until - done);
        engine.process_stereo(patch, &mut l[..n], &mut r[..n]);
        left.extend_from_slice(&l[..n]);
        right.extend_from_slice(&r[..n]);
        if engine.active_voices() == 0 {
            cut_short = false;
            break;
        }
    }
    let gain = output_gain as f32;
    let channels = match channels {
        Channels::Stereo => vec![left, right],
        Channels::Mono => vec![left
            .iter()
            .zip(&right)
            .map(|(l, r)| 0.5 * (l + r))
            .collect()],
    }
    .into_iter()
    .map(|c| c.into_iter().map(|x| x * gain).collect())
    .collect();
    Played {
        channels,
        impact_speed_m_per_s,
        cut_short,
    }
}
