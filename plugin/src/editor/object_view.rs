//! The struck object drawn as it is, its strike point and pickups as markers the mouse drags, and its modes for the key last played.

use super::control::Param;
use egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Response, Sense, Shape, Stroke, Ui, Vec2,
    WidgetInfo,
};
use nice_plug::context::gui::ParamSetter;
use std::f64::consts::PI;
use urto_dsp::body::DropBody;
use urto_dsp::resonator::{object_modes, Marker, Mode, ObjectKind, ObjectSpec, MAX_MODES};
use urto_dsp::voice::{Patch, PlayMode};

/// The markers' accessible names (the tests drag them by these).
pub const STRIKE_POINT: &str = "Strike point";
pub const LEFT_PICKUP: &str = "Left pickup";
pub const RIGHT_PICKUP: &str = "Right pickup";
/// How long a struck point stays lit, s.
const LIT_S: f64 = 0.3;
/// Modes listed by name; the rest are drawn in the spectrum only.
const LISTED_MODES: usize = 6;
const STRIKE_COLOR: Color32 = Color32::from_rgb(240, 120, 60);
const LIT_COLOR: Color32 = Color32::from_rgb(255, 230, 80);
const LEFT_COLOR: Color32 = Color32::from_rgb(90, 160, 255);
const RIGHT_COLOR: Color32 = Color32::from_rgb(110, 215, 130);
const BODY_COLOR: Color32 = Color32::from_rgb(120, 110, 95);
const EDGE: Stroke = Stroke {
    width: 1.5,
    color: Color32::from_rgb(200, 190, 170),
};

/// One mode as the view lists it.
#[derive(Clone, Copy)]
struct ModeRow {
    freq_hz: f64,
    t60_s: f64,
    /// Its level at the pickups for a strike, dB re the strongest mode.
    level_db: f64,
}

/// The view's state: the modes last computed (for which object and key), and when a note last lit
/// the strike point.
#[derive(Default)]
pub struct ObjectView {
    computed_for: Option<(ObjectSpec, u64)>,
    modes: Vec<ModeRow>,
    /// The count of notes played last seen (none before the first frame: a note played before
    /// the editor opened lights nothing).
    played: Option<u32>,
    lit_at_s: f64,
}

/// The parameters the markers set, in [`Marker::ALL`]'s order.
pub type MarkerParams<'a> = [Param<'a>; 3];

impl ObjectView {
    /// Draw the object, its markers and its modes in `size`; `played` counts the notes started
    /// (the key last played in its low byte).
    pub fn show(
        &mut self,
        ui: &mut Ui,
        size: Vec2,
        patch: &Patch,
        markers: &MarkerParams,
        setter: &ParamSetter,
        played: u32,
    ) {
        let key = (played & 0xff) as u8;
        let key = if played == 0 { 60 } else { key };
        let now_s = ui.input(|i| i.time);
        if self.played.is_some_and(|seen| seen != played) {
            self.lit_at_s = now_s;
        } else if self.played.is_none() {
            self.lit_at_s = f64::NEG_INFINITY;
        }
        self.played = Some(played);
        let lit = now_s - self.lit_at_s < LIT_S;
        if lit {
            ui.ctx().request_repaint();
        }
        let spec = ObjectSpec {
            f0_hz: patch.tuning.f0_hz(key),
            ..patch.object
        };
        self.update_modes(&spec, patch.object_radiating_size_m());
        ui.horizontal(|ui| {
            let drawing = Vec2::new(size.x * 0.58, size.y);
            ui.vertical(|ui| {
                ui.set_width(drawing.x);
                self.caption(ui, patch, key);
                let (rect, _) =
                    ui.allocate_exact_size(drawing - Vec2::new(0.0, 26.0), Sense::hover());
                draw_object(ui, rect, patch, markers, setter, lit);
            });
            ui.vertical(|ui| self.mode_list(ui, size.x * 0.4, size.y));
        });
    }

    /// The object's material, kind, size and mass, and the key its modes are listed for (in
    /// Drop mode, the object is the floor).
    fn caption(&self, ui: &mut Ui, patch: &Patch, key: u8) {
        let floor = if patch.mode == PlayMode::Drop {
            " floor"
        } else {
            ""
        };
        let text = format!(
            "{} {}{floor} · {:.2} m · {:.3} kg · key {key}",
            patch.object_material.name,
            patch.object.kind.name(),
            patch.object_radiating_size_m(),
            patch.object_mass_kg,
        );
        ui.add(egui::Label::new(text).truncate());
    }

