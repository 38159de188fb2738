//! The struck object: a bank of exactly discretized modal resonators and the mode tables of objects.

mod modal_bank;
mod objects;

pub(crate) use modal_bank::ring_heard;
pub use modal_bank::{
    BankSetup, FragmentModes, MeanMobility, ModalBank, Mode, Pickup, PointShapes, Pushed, Slot,
    Surface, FRAGMENT_MODES, MAX_MODES,
};
pub use objects::{
    chime_strike_note_hz, chime_tube_area_m2, object_modes, Marker, ObjectKind, ObjectSpec,
    StrikeLine, BAR_WIDTH_PER_LENGTH,
};
