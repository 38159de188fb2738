//! A parameter's control, for any parameter: a slider, a knob, a choice or a switch, named for assistive technology, with its tooltip, double-click reset, fine drag and typed values.

use super::help;
use egui::{
    Align2, Color32, FontId, Key, Pos2, Rect, Response, Role, Sense, Stroke, StrokeKind, TextEdit,
    Ui, Vec2, WidgetInfo,
};
use nice_plug::context::gui::ParamSetter;
use nice_plug::prelude::ParamPtr;
use std::f32::consts::PI;

/// Pixels of drag that sweep a knob's whole range (shift divides the speed by [`FINE`]).
const KNOB_SWEEP_PX: f32 = 200.0;
/// How much finer a drag is with shift held.
const FINE: f32 = 10.0;
/// A slider's height and its value box's width, logical pixels.
const SLIDER_HEIGHT: f32 = 18.0;
const VALUE_WIDTH: f32 = 86.0;
/// A list's width, logical pixels (a longer value is cut short; the list shows it whole).
const CHOICE_WIDTH: f32 = 150.0;
/// Choices with at most this many steps are offered as a list, more as a slider.
const MAX_LISTED_STEPS: usize = 24;

/// One parameter of the editor's, by stable id.
#[derive(Clone, Copy)]
pub struct Param<'a> {
    pub id: &'a str,
    ptr: ParamPtr,
}

// SAFETY (for every `unsafe` block in this impl): `ptr` points into the `UrtoParams` that the
// editor holds in an `Arc` for as long as it draws, and parameters are only read here; writes go
// through the host's `ParamSetter`.
impl<'a> Param<'a> {
    /// The parameter `id` at `ptr`, a pointer into the parameters the editor holds.
    pub(super) fn new(id: &'a str, ptr: ParamPtr) -> Self {
        Self { id, ptr }
    }

    /// The name the host shows, and the control's accessible name.
    pub fn name(&self) -> &str {
        unsafe { self.ptr.name() }
    }

    /// The value the user set (without modulation), 0…1.
    pub fn normalized(&self) -> f32 {
        unsafe { self.ptr.unmodulated_normalized_value() }
    }

    /// The default value, 0…1.
    fn default_normalized(&self) -> f32 {
        unsafe { self.ptr.default_normalized_value() }
    }

    /// The value as text, with its unit.
    pub fn text(&self, normalized: f32) -> String {
        unsafe { self.ptr.normalized_value_to_string(normalized, true) }
    }

    /// A typed value (with or without its unit), 0…1, if it reads as one.
    fn parse(&self, text: &str) -> Option<f32> {
        unsafe { self.ptr.string_to_normalized_value(text) }
    }

    /// How many steps a stepped parameter has (its values less one).
    fn steps(&self) -> Option<usize> {
        unsafe { self.ptr.step_count() }
    }

    /// Set the value as one host gesture.
    pub fn set(&self, setter: &ParamSetter, normalized: f32) {
        unsafe { setter.raw_context.raw_begin_set_parameter(self.ptr) };
        self.move_to(setter, normalized);
        self.end(setter);
    }

    /// Begin a host gesture (a drag); it stays open, noted in `ctx`'s memory, until [`Self::end`].
    pub(super) fn begin(&self, ctx: &egui::Context, setter: &ParamSetter) {
        unsafe { setter.raw_context.raw_begin_set_parameter(self.ptr) };
        ctx.data_mut(|d| d.insert_temp(open_gesture(), self.id.to_string()));
    }

    /// Move the value within a gesture.
    pub(super) fn move_to(&self, setter: &ParamSetter, normalized: f32) {
        let normalized = normalized.clamp(0.0, 1.0);
        unsafe {
            setter
                .raw_context
                .raw_set_parameter_normalized(self.ptr, normalized)
        }
    }

    /// End the gesture.
    pub(super) fn end(&self, setter: &ParamSetter) {
        unsafe { setter.raw_context.raw_end_set_parameter(self.ptr) }
    }

    /// What hovering the control says: what it does, its value and the gestures.
    fn tooltip(&self) -> String {
        let what = help::tooltip(self.id).unwrap_or("");
        let gestures = if let ParamPtr::BoolParam(_) = self.ptr {
            "Click switches it."
        } else if self.listed() {
            "Double-click resets."
        } else {
            "Drag; shift-drag for fine steps; double-click (or ctrl-click) resets; click the \
             value to type one (with or without its unit)."
        };
        format!(
            "{}: {}\n{what}\nDefault {}. {gestures}",
            self.name(),
            self.text(self.normalized()),
            self.text(self.default_normalized())
        )
    }

    /// Offered as a list of its values (a choice or a switch) rather than dragged.
    fn listed(&self) -> bool {
        matches!(self.ptr, ParamPtr::EnumParam(_) | ParamPtr::BoolParam(_))
            && self.steps().is_some_and(|s| s <= MAX_LISTED_STEPS)
    }
}