    /// Recompute the modes when the object or its key changed (the plates' radiation costs a
    /// few µs per mode: not every frame).
    fn update_modes(&mut self, spec: &ObjectSpec, size_m: f64) {
        let key = (*spec, size_m.to_bits());
        if self.computed_for == Some(key) {
            return;
        }
        self.computed_for = Some(key);
        let mut modes = [Mode::SILENT; MAX_MODES];
        let count = object_modes(spec, size_m, &mut modes);
        let amplitude = |m: &Mode| {
            (m.strike_shape * m.pickup_shape * m.radiator.pressure_per_velocity(m.freq_hz)).abs()
        };
        let strongest = modes[..count].iter().map(amplitude).fold(1e-30, f64::max);
        self.modes = modes[..count]
            .iter()
            .map(|m| ModeRow {
                freq_hz: m.freq_hz,
                t60_s: m.t60_s,
                level_db: 20.0 * (amplitude(m) / strongest).max(1e-6).log10(),
            })
            .collect();
    }

    /// The lowest modes by name, then every mode as a line at its frequency, as tall as its level.
    fn mode_list(&self, ui: &mut Ui, width: f32, height: f32) {
        ui.set_width(width);
        ui.label(format!("{} modes: f · T60 · level", self.modes.len()))
            .on_hover_text(
                "The key's modes: frequency, decay time T60, and level at the pickups for a \
                 strike at the strike point, radiated to the listener (dB re the strongest).",
            );
        egui::Grid::new("modes")
            .num_columns(3)
            .spacing([10.0, 0.0])
            .show(ui, |ui| {
                for m in self.modes.iter().take(LISTED_MODES) {
                    ui.monospace(hz(m.freq_hz));
                    ui.monospace(format!("{:.2} s", m.t60_s));
                    // Rounded, then + 0.0: no "-0 dB" for the strongest.
                    ui.monospace(format!("{:.0} dB", m.level_db.round() + 0.0));
                    ui.end_row();
                }
            });
        let spectrum = Vec2::new(width, (height - 150.0).max(40.0));
        self.spectrum(ui, spectrum);
    }

    /// Every mode as a vertical line on a log-frequency axis, 60 dB tall.
    fn spectrum(&self, ui: &mut Ui, size: Vec2) {
        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        let (lo, hi) = (20f64.log10(), 20_000f64.log10());
        for m in &self.modes {
            let x = rect.left() + rect.width() * ((m.freq_hz.log10() - lo) / (hi - lo)) as f32;
            let tall = ((m.level_db + 60.0) / 60.0).clamp(0.02, 1.0) as f32;
            let top = rect.bottom() - rect.height() * tall;
            painter.line_segment(
                [Pos2::new(x, rect.bottom()), Pos2::new(x, top)],
                Stroke::new(1.5, STRIKE_COLOR),
            );
        }
        for (f, text) in [(100.0, "100"), (1000.0, "1k"), (10_000.0, "10k")] {
            let x = rect.left() + rect.width() * ((f64::log10(f) - lo) / (hi - lo)) as f32;
            painter.text(
                Pos2::new(x, rect.bottom() - 2.0),
                Align2::CENTER_BOTTOM,
                text,
                FontId::proportional(10.0),
                Color32::GRAY,
            );
        }
    }
}

/// A frequency in Hz, or in kHz from 1 kHz up.
fn hz(f: f64) -> String {
    if f >= 1000.0 {
        format!("{:.2} kHz", f / 1000.0)
    } else {
        format!("{f:.1} Hz")
    }
}

/// Where points of the object's plane land in `rect`: the object fitted in, its aspect kept.
struct Frame {
    origin: Pos2,
    scale: f32,
}

impl Frame {
    /// A frame showing the plane's box `min…max` centred in `rect`.
    fn fit(rect: Rect, min: [f64; 2], max: [f64; 2]) -> Self {
        let (w, h) = ((max[0] - min[0]) as f32, (max[1] - min[1]) as f32);
        let scale = (rect.width() / w).min(rect.height() / h) * 0.9;
        let centre = [
            (min[0] + max[0]) as f32 / 2.0,
            (min[1] + max[1]) as f32 / 2.0,
        ];
        Self {
            origin: rect.center() - Vec2::new(centre[0], -centre[1]) * scale,
            scale,
        }
    }

    /// The point `p` of the object's plane on the screen (its y up).
    fn at(&self, p: [f64; 2]) -> Pos2 {
        self.origin + Vec2::new(p[0] as f32, -(p[1] as f32)) * self.scale
    }
}

