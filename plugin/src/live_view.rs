//! The editor's live view of each mode: the last impact against eqs. (3), (6) and (20) and its rebounds, the drop's heights and impacts, the slide's stick and slip and friction loop.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use urto_dsp::analytic::Impact;
use urto_dsp::interaction::ContactTrace;
use urto_dsp::voice::{DropTrace, SlideTrace};

pub(crate) const SIMULATED: Color32 = Color32::from_rgb(90, 170, 255);
const ANALYTIC: Color32 = Color32::from_rgb(255, 170, 60);
const IMPACT: Color32 = Color32::from_rgb(255, 90, 90);
const AXES: Color32 = Color32::from_gray(110);
const LABEL: Color32 = Color32::from_gray(190);

/// A series of (x, y) points and its colour.
pub(crate) struct Series {
    pub points: Vec<(f64, f64)>,
    pub color: Color32,
}

/// Draw `series` in a box of `size` with its title and the axes' names and ranges.
pub(crate) fn plot(
    ui: &mut egui::Ui,
    size: Vec2,
    title: &str,
    x_name: &str,
    y_name: &str,
    series: &[Series],
) {
    let (response, painter) = ui.allocate_painter(size, Sense::hover());
    let frame = response.rect;
    let area = Rect::from_min_max(
        frame.min + Vec2::new(8.0, 30.0),
        frame.max - Vec2::new(8.0, 16.0),
    );
    painter.rect_stroke(frame, 3.0, Stroke::new(1.0, AXES), StrokeKind::Inside);
    let small = FontId::proportional(11.0);
    painter.text(
        frame.min + Vec2::new(6.0, 3.0),
        Align2::LEFT_TOP,
        title,
        small.clone(),
        LABEL,
    );
    let all = series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|(x, y)| x.is_finite() && y.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if !(x1 > x0 && y1 >= y0) {
        painter.text(
            area.center(),
            Align2::CENTER_CENTER,
            "play a note to see it",
            small,
            AXES,
        );
        return;
    }
    let pad = 0.05 * (y1 - y0).max(y1.abs() * 1e-6).max(1e-30);
    let (y0, y1) = (y0 - pad, y1 + pad);
    let to_screen = |(x, y): (f64, f64)| {
        Pos2::new(
            area.left() + ((x - x0) / (x1 - x0)) as f32 * area.width(),
            area.bottom() - ((y - y0) / (y1 - y0)) as f32 * area.height(),
        )
    };
    if y0 < 0.0 && y1 > 0.0 {
        let zero = to_screen((x0, 0.0)).y;
        painter.line_segment(
            [Pos2::new(area.left(), zero), Pos2::new(area.right(), zero)],
            Stroke::new(0.5, AXES),
        );
    }
    for s in series {
        let points: Vec<Pos2> = s
            .points
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .map(|&p| to_screen(p))
            .collect();
        painter.line(points, Stroke::new(1.5, s.color));
    }
    painter.text(
        Pos2::new(frame.left() + 6.0, frame.bottom() - 2.0),
        Align2::LEFT_BOTTOM,
        format!("{x_name}: {x0:.3e} … {x1:.3e}"),
        small.clone(),
        LABEL,
    );
    painter.text(
        frame.min + Vec2::new(6.0, 16.0),
        Align2::LEFT_TOP,
        format!("{y_name}: {y0:.2e} … {y1:.2e}"),
        small,
        LABEL,
    );
}

/// The rigid-wall impact with the trace's contact, for the analytic curves.
fn wall(trace: &ContactTrace) -> Impact {
    Impact {
        stiffness: trace.law.stiffness,
        mu_s_per_m: trace.law.mu_s_per_m,
        alpha: trace.law.alpha,
        mass_kg: trace.mass_kg,
        v_in_m_per_s: trace.v_in_m_per_s,
    }
}