/// How a continuous parameter is drawn.
#[derive(Clone, Copy, PartialEq)]
pub enum Look {
    /// A horizontal bar `width` wide, its value typed in the box beside it.
    Slider { width: f32 },
    /// A round knob `diameter` across, its value below it: for the controls the instrument is
    /// played with.
    Knob { diameter: f32 },
}

/// Draw `param`'s control: a list or a switch for a choice, else `look`.
pub fn control(ui: &mut Ui, param: Param, setter: &ParamSetter, look: Look) -> Response {
    let response = if let ParamPtr::BoolParam(_) = param.ptr {
        switch(ui, param, setter)
    } else if param.listed() {
        choice(ui, param, setter)
    } else {
        match look {
            Look::Slider { width } => {
                ui.horizontal(|ui| {
                    let r = slider(ui, param, setter, width);
                    value_box(ui, param, setter, VALUE_WIDTH);
                    r
                })
                .inner
            }
            Look::Knob { diameter } => {
                ui.vertical_centered(|ui| {
                    let r = knob(ui, param, setter, diameter);
                    value_box(ui, param, setter, diameter.max(VALUE_WIDTH));
                    r
                })
                .inner
            }
        }
    };
    response.on_hover_ui(|ui| {
        ui.label(param.tooltip());
    })
}

/// Where egui's memory notes the parameter (its id) whose host gesture is open: a gesture whose
/// control vanished mid-drag (its tab left, the editor closed) is ended by
/// [`take_open_gesture`]'s caller.
fn open_gesture() -> egui::Id {
    egui::Id::unique("urto-open-gesture")
}

/// The id of the parameter whose gesture is still open, no longer noted as open.
pub fn take_open_gesture(ctx: &egui::Context) -> Option<String> {
    ctx.data_mut(|d| d.remove_temp::<String>(open_gesture()))
}

/// A drag on a continuous control: where it started (normalized) plus what the pointer added,
/// kept across frames so that stepped parameters and fine drags move smoothly.
fn drag(ui: &Ui, response: &Response, param: Param, setter: &ParamSetter, per_px: Vec2) {
    let id = response.id.with("drag");
    if response.drag_started() {
        param.begin(ui.ctx(), setter);
        ui.data_mut(|d| d.insert_temp(id, param.normalized()));
    }
    if response.dragged() {
        let fine = if ui.input(|i| i.modifiers.shift) {
            1.0 / FINE
        } else {
            1.0
        };
        let delta = response.drag_delta();
        let moved = (delta.x * per_px.x + delta.y * per_px.y) * fine;
        let at = ui
            .data(|d| d.get_temp::<f32>(id))
            .unwrap_or(param.normalized())
            + moved;
        let at = at.clamp(0.0, 1.0);
        ui.data_mut(|d| d.insert_temp(id, at));
        param.move_to(setter, at);
    }
    if response.drag_stopped() && take_open_gesture(ui.ctx()).is_some() {
        param.end(setter);
    }
    let reset =
        response.double_clicked() || (response.clicked() && ui.input(|i| i.modifiers.command));
    if reset {
        param.set(setter, param.default_normalized());
    }
}

/// The accessible description of a continuous control: its name and value.
fn describe(response: &Response, param: Param) {
    let value = f64::from(param.normalized());
    let name = param.name().to_string();
    response.widget_info(|| WidgetInfo::slider(true, value, &name));
}

/// A horizontal bar `width` wide, filled to the value, dragged sideways.
fn slider(ui: &mut Ui, param: Param, setter: &ParamSetter, width: f32) -> Response {
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(width, SLIDER_HEIGHT), Sense::click_and_drag());
    drag(ui, &response, param, setter, Vec2::new(1.0 / width, 0.0));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&response);
        let painter = ui.painter();
        painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
        let mut filled = rect;
        filled.set_width(rect.width() * param.normalized());
        painter.rect_filled(filled, 3.0, ui.visuals().selection.bg_fill);
        painter.rect_stroke(rect, 3.0, visuals.bg_stroke, StrokeKind::Inside);
    }
    describe(&response, param);
    response
}

/// A knob `diameter` across, dragged up (or right) to raise it.
fn knob(ui: &mut Ui, param: Param, setter: &ParamSetter, diameter: f32) -> Response {
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(diameter), Sense::click_and_drag());
    let per_px = 1.0 / KNOB_SWEEP_PX;
    drag(ui, &response, param, setter, Vec2::new(per_px, -per_px));
    if ui.is_rect_visible(rect) {
        paint_knob(ui, &response, rect, param.normalized());
    }
    describe(&response, param);
    response
}

