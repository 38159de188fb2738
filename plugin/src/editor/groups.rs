//! The editor's parameter groups, one function each (as the parameters are grouped): the rows of its sliders, with its unit and notes.

use super::{group, materials_switch, row, velocity_curve};
use crate::params::UrtoParams;
use nice_plug::context::gui::ParamSetter;
use nice_plug_egui::widgets::ParamSlider;

/// The left column: the contact, the striker, the velocity curve and the output.
pub(super) fn left_column(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    contact(ui, p, setter);
    striker(ui, p, setter);
    velocity_curve(ui, p);
    output(ui, p, setter);
}

/// The right column: the object, the mode and fall, each scene's group, expression.
pub(super) fn right_column(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    object(ui, p, setter);
    fall(ui, p, setter);
    bounce(ui, p, setter);
    roll(ui, p, setter);
    drop(ui, p, setter);
    expression(ui, p, setter);
}

/// The Contact group.
fn contact(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Contact", |ui| {
        materials_switch(ui, p, setter);
        row(
            ui,
            "Stiffness k",
            ParamSlider::for_param(&p.contact.stiffness_log10, setter),
        );
        row(
            ui,
            "Dissipation μ",
            ParamSlider::for_param(&p.contact.mu_s_per_m, setter),
        );
        row(
            ui,
            "Contact shape α",
            ParamSlider::for_param(&p.contact.alpha, setter),
        );
        row(
            ui,
            "Integrator",
            ParamSlider::for_param(&p.contact.integrator, setter),
        );
        row(
            ui,
            "Contact law",
            ParamSlider::for_param(&p.contact.law, setter),
        );
        row(
            ui,
            "Damping from",
            ParamSlider::for_param(&p.contact.damping_from, setter),
        );
        row(
            ui,
            "Restitution e",
            ParamSlider::for_param(&p.contact.restitution, setter),
        );
        row(
            ui,
            "Linear damping c",
            ParamSlider::for_param(&p.contact.linear_damping_log10, setter),
        );
        row(
            ui,
            "Exit correction",
            ParamSlider::for_param(&p.contact.corrections, setter),
        );
        row(
            ui,
            "Energy guard",
            ParamSlider::for_param(&p.contact.guard, setter),
        );
    });
}

/// The Striker group.
fn striker(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Striker", |ui| {
        row(
            ui,
            "Striker",
            ParamSlider::for_param(&p.striker.striker, setter),
        );
        row(
            ui,
            "Material",
            ParamSlider::for_param(&p.striker.striker_material, setter),
        );
        row(
            ui,
            "Size",
            ParamSlider::for_param(&p.striker.striker_size_m, setter),
        );
        row(
            ui,
            "Level",
            ParamSlider::for_param(&p.striker.striker_level, setter),
        );
        row(ui, "Grip", ParamSlider::for_param(&p.striker.grip, setter));
        row(
            ui,
            "Mass (point mass)",
            ParamSlider::for_param(&p.striker.hammer_mass_kg, setter),
        );
        row(
            ui,
            "Softest strike",
            ParamSlider::for_param(&p.output.v_min_m_per_s, setter),
        );
        row(
            ui,
            "Hardest strike",
            ParamSlider::for_param(&p.output.v_max_m_per_s, setter),
        );
        row(
            ui,
            "Dynamic range",
            ParamSlider::for_param(&p.output.dynamic_range_db, setter),
        );
        row(
            ui,
            "Velocity curve",
            ParamSlider::for_param(&p.output.velocity_curve, setter),
        );
    });
}

/// The Output group.
fn output(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Output", |ui| {
        row(
            ui,
            "Release damping",
            ParamSlider::for_param(&p.output.release_fraction, setter),
        );
        row(
            ui,
            "Polyphony",
            ParamSlider::for_param(&p.output.polyphony, setter),
        );
        row(
            ui,
            "Stereo width",
            ParamSlider::for_param(&p.output.stereo_width, setter),
        );
        row(
            ui,
            "Pan by key",
            ParamSlider::for_param(&p.output.pan_by_key, setter),
        );
        row(ui, "Level", ParamSlider::for_param(&p.output.level, setter));
        row(
            ui,
            "Gain",
            ParamSlider::for_param(&p.output.gain_db, setter),
        );
    });
}

