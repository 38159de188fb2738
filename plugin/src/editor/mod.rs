//! The egui editor: the preset browser, one tab per play mode, the object drawn with its markers, the contact's knobs beside the live view, and the mode's other controls in columns.

mod browser;
mod control;
mod help;
mod layout;
mod object_view;
#[cfg(test)]
mod tests;

use crate::live_view;
use crate::params::{Controllers, DampingFromChoice, LawChoice, ModeChoice, UrtoParams};
use browser::Browser;
use control::{control, Look, Param};
use layout::Line;
use nice_plug::context::gui::{GuiContext, GuiContextInner, ParamSetter};
use nice_plug::context::PluginApi;
use nice_plug::editor::{ResizeHint, SizeConstraints};
use nice_plug::plugin::PluginState;
use nice_plug::prelude::{ParamPtr, Params};
use nice_plug_egui::{
    create_egui_editor, EguiEditor, EguiEditorState, EguiNiceSettings, NiceEguiApp, RepaintNotifier,
};
use object_view::{MarkerParams, ObjectView};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use urto_dsp::interaction::{ContactTrace, Damping};
use urto_dsp::voice::{DropTrace, Patch, PlayMode, SlideTrace};

/// The editor's default window size in logical pixels; every control of the current mode fits
/// in it without scrolling (the tests check).
pub const WINDOW_SIZE: (u32, u32) = (1240, 800);
/// The smallest the window may be made (the controls then scroll).
const MIN_SIZE: (u32, u32) = (720, 520);
/// The top band's height (object, knobs, live view), at the default size.
const BAND_HEIGHT: f32 = 232.0;
/// Room in a column for a parameter's name (the longest, "Right pickup position", is 140 wide),
/// and for its value beside its slider.
const LABEL_WIDTH: f32 = 150.0;
const VALUE_ROOM: f32 = 100.0;
const KNOB_DIAMETER: f32 = 58.0;
/// The room of one knob with its name and value.
const KNOB_CELL: egui::Vec2 = egui::vec2(100.0, 112.0);

/// What the editor shares with the audio thread: the live views' traces (the GUI side of triple
/// buffers: the audio thread writes without locks, the GUI reads the latest), the strike button,
/// and the notes played.
#[derive(Clone)]
pub struct Shared {
    pub trace: Arc<Mutex<triple_buffer::Output<ContactTrace>>>,
    /// The drop mode's live view, shared the same way.
    pub drop_trace: Arc<Mutex<triple_buffer::Output<DropTrace>>>,
    /// The slide mode's.
    pub slide_trace: Arc<Mutex<triple_buffer::Output<SlideTrace>>>,
    /// Held down: the audio thread plays a note while it is set.
    pub strike_held: Arc<AtomicBool>,
    /// Notes started so far (above the low byte) and the key of the last (its low byte): the
    /// object view lights the strike point and lists that key's modes.
    pub played: Arc<AtomicU32>,
}

impl Shared {
    /// Count a note of `key` started (called on the audio thread, its only writer: an atomic
    /// load and store).
    pub fn note_played(&self, key: u8) {
        let count = self.played.load(Ordering::Relaxed) >> 8;
        let next = (count.wrapping_add(1) << 8) | u32::from(key);
        self.played.store(next, Ordering::Relaxed);
    }

    /// Shared state with no audio thread behind it: the live views show `trace` and
    /// `drop_trace` and no slide, nothing is played.
    fn unconnected(trace: &ContactTrace, drop_trace: &DropTrace) -> Self {
        let (_, trace) = triple_buffer::triple_buffer(trace);
        let (_, drop_trace) = triple_buffer::triple_buffer(drop_trace);
        let (_, slide_trace) = triple_buffer::triple_buffer(&SlideTrace::default());
        Self {
            trace: Arc::new(Mutex::new(trace)),
            drop_trace: Arc::new(Mutex::new(drop_trace)),
            slide_trace: Arc::new(Mutex::new(slide_trace)),
            strike_held: Arc::new(AtomicBool::new(false)),
            played: Arc::new(AtomicU32::new(0)),
        }
    }
}