/// The live view: four plots, each `plot_height` tall, and a line of figures.
pub fn show(ui: &mut egui::Ui, trace: &ContactTrace, plot_height: f32) {
    let points = trace.points();
    let have = points.len() > 1 && trace.mass_kg > 0.0;
    let impact = wall(trace);
    let width = (ui.available_width() - 12.0) / 2.0;
    let size = Vec2::new(width.max(160.0), plot_height);
    // Phase portrait: simulated (x, v) and x(v) of eq. (3) through (0, v_in).
    let simulated = Series {
        points: points
            .iter()
            .map(|p| (f64::from(p.x_m), f64::from(p.v_m_per_s)))
            .collect(),
        color: SIMULATED,
    };
    let analytic = Series {
        points: if have {
            let v_end = if trace.v_out_m_per_s.is_finite() {
                trace.v_out_m_per_s
            } else {
                impact.v_out_exact_m_per_s()
            };
            (0..=200)
                .map(|i| trace.v_in_m_per_s + (v_end - trace.v_in_m_per_s) * f64::from(i) / 200.0)
                .map(|v| (impact.x_of_v_m(v), v))
                .collect()
        } else {
            vec![]
        },
        color: ANALYTIC,
    };
    ui.horizontal(|ui| {
        plot(
            ui,
            size,
            "phase portrait (x, v) · eq. (3)",
            "x (m)",
            "v (m/s)",
            &[analytic, simulated],
        );
        let loop_ = Series {
            points: points
                .iter()
                .map(|p| (f64::from(p.x_m), f64::from(p.force_n)))
                .collect(),
            color: SIMULATED,
        };
        plot(
            ui,
            size,
            "force–compression loop",
            "x (m)",
            "F (N)",
            &[loop_],
        );
    });
    ui.horizontal(|ui| {
        let energy = Series {
            points: points
                .iter()
                .map(|p| (f64::from(p.t_s) * 1e3, f64::from(p.energy_j)))
                .collect(),
            color: SIMULATED,
        };
        let hamiltonian = Series {
            points: if have {
                points
                    .iter()
                    .map(|p| {
                        (
                            f64::from(p.t_s) * 1e3,
                            impact.hamiltonian_of_v_j(f64::from(p.v_m_per_s)),
                        )
                    })
                    .collect()
            } else {
                vec![]
            },
            color: ANALYTIC,
        };
        plot(
            ui,
            size,
            "energy · H(v) eq. (20)",
            "t (ms)",
            "E (J)",
            &[hamiltonian, energy],
        );
        let count = trace.onset_count.max(1);
        // A staircase from the strike: one step up per contact.
        let mut steps = vec![(0.0, 0.0)];
        for (i, &t) in trace.onsets_s[..trace.onset_count].iter().enumerate() {
            let t = f64::from(t);
            steps.push((t, i as f64));
            steps.push((t, (i + 1) as f64));
        }
        let timeline = Series {
            points: steps,
            color: SIMULATED,
        };
        plot(
            ui,
            size,
            &format!("rebound timeline ({count} contacts)"),
            "t (s)",
            "contacts",
            &[timeline],
        );
    });
    if have {
        let exact = impact.v_out_exact_m_per_s();
        let error_pct = 100.0 * (trace.v_out_m_per_s - exact) / exact;
        ui.small(format!(
            "contact {} samples × {} sub-steps · v_in {:.4} m/s · v_out {:.4} m/s · exact (eq. 6, rigid wall) {:.4} m/s · error {:+.4} %",
            trace.contact_samples, trace.substeps, trace.v_in_m_per_s, trace.v_out_m_per_s, exact, error_pct
        ));
    }
}

/// The drop mode's live view: the body's lowest point above the floor and its tilt against
/// time, each plot `plot_height` tall, every impact a red mark (its height the impact's share of
/// the largest impulse), and a line of figures.
pub fn show_drop(ui: &mut egui::Ui, trace: &DropTrace, plot_height: f32) {
    let width = (ui.available_width() - 12.0) / 2.0;
    let size = Vec2::new(width.max(160.0), plot_height);
    let poses = trace.poses();
    let impacts = trace.impacts();
    let height = Series {
        points: poses
            .iter()
            .map(|p| (f64::from(p.t_s), 1e3 * f64::from(p.height_m)))
            .collect(),
        color: SIMULATED,
    };
    let top_mm = poses
        .iter()
        .fold(0.0f64, |m, p| m.max(1e3 * f64::from(p.height_m)));
    let largest = impacts
        .iter()
        .fold(0.0f32, |m, i| m.max(i.normal_impulse_n_s))
        .max(f32::MIN_POSITIVE);
    let marks = |scale: f64| -> Vec<Series> {
        impacts
            .iter()
            .map(|i| {
                let (t, share) = (f64::from(i.t_s), f64::from(i.normal_impulse_n_s / largest));
                Series {
                    points: vec![(t, 0.0), (t, scale * share)],
                    color: IMPACT,
                }
            })
            .collect()
    };
    let tilt = Series {
        points: poses
            .iter()
            .map(|p| (f64::from(p.t_s), f64::from(p.tilt_rad).to_degrees()))
            .collect(),
        color: ANALYTIC,
    };
    ui.horizontal(|ui| {
        let mut series = marks(0.5 * top_mm);
        series.push(height);
        plot(
            ui,
            size,
            "height above the floor · red: impacts",
            "t (s)",
            "height (mm)",
            &series,
        );
        let mut series = marks(180.0);
        series.push(tilt);
        plot(
            ui,
            size,
            "tilt from the vertical",
            "t (s)",
            "tilt (°)",
            &series,
        );
    });
    let rest = if trace.rest_s.is_finite() {
        format!("at rest after {:.3} s", trace.rest_s)
    } else {
        "moving".to_string()
    };
    ui.small(format!(
        "{} impacts, the largest {:.3e} N·s; {rest}",
        impacts.len(),
        largest
    ));
}

