//! PLUS (Uchida, Sherman & Delp): simultaneous frictional impacts at several contacts of one rigid body.
