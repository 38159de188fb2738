//! The egui editor: the preset browser, the live view, and every parameter in its group (`groups.rs`), with its unit.

use crate::live_view;

mod groups;
use crate::params::{Controllers, DampingFromChoice, LawChoice, UrtoParams};
use crate::presets::{self, Preset};
use nice_plug::context::gui::{GuiContext, ParamSetter};
use nice_plug::prelude::FloatParam;
use nice_plug_egui::{
    create_egui_editor, EguiEditor, EguiEditorState, EguiNiceSettings, NiceEguiApp, RepaintNotifier,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use urto_dsp::interaction::ContactTrace;
use urto_dsp::voice::{DropTrace, PlayMode};

/// The editor's window size in logical pixels.
const WINDOW_SIZE: (u32, u32) = (1000, 760);

/// What the editor shares with the audio thread: the live view's trace (the GUI side of a triple
/// buffer: the audio thread writes without locks, the GUI reads the latest) and the strike button.
#[derive(Clone)]
pub struct Shared {
    pub trace: Arc<Mutex<triple_buffer::Output<ContactTrace>>>,
    /// The drop mode's live view, shared the same way.
    pub drop_trace: Arc<Mutex<triple_buffer::Output<DropTrace>>>,
    /// Held down: the audio thread plays a note while it is set.
    pub strike_held: Arc<AtomicBool>,
}

/// The editor's persistent window state.
pub fn default_state() -> Arc<EguiEditorState> {
    EguiEditorState::from_size(
        nice_plug::editor::dpi::LogicalSize::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
        1.0,
    )
}

/// Build the editor for `params`.
pub fn create(
    params: Arc<UrtoParams>,
    state: Arc<EguiEditorState>,
    shared: Shared,
) -> Option<EguiEditor<UrtoApp>> {
    create_egui_editor(
        state,
        RepaintNotifier::new(),
        EguiNiceSettings::new().with_tile("Urto"),
        UrtoApp {
            params,
            shared,
            gui: None,
            browser: Browser::default(),
        },
    )
}

/// The preset browser's state.
#[derive(Default)]
struct Browser {
    factory: Vec<Preset>,
    user: Vec<Preset>,
    /// What the last load or save said (errors included).
    status: String,
    save_name: String,
}

impl Browser {
    fn refresh(&mut self) {
        self.factory = presets::factory();
        let (user, errors) = presets::user_presets();
        self.user = user;
        if !errors.is_empty() {
            self.status = format!("not loaded: {}", errors.join("; "));
        }
    }
}

/// A titled group of parameter rows.
fn group(ui: &mut egui::Ui, title: &str, rows: impl FnOnce(&mut egui::Ui)) {
    ui.group(|ui| {
        ui.strong(title);
        egui::Grid::new(title)
            .num_columns(2)
            .spacing([10.0, 6.0])
            .show(ui, rows);
    });
    ui.add_space(6.0);
}

/// "Contact from materials" and what it derives: Hertz's k and α, the pair's restitution, the
/// striker's mass. Switching it off hands the contact to the raw knobs set to the derived values
/// (damping from the restitution), so the sound does not jump.
fn materials_switch(ui: &mut egui::Ui, params: &UrtoParams, setter: &ParamSetter) {
    let on = params.striker.contact_from_materials.value();
    let patch = params.patch(&Controllers::default());
    ui.label("From materials");
    let mut checked = on;
    if ui.checkbox(&mut checked, "").changed() {
        if !checked {
            let law = patch.contact.law;
            let set = |param: &FloatParam, plain: f32| {
                setter.begin_set_parameter(param);
                setter.set_parameter(param, plain);
                setter.end_set_parameter(param);
            };
            set(
                &params.contact.stiffness_log10,
                law.stiffness.log10() as f32,
            );
            set(&params.contact.alpha, law.alpha as f32);
            if let Some(e) = patch.contact.restitution {
                set(&params.contact.restitution, e as f32);
                setter.begin_set_parameter(&params.contact.law);
                setter.set_parameter(&params.contact.law, LawChoice::HuntCrossley);
                setter.end_set_parameter(&params.contact.law);
                setter.begin_set_parameter(&params.contact.damping_from);
                setter.set_parameter(&params.contact.damping_from, DampingFromChoice::Restitution);
                setter.end_set_parameter(&params.contact.damping_from);
            }
        }
        setter.begin_set_parameter(&params.striker.contact_from_materials);
        setter.set_parameter(&params.striker.contact_from_materials, checked);
        setter.end_set_parameter(&params.striker.contact_from_materials);
    }
    ui.end_row();
    if on {
        ui.label("Derived");
        ui.label(format!(
            "k = {:.3e} N/m^1.5, α = 1.5, e = {:.2}, striker {:.4} kg",
            patch.contact.law.stiffness,
            patch.contact.restitution.unwrap_or(f64::NAN),
            patch.hammer_mass_kg,
        ));
        ui.end_row();
    }
}

/// One labelled parameter slider.
fn row(ui: &mut egui::Ui, label: &str, slider: impl egui::Widget) {
    ui.label(label);
    ui.add(slider);
    ui.end_row();
}

/// The velocity curve: each MIDI velocity's level below velocity 127, which the engine meets by
/// choosing the impact speed (see `urto_dsp::voice::Calibration`).
fn velocity_curve(ui: &mut egui::Ui, params: &UrtoParams) {
    let curve = params.patch(&Controllers::default()).velocity;
    let level = |velocity: u8| curve.level_db(f32::from(velocity) / 127.0);
    let series = live_view::Series {
        points: (1..=127u8).map(|v| (f64::from(v), level(v))).collect(),
        color: live_view::SIMULATED,
    };
    let size = egui::Vec2::new(ui.available_width().max(160.0), 110.0);
    live_view::plot(
        ui,
        size,
        "velocity curve · level below velocity 127",
        "MIDI velocity",
        "dB",
        &[series],
    );
    ui.small(format!(
        "velocity 64: {:.1} dB · velocity 1: {:.1} dB — met by the impact speed (level follows the physics)",
        level(64),
        level(1)
    ));
    ui.add_space(6.0);
}

/// The editor's egui application.
pub struct UrtoApp {
    params: Arc<UrtoParams>,
    shared: Shared,
    gui: Option<GuiContext>,
    browser: Browser,
}

impl UrtoApp {
    /// Preset menu, save field and the strike button.
    fn top_bar(&mut self, ui: &mut egui::Ui, setter: &nice_plug::context::gui::ParamSetter) {
        ui.horizontal(|ui| {
            let current = self.params.preset_name();
            let mut chosen = None;
            egui::ComboBox::from_id_salt("presets")
                .selected_text(format!("Preset: {current}"))
                .width(280.0)
                .show_ui(ui, |ui| {
                    for (heading, list) in [
                        ("Factory", &self.browser.factory),
                        ("User", &self.browser.user),
                    ] {
                        if !list.is_empty() {
                            ui.label(egui::RichText::new(heading).strong());
                        }
                        for preset in list.iter() {
                            let label = format!("{} · {}", preset.category, preset.name);
                            if ui
                                .selectable_label(preset.name == current, label)
                                .on_hover_text(&preset.description)
                                .clicked()
                            {
                                chosen = Some(preset.clone());
                            }
                        }
                    }
                });
            if let Some(preset) = chosen {
                preset.apply(&self.params, setter);
                self.browser.status = format!("loaded \"{}\"", preset.name);
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.browser.save_name)
                    .hint_text("name")
                    .desired_width(140.0),
            );
            if ui.button("Save preset").clicked() {
                let name = self.browser.save_name.trim();
                if name.is_empty() {
                    self.browser.status = "give the preset a name first".into();
                } else {
                    match presets::save_user_preset(&Preset::capture(&self.params, name)) {
                        Ok(path) => {
                            self.params.set_preset_name(name);
                            self.browser.refresh();
                            self.browser.status = format!("saved {}", path.display());
                        }
                        Err(e) => self.browser.status = format!("not saved: {e}"),
                    }
                }
            }
            let strike =
                ui.add(egui::Button::new("  Strike  ").sense(egui::Sense::click_and_drag()));
            let held = strike.is_pointer_button_down_on();
            self.shared.strike_held.store(held, Ordering::Relaxed);
        });
        if !self.browser.status.is_empty() {
            ui.small(&self.browser.status);
        }
    }
}

