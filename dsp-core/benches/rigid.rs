//! The cost of one rigid-body impact: Jia–Wang's exact solver and its Algorithm 1 (fixed and variable steps) on the paper's pin–ball and icosahedron, and PLUS on its corner brick (Table A1) and flat brick.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use urto_dsp::rigid::jia_wang::{self, examples as jw, Method};
use urto_dsp::rigid::plus::{examples as plus, Plus};

fn jia_wang(c: &mut Criterion) {
    let mut group = c.benchmark_group("rigid_jia_wang");
    for example in [jw::pin_ball(), jw::icosa()] {
        let step = example.printed.table1.map_or(1e-3, |t| t.fs_step_n_s);
        let methods = [
            ("exact", Method::Exact),
            ("algorithm1_fs", Method::Algorithm1Fixed { step_n_s: step }),
            ("algorithm1_vs", jw::PAPER_VARIABLE_STEP),
        ];
        for (name, method) in methods {
            let id = format!("{}_{name}", example.name.replace('-', "_"));
            group.bench_function(id, |b| {
                b.iter(|| jia_wang::solve(black_box(&example.problem), method))
            });
        }
    }
    group.finish();
}

fn plus_brick(c: &mut Criterion) {
    let mut group = c.benchmark_group("rigid_plus");
    let mut solver = Plus::new();
    let (mu, e_min) = plus::TABLE_A1_MU_E_MIN[2];
    for (theta_max, name) in [(0.01, "brick_theta_0_01"), (0.15, "brick_theta_0_15")] {
        let scenario = plus::corner_brick(mu, e_min, theta_max);
        group.bench_function(name, |b| b.iter(|| black_box(&scenario).solve(&mut solver)));
    }
    let flat = plus::flat_brick(glam::DVec3::from(plus::FLAT_BRICK_VELOCITY_M_PER_S));
    group.bench_function("flat_brick", |b| {
        b.iter(|| black_box(&flat).solve(&mut solver))
    });
    group.finish();
}

criterion_group!(benches, jia_wang, plus_brick);
criterion_main!(benches);