/// The object as seen from above (a bell's and a glass's rim, their profile beside it), with
/// its markers.
fn draw_object(
    ui: &mut Ui,
    rect: Rect,
    patch: &Patch,
    markers: &MarkerParams,
    setter: &ParamSetter,
    lit: bool,
) {
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
    let kind = patch.object.kind;
    let frame = outline(&painter, rect, kind);
    let positions = [
        patch.object.strike_position,
        patch.object.pickup_position,
        patch.object.right_pickup_position,
    ];
    // A right pickup where the left one is hears the left one's point (`object_modes`).
    let right_is_left = positions[2] == positions[1];
    for ((marker, param), x) in Marker::ALL.into_iter().zip(*markers).zip(positions) {
        let on_line = if marker == Marker::RightPickup && right_is_left {
            Marker::LeftPickup
        } else {
            marker
        };
        let place = |x: f64| lane(kind, marker, &frame, kind.marker_point(on_line, x));
        let response = marker_handle(ui, marker, place(x), param, x);
        drag_marker(ui, &response, param, setter, place);
        paint_marker(&painter, marker, place(x), lit && marker == Marker::Strike);
        if marker == Marker::Strike && patch.mode == PlayMode::Drop {
            falling_body(&painter, place(x), patch);
        }
    }
}

/// In Drop mode, the body above the point where it lands, its fall dashed, and its name.
fn falling_body(painter: &Painter, lands_at: Pos2, patch: &Patch) {
    let above = lands_at - Vec2::new(0.0, 56.0);
    painter.add(Shape::dashed_line(
        &[above + Vec2::new(0.0, 10.0), lands_at - Vec2::new(0.0, 9.0)],
        Stroke::new(1.0, Color32::GRAY),
        3.0,
        3.0,
    ));
    let fill = Color32::from_rgb(190, 190, 200);
    let body = match patch.drop.body {
        DropBody::Sphere => Shape::circle_filled(above, 7.0, fill),
        DropBody::Ring => Shape::circle_stroke(above, 7.0, Stroke::new(2.5, fill)),
        DropBody::Coin => Shape::rect_filled(
            Rect::from_center_size(above, Vec2::new(18.0, 4.0)),
            1.0,
            fill,
        ),
        DropBody::Rod | DropBody::Spoon => Shape::line_segment(
            [above - Vec2::new(14.0, 6.0), above + Vec2::new(14.0, 6.0)],
            Stroke::new(3.0, fill),
        ),
        DropBody::Die | DropBody::Brick => {
            Shape::rect_filled(Rect::from_center_size(above, Vec2::splat(12.0)), 2.0, fill)
        }
    };
    painter.add(body);
    painter.text(
        above + Vec2::new(14.0, -4.0),
        Align2::LEFT_CENTER,
        format!(
            "{} from {:.2} m",
            patch.drop.body.name(),
            patch.fall.height_m
        ),
        FontId::proportional(11.0),
        Color32::GRAY,
    );
}

/// Where a marker at `point` of the object's plane is drawn. Where the strike point and the
/// pickups share a line (along a bar or a string, round a rim) each pickup has a lane of its
/// own beside it (below the bar, inside the rim), so that none hides another.
fn lane(kind: ObjectKind, marker: Marker, frame: &Frame, point: [f64; 2]) -> Pos2 {
    let lane = match marker {
        Marker::Strike => 0.0,
        Marker::LeftPickup => 1.0,
        Marker::RightPickup => 2.0,
    };
    match kind {
        ObjectKind::FreeBar
        | ObjectKind::MarimbaBar
        | ObjectKind::XylophoneBar
        | ObjectKind::GlockenspielBar
        | ObjectKind::Chime
        | ObjectKind::String
        | ObjectKind::SteelString => frame.at(point) + Vec2::new(0.0, 18.0 * lane as f32),
        ObjectKind::Bell | ObjectKind::Glass => {
            let r = 1.0 - 0.2 * lane;
            frame.at([r * point[0], r * point[1]])
        }
        _ => frame.at(point),
    }
}

