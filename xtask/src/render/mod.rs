//! `cargo xtask render`: a sound library rendered on the engine — variations of presets drawn within physical ranges, loudness-matched, named in UCS, tagged in BWF, listed in a manifest; parallel and the same bits on any number of threads.

mod bwf;
mod job;
mod limiter;
mod loudness;
mod manifest;
mod sound;
pub(crate) mod ucs;
mod whole;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use job::{Job, JobSpec};
use manifest::Row;
use rayon::prelude::*;
use sound::{Channels, Draws, SampleFormat};
use std::path::{Path, PathBuf};
use urto::params::Controllers;
use urto::presets::Preset;
use urto_dsp::voice::Patch;

#[derive(clap::Parser)]
#[command(name = "cargo xtask render")]
pub struct RenderArgs {
    /// A job file (TOML, or JSON if it ends in .json) with any of the fields below (presets,
    /// categories, notes, velocities, variations, seed, …); the flags override it.
    #[arg(long)]
    job: Option<PathBuf>,
    /// The folder the files and the manifest go to.
    #[arg(long)]
    out: PathBuf,
    /// Threads to render on (0: one per core). The files are the same bits whatever the count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    #[command(flatten)]
    spec: JobSpec,
}

/// One file to render: a preset's sound (note, velocity) and the variation it draws.
struct Take {
    /// Its place in the job's order.
    index: u64,
    preset: usize,
    note: u8,
    sound_velocity: u8,
    variation: u32,
    draws: Draws,
    /// The patch with the draws applied.
    patch: Patch,
    cat_id: String,
    file: String,
}

/// A preset as the engine plays it: its patch and its output gain (linear).
struct Played {
    preset: Preset,
    patch: Patch,
    output_gain: f64,
}

pub fn render(args: RenderArgs) -> Result<()> {
    let today = time::OffsetDateTime::now_utc().date().to_string();
    let job = job_of(args.job.as_deref(), args.spec, &today).unwrap_or_else(|reason| {
        eprintln!("error: {reason}");
        std::process::exit(2)
    });
    let started = std::time::Instant::now();
    let rows = render_job(&job, &args.out, args.threads)?;
    let wall_s = started.elapsed().as_secs_f64();
    let audio_s: f64 = rows.iter().map(|r| r.length_s).sum();
    println!(
        "{} files, {audio_s:.1} s of audio in {wall_s:.1} s ({:.1} s of audio a second) in {}",
        rows.len(),
        audio_s / wall_s,
        args.out.display()
    );
    warn_of_heavy_limiting(&rows);
    Ok(())
}

/// Limiting beyond this takes a transient's snap, dB.
const HEAVY_LIMITING_DB: f64 = 6.0;

/// Name the files the limiter took more than [`HEAVY_LIMITING_DB`] from, and the most.
fn warn_of_heavy_limiting(rows: &[Row]) {
    let heavy: Vec<&Row> = rows
        .iter()
        .filter(|r| r.limiter_reduction_db > HEAVY_LIMITING_DB)
        .collect();
    if let Some(worst) = heavy
        .iter()
        .max_by(|a, b| a.limiter_reduction_db.total_cmp(&b.limiter_reduction_db))
    {
        eprintln!(
            "warning: the limiter took over {HEAVY_LIMITING_DB} dB from the peaks of {} files \
             (up to {:.1} dB, {}): their transients are softened. A lower --loudness-lufs, or \
             --peak-control gain, keeps them.",
            heavy.len(),
            worst.limiter_reduction_db,
            worst.file
        );
    }
}

/// The job the file and the flags ask for, checked.
fn job_of(file: Option<&Path>, flags: JobSpec, today: &str) -> Result<Job, String> {
    let spec = match file {
        Some(path) => JobSpec::load(path)?.overridden_by(flags),
        None => flags,
    };
    spec.checked(today)
}

/// Render every file of `job` into `out` on `threads` threads (0: one per core) and write the
/// manifest; the rows in the job's order.
pub fn render_job(job: &Job, out: &Path, threads: usize) -> Result<Vec<Row>> {
    let presets: Vec<Played> = job.presets.iter().map(played).collect();
    let takes = plan(job, &presets);
    refuse_colliding_names(&takes, &presets)?;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let bar = ProgressBar::new(takes.len() as u64).with_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} files  {elapsed} (about {eta} left)",
    )?);
    let rows = pool.install(|| {
        takes
            .par_iter()
            .map(|take| {
                let row = render_take(job, &presets[take.preset], take, out);
                bar.inc(1);
                row
            })
            .collect::<Result<Vec<Row>>>()
    })?;
    bar.finish_and_clear();
    manifest::write(out, &rows)?;
    Ok(rows)
}

/// `preset`'s patch and output gain.
fn played(preset: &Preset) -> Played {
    let params = preset.to_params();
    Played {
        preset: preset.clone(),
        patch: params.patch(&Controllers::default()),
        output_gain: 10f64.powf(f64::from(params.output.gain_db.value()) / 20.0),
    }
}

