//! The editor driven as a user drives it, through egui's test harness and its AccessKit tree: every control named and in view in its mode's tab, the markers dragged, presets chosen, tabs clicked, values typed.

use super::*;
use crate::params::acts_in;
use crate::presets;
use egui::accesskit::Role;
use egui::{Pos2, Rect, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use nice_plug::prelude::Param as _;

/// The default window, logical pixels.
fn window() -> Vec2 {
    Vec2::new(WINDOW_SIZE.0 as f32, WINDOW_SIZE.1 as f32)
}

/// The editor on `params` in a window of the default size, one frame drawn.
fn open(params: &Arc<UrtoParams>) -> Harness<'static> {
    open_through(params, Arc::default())
}

/// The editor on `params` through `host`, in a window of the default size, one frame drawn.
fn open_through(params: &Arc<UrtoParams>, host: Arc<DirectHost>) -> Harness<'static> {
    let mut harness = Harness::builder()
        .with_size(window())
        .with_step_dt(1.0 / 60.0)
        .build_ui(headless(
            params.clone(),
            host,
            &ContactTrace::default(),
            &DropTrace::default(),
        ));
    harness.run_steps(2);
    harness
}

/// The controls named `name` (not the text that shows the same name beside them).
fn controls<'a>(harness: &'a Harness<'static>, name: &'a str) -> Vec<egui_kittest::Node<'a>> {
    harness
        .query_all_by(move |node| {
            !node.label_comes_from_value() && node.label().as_deref() == Some(name)
        })
        .collect()
}

/// The one control named `name`.
fn control<'a>(harness: &'a Harness<'static>, name: &'a str) -> egui_kittest::Node<'a> {
    let mut found = controls(harness, name);
    assert_eq!(found.len(), 1, "{} controls named \"{name}\"", found.len());
    found.remove(0)
}

/// Whether a text saying `text` is shown.
fn shows(harness: &Harness<'static>, text: &str) -> bool {
    harness
        .query_by(|node| node.role() == Role::Label && node.value().as_deref() == Some(text))
        .is_some()
}

/// Every parameter but the mode (the tabs), by id, with its name.
fn names(params: &UrtoParams) -> Vec<(String, String)> {
    params
        .param_map()
        .into_iter()
        .filter(|(id, _, _)| id != "mode")
        // SAFETY: the pointers are into `params`, alive for the call.
        .map(|(id, ptr, _)| (id, unsafe { ptr.name() }.to_string()))
        .collect()
}

/// In each mode's tab, every parameter that acts in that mode has exactly one control, named as
/// the host names it, wholly inside the default window (no scrolling); the parameters that do
/// not act in the mode have none; and the tabs are there.
#[test]
fn each_tab_shows_its_controls_in_the_window() {
    let params = Arc::new(UrtoParams::default());
    let window = Rect::from_min_size(Pos2::ZERO, window());
    for mode in PlayMode::ALL {
        params.set_mode_directly(mode);
        let harness = open(&params);
        for (id, name) in names(&params) {
            let found = controls(&harness, &name).len();
            if !acts_in(&id, mode) {
                assert_eq!(found, 0, "{mode:?}: \"{name}\" ({id}) does not act here");
                continue;
            }
            assert_eq!(found, 1, "{mode:?}: \"{name}\" ({id}) has {found} controls");
            let rect = control(&harness, &name).rect();
            assert!(
                window.contains_rect(rect),
                "{mode:?}: \"{name}\" ({id}) at {rect:?} is outside the {window:?} window"
            );
        }
        for tab in PlayMode::NAMES {
            harness.get_by_role_and_label(Role::Button, tab);
        }
    }
}

/// The tabs set the Mode parameter.
#[test]
fn a_tab_sets_the_mode() {
    let params = Arc::new(UrtoParams::default());
    let mut harness = open(&params);
    for (index, tab) in PlayMode::ALL.into_iter().enumerate().rev() {
        harness
            .get_by_role_and_label(Role::Button, PlayMode::NAMES[index])
            .click();
        harness.run_steps(2);
        assert_eq!(params.mode.value().0, tab);
    }
}

/// Dragging the strike-point marker along a marimba bar moves Strike position, and the marker
/// follows the pointer.
#[test]
fn dragging_the_strike_marker_moves_the_strike_position() {
    let params = Arc::new(UrtoParams::default());
    let host = Arc::new(DirectHost::default());
    let mut harness = open_through(&params, host.clone());
    let before = params.object.strike_position.value();
    let from = control(&harness, object_view::STRIKE_POINT).rect().center();
    let to = from + Vec2::new(80.0, 0.0);
    harness.hover_at(from);
    harness.drag_at(from);
    harness.run_steps(1);
    for step in 1..=8 {
        harness.hover_at(from + (to - from) * step as f32 / 8.0);
        harness.run_steps(1);
    }
    harness.drop_at(to);
    harness.run_steps(2);
    let after = params.object.strike_position.value();
    assert!(after > before + 0.05, "strike position {before} → {after}");
    let now = control(&harness, object_view::STRIKE_POINT).rect().center();
    assert!(
        now.distance(to) < 3.0,
        "the marker is at {now:?}, the pointer let go at {to:?}"
    );
    assert_eq!(host.open_gestures(), 0, "the drag's gesture is not ended");
}