/// A marker's drag, one host gesture: the marker goes to the point of its line nearest the pointer.
fn drag_marker(
    ui: &Ui,
    response: &Response,
    param: Param,
    setter: &ParamSetter,
    place: impl Fn(f64) -> Pos2,
) {
    if response.drag_started() {
        param.begin(ui.ctx(), setter);
    }
    if let (true, Some(pointer)) = (response.dragged(), response.interact_pointer_pos()) {
        let distance = |x: f64| place(x).distance(pointer);
        let nearest = (0..=400)
            .map(|i| f64::from(i) / 400.0)
            .min_by(|a, b| distance(*a).total_cmp(&distance(*b)))
            .unwrap_or(0.0);
        param.move_to(setter, nearest as f32);
    }
    if response.drag_stopped() && super::control::take_open_gesture(ui.ctx()).is_some() {
        param.end(setter);
    }
}

/// The marker's handle: dragged, it moves the marker along its line.
fn marker_handle(ui: &mut Ui, marker: Marker, at: Pos2, param: Param, x: f64) -> Response {
    let id = ui.make_persistent_id(("marker", param.id));
    let rect = Rect::from_center_size(at, Vec2::splat(18.0));
    let response = ui.interact(rect, id, Sense::drag());
    let name = marker_name(marker);
    response.widget_info(|| WidgetInfo::slider(true, x, name));
    response.on_hover_text(format!(
        "{name}: {} — drag it along the object.",
        param.text(param.normalized())
    ))
}

/// The marker's accessible name.
fn marker_name(marker: Marker) -> &'static str {
    match marker {
        Marker::Strike => STRIKE_POINT,
        Marker::LeftPickup => LEFT_PICKUP,
        Marker::RightPickup => RIGHT_PICKUP,
    }
}

/// The strike point as a dot (glowing while `lit`), a pickup as a triangle with its letter.
fn paint_marker(painter: &Painter, marker: Marker, at: Pos2, lit: bool) {
    match marker {
        Marker::Strike => {
            if lit {
                painter.circle_filled(at, 11.0, LIT_COLOR.gamma_multiply(0.6));
            }
            painter.circle_filled(at, 6.5, if lit { LIT_COLOR } else { STRIKE_COLOR });
            painter.circle_stroke(at, 6.5, Stroke::new(1.0, Color32::BLACK));
        }
        Marker::LeftPickup | Marker::RightPickup => {
            let (color, letter) = if marker == Marker::LeftPickup {
                (LEFT_COLOR, "L")
            } else {
                (RIGHT_COLOR, "R")
            };
            let up = [
                at + Vec2::new(0.0, -7.0),
                at + Vec2::new(6.5, 5.0),
                at + Vec2::new(-6.5, 5.0),
            ];
            painter.add(Shape::convex_polygon(
                up.to_vec(),
                color,
                Stroke::new(1.0, Color32::BLACK),
            ));
            painter.text(
                at + Vec2::new(8.0, -10.0),
                Align2::LEFT_CENTER,
                letter,
                FontId::proportional(11.0),
                color,
            );
        }
    }
}

/// Draw the object's outline in `rect`, and return the frame its markers are placed in.
fn outline(painter: &Painter, rect: Rect, kind: ObjectKind) -> Frame {
    match kind {
        ObjectKind::FreeBar
        | ObjectKind::GlockenspielBar
        | ObjectKind::Chime
        | ObjectKind::String
        | ObjectKind::SteelString => straight(painter, rect, kind),
        ObjectKind::MarimbaBar | ObjectKind::XylophoneBar => marimba(painter, rect),
        ObjectKind::RectangularPlate | ObjectKind::Plank => {
            let aspect = kind.plate_aspect();
            let frame = Frame::fit(rect, [-0.05, -0.05], [1.05, aspect + 0.05]);
            let corners = Rect::from_two_pos(frame.at([0.0, 0.0]), frame.at([1.0, aspect]));
            painter.rect(corners, 1.0, BODY_COLOR, EDGE, egui::StrokeKind::Middle);
            frame
        }
        ObjectKind::CircularPlate | ObjectKind::Membrane | ObjectKind::Kettledrum => {
            let frame = Frame::fit(rect, [-1.1, -1.1], [1.1, 1.1]);
            let centre = frame.at([0.0, 0.0]);
            painter.circle(centre, frame.scale, BODY_COLOR, EDGE);
            if kind.is_drum_head() {
                painter.circle_stroke(centre, frame.scale, Stroke::new(5.0, Color32::DARK_GRAY));
            }
            frame
        }
        ObjectKind::Bell | ObjectKind::Glass => rim(painter, rect, kind),
    }
}