/// Every file of the job in order — preset, note, velocity, variation — with its draws, taken
/// here in that order from one generator seeded by the job's seed, before anything renders: the
/// draws cannot depend on the threads that render them.
fn plan(job: &Job, presets: &[Played]) -> Vec<Take> {
    let digits = job.variations.to_string().len().max(2);
    let mut rng = fastrand::Rng::with_seed(job.seed);
    let mut takes = Vec::new();
    for (p, played) in presets.iter().enumerate() {
        for &note in &job.notes {
            for &velocity in &job.velocities {
                let fx_name = ucs::fx_name(&sound_name(job, &played.preset, note, velocity));
                for variation in 1..=job.variations {
                    let index = takes.len() as u64;
                    let draws = Draws::draw(&mut rng, &played.patch, velocity, &job.ranges);
                    let patch = draws.applied(&played.patch);
                    let cat_id = ucs::cat_id(&played.preset, &patch);
                    let file = ucs::file_name(&cat_id, &fx_name, variation, digits);
                    takes.push(Take {
                        index,
                        preset: p,
                        note,
                        sound_velocity: velocity,
                        variation,
                        draws,
                        patch,
                        cat_id,
                        file,
                    });
                }
            }
        }
    }
    takes
}

/// Refuse a job two of whose files would have one name (presets whose names differ only in
/// case or in characters a file name cannot hold), before anything renders.
fn refuse_colliding_names(takes: &[Take], presets: &[Played]) -> Result<()> {
    let mut seen = std::collections::HashMap::new();
    for take in takes {
        let name = &presets[take.preset].preset.name;
        if let Some(other) = seen.insert(take.file.to_lowercase(), name) {
            anyhow::bail!(
                "the presets {other:?} and {name:?} would both write {}",
                take.file
            );
        }
    }
    Ok(())
}

/// The preset's name, with the note and the velocity where the job plays more than one.
fn sound_name(job: &Job, preset: &Preset, note: u8, velocity: u8) -> String {
    let mut name = preset.name.clone();
    if job.notes.len() > 1 {
        name += &format!(" {}", ucs::note_name(note));
    }
    if job.velocities.len() > 1 {
        name += &format!(" v{velocity}");
    }
    name
}

/// Play, normalise, trim and write one file; its manifest row.
fn render_take(job: &Job, played: &Played, take: &Take, out: &Path) -> Result<Row> {
    let audio = sound::play(
        &take.patch,
        take.note,
        &take.draws,
        job.sample_rate_hz,
        job.channels,
        (job.hold_s, job.max_seconds),
        played.output_gain,
    );
    let what = || format!("{} ({})", take.file, played.preset.name);
    let levelled = match job.loudness_lufs {
        Some(target) => loudness::normalise(
            &audio.channels,
            job.sample_rate_hz,
            target,
            job.true_peak_dbtp,
            job.peak_control,
        ),
        None => loudness::physical(&audio.channels, job.sample_rate_hz),
    }
    .with_context(what)?;
    let level = levelled.loudness;
    let bext = bext(job, played, take, level);
    let bytes = bwf::wav_bytes(&levelled.channels, job.sample_rate_hz, job.format, &bext)?;
    whole::write_whole(&out.join(&take.file), &bytes)?;
    let d = &take.draws;
    Ok(Row {
        file: take.file.clone(),
        preset: played.preset.name.clone(),
        category: played.preset.category.clone(),
        cat_id: take.cat_id.clone(),
        note: take.note,
        sound_velocity: take.sound_velocity,
        variation: take.variation,
        seed: job.seed,
        velocity: d.velocity,
        notes_before: d.notes_before,
        strike_position: d.strike_position,
        size_scale: d.size_scale,
        striker_material: d.striker_material.map(String::from),
        impact_speed_m_per_s: audio.impact_speed_m_per_s,
        integrated_lufs: level.integrated_lufs,
        range_lu: level.range_lu,
        true_peak_dbtp: level.true_peak_dbtp,
        sample_peak_dbfs: level.sample_peak_dbfs,
        gain_db: levelled.gain_db,
        limiter_reduction_db: levelled.limiter_reduction_db,
        ceiling_limited: levelled.ceiling_limited,
        length_s: levelled.channels[0].len() as f64 / f64::from(job.sample_rate_hz),
        cut_short: audio.cut_short,
    })
}

/// The file's BWF description: what it plays and how it was made.
fn bext(job: &Job, played: &Played, take: &Take, loudness: loudness::Loudness) -> bwf::Bext {
    let d = &take.draws;
    let description = format!(
        "{}: {} - {} note {}, velocity {}, variation {} of {} (seed {}). {}",
        job.library,
        played.preset.name,
        played.preset.category,
        ucs::note_name(take.note),
        d.velocity,
        take.variation,
        job.variations,
        job.seed,
        played.preset.description,
    );
    let (bits, kind) = match job.format {
        SampleFormat::Pcm24 => (24, "PCM"),
        SampleFormat::Float32 => (32, "PCM float"),
    };
    let mode = match job.channels {
        Channels::Mono => "mono",
        Channels::Stereo => "stereo",
    };
    bwf::Bext {
        description,
        originator: "Urto".into(),
        originator_reference: format!("URTO{:016X}{:06}", job.seed, take.index),
        origination_date: job.origination_date.clone(),
        origination_time: "00:00:00".into(),
        loudness,
        coding_history: format!(
            "A={kind},F={},W={bits},M={mode},T=Urto {} cargo xtask render\r\n",
            job.sample_rate_hz,
            env!("CARGO_PKG_VERSION")
        ),
    }
}
