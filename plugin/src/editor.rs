//! The egui editor: the contact knobs with their units.

use crate::params::UrtoParams;
use nice_plug::context::gui::GuiContext;
use nice_plug_egui::widgets::ParamSlider;
use nice_plug_egui::{
    create_egui_editor, EguiEditor, EguiEditorState, EguiNiceSettings, NiceEguiApp, RepaintNotifier,
};
use std::sync::Arc;

/// The editor's window size in logical pixels.
const WINDOW_SIZE: (u32, u32) = (420, 220);

/// The editor's persistent window state.
pub fn default_state() -> Arc<EguiEditorState> {
    EguiEditorState::from_size(
        nice_plug::editor::dpi::LogicalSize::new(WINDOW_SIZE.0, WINDOW_SIZE.1),
        1.0,
    )
}

/// Build the editor for `params`.
pub fn create(params: Arc<UrtoParams>, state: Arc<EguiEditorState>) -> Option<EguiEditor<UrtoApp>> {
    create_egui_editor(
        state,
        RepaintNotifier::new(),
        EguiNiceSettings::new().with_tile("Urto"),
        UrtoApp { params, gui: None },
    )
}

/// The editor's egui application.
pub struct UrtoApp {
    params: Arc<UrtoParams>,
    gui: Option<GuiContext>,
}

impl NiceEguiApp for UrtoApp {
    fn build(
        &mut self,
        _egui_ctx: egui::Context,
        gui: GuiContext,
        _frame: &mut nice_plug_egui::Frame,
    ) -> Result<(), nice_plug_egui::baseview::HandlerError> {
        self.gui = Some(gui);
        Ok(())
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut nice_plug_egui::Frame) {
        let Some(gui) = &self.gui else { return };
        let setter = gui.param_setter();
        ui.heading("Urto");
        ui.label("Hunt–Crossley contact  f = k·x^α·(1 + μ·v)");
        ui.add_space(8.0);
        egui::Grid::new("contact")
            .num_columns(2)
            .spacing([12.0, 8.0])
            .show(ui, |ui| {
                let p = &self.params;
                ui.label("Stiffness k");
                ui.add(ParamSlider::for_param(&p.stiffness_log10, &setter).with_width(220.0));
                ui.end_row();
                ui.label("Dissipation μ");
                ui.add(ParamSlider::for_param(&p.mu_s_per_m, &setter).with_width(220.0));
                ui.end_row();
                ui.label("Contact shape α");
                ui.add(ParamSlider::for_param(&p.alpha, &setter).with_width(220.0));
                ui.end_row();
            });
    }

    fn editor_closed(&mut self) {
        self.gui = None;
    }
}
