//! The plugin built with `nice-plug/assert_process_allocs` (debug) renders dense notes without
//! aborting: any allocation in process() kills the host process and fails this test.

use urto_host_tests::{render, Note};

#[test]
fn process_does_not_allocate() {
    let Some(path) = std::env::var_os("URTO_CLAP_NO_ALLOC") else {
        panic!("URTO_CLAP_NO_ALLOC must name the assert_process_allocs debug build (cargo xtask test sets it)");
    };
    let notes: Vec<Note> = (0..300u64)
        .map(|i| Note {
            at_sample: i * 97,
            key: 24 + (i * 7 % 80) as u8,
            velocity: (i % 10) as f64 / 9.0,
        })
        .collect();
    let out = render(std::path::Path::new(&path), 44_100.0, 333, &notes, 44_100).expect("render");
    assert!(out.iter().all(|x| x.is_finite()));
    assert!(out.iter().any(|x| *x != 0.0));
}
