//! The preset browser: factory and user presets by category, search by name and description, previous and next, the description shown, changes marked, user presets saved beside the factory ones.

use crate::params::UrtoParams;
use crate::presets::{self, Preset};
use egui::{PopupCloseBehavior, RichText, Role, Ui, WidgetInfo};
use nice_plug::context::gui::ParamSetter;

/// The browser's accessible names (the tests find it by them).
pub const MENU: &str = "Presets";
pub const SEARCH: &str = "Search presets";
pub const PREVIOUS: &str = "Previous preset";
pub const NEXT: &str = "Next preset";
/// Shown beside the preset's name once a parameter differs from the preset's.
pub const MODIFIED: &str = "modified";

/// The preset browser's state.
#[derive(Default)]
pub struct Browser {
    /// Factory presets (by category, as shipped) then the user's, in browsing order.
    presets: Vec<Preset>,
    /// What the last load or save said (errors included).
    status: String,
    /// The name typed to save the parameters as.
    save_name: String,
    /// What the menu's search field holds.
    search: String,
    /// The preset the parameters were last loaded from or saved as, to mark changes against.
    current: Option<Preset>,
}

impl Browser {
    /// Read the factory and user presets again; the current preset is found by its name.
    pub fn refresh(&mut self, params: &UrtoParams) {
        let mut factory = presets::factory();
        factory.sort_by(|a, b| a.category.cmp(&b.category));
        let (user, errors) = presets::user_presets();
        self.presets = factory.into_iter().chain(user).collect();
        if !errors.is_empty() {
            self.status = format!("not loaded: {}", errors.join("; "));
        }
        self.current = None;
        self.follow(params);
    }

    /// The preset the parameters carry the name of (a host may have loaded another project or
    /// preset): the user's of that name before a factory one.
    fn follow(&mut self, params: &UrtoParams) {
        let name = params.preset_name();
        if self.current.as_ref().is_none_or(|p| p.name != name) {
            self.current = self.presets.iter().rev().find(|p| p.name == name).cloned();
        }
    }

    /// The preset menu, previous and next, the save field and button.
    pub fn bar(&mut self, ui: &mut Ui, params: &UrtoParams, setter: &ParamSetter) {
        self.follow(params);
        let name = params.preset_name();
        let modified = self.current.as_ref().is_some_and(|p| !p.matches(params));
        let index = self.presets.iter().rposition(|p| p.name == name);
        // From a preset not in the list, next is the first and previous the last.
        let step = |by: isize| {
            let n = self.presets.len().max(1) as isize;
            let from = index.map_or(if by > 0 { -1 } else { n }, |i| i as isize);
            (from + by).rem_euclid(n) as usize
        };
        let mut chosen = None;
        for (arrow, name, by) in [("‹", PREVIOUS, -1), ("›", NEXT, 1)] {
            let button = ui.button(arrow).on_hover_text(name);
            button.widget_info(|| WidgetInfo::labeled(Role::Button, true, name));
            if button.clicked() {
                chosen = Some(step(by));
            }
        }
        let menu = egui::ComboBox::from_id_salt(MENU)
            .selected_text(RichText::new(&name).strong())
            .width(300.0)
            .height(520.0)
            .close_behavior(PopupCloseBehavior::CloseOnClickOutside)
            .show_ui(ui, |ui| self.menu(ui, &name, &mut chosen))
            .response;
        menu.widget_info(|| WidgetInfo::labeled(Role::ComboBox, true, MENU));
        if modified {
            ui.label(
                RichText::new(MODIFIED)
                    .italics()
                    .color(egui::Color32::ORANGE),
            )
            .on_hover_text("The parameters differ from the preset's.");
        }
        if let Some(preset) = chosen.and_then(|i| self.presets.get(i)).cloned() {
            preset.apply(params, setter);
            self.status = format!("loaded \"{}\"", preset.name);
            self.current = Some(preset);
        }
        self.save(ui, params);
    }

    /// The menu's search field and the presets that match it, by category.
    fn menu(&mut self, ui: &mut Ui, name: &str, chosen: &mut Option<usize>) {
        let search = ui.add(
            egui::TextEdit::singleline(&mut self.search)
                .hint_text("search name, description, category")
                .desired_width(280.0),
        );
        search.widget_info(|| WidgetInfo::labeled(Role::TextInput, true, SEARCH));
        let needle = self.search.to_lowercase();
        let mut category = None;
        for (i, preset) in self.presets.iter().enumerate() {
            let matches = [&preset.name, &preset.description, &preset.category]
                .iter()
                .any(|text| text.to_lowercase().contains(&needle));
            if !matches {
                continue;
            }
            if category != Some(&preset.category) {
                category = Some(&preset.category);
                ui.label(RichText::new(&preset.category).strong().small());
            }
            let item = ui
                .selectable_label(preset.name == name, &preset.name)
                .on_hover_text(&preset.description);
            if item.clicked() {
                *chosen = Some(i);
                ui.close();
            }
        }
    }

    /// Save the parameters as a user preset under the typed name.
    fn save(&mut self, ui: &mut Ui, params: &UrtoParams) {
        ui.add(
            egui::TextEdit::singleline(&mut self.save_name)
                .hint_text("name to save as")
                .desired_width(120.0),
        );
        if !ui.button("Save").clicked() {
            return;
        }
        let name = self.save_name.trim().to_string();
        if name.is_empty() {
            self.status = "give the preset a name first".into();
            return;
        }
        let preset = Preset::capture(params, &name);
        match presets::save_user_preset(&preset) {
            Ok(path) => {
                params.set_preset_name(&name);
                self.refresh(params);
                self.status = format!("saved {}", path.display());
            }
            Err(e) => self.status = format!("not saved: {e}"),
        }
    }

    /// The current preset's description, or what the last load or save said.
    pub fn description_line(&self, ui: &mut Ui) {
        let text = match &self.current {
            Some(p) if self.status.starts_with("not") || p.description.is_empty() => &self.status,
            Some(p) => &p.description,
            None => &self.status,
        };
        ui.label(RichText::new(text).italics().small());
    }
}
