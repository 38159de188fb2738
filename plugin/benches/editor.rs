//! The editor's frame cost: one frame of the whole editor at its default size, in each mode's tab, its live view showing a note of that mode just played, drawn in egui's test harness (layout and tessellation; no GPU).

use criterion::{criterion_group, criterion_main, Criterion};
use egui_kittest::Harness;
use std::sync::Arc;
use urto::editor::{headless, WINDOW_SIZE};
use urto::params::{Controllers, UrtoParams};
use urto_dsp::interaction::ContactTrace;
use urto_dsp::voice::{DropTrace, Engine, PlayMode};

/// The live views' traces after middle C at velocity 100 in the parameters' mode, two seconds on.
fn traces(params: &UrtoParams) -> (ContactTrace, DropTrace) {
    let patch = params.patch(&Controllers::default());
    let mut engine = Engine::new(48_000.0);
    engine.note_on(&patch, 60, 100.0 / 127.0);
    let mut block = [0.0f32; 480];
    for _ in 0..200 {
        engine.process(&patch, &mut block);
    }
    (
        engine.trace().copied().unwrap_or_default(),
        engine.drop_trace().copied().unwrap_or_default(),
    )
}

fn frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("editor");
    for mode in PlayMode::ALL {
        let params = Arc::new(UrtoParams::default());
        params.set_mode_directly(mode);
        let (trace, drop_trace) = traces(&params);
        let size = egui::vec2(WINDOW_SIZE.0 as f32, WINDOW_SIZE.1 as f32);
        let editor = headless(params.clone(), Arc::default(), &trace, &drop_trace);
        let mut harness = Harness::builder().with_size(size).build_ui(editor);
        harness.run_steps(2);
        group.bench_function(format!("frame_{}", mode.id()), |b| {
            b.iter(|| harness.step())
        });
    }
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
