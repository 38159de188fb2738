//! `cargo xtask bench [--json]`: run the criterion benchmarks and report ns per element.

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};
use std::path::Path;

/// Host sample rate of the real-time-factor and chord benchmarks, Hz.
const ENGINE_SAMPLE_RATE_HZ: f64 = 48_000.0;
/// Samples in the block of the chord benchmark `chords/burst_64_notes_block`.
const BURST_BLOCK_SAMPLES: f64 = 64.0;
/// Arithmetic operations a mode takes per sample in the free-ringing bank (`ring_lanes`):
/// q' = a00·q + a01·p and p' = a10·q + a11·p (4 multiplies, 2 adds), then the pickups' sums
/// mid += g·p' and side += s·p' (2 multiplies, 2 adds). Rust never fuses a·b + c into one FMA
/// by itself and the bank does not ask for it, so the same bits come out on every x86-64
/// processor, with FMA or without: 10 operations, each at most one FMA's issue slot.
const MODE_SAMPLE_OPS: f64 = 10.0;

/// Run `cargo bench -p urto-dsp` and the editor's frame benchmark, then print every benchmark's ns
/// per element (per sample, per mode and sample, or per frame) and the headline figures.
pub fn bench(json_output: bool) -> Result<()> {
    crate::cargo(&["bench", "-p", "urto-dsp"], &[])?;
    crate::cargo(&["bench", "-p", "urto", "--bench", "editor"], &[])?;
    let mut per_element = Map::new();
    collect(Path::new("target/criterion"), &mut per_element)?;
    let ns = |id: &str| {
        per_element
            .get(id)
            .and_then(Value::as_f64)
            .unwrap_or(f64::NAN)
    };
    // The duration of the burst benchmark's block: 64 samples at 48 kHz.
    let block_ns = BURST_BLOCK_SAMPLES * 1e9 / ENGINE_SAMPLE_RATE_HZ;
    let headline = json!({
        "modal_ns_per_mode_sample": ns("modal_free_128/bank"),
        "modal_scalar_ns_per_mode_sample": ns("modal_free_128/scalar"),
        "fma_simd_ns_per_op": ns("roofline_fma/simd"),
        "fma_scalar_ns_per_op": ns("roofline_fma/scalar"),
        "modal_block_ns_per_mode_sample": ns("modal_free_128/bank_block"),
        "modal_roofline_fraction": ns("modal_free_128/bank") / (MODE_SAMPLE_OPS * ns("roofline_fma/simd")),
        "modal_block_roofline_fraction": ns("modal_free_128/bank_block") / (MODE_SAMPLE_OPS * ns("roofline_fma/simd")),
        "modal_quiet_1e-300_ratio": ns("modal_state_128/quiet_1e-300") / ns("modal_state_128/normal"),
        "modal_subnormal_ratio": ns("modal_state_128/subnormal") / ns("modal_state_128/normal"),
        "voice_contact_ns_per_sample": ns("voice_32_modes/contact"),
        "voice_free_ns_per_sample": ns("voice_32_modes/free"),
        "voice_roll_ns_per_sample": ns("voice_32_modes/roll"),
        "voice_slide_ns_per_sample": ns("voice_32_modes/slide"),
        "voice_bounce_ns_per_sample": ns("voice_32_modes/bounce"),
        "voice_drop_ns_per_sample": ns("voice_32_modes/drop"),
        "voice_crumple_ns_per_sample": ns("voice_32_modes/crumple_1000_per_s"),
        "voice_crumple_5000_per_s_ns_per_sample": ns("voice_32_modes/crumple_5000_per_s"),
        "crumple_contact_ratio": ns("voice_32_modes/crumple_1000_per_s") / ns("voice_32_modes/contact"),
        "voice_contact_two_body_ns_per_sample": ns("voice_32_modes/contact_two_body"),
        "voice_free_two_body_ns_per_sample": ns("voice_32_modes/free_two_body"),
        "voice_free_40_modes_ns_per_sample": ns("voice_32_modes/free_40_modes"),
        "free_two_body_ratio": ns("voice_32_modes/free_two_body") / ns("voice_32_modes/free_40_modes"),
        "realtime_factor_64v_32m_48k": 1e9 / ENGINE_SAMPLE_RATE_HZ / ns("engine_64v_32m_48k/one_second"),
        "note_on_ns": ns("chords/note_on"),
        "burst_64_notes_block_ratio": ns("chords/burst_64_notes_block") / block_ns,
        "retune_ns_per_voice": ns("chords/bend_64_notes"),
        "jia_wang_exact_us": ns("rigid_jia_wang/pin_ball_exact") / 1e3,
        "jia_wang_algorithm1_fs_us": ns("rigid_jia_wang/pin_ball_algorithm1_fs") / 1e3,
        "jia_wang_algorithm1_vs_us": ns("rigid_jia_wang/pin_ball_algorithm1_vs") / 1e3,
        "plus_brick_us": ns("rigid_plus/brick_theta_0_01") / 1e3,
        "plus_flat_brick_us": ns("rigid_plus/flat_brick") / 1e3,
        "analysis_strike_3s_48k_s": ns("analysis/strike_3s_48k") / 1e9,
        "editor_frame_ms_slowest_tab": urto_dsp::voice::PlayMode::ALL
            .iter()
            .map(|mode| ns(&format!("editor/frame_{}", mode.id())) / 1e6)
            .fold(f64::NAN, f64::max),
    });
    if json_output {
        let mut all = headline.as_object().cloned().unwrap_or_default();
        all.insert(
            "scaling_voices_modes_ns_per_voice_mode_sample".into(),
            group(&per_element, "scaling_voices_modes/"),
        );
        all.insert(
            "scaling_drops_ns_per_body_sample".into(),
            group(&per_element, "scaling_drops/"),
        );
        all.insert("ns_per_element".into(), Value::Object(per_element));
        println!("{}", Value::Object(all));
        return Ok(());
    }
    println!("\nns per element (sample; mode·sample for modal_free_128; frame for editor/):");
    for (id, value) in &per_element {
        println!("  {id:<40} {:>10.3}", value.as_f64().unwrap_or(f64::NAN));
    }
    println!("\n{}", serde_json::to_string_pretty(&headline)?);
    Ok(())
}

/// The results of one benchmark group (ids starting with `prefix`), keyed by the rest of the id.
fn group(per_element: &Map<String, Value>, prefix: &str) -> Value {
    let members = per_element
        .iter()
        .filter_map(|(id, ns)| Some((id.strip_prefix(prefix)?.to_owned(), ns.clone())));
    Value::Object(members.collect())
}

/// Every `<group>/<id>/new` result under `dir`: mean time per iteration over elements per iteration.
fn collect(dir: &Path, out: &mut Map<String, Value>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        let (benchmark, estimates) = (
            path.join("new/benchmark.json"),
            path.join("new/estimates.json"),
        );
        if benchmark.exists() && estimates.exists() {
            let b: Value = serde_json::from_str(&std::fs::read_to_string(&benchmark)?)?;
            let e: Value = serde_json::from_str(&std::fs::read_to_string(&estimates)?)?;
            let elements = b["throughput"]["Elements"].as_f64().unwrap_or(1.0);
            let mean_ns = e["mean"]["point_estimate"].as_f64().unwrap_or(f64::NAN);
            let id = b["full_id"].as_str().unwrap_or_default().to_owned();
            out.insert(id, json!(mean_ns / elements));
        } else if path.file_name().is_some_and(|n| n != "report") {
            collect(&path, out)?;
        }
    }
    Ok(())
}