/// A knob's dial: a 270° track from 7:30 to 4:30 o'clock, the value's arc and its pointer.
fn paint_knob(ui: &Ui, response: &Response, rect: Rect, normalized: f32) {
    let painter = ui.painter();
    let visuals = ui.style().interact(response);
    let center = rect.center();
    let radius = rect.width() * 0.5 - 4.0;
    let angle = |x: f32| PI * (0.75 + 1.5 * x);
    let point = |x: f32, r: f32| center + r * Vec2::angled(angle(x));
    let arc = |to: f32| -> Vec<Pos2> {
        (0..=48)
            .map(|i| point(to * i as f32 / 48.0, radius))
            .collect()
    };
    let track = Stroke::new(4.0, ui.visuals().extreme_bg_color);
    painter.add(egui::Shape::line(arc(1.0), track));
    let value = Stroke::new(4.0, ui.visuals().selection.bg_fill);
    painter.add(egui::Shape::line(arc(normalized), value));
    painter.circle_filled(center, radius - 7.0, visuals.bg_fill);
    painter.line_segment(
        [
            point(normalized, radius * 0.2),
            point(normalized, radius - 8.0),
        ],
        Stroke::new(2.5, visuals.fg_stroke.color),
    );
}

/// Where egui's memory keeps the one value being typed: its parameter's id and the text so far.
fn typing() -> egui::Id {
    egui::Id::unique("urto-typing")
}

/// The value as text; clicked, a field to type a value into, the value shown greyed until typing
/// starts (Enter sets it; Escape, or a click elsewhere, cancels). One field is open at a time.
fn value_box(ui: &mut Ui, param: Param, setter: &ParamSetter, width: f32) {
    let label = format!("{} value", param.name());
    let field_id = ui.make_persistent_id(("value", param.id));
    match ui.data(|d| d.get_temp::<(String, String)>(typing())) {
        Some((id, mut text)) if id == param.id => {
            let field = ui.add(
                TextEdit::singleline(&mut text)
                    .id(field_id)
                    .hint_text(param.text(param.normalized()))
                    .desired_width(width)
                    .font(FontId::monospace(12.0)),
            );
            field.widget_info(|| WidgetInfo::labeled(Role::TextInput, true, &label));
            if ui.input(|i| i.key_pressed(Key::Enter)) {
                if let Some(normalized) = param.parse(&text) {
                    param.set(setter, normalized);
                }
                ui.data_mut(|d| d.remove::<(String, String)>(typing()));
            } else if ui.input(|i| i.key_pressed(Key::Escape)) || field.lost_focus() {
                ui.data_mut(|d| d.remove::<(String, String)>(typing()));
            } else {
                ui.data_mut(|d| d.insert_temp(typing(), (id, text)));
            }
        }
        _ => {
            let response = value_text(ui, param, width);
            response.widget_info(|| WidgetInfo::labeled(Role::Button, true, &label));
            if response.clicked() {
                let opened = (param.id.to_string(), String::new());
                ui.data_mut(|d| d.insert_temp(typing(), opened));
                ui.memory_mut(|m| m.request_focus(field_id));
            }
        }
    }
}

/// The value as text, framed while hovered: a click opens the field to type a value.
fn value_text(ui: &mut Ui, param: Param, width: f32) -> Response {
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, SLIDER_HEIGHT), Sense::click());
    ui.painter().text(
        rect.left_center() + Vec2::new(2.0, 0.0),
        Align2::LEFT_CENTER,
        param.text(param.normalized()),
        FontId::proportional(12.5),
        ui.visuals().text_color(),
    );
    if response.hovered() {
        let frame = Stroke::new(1.0, Color32::GRAY);
        ui.painter()
            .rect_stroke(rect, 2.0, frame, StrokeKind::Inside);
    }
    response
}

/// A choice: its values in a list.
fn choice(ui: &mut Ui, param: Param, setter: &ParamSetter) -> Response {
    let steps = param.steps().unwrap_or(1).max(1);
    let current = param.normalized();
    let at = |i: usize| i as f32 / steps as f32;
    let mut chosen = None;
    let response = egui::ComboBox::from_id_salt(("choice", param.id))
        .selected_text(param.text(current))
        .width(CHOICE_WIDTH)
        .truncate()
        .show_ui(ui, |ui| {
            for i in 0..=steps {
                let selected = (at(i) - current).abs() < 0.5 / steps as f32;
                if ui.selectable_label(selected, param.text(at(i))).clicked() {
                    chosen = Some(at(i));
                }
            }
        })
        .response;
    if let Some(normalized) = chosen {
        param.set(setter, normalized);
    }
    if response.double_clicked() {
        param.set(setter, param.default_normalized());
    }
    let name = param.name().to_string();
    response.widget_info(|| WidgetInfo::labeled(Role::ComboBox, true, &name));
    response
}

/// An on/off switch.
fn switch(ui: &mut Ui, param: Param, setter: &ParamSetter) -> Response {
    let mut on = param.normalized() > 0.5;
    let response = ui.checkbox(&mut on, "");
    if response.changed() {
        param.set(setter, if on { 1.0 } else { 0.0 });
    }
    let name = param.name().to_string();
    response.widget_info(|| WidgetInfo::selected(Role::CheckBox, true, on, &name));
    response
}