/// Choosing a preset in the browser (searched by a word of its description) loads every value of
/// it, names it, and a change afterwards marks it modified.
#[test]
fn choosing_a_preset_loads_it() {
    let params = Arc::new(UrtoParams::default());
    let preset = presets::factory()
        .into_iter()
        .find(|p| p.name != "Init" && p.plain_value("mode").is_some_and(|m| m > 0.0))
        .expect("a factory preset of another mode than strike");
    let mut harness = open(&params);
    harness.get_by_label(browser::MENU).click();
    harness.run_steps(2);
    harness.get_by_label(browser::SEARCH).click();
    harness.run_steps(1);
    harness
        .get_by_label(browser::SEARCH)
        .type_text(&preset.name);
    harness.run_steps(2);
    harness
        .get_by_role_and_label(Role::Button, &preset.name)
        .click();
    harness.run_steps(2);
    assert!(preset.matches(&params), "{} not loaded", preset.name);
    assert_eq!(params.preset_name(), preset.name);
    // And read back directly, not through the preset's own comparison.
    let mode = preset.plain_value("mode").expect("the preset's mode");
    assert_eq!(params.mode.value().0.index() as f32, mode);
    assert!(!shows(&harness, browser::MODIFIED));
    params.set_mode_directly(PlayMode::Strike);
    harness.run_steps(2);
    assert!(shows(&harness, browser::MODIFIED));
}

/// Next loads another factory preset, whole; previous comes back to the first.
#[test]
fn next_and_previous_step_through_the_presets() {
    let params = Arc::new(UrtoParams::default());
    let mut harness = open(&params);
    let factory = presets::factory();
    harness.get_by_label(browser::NEXT).click();
    harness.run_steps(2);
    let first = params.preset_name();
    let preset = factory
        .iter()
        .find(|p| p.name == first)
        .expect("a factory preset");
    assert!(preset.matches(&params));
    harness.get_by_label(browser::NEXT).click();
    harness.run_steps(2);
    let second = params.preset_name();
    assert_ne!(second, first);
    assert!(factory
        .iter()
        .any(|p| p.name == second && p.matches(&params)));
    harness.get_by_label(browser::PREVIOUS).click();
    harness.run_steps(2);
    assert_eq!(params.preset_name(), first);
    assert!(preset.matches(&params));
}

/// A value typed with its unit sets the parameter; a ctrl-click (cmd-click) resets it. (A
/// double-click resets it too, but the harness's two clicks are not counted as one double-click
/// by egui: a press and its release arrive in separate frames.)
#[test]
fn typed_values_set_and_a_ctrl_click_resets() {
    let params = Arc::new(UrtoParams::default());
    let mut harness = open(&params);
    let name = params.contact.stiffness_log10.name().to_string();
    harness.get_by_label(&format!("{name} value")).click();
    harness.run_steps(2);
    harness
        .get_by_label(&format!("{name} value"))
        .type_text("2.5e9 N/m^α");
    harness.run_steps(1);
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    let k = 10f64.powf(f64::from(params.contact.stiffness_log10.value()));
    assert!((k / 2.5e9 - 1.0).abs() < 1e-3, "k = {k:e}");
    control(&harness, &name).click_modifiers(egui::Modifiers::COMMAND);
    harness.run_steps(2);
    let default = params.contact.stiffness_log10.default_plain_value();
    assert_eq!(params.contact.stiffness_log10.value(), default);
}

/// Shift makes a knob's drag ten times finer.
#[test]
fn shift_drag_is_fine_adjustment() {
    let params = Arc::new(UrtoParams::default());
    let mut turned = vec![];
    for modifiers in [egui::Modifiers::NONE, egui::Modifiers::SHIFT] {
        let mut harness = open(&params);
        let name = params.contact.alpha.name().to_string();
        let centre = control(&harness, &name).rect().center();
        let before = params.contact.alpha.modulated_normalized_value();
        harness.hover_at(centre);
        harness.event_modifiers(
            egui::Event::PointerButton {
                pos: centre,
                button: egui::PointerButton::Primary,
                pressed: true,
                modifiers,
            },
            modifiers,
        );
        harness.run_steps(1);
        for step in 1..=5 {
            harness.event_modifiers(
                egui::Event::PointerMoved(centre - Vec2::new(0.0, 8.0 * step as f32)),
                modifiers,
            );
            harness.run_steps(1);
        }
        harness.drop_at(centre - Vec2::new(0.0, 40.0));
        harness.run_steps(1);
        turned.push(params.contact.alpha.modulated_normalized_value() - before);
        let gui = GuiContext::new(Arc::new(DirectHost::default()));
        Param::new("alpha", params.contact.alpha.as_ptr()).set(&gui.param_setter(), before);
    }
    let ratio = turned[0] / turned[1];
    assert!(
        (ratio - 10.0).abs() < 1.0,
        "turned {turned:?}: ratio {ratio}"
    );
}
