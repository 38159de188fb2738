//! The engine's audio path (note-on and process) never allocates, checked by assert_no_alloc.

use assert_no_alloc::{assert_no_alloc, AllocDisabler};
use urto_dsp::voice::{Engine, Patch};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

#[test]
fn note_on_and_process_do_not_allocate() {
    let mut engine = Engine::new(48_000.0);
    let patch = Patch {
        release_fraction: 0.2,
        ..Patch::default()
    };
    let mut out = vec![0.0f32; 1024];
    assert_no_alloc(|| {
        for i in 0..200u8 {
            engine.note_on(&patch, 30 + i % 70, f32::from(i % 10) / 10.0);
            engine.note_off(&patch, 30 + (i + 35) % 70);
            engine.process(&patch, &mut out[..(1 + usize::from(i) * 5) % 1024]);
        }
    });
}