/// The Object group.
fn object(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Object", |ui| {
        row(
            ui,
            "Object",
            ParamSlider::for_param(&p.object.object, setter),
        );
        row(
            ui,
            "Material",
            ParamSlider::for_param(&p.object.object_material, setter),
        );
        row(
            ui,
            "Physical tuning",
            ParamSlider::for_param(&p.object.physical_tuning, setter),
        );
        row(
            ui,
            "Size",
            ParamSlider::for_param(&p.object.object_size_m, setter),
        );
        row(
            ui,
            "Modes",
            ParamSlider::for_param(&p.object.num_modes, setter),
        );
        row(
            ui,
            "Mass",
            ParamSlider::for_param(&p.object.object_mass_kg, setter),
        );
        row(
            ui,
            "Decay T60",
            ParamSlider::for_param(&p.object.t60_s, setter),
        );
        row(
            ui,
            "Damping law",
            ParamSlider::for_param(&p.object.damping_slope, setter),
        );
        row(
            ui,
            "Inharmonicity",
            ParamSlider::for_param(&p.object.stretch, setter),
        );
        row(
            ui,
            "Strike position",
            ParamSlider::for_param(&p.object.strike_position, setter),
        );
        row(
            ui,
            "Pickup position (left)",
            ParamSlider::for_param(&p.object.pickup_position, setter),
        );
        row(
            ui,
            "Right pickup position",
            ParamSlider::for_param(&p.object.right_pickup_position, setter),
        );
        row(
            ui,
            "Key tracking",
            ParamSlider::for_param(&p.object.key_tracking, setter),
        );
        row(
            ui,
            "Fixed pitch",
            ParamSlider::for_param(&p.object.fixed_f0_hz, setter),
        );
        row(
            ui,
            "Tuning A4",
            ParamSlider::for_param(&p.object.a4_hz, setter),
        );
    });
}

/// The play mode and how bodies fall (bounce, roll and drop read it).
fn fall(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Mode and fall", |ui| {
        row(ui, "Mode", ParamSlider::for_param(&p.mode, setter));
        row(
            ui,
            "Drop height",
            ParamSlider::for_param(&p.fall.height_m, setter),
        );
        row(
            ui,
            "Gravity",
            ParamSlider::for_param(&p.fall.gravity_m_per_s2, setter),
        );
        row(
            ui,
            "Gravity in contact",
            ParamSlider::for_param(&p.fall.gravity_in_contact, setter),
        );
        ui.label(if p.fall.gravity_in_contact.value() {
            "Gravity acts during contact (eq. 21): no exit correction."
        } else {
            "Gravity suspended during contact on a rigid object (the paper's corrections); on a modal object it acts in contact."
        });
        row(
            ui,
            "Capture velocity",
            ParamSlider::for_param(&p.fall.capture_m_per_s, setter),
        );
    });
}

/// The Bounce group.
fn bounce(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Bounce", |ui| {
        row(
            ui,
            "Irregularity",
            ParamSlider::for_param(&p.scenes.bounce.irregularity, setter),
        );
    });
}

/// The Roll group.
fn roll(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Roll", |ui| {
        row(
            ui,
            "Ball radius",
            ParamSlider::for_param(&p.scenes.roll.ball_radius_m, setter),
        );
        row(
            ui,
            "Roughness",
            ParamSlider::for_param(&p.scenes.roll.roughness_log10, setter),
        );
        row(
            ui,
            "Roughness slope",
            ParamSlider::for_param(&p.scenes.roll.roughness_slope, setter),
        );
        row(
            ui,
            "Out of round",
            ParamSlider::for_param(&p.scenes.roll.out_of_round, setter),
        );
        row(
            ui,
            "Roll speed",
            ParamSlider::for_param(&p.scenes.roll.roll_speed_m_per_s, setter),
        );
        row(
            ui,
            "Speed source",
            ParamSlider::for_param(&p.scenes.roll.roll_source, setter),
        );
        row(
            ui,
            "Lift at release",
            ParamSlider::for_param(&p.scenes.roll.roll_lift, setter),
        );
    });
}

/// The Drop group.
fn drop(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Drop", |ui| {
        ui.label(
            "Mode Drop: the body (of the striker's material) falls from the drop height on the object, the floor.",
        );
        row(
            ui,
            "Body",
            ParamSlider::for_param(&p.scenes.drop.drop_body, setter),
        );
        row(
            ui,
            "Scale",
            ParamSlider::for_param(&p.scenes.drop.drop_scale, setter),
        );
        row(
            ui,
            "Spin",
            ParamSlider::for_param(&p.scenes.drop.drop_spin_rad_per_s, setter),
        );
        row(
            ui,
            "Drift",
            ParamSlider::for_param(&p.scenes.drop.drop_drift_m_per_s, setter),
        );
        row(
            ui,
            "Friction",
            ParamSlider::for_param(&p.scenes.drop.drop_mu, setter),
        );
        row(
            ui,
            "Lift at release",
            ParamSlider::for_param(&p.scenes.drop.drop_lift, setter),
        );
    });
}

/// The Expression group.
fn expression(ui: &mut egui::Ui, p: &UrtoParams, setter: &ParamSetter) {
    group(ui, "Expression", |ui| {
        row(
            ui,
            "Pressure press",
            ParamSlider::for_param(&p.expression.press_depth, setter),
        );
        row(
            ui,
            "Bend range",
            ParamSlider::for_param(&p.expression.bend_range_semitones, setter),
        );
        row(ui, "MPE", ParamSlider::for_param(&p.expression.mpe, setter));
        row(
            ui,
            "MPE bend range",
            ParamSlider::for_param(&p.expression.mpe_bend_range_semitones, setter),
        );
    });
}
