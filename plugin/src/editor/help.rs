//! Each parameter's tooltip: what it does to the sound, in plain words, and its unit.

/// The tooltips by parameter id.
const TOOLTIPS: &[(&str, &str)] = &[
    (
        "mode",
        "What a note does: Single strike, Bounce (a falling ball), Roll (a rolling ball), \
            Drop (a tumbling body), Slide (a slider drawn over the object), Crumple (a stream of \
            small impacts while held) or Break (the striker's body breaks on the object). Read \
            at note-on. Choice.",
    ),
    (
        "k",
        "Stiffer contact: shorter, harder, brighter impact that reaches higher modes. Softer: \
            longer, duller thud. Unit: N/m^α.",
    ),
    (
        "mu",
        "More energy lost inside the contact: weaker rebound, bounces die out sooner. Ignored \
            with the linear damper law or a target restitution. Unit: s/m.",
    ),
    (
        "alpha",
        "How steeply force grows with compression (1 spring, 1.5 Hertz). Higher: loud hits \
            shorten more than soft ones; at the same k, much softer overall. No unit.",
    ),
    (
        "integrator",
        "How the contact is computed. AM1 never adds energy; Verlet, Heun and RK4 are \
            explicit and can gain energy on stiff contacts with the guard off. Choice.",
    ),
    (
        "law",
        "Hunt–Crossley: f = k·x^α·(1 + μ·v), damping grows with compression. Hertz + linear \
            damper: f = k·x^α + c·v, damping from first touch. Choice.",
    ),
    (
        "damping-from",
        "Dissipation: use μ (or c) as set. Target restitution e: each contact picks its own \
            damping so it rebounds at e at any speed. Choice.",
    ),
    (
        "restitution",
        "Rebound speed over impact speed that each contact aims for (Damping from = Target \
            restitution e). Higher: livelier rebounds and bounces. No unit.",
    ),
    (
        "linear-damping",
        "Damping c of the Hertz + linear damper law (with Damping from = Dissipation). \
            Higher: more loss, weaker rebound. Unit: N·s/m.",
    ),
    (
        "corrections",
        "The hammer leaves with the exact Hunt–Crossley rebound speed. Acts only on an object \
            with no modes below Nyquist, with gravity suspended. On/off.",
    ),
    (
        "guard",
        "Removes any energy a contact step creates, so stiff hits cannot blow up. Only \
            matters with Verlet, Heun and RK4; AM1 needs none. On/off.",
    ),
    (
        "hammer-mass",
        "Heavier hammer: longer contact, so a darker impact with more energy (louder at Level \
            = Physical). Point mass only (also the Bounce and Roll ball). Unit: kg.",
    ),
    (
        "striker",
        "What strikes: a point mass, or a ball, mallet, rod or coin whose mass follows from \
            its material and size and whose own modes ring too. Choice.",
    ),
    (
        "striker-material",
        "The striker's material: a body striker's mass and its own ringing's pitch and decay, \
            and the contact with Contact from materials. Also the dropped body's. Choice.",
    ),
    (
        "striker-size",
        "Ball or mallet-head radius, rod length, coin radius. Larger: heavier, lower ringing. \
            Point mass: its contact radius (Contact from materials). Unit: m.",
    ),
    (
        "striker-level",
        "Trim on the striker's own ringing in the mix: 1 as physics has it, 0 only the \
            object, above 1 more striker. No unit.",
    ),
    (
        "grip",
        "How a hand holds the striker: fingers damp its own ringing, Firm more than Loose. \
            Single strike only; a ball is never held. Choice.",
    ),
    (
        "contact-from-materials",
        "Derive k (Hertz, α = 1.5) and the restitution from the striker's and object's \
            materials and the striker's radius, not the contact knobs. On/off.",
    ),
    (
        "object",
        "The struck object (bar, plate, membrane, bell, glass, plank, string): sets the \
            ratios of its partials, hence its character. Choice.",
    ),
    (
        "object-material",
        "The object's material: sets the contact (Contact from materials), its radiating size \
            for its mass, and its pitch with Physical tuning. Choice.",
    ),
    (
        "physical-tuning",
        "Every note strikes the object its material and Object size tune, not the key's pitch \
            (bars, plank and plates only). On/off.",
    ),
    (
        "object-size",
        "Bar or plank length, rectangular plate's long side, circular plate's radius: larger \
            is lower (Physical tuning). Drop: the floor's size. Unit: m.",
    ),
    (
        "key-tracking",
        "On: the tuned mode follows the key (A4 = Tuning A4). Off: every key plays Fixed \
            pitch. On/off.",
    ),
    (
        "fixed-f0",
        "Frequency of the tuned mode when Key tracking is off. Unit: Hz.",
    ),
    ("a4", "Pitch of A4 (MIDI 69) for key tracking. Unit: Hz."),
    (
        "decay",
        "Time for the tuned mode to die away by 60 dB. Longer: longer ring. Unit: s.",
    ),
    (
        "material",
        "How much faster high partials die: 0 all ring alike (metal-like), 1 decay rate grows \
            as f², so highs die fast (wood-like). No unit.",
    ),
    (
        "stretch",
        "Stretches each partial ratio r to r^(1 + value): above 0 upper partials go sharp, \
            below 0 flat. 0 keeps the object's table. No unit.",
    ),
    (
        "strike-pos",
        "Where the object is struck (0 to 1 along its length, radius or rim). Modes with a \
            node there are not excited, so the timbre changes. No unit.",
    ),
    (
        "pickup-pos",
        "Where the left channel listens, in Strike position's coordinates. Modes with a node \
            there are not heard on the left. No unit.",
    ),
    (
        "pickup-right",
        "Where the right channel listens. At the left pickup's position: mono; further away: \
            a wider image. No unit.",
    ),
    (
        "modes",
        "How many of the object's lowest modes are simulated (those past Nyquist are \
            dropped). More: richer, brighter top, more CPU. No unit.",
    ),
    (
        "object-mass",
        "Modal mass. Heavier: yields less to the hammer (closer to a rigid wall) but is \
            larger, so radiates better. Unit: kg.",
    ),
    (
        "v-min",
        "Impact speed of the softest note: the floor of the velocity range. Bounce: the \
            slowest first impact. Unit: m/s.",
    ),
    (
        "v-max",
        "Impact speed at velocity 127: faster gives a shorter, brighter contact. Bounce: the \
            speed the ball is thrown down at. Unit: m/s.",
    ),
    (
        "dynamic-range",
        "How much quieter velocity 1 is than 127, reached by striking slower (so darker too; \
            in Slide by pressing lighter, then a gain; a plain gain in Roll and Drop). 0: every \
            velocity hits as hard. Unit: dB.",
    ),
    (
        "velocity-curve",
        "Shape γ of the velocity-to-level curve: 1 straight in dB; higher gives finer control \
            at the loud end, steeper at the soft end. No unit.",
    ),
    (
        "level",
        "Calibrated: a make-up gain puts middle C at velocity 127 near −9 dBFS. Physical: \
            samples are sound pressure 1 m away in Pa. Choice.",
    ),
    (
        "width",
        "Stereo width: 0 mono (the mean of the two pickups), 1 the two pickups as they are. \
            No unit.",
    ),
    (
        "pan-by-key",
        "Pans each note by its key: at 1, a note four octaves from middle C is fully to one \
            side. No unit.",
    ),
    (
        "release",
        "At note-off every mode's T60 shrinks to this fraction: small values damp fast, 1 \
            hardly at all. 0 is off: the object rings on. No unit.",
    ),
    (
        "polyphony",
        "Voices in use; when all are busy a new note takes the quietest. Unit: voices.",
    ),
    (
        "gain",
        "Output level on top of Level, smoothed over 20 ms. Unit: dB.",
    ),
    (
        "height",
        "Height the bouncing ball or dropped body falls from. Higher: a faster, harder \
            landing that comes later. Unit: m.",
    ),
    (
        "gravity",
        "Pull on the falling, bouncing and rolling bodies (9.81 Earth, 1.62 Moon). Stronger: \
            bounces follow faster, bodies land harder. Unit: m/s².",
    ),
    (
        "gravity-in-contact",
        "On: gravity also acts during contacts on a rigid object. Off: suspended there, as \
            the exit correction assumes. Objects with modes always have it. On/off.",
    ),
    (
        "capture",
        "An impact slower than this no longer rebounds: the ball comes to rest. Higher: the \
            bouncing ends sooner; 0: off. Unit: m/s.",
    ),
    (
        "irregularity",
        "Out-of-roundness of the bouncing ball: each contact's stiffness varies at random, so \
            no two bounces sound alike. 0: all alike. No unit.",
    ),
    (
        "ball-radius",
        "Radius of the rolling ball. Larger: bridges small dips (smoother, darker) and its \
            out-of-round pulse comes slower. Mass and stiffness unchanged. Unit: m.",
    ),
    (
        "out-of-round",
        "Out-of-roundness of the rolling ball, a fraction of its radius: a pulse heard once \
            per revolution. No unit.",
    ),
    (
        "roll-speed",
        "Rolling speed at full controller value. Faster: a louder, brighter roll. Unit: m/s.",
    ),
    (
        "roll-source",
        "What scales Roll speed: fixed, mod wheel, channel pressure or expression. Full speed \
            until the controller first moves. Choice.",
    ),
    (
        "roll-lift",
        "At note-off: on lifts the ball off; off lets it roll to a stop. On/off.",
    ),
    (
        "drop-body",
        "What a Drop note drops (die, coin, rod, spoon, brick, ring or ball), in Striker \
            material; its own modes ring too. Choice.",
    ),
    (
        "drop-scale",
        "Size of the dropped body against its usual one. Larger: heavier, with lower ringing \
            of its own. Unit: ×.",
    ),
    (
        "drop-spin",
        "Largest spin about each axis at the drop, drawn per note. More: more tumbling and \
            rattling. Unit: rad/s.",
    ),
    (
        "drop-drift",
        "Largest sideways speed at the drop, drawn per note: the body wanders, moving the \
            strike point and the timbre. Unit: m/s.",
    ),
    (
        "drop-friction",
        "Coulomb friction between body and floor. Low: the body slides on; high: it grips, \
            tips and rolls. No unit.",
    ),
    (
        "crumple-rate",
        "Events per second of the crumple while the note is held, at the gesture's top and \
            full controller value: each a fragment thrown at the object. Unit: 1/s.",
    ),
    (
        "crumple-source",
        "What scales Event rate: fixed, mod wheel, channel pressure or expression (a note's \
            own expression scales it too). Choice.",
    ),
    (
        "crumple-gesture",
        "How the rate moves while the note is held: steady; a crush that builds to its top at \
            Gesture time and relaxes; footsteps, a heel's burst and a toe's every Gesture time. \
            Choice.",
    ),
    (
        "crumple-gesture-time",
        "The gesture's time: when a crush peaks, or one footstep's period. Unit: s.",
    ),
    (
        "crumple-exponent",
        "Exponent α of the events' energies, p(E) ∝ E^−α: higher, more small events among \
            the large (crumpled paper: 1.3–1.6). No unit.",
    ),
    (
        "crumple-min-energy",
        "Energy of the smallest event at velocity 127. Each event throws a fragment of the \
            striker (its material and body), √(E/E_max) of its size. Unit: J.",
    ),
    (
        "crumple-span",
        "How far the largest event's energy lies above the smallest; the largest throws the \
            whole striker. Unit: decades.",
    ),
    (
        "break-energy",
        "Energy the striker's body holds when it breaks on the object (the floor): the crack \
            releases its share, the rest flings the fragments. Unit: J.",
    ),
    (
        "break-crack-share",
        "Share of the stored energy the crack releases, as a burst of impacts whose rate \
            rises until the body comes apart. No unit.",
    ),
    (
        "break-crack-time",
        "How long the crack runs before the body comes apart (glass: milliseconds; ice: \
            seconds). Unit: s.",
    ),
    (
        "break-fragments",
        "Pieces the body breaks into, each bouncing on the floor with its own restitution. \
            Count.",
    ),
    (
        "break-mass-exponent",
        "Exponent β of the fragments' masses, n(m) ∝ m^−β: higher, more small pieces (shells \
            such as a glass or a bottle ≈ 1.35, plates ≈ 1.5). No unit.",
    ),
    (
        "drop-lift",
        "At note-off: on lifts the body (no new contacts); off lets it settle. On/off.",
    ),
    (
        "slide-force",
        "Normal force pressing the slider onto the object at velocity 127 (half at velocity 1; \
            a note's pressure adds Press depth). More: rougher, another mode caught, a squeak \
            or none. Unit: N.",
    ),
    (
        "slide-speed",
        "Drawing speed at full controller value. Stick–slip needs a friction that falls with \
            speed there. Unit: m/s.",
    ),
    (
        "slide-source",
        "What scales Slide speed: fixed, mod wheel, channel pressure or expression. Full \
            speed until the controller first moves. Choice.",
    ),
    (
        "slide-stroke",
        "Which way the slider is drawn: forward, backward (a saw-toothed surface sounds \
            otherwise), or back and forth over Stroke length. Choice.",
    ),
    (
        "stroke-length",
        "Length of a back-and-forth stroke; the slider turns at each end. Unit: m.",
    ),
    (
        "slide-coupling",
        "How much of the friction drives the object's modes: 1 for a bow across an edge or a \
            finger round a rim, a few hundredths for a slider dragged along a face. No unit.",
    ),
    (
        "slide-edge",
        "On: the slider presses against an edge (a bow on a bar's end or a cymbal's rim), \
            in-plane, where the object hardly yields: only the friction drives its modes. Off: \
            it presses on a face. On/off.",
    ),
    (
        "slide-in-place",
        "On: the slider keeps to one spot of the object (a disc turning under a brake pad, a \
            pin turning in a hinge). Off: the spot moves along the object with the slider from \
            Strike position, and the timbre with it; it turns back before each end. Round a \
            glass's or a bell's rim, and against an edge, the spot always stays. On/off.",
    ),
    (
        "slider-tip",
        "Radius of the slider's tip: it rides over what is much narrower than itself. Small: \
            a nail that clicks on every tooth. Large: a finger that glides. Unit: m.",
    ),
    (
        "mu-static",
        "Static friction coefficient µs: the grip before the slider breaks away. Any value, \
            above 1 too (rubber). No unit.",
    ),
    (
        "mu-kinetic",
        "Kinetic friction coefficient µk, while sliding fast. Far below Static friction: \
            stick–slip and squeaks. No unit.",
    ),
    (
        "stribeck",
        "Stribeck velocity: how fast friction falls from static to kinetic as sliding speeds \
            up. Near the slide speed: the object is driven into singing. Unit: m/s.",
    ),
    (
        "bristle-stiffness",
        "Stiffness σ₀ of the contact's micro-bristles before they slip. Stiffer: a sharper \
            break-away, closer to Coulomb's friction. Unit: N/m.",
    ),
    (
        "bristle-damping",
        "Damping σ₁ of the bristles while they load. Calms the bristles' own ringing. \
            Unit: N·s/m.",
    ),
    (
        "viscous-friction",
        "Viscous friction σ₂: a force growing with the sliding speed (a lubricated contact). \
            Unit: N·s/m.",
    ),
    (
        "breakaway",
        "Share of the full bristle deflection that stays elastic: below it nothing creeps. \
            No unit.",
    ),
    (
        "friction-noise",
        "Roughness of the friction itself: µ flickers by this RMS share over the audible band, \
            the same at every sample rate. A gritty, hissing slide. Unit: %.",
    ),
    (
        "surface",
        "What the slider is drawn over, the ball rolls on, and a landed body slides on: \
            smooth, rough at every scale, evenly spaced ridges, or sandpaper grain. Read where \
            the contact is: it moves with the speed. Choice.",
    ),
    (
        "surface-height",
        "RMS height of a rough or grainy surface, or a ridge's height. Higher: louder, \
            rattling, until the slider or the ball hops. Unit: m.",
    ),
    (
        "surface-slope",
        "Spectrum of a rough surface, β of a power ∝ 1/k^β: 1 every scale alike (gritty); 3 \
            long undulations dominate (smooth). No unit.",
    ),
    (
        "ridge-spacing",
        "Distance between ridges: heard as a pulse at speed / spacing. Unit: m.",
    ),
    (
        "ridge-shape",
        "Shape of the ridges: rounded (washboard), saw (guiro: differs each way), or \
            flat-topped teeth (zip, comb). Choice.",
    ),
    (
        "ridge-duty",
        "Width of a tooth as a share of the ridge spacing (Teeth only). No unit.",
    ),
    (
        "grain-size",
        "Size of a grain of sandpaper: the finest scale of the grain surface. Unit: m.",
    ),
    (
        "press-depth",
        "Force full note pressure presses the ball into the object with, in the ball's \
            weights. 0: pressure does nothing. Unit: × weight.",
    ),
    (
        "bend-range",
        "Semitones of a full MIDI pitch bend (with MPE: on the master channel). Unit: \
            semitones.",
    ),
    (
        "mpe",
        "On: MIDI channels 2–16 each carry one note with its own bend, pressure and CC 74 \
            (lower zone, master channel 1). On/off.",
    ),
    (
        "mpe-bend-range",
        "Semitones of a full pitch bend on an MPE member channel (2–16). Unit: semitones.",
    ),
];

/// The tooltip of the parameter with stable id `id` (`None` for an unknown id).
pub fn tooltip(id: &str) -> Option<&'static str> {
    TOOLTIPS
        .iter()
        .find(|(known, _)| *known == id)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter has a tooltip, and every tooltip a parameter.
    #[test]
    fn every_parameter_has_a_tooltip() {
        crate::params::assert_lists_every_parameter_once(TOOLTIPS.iter().map(|(id, _)| *id));
        assert!(TOOLTIPS.iter().all(|(_, text)| !text.is_empty()));
    }
}