/// A host that takes every value the editor sets at once, as a plugin wrapper does: what the
/// editor's tests and its frame benchmark drive it through.
#[doc(hidden)]
#[derive(Default)]
pub struct DirectHost {
    /// Gestures begun and not yet ended.
    open_gestures: std::sync::atomic::AtomicI32,
}

impl DirectHost {
    /// Gestures begun and not yet ended (0 once every gesture is over).
    pub fn open_gestures(&self) -> i32 {
        self.open_gestures.load(Ordering::Relaxed)
    }
}

impl GuiContextInner for DirectHost {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }

    unsafe fn raw_begin_set_parameter(&self, _param: ParamPtr) {
        self.open_gestures.fetch_add(1, Ordering::Relaxed);
    }

    unsafe fn raw_set_parameter_normalized(&self, param: ParamPtr, normalized: f32) {
        // SAFETY: the editor passes pointers into the parameters it was opened on.
        unsafe { param._internal_set_normalized_value(normalized) };
    }

    unsafe fn raw_end_set_parameter(&self, _param: ParamPtr) {
        self.open_gestures.fetch_sub(1, Ordering::Relaxed);
    }

    fn get_state(&self) -> PluginState {
        PluginState {
            version: String::new(),
            params: Default::default(),
            fields: Default::default(),
        }
    }

    fn set_state(&self, _state: PluginState) {}

    fn request_restart(&self) {}
}

/// The editor on `params` without a window or an audio thread, through `host`, its live views
/// showing `trace` and `drop_trace`: each call draws one frame into the `Ui` it is given
/// (egui's test harness runs it).
#[doc(hidden)]
pub fn headless(
    params: Arc<UrtoParams>,
    host: Arc<DirectHost>,
    trace: &ContactTrace,
    drop_trace: &DropTrace,
) -> impl FnMut(&mut egui::Ui) {
    let gui = GuiContext::new(host);
    let mut app = UrtoApp::new(params, Shared::unconnected(trace, drop_trace));
    app.browser.refresh(&app.params);
    move |ui| app.draw(ui, &gui.param_setter())
}

/// The editor's persistent window state.
pub fn default_state() -> Arc<EguiEditorState> {
    EguiEditorState::from_size(
        nice_plug::editor::dpi::LogicalSize::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
        1.0,
    )
}

/// Build the editor for `params`: resizable from [`MIN_SIZE`] up.
pub fn create(
    params: Arc<UrtoParams>,
    state: Arc<EguiEditorState>,
    shared: Shared,
) -> Option<EguiEditor<UrtoApp>> {
    let resize = ResizeHint {
        can_resize: true,
        can_resize_horizontally: true,
        can_resize_vertically: true,
        size_constraints: SizeConstraints::min_logical_size(
            nice_plug::editor::dpi::LogicalSize::new(MIN_SIZE.0 as f32, MIN_SIZE.1 as f32),
        ),
        ..ResizeHint::NON_RESIZABLE
    };
    create_egui_editor(
        state,
        RepaintNotifier::new(),
        EguiNiceSettings::new()
            .with_tile("Urto")
            .with_resize_hint(resize),
        UrtoApp::new(params, shared),
    )
}

/// The editor's egui application.
pub struct UrtoApp {
    params: Arc<UrtoParams>,
    /// Every parameter's stable id and pointer (into `params`, which this app keeps alive).
    ids: Vec<(String, ParamPtr)>,
    shared: Shared,
    gui: Option<GuiContext>,
    /// The window's egui context, to end a gesture left open when the editor closes.
    egui: Option<egui::Context>,
    browser: Browser,
    object: ObjectView,
}