impl NiceEguiApp for UrtoApp {
    fn build(
        &mut self,
        _egui_ctx: egui::Context,
        gui: GuiContext,
        _frame: &mut nice_plug_egui::Frame,
    ) -> Result<(), nice_plug_egui::baseview::HandlerError> {
        self.gui = Some(gui);
        self.browser.refresh();
        Ok(())
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut nice_plug_egui::Frame) {
        let Some(gui) = self.gui.clone() else { return };
        let setter = gui.param_setter();
        ui.horizontal(|ui| {
            ui.heading("Urto");
            ui.label("Hunt–Crossley contact  f = k·x^α·(1 + μ·v)");
        });
        self.top_bar(ui, &setter);
        // The live view: the latest trace the audio thread published.
        if self.params.mode.value().0 == PlayMode::Drop {
            if let Ok(mut output) = self.shared.drop_trace.lock() {
                live_view::show_drop(ui, output.read());
            }
        } else if let Ok(mut output) = self.shared.trace.lock() {
            live_view::show(ui, output.read());
        }
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(50));
        let p = &self.params;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.columns(2, |columns| {
                groups::left_column(&mut columns[0], p, &setter);
                groups::right_column(&mut columns[1], p, &setter);
            });
        });
    }

    fn editor_closed(&mut self) {
        self.gui = None;
        self.shared.strike_held.store(false, Ordering::Relaxed);
    }
}