/// A bar seen from above (its fundamental's nodal lines dashed), or a string between bridges.
fn straight(painter: &Painter, rect: Rect, kind: ObjectKind) -> Frame {
    let frame = Frame::fit(rect, [-0.05, -0.25], [1.05, 0.25]);
    if matches!(kind, ObjectKind::String | ObjectKind::SteelString) {
        for x in [0.0, 1.0] {
            let foot = frame.at([x, 0.0]);
            painter.line_segment(
                [foot + Vec2::new(0.0, -10.0), foot + Vec2::new(0.0, 10.0)],
                Stroke::new(4.0, BODY_COLOR),
            );
        }
        painter.line_segment([frame.at([0.0, 0.0]), frame.at([1.0, 0.0])], EDGE);
        return frame;
    }
    let half = urto_dsp::resonator::BAR_WIDTH_PER_LENGTH / 2.0;
    let body = Rect::from_two_pos(frame.at([0.0, -half]), frame.at([1.0, half]));
    painter.rect(body, 2.0, BODY_COLOR, EDGE, egui::StrokeKind::Middle);
    // The free–free fundamental's nodes, 0.224 and 0.776 of the length (Fletcher & Rossing §2.14).
    for x in [0.224, 0.776] {
        painter.add(Shape::dashed_line(
            &[frame.at([x, -half]), frame.at([x, half])],
            Stroke::new(1.0, Color32::GRAY),
            4.0,
            3.0,
        ));
    }
    frame
}

/// A tuned (marimba or xylophone) bar from the side: flat on top, its undercut arched below
/// between 0.15 and 0.85 of its length (the arch that tunes its overtones).
fn marimba(painter: &Painter, rect: Rect) -> Frame {
    let frame = Frame::fit(rect, [-0.05, -0.25], [1.05, 0.1]);
    let (thick, thin) = (0.07, 0.025);
    let underside = |x: f64| {
        let cut = if (0.15..=0.85).contains(&x) {
            ((x - 0.15) / 0.7 * PI).sin()
        } else {
            0.0
        };
        -(thick - (thick - thin) * cut)
    };
    const SLICES: u32 = 80;
    for i in 0..SLICES {
        let (a, b) = (
            f64::from(i) / f64::from(SLICES),
            f64::from(i + 1) / f64::from(SLICES),
        );
        let slice = Rect::from_two_pos(frame.at([a, 0.0]), frame.at([b, underside(0.5 * (a + b))]));
        painter.rect_filled(slice.expand2(Vec2::new(0.5, 0.0)), 0.0, BODY_COLOR);
    }
    let mut outline = vec![frame.at([0.0, 0.0]), frame.at([1.0, 0.0])];
    outline.extend((0..=SLICES).rev().map(|i| {
        let x = f64::from(i) / f64::from(SLICES);
        frame.at([x, underside(x)])
    }));
    painter.add(Shape::closed_line(outline, EDGE));
    frame
}

/// A bell's or a glass's rim seen from above (its markers at their angle round it, half a turn
/// from 0 to 1) and its profile from the side.
fn rim(painter: &Painter, rect: Rect, kind: ObjectKind) -> Frame {
    let (left, right) = rect.split_left_right_at_fraction(0.4);
    profile(painter, left, kind);
    let frame = Frame::fit(right, [-1.15, -1.15], [1.15, 1.15]);
    let centre = frame.at([0.0, 0.0]);
    painter.circle(centre, frame.scale, BODY_COLOR, EDGE);
    painter.circle_stroke(
        centre,
        frame.scale * 0.85,
        Stroke::new(1.0, Color32::DARK_GRAY),
    );
    frame
}

/// A bell's or a glass's silhouette, as points (half-width, height) of its right side.
fn profile(painter: &Painter, rect: Rect, kind: ObjectKind) {
    let right: &[[f64; 2]] = match kind {
        ObjectKind::Bell => &[
            [0.08, 1.0],
            [0.22, 0.97],
            [0.3, 0.85],
            [0.33, 0.6],
            [0.38, 0.35],
            [0.47, 0.15],
            [0.55, 0.03],
            [0.5, 0.0],
        ],
        _ => &[
            [0.36, 1.0],
            [0.38, 0.8],
            [0.34, 0.62],
            [0.2, 0.5],
            [0.03, 0.45],
            [0.03, 0.08],
            [0.25, 0.02],
            [0.25, 0.0],
        ],
    };
    let frame = Frame::fit(rect, [-0.6, -0.05], [0.6, 1.05]);
    let side: Vec<Pos2> = right
        .iter()
        .map(|p| frame.at(*p))
        .chain(right.iter().rev().map(|p| frame.at([-p[0], p[1]])))
        .collect();
    painter.add(Shape::closed_line(side, EDGE));
}