impl UrtoApp {
    /// The editor of `params`, sharing `shared` with the audio thread.
    fn new(params: Arc<UrtoParams>, shared: Shared) -> Self {
        let ids = params
            .param_map()
            .into_iter()
            .map(|(id, ptr, _)| (id, ptr))
            .collect();
        Self {
            params,
            ids,
            shared,
            gui: None,
            egui: None,
            browser: Browser::default(),
            object: ObjectView::default(),
        }
    }

    /// The parameter with stable id `id` (every id the layout names is one: see its tests).
    fn param<'a>(&'a self, id: &'a str) -> Param<'a> {
        let (id, ptr) = self
            .ids
            .iter()
            .find(|(known, _)| known == id)
            .unwrap_or_else(|| panic!("the layout names \"{id}\", which is no parameter"));
        Param::new(id, *ptr)
    }

    /// The whole editor, drawn into `ui`.
    fn draw(&mut self, ui: &mut egui::Ui, setter: &ParamSetter) {
        ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
        let mode = self.params.mode.value().0;
        let patch = self.params.patch(&Controllers::default());
        // Below the default size the window scrolls; widths follow the window.
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("Urto");
                self.strike_button(ui);
                ui.add_space(12.0);
                self.browser.bar(ui, &self.params, setter);
            });
            self.browser.description_line(ui);
            self.tabs(ui, mode, setter, &patch);
            ui.separator();
            let knobs = layout::knobs(mode, damping_id(&patch));
            self.band(ui, mode, &knobs, setter, &patch);
            ui.separator();
            self.columns(ui, mode, &knobs, setter, &patch);
        });
        if !ui.input(|i| i.pointer.any_down()) {
            self.end_open_gesture(ui.ctx(), setter);
        }
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(50));
    }

    /// End the host gesture of a drag whose control vanished before it stopped (its tab or its
    /// knob gone, the editor closing).
    fn end_open_gesture(&self, ctx: &egui::Context, setter: &ParamSetter) {
        if let Some(id) = control::take_open_gesture(ctx) {
            self.param(&id).end(setter);
        }
    }

    /// Pressed, a note sounds while it is held.
    fn strike_button(&self, ui: &mut egui::Ui) {
        let strike = ui
            .add(
                egui::Button::new(egui::RichText::new("Strike").size(15.0).strong())
                    .min_size(egui::vec2(72.0, 24.0))
                    .sense(egui::Sense::click_and_drag()),
            )
            .on_hover_text("Plays middle C at velocity 89 while held.");
        let held = strike.is_pointer_button_down_on();
        self.shared.strike_held.store(held, Ordering::Relaxed);
    }

    /// One tab per play mode: choosing one sets the Mode parameter. The contact law is named
    /// beside them.
    fn tabs(&self, ui: &mut egui::Ui, mode: PlayMode, setter: &ParamSetter, patch: &Patch) {
        ui.horizontal(|ui| {
            for (index, tab) in PlayMode::ALL.into_iter().enumerate() {
                let name = PlayMode::NAMES[index];
                let text = egui::RichText::new(name).size(16.0).strong();
                let response = ui
                    .add(
                        egui::Button::selectable(tab == mode, text)
                            .min_size(egui::vec2(96.0, 26.0)),
                    )
                    .on_hover_text(help::tooltip("mode").unwrap_or_default());
                if response.clicked() && tab != mode {
                    set_whole(setter, &self.params.mode, ModeChoice(tab));
                }
            }
            ui.add_space(16.0);
            let integrator = self.param("integrator");
            ui.label(law_text(patch, &integrator.text(integrator.normalized())));
        });
    }

    /// The object with its markers, the knobs, and the mode's live view.
    fn band(
        &mut self,
        ui: &mut egui::Ui,
        mode: PlayMode,
        knobs: &[&'static str],
        setter: &ParamSetter,
        patch: &Patch,
    ) {
        let width = ui.available_width();
        let mut object = std::mem::take(&mut self.object);
        let markers: MarkerParams = [
            self.param("strike-pos"),
            self.param("pickup-pos"),
            self.param("pickup-right"),
        ];
        let played = self.shared.played.load(Ordering::Relaxed);
        let knob_params: Vec<Param> = knobs.iter().map(|id| self.param(id)).collect();
        let band = egui::vec2(width, BAND_HEIGHT);
        ui.allocate_ui_with_layout(band, egui::Layout::left_to_right(egui::Align::Min), |ui| {
            ui.set_height(BAND_HEIGHT);
            let size = egui::vec2(width * 0.40, BAND_HEIGHT);
            ui.allocate_ui(size, |ui| {
                object.show(ui, size, patch, &markers, setter, played);
            });
            ui.separator();
            ui.vertical(|ui| {
                for pair in knob_params.chunks(2) {
                    ui.horizontal(|ui| {
                        for param in pair {
                            ui.allocate_ui(KNOB_CELL, |ui| {
                                ui.set_width(KNOB_CELL.x);
                                ui.vertical_centered(|ui| {
                                    ui.strong(param.name());
                                    let look = Look::Knob {
                                        diameter: KNOB_DIAMETER,
                                    };
                                    ui.add_enabled_ui(!overridden(patch, param.id), |ui| {
                                        control(ui, *param, setter, look);
                                    });
                                });
                            });
                        }
                    });
                }
            });
            ui.separator();
            ui.vertical(|ui| self.live_view(ui, mode));
        });
        self.object = object;
    }

    /// The mode's live view: the last contact (phase portrait, force loop, energy, rebounds),
    /// the last drop (heights, tilt and impacts), or the slide (stick and slip, friction loop).
    fn live_view(&self, ui: &mut egui::Ui, mode: PlayMode) {
        if mode == PlayMode::Drop {
            if let Ok(mut output) = self.shared.drop_trace.lock() {
                live_view::show_drop(ui, output.read(), BAND_HEIGHT - 40.0);
            }
        } else if mode == PlayMode::Slide {
            if let Ok(mut output) = self.shared.slide_trace.lock() {
                live_view::show_slide(ui, output.read(), BAND_HEIGHT - 40.0);
            }
        } else if let Ok(mut output) = self.shared.trace.lock() {
            live_view::show(ui, output.read(), (BAND_HEIGHT - 44.0) / 2.0);
        }
    }

    /// The mode's other controls in columns, group by group.
    fn columns(
        &self,
        ui: &mut egui::Ui,
        mode: PlayMode,
        knobs: &[&'static str],
        setter: &ParamSetter,
        patch: &Patch,
    ) {
        let count = layout::column_count(mode);
        let columns = layout::columns(mode, knobs, count);
        ui.columns(count, |uis| {
            for (index, (ui, lines)) in uis.iter_mut().zip(&columns).enumerate() {
                let width = ui.available_width();
                egui::Grid::new(("column", index))
                    .num_columns(2)
                    .spacing([8.0, 3.0])
                    .show(ui, |ui| {
                        for line in lines {
                            self.line(ui, *line, setter, width, patch);
                        }
                    });
            }
        });
    }

    /// One line of a column: a group's title, or a parameter's name and control (greyed where
    /// Contact from materials overrides it). Switching Contact from materials off hands its
    /// derived contact to the knobs.
    fn line(&self, ui: &mut egui::Ui, line: Line, setter: &ParamSetter, width: f32, patch: &Patch) {
        let id = match line {
            Line::Title(title) => {
                ui.strong(title);
                ui.end_row();
                return;
            }
            Line::Param(id) => id,
        };
        let param = self.param(id);
        ui.label(param.name());
        let slider = (width - LABEL_WIDTH - VALUE_ROOM).max(50.0);
        let was_on = param.normalized() > 0.5;
        let response = ui
            .add_enabled_ui(!overridden(patch, id), |ui| {
                control(ui, param, setter, Look::Slider { width: slider })
            })
            .inner;
        if id == "contact-from-materials" && was_on && response.changed() {
            hand_over_contact(&self.params, setter, patch);
        }
        ui.end_row();
    }
}

/// The contact law as the user hears it, with its integrator's name (and what the materials
/// derive, when the contact comes from them).
fn law_text(patch: &Patch, integrator: &str) -> String {
    if patch.mode == PlayMode::Drop {
        return "Hertz contact from the materials; impacts by Jia–Wang and PLUS".into();
    }
    let law = match patch.contact.damping {
        Damping::HuntCrossley => "Hunt–Crossley  f = k·x^α·(1 + μ·v)",
        Damping::Linear { .. } => "Hertz + damper  f = k·x^α + c·v",
    };
    let method = integrator.split(" (").next().unwrap_or(integrator);
    if !patch.contact_from_materials {
        return format!("{law} · {method}");
    }
    format!(
        "{law} · {method} · from materials: k = {:.2e} N/m^1.5, e = {:.2}, striker {:.4} kg",
        patch.contact.law.stiffness,
        patch.contact.restitution.unwrap_or(f64::NAN),
        patch.hammer_mass_kg,
    )
}

/// Whether Contact from materials overrides the parameter `id` (its knob or slider greyed).
fn overridden(patch: &Patch, id: &str) -> bool {
    const DERIVED: [&str; 7] = [
        "k",
        "mu",
        "alpha",
        "law",
        "damping-from",
        "restitution",
        "linear-damping",
    ];
    patch.contact_from_materials && DERIVED.contains(&id)
}

/// Set `param` to `plain` as one host gesture.
fn set_whole<P: nice_plug::prelude::Param>(setter: &ParamSetter, param: &P, plain: P::Plain) {
    setter.begin_set_parameter(param);
    setter.set_parameter(param, plain);
    setter.end_set_parameter(param);
}

/// The parameter that sets the contact's damping: μ, the target restitution, or the damper's c.
fn damping_id(patch: &Patch) -> &'static str {
    match (patch.contact.restitution, patch.contact.damping) {
        (Some(_), _) => "restitution",
        (None, Damping::Linear { .. }) => "linear-damping",
        (None, Damping::HuntCrossley) => "mu",
    }
}

