//! Urto as a standalone application (feature `standalone`): JACK, ALSA or a dummy backend.

fn main() {
    nice_plug::nice_export_standalone::<urto::Urto>();
}