/// The slide mode's live view over the trace's last window, each plot `plot_height` tall: the
/// slip velocity against time with the sticking stretches marked red, and the friction force
/// against the slip velocity (the loop stick–slip traces) over the law's steady curve at the
/// window's mean normal force; and a line of figures.
pub fn show_slide(ui: &mut egui::Ui, trace: &SlideTrace, plot_height: f32) {
    let width = (ui.available_width() - 12.0) / 2.0;
    let size = Vec2::new(width.max(160.0), plot_height);
    let points = trace.points();
    let series = stick_and_slip(trace);
    let normal_n = points.iter().map(|p| f64::from(p.normal_n)).sum::<f64>() / points.len() as f64;
    ui.horizontal(|ui| {
        plot(
            ui,
            size,
            "stick and slip · red: sticking",
            "t (ms)",
            "slip velocity (m/s)",
            &series,
        );
        plot(
            ui,
            size,
            "friction loop · orange: the law in steady sliding",
            "slip velocity (m/s)",
            "friction (N)",
            &friction_loop(trace, normal_n),
        );
    });
    if points.is_empty() {
        ui.small("play a note to see the slider stick and slip");
        return;
    }
    let cycles = trace.stick_slip_hz();
    let rhythm = if cycles.is_finite() {
        format!(
            "stick–slip at {cycles:.1} Hz, sticking {:.0} % of the time",
            100.0 * trace.sticking_share()
        )
    } else if points.iter().any(|p| p.sticking) {
        "sticking".to_string()
    } else {
        "sliding".to_string()
    };
    ui.small(format!(
        "{rhythm}; normal force {normal_n:.3} N; the bristle's Newton {:.2} iterations a step on \
         average, {} at most",
        trace.iterations_mean, trace.iterations_max
    ));
}

/// The slip velocity against time (ms) over the window, zero kept in view (so a ripple on a
/// steady slide shows as the ripple it is), and a red stretch along zero per run of sticking
/// samples.
fn stick_and_slip(trace: &SlideTrace) -> Vec<Series> {
    let points = trace.points();
    let ms_per_sample = 1e3 / trace.sample_rate_hz;
    let t_ms = |i: usize| i as f64 * ms_per_sample;
    let mut series: Vec<Series> = points
        .chunk_by(|a, b| a.sticking == b.sticking)
        .scan(0, |start, run| {
            let begun = *start;
            *start += run.len();
            Some((begun, run))
        })
        .filter(|(_, run)| run[0].sticking)
        .map(|(begun, run)| Series {
            points: vec![(t_ms(begun), 0.0), (t_ms(begun + run.len()), 0.0)],
            color: IMPACT,
        })
        .collect();
    series.push(Series {
        points: vec![(0.0, 0.0), (t_ms(points.len()), 0.0)],
        color: AXES,
    });
    series.push(Series {
        points: points
            .iter()
            .enumerate()
            .map(|(i, p)| (t_ms(i), f64::from(p.slip_m_per_s)))
            .collect(),
        color: SIMULATED,
    });
    series
}

/// The friction force against the slip velocity over the window, and the law's steady force
/// F_ss(v) at `normal_n` over the same velocities, one branch each side of zero.
fn friction_loop(trace: &SlideTrace, normal_n: f64) -> Vec<Series> {
    let points = trace.points();
    let reach = points
        .iter()
        .fold(0.0f64, |m, p| m.max(f64::from(p.slip_m_per_s.abs())));
    let branch = |sign: f64| Series {
        points: (1..=64)
            .map(|i| {
                let v = sign * reach * f64::from(i) / 64.0;
                (v, trace.law.steady_force_n(normal_n, v))
            })
            .collect(),
        color: ANALYTIC,
    };
    let simulated = Series {
        points: points
            .iter()
            .map(|p| (f64::from(p.slip_m_per_s), f64::from(p.friction_n)))
            .collect(),
        color: SIMULATED,
    };
    vec![branch(-1.0), branch(1.0), simulated]
}