/// "Contact from materials" switched off: the raw knobs take the values it derived (damping from
/// the restitution), so the sound does not jump.
fn hand_over_contact(params: &UrtoParams, setter: &ParamSetter, derived: &Patch) {
    let law = derived.contact.law;
    let contact = &params.contact;
    set_whole(
        setter,
        &contact.stiffness_log10,
        law.stiffness.log10() as f32,
    );
    set_whole(setter, &contact.alpha, law.alpha as f32);
    if let Some(e) = derived.contact.restitution {
        set_whole(setter, &contact.restitution, e as f32);
        set_whole(setter, &contact.law, LawChoice::HuntCrossley);
        set_whole(
            setter,
            &contact.damping_from,
            DampingFromChoice::Restitution,
        );
    }
}

impl NiceEguiApp for UrtoApp {
    fn build(
        &mut self,
        egui_ctx: egui::Context,
        gui: GuiContext,
        _frame: &mut nice_plug_egui::Frame,
    ) -> Result<(), nice_plug_egui::baseview::HandlerError> {
        self.gui = Some(gui);
        self.egui = Some(egui_ctx);
        self.browser.refresh(&self.params);
        Ok(())
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut nice_plug_egui::Frame) {
        let Some(gui) = self.gui.clone() else { return };
        let setter = gui.param_setter();
        ui.painter()
            .rect_filled(ui.max_rect(), 0.0, ui.visuals().panel_fill);
        egui::Frame::central_panel(ui.style()).show(ui, |ui| self.draw(ui, &setter));
    }

    fn editor_closed(&mut self) {
        if let (Some(ctx), Some(gui)) = (self.egui.take(), self.gui.as_ref()) {
            self.end_open_gesture(&ctx, &gui.param_setter());
        }
        self.gui = None;
        self.shared.strike_held.store(false, Ordering::Relaxed);
    }
}
