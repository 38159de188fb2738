"""The release VST3 bundle in a real VST3 host (pedalboard): the level table of issue 13 (every
object at its defaults and every factory preset: velocity 127 at -9 +- 3 dBFS, velocity 64 8-14 dB
below); MPE over MIDI (channel per note, bend, pressure, CC 74) reaching only its note; two pickups make the stereo image; notes render finite, audible audio;
k, mu and alpha are set by name and take effect; raw_state (parameters, enum choices, the preset
name) round-trips into a fresh instance. Host behaviour, as the CLAP tests check it: re-activation
at other sample rates, reset mid-note, block sizes, a note on a block's last sample, note-offs for
notes never on, all notes off / all sound off (MIDI CC 123 / 120), garbage state refused.

Run by `cargo xtask test` inside the .venv it creates:
python tests/vst3_host.py <Urto.vst3> [<presets.json> [<vstpresets folder>]]
where presets.json (written by the xtask) lists every factory preset's normalised parameter
values in the plugin's parameter order and the path of its .vstpreset file under the folder
(which `cargo xtask install` writes to ~/.vst3/presets).
"""

import json
import math
import sys
import traceback

import mido
import numpy as np
import pedalboard
from spectrum import strongest_peak_hz

BUNDLE = sys.argv[1] if len(sys.argv) > 1 else "target/bundled/Urto.vst3"
PRESETS = sys.argv[2] if len(sys.argv) > 2 else "target/vst3-test/presets.json"
VSTPRESETS = sys.argv[3] if len(sys.argv) > 3 else "target/vst3-test/vstpresets"
SAMPLE_RATE = 48_000
# The calibrated level (docs/user-guide.md, Level): velocity 127 of middle C peaks at -9 dBFS; a
# rolling ball's RMS sits the rolling crest factor (4, 12 dB) below that.
LEVEL_DBFS = -9.0
OBJECTS = ("Marimba bar", "Free bar", "Circular plate", "Rectangular plate", "Membrane", "Bell",
           "Glass", "Wooden plank", "String")


# Pedalboard warms an instrument up by playing middle C and pumping its event loop until audio
# comes back, at load and again at every render that resets the plugin, for up to this many
# seconds (spotify/pedalboard#265). A bounce's or a drop's ball is still falling when the warm-up
# looks, so each such render waited the whole default 10 s; Urto loads nothing in the background.
WARM_UP_S = 0.5


def load():
    return pedalboard.load_plugin(BUNDLE, initialization_timeout=WARM_UP_S)


_SHARED = []
_DEFAULTS = []


def shared():
    """One instance for the host-behaviour tests (loading takes ~20 s: nice-plug's VST3 wrapper
    declares 16 x 130 MIDI-CC parameters, which the host enumerates). Each test leaves it at its
    defaults."""
    return instance(0)


def instance(index):
    """The module's `index`-th instance (0 or 1), loaded once and set back to the state it loaded
    with: a test gets an instance at its defaults without paying for a load."""
    while len(_SHARED) <= index:
        plugin = load()
        _SHARED.append(plugin)
        _DEFAULTS.append(plugin.raw_state)
    plugin = _SHARED[index]
    plugin.raw_state = _DEFAULTS[index]
    plugin.reset()
    return plugin


def render(plugin, messages, seconds, sample_rate=SAMPLE_RATE, buffer_size=512, reset=True):
    audio = plugin(
        messages,
        duration=seconds,
        sample_rate=sample_rate,
        num_channels=2,
        buffer_size=buffer_size,
        reset=reset,
    )
    return np.asarray(audio[0], dtype=np.float64)


def strike(plugin, note=60, velocity=100, seconds=1.0):
    """Render one note-on and return the first channel."""
    messages = [mido.Message("note_on", note=note, velocity=velocity, time=0.01)]
    audio = plugin(messages, duration=seconds, sample_rate=SAMPLE_RATE, num_channels=2, reset=True)
    return np.asarray(audio[0], dtype=np.float64)


def rms(x):
    return float(np.sqrt(np.mean(x * x)))


def dbfs(x):
    return 20.0 * math.log10(max(x, 1e-30))


def note_level(plugin, velocity, seconds):
    """Peak and RMS (after 0.1 s) of middle C at `velocity`, in dBFS, on the louder channel."""
    messages = [mido.Message("note_on", note=60, velocity=velocity, time=0)]
    audio = np.asarray(plugin(messages, duration=seconds, sample_rate=SAMPLE_RATE, num_channels=2,
                              reset=True), dtype=np.float64)
    peak = float(np.max(np.abs(audio)))
    tail = audio[:, int(0.1 * SAMPLE_RATE):]
    return dbfs(peak), dbfs(max(rms(channel) for channel in tail))


def rolling_level(plugin, velocity, notes=4):
    """A rolling ball's level: the louder channel's RMS (dBFS) over 2 s after the first 0.1 s, in
    power averaged over four successive notes, each ended by all sound off (CC 120): every note
    rolls on a track of its own, whose level is a random draw (+-2-3 dB)."""
    period = 2.2
    messages = []
    for i in range(notes):
        messages.append(mido.Message("note_on", note=60, velocity=velocity, time=i * period))
        messages.append(mido.Message("control_change", control=120, value=0, time=i * period + 2.0))
    audio = np.asarray(plugin(messages, duration=notes * period, sample_rate=SAMPLE_RATE, num_channels=2,
                              reset=True), dtype=np.float64)
    mean_squares = [0.0, 0.0]
    for i in range(notes):
        start, end = int((i * period + 0.1) * SAMPLE_RATE), int((i * period + 2.0) * SAMPLE_RATE)
        for channel in range(2):
            mean_squares[channel] += rms(audio[channel, start:end]) ** 2 / notes
    return 10.0 * math.log10(max(max(mean_squares), 1e-60))


def level_row(plugin, name, steady, crest=4.0):
    """One row of the level table (a steady sound's RMS target `crest` below the peak's); returns
    the failures."""
    (full, full_rms), (half, _) = note_level(plugin, 127, 1.5), note_level(plugin, 64, 1.5)
    if steady:
        full_rms, half_rms = rolling_level(plugin, 127), rolling_level(plugin, 64)
    steady_target = LEVEL_DBFS - 20.0 * math.log10(crest)
    level, spacing, target = (full_rms, full_rms - half_rms, steady_target) if steady else (
        full, full - half, LEVEL_DBFS)
    print(f"  {name:<40} 127: {full:6.1f} dBFS peak {full_rms:6.1f} RMS   64: {half:6.1f} peak   {spacing:4.1f} dB")
    failures = []
    if abs(level - target) > 3.0:
        failures.append(f"{name}: {level:.1f} dBFS, not {target:.1f} +- 3")
    if not 8.0 <= spacing <= 14.0:
        failures.append(f"{name}: velocity 127 - 64 = {spacing:.1f} dB")
    return failures


def test_every_object_and_preset_is_at_the_calibrated_level():
    plugin = shared()
    failures = []
    print("  level table (note 60; steady presets, roll and slide: RMS over four notes, the calibrated quantity)")
    try:
        for name in OBJECTS:
            plugin.object = name
            failures += level_row(plugin, f"object: {name}", steady=False)
    finally:
        plugin.object = "Marimba bar"
    parameters = list(plugin.parameters.values())
    defaults = [p.raw_value for p in parameters]
    try:
        with open(PRESETS) as f:
            presets = json.load(f)
        assert len(presets) >= 24, f"{len(presets)} presets in {PRESETS}"
        for preset in presets:
            for parameter, value in zip(parameters, preset["normalized"]):
                parameter.raw_value = value
            failures += level_row(plugin, f"preset: {preset['name']}", steady=preset["steady"],
                                  crest=preset["crest"])
    finally:
        for parameter, value in zip(parameters, defaults):
            parameter.raw_value = value
    assert not failures, "\n".join(failures)


def test_stereo_pickups():
    """Two pickups make the image: the channels differ, and each, and their mean (the mono
    signal: no delay between the channels, so no comb), has the note's fundamental as its
    strongest peak."""
    plugin = shared()
    messages = [mido.Message("note_on", note=60, velocity=100, time=0)]
    left, right = np.asarray(plugin(messages, duration=1.0, sample_rate=SAMPLE_RATE, num_channels=2,
                                    reset=True), dtype=np.float64)
    assert rms(left - right) > 0.1 * rms(left + right), "the channels barely differ"
    expected = 440.0 * 2.0 ** ((60 - 69) / 12.0)
    for name, x in (("left", left), ("right", right), ("mean", 0.5 * (left + right))):
        peak_hz = strongest_peak_hz(x, SAMPLE_RATE)
        assert abs(peak_hz / expected - 1.0) < 0.02, f"{name}: strongest peak {peak_hz:.1f} Hz"


def render_stereo(plugin, messages, seconds):
    return np.asarray(plugin(messages, duration=seconds, sample_rate=SAMPLE_RATE, num_channels=2,
                             buffer_size=512, reset=True), dtype=np.float64)


def test_mpe_midi_reaches_the_note_of_its_channel():
    """MPE over MIDI into the VST3 (lower zone): A on channel 2, B on channel 3. A bend on A's
    channel moves A alone, by its share of the +-48 semitone member range: the pair is the sum
    of A bent and B alone. Channel pressure and CC 74 on A's channel (rolling balls: pressure
    presses, brightness stiffens the next contacts) and polyphonic key pressure on A's channel and
    key change A and leave B's part of the pair as it was. A bend on the master channel (1) moves
    every note."""
    plugin = shared()
    plugin.mpe = True
    try:
        a_on = mido.Message("note_on", channel=1, note=60, velocity=100, time=0)
        b_on = mido.Message("note_on", channel=2, note=67, velocity=100, time=0)
        bend = mido.Message("pitchwheel", channel=1, pitch=2048, time=0.2)  # +12 of +-48
        both = render_stereo(plugin, [a_on, b_on, bend], 0.6)
        a = render_stereo(plugin, [a_on, bend], 0.6)
        b = render_stereo(plugin, [b_on], 0.6)
        plain = render_stereo(plugin, [a_on, b_on], 0.6)
        assert np.max(np.abs(both - (a + b))) < 1e-6, "the bend reached the other note"
        assert np.max(np.abs(both - plain)) > 1e-3, "the bend changed nothing"
        after = int(0.3 * SAMPLE_RATE)
        heard, expected = strongest_peak_hz(a[0][after:], SAMPLE_RATE), 440.0 * 2.0 ** ((72 - 69) / 12.0)
        assert abs(heard / expected - 1.0) < 0.02, f"bent to {heard:.1f} Hz, expected {expected:.1f}"
        # The master channel's bend (+-2 semitones) moves every note: B up a whole tone.
        master = mido.Message("pitchwheel", channel=0, pitch=8191, time=0.2)
        b_bent = render_stereo(plugin, [b_on, master], 0.6)
        heard, expected = strongest_peak_hz(b_bent[0][after:], SAMPLE_RATE), 440.0 * 2.0 ** ((69 - 69) / 12.0)
        assert abs(heard / expected - 1.0) < 0.02, f"master bend: {heard:.1f} Hz, expected {expected:.1f}"

        plugin.mode = "Roll"
        for name, message in (
            ("channel pressure", mido.Message("aftertouch", channel=1, value=127, time=0.2)),
            ("CC 74", mido.Message("control_change", channel=1, control=74, value=127, time=0.2)),
            ("poly pressure", mido.Message("polytouch", channel=1, note=60, value=127, time=0.2)),
        ):
            both = render_stereo(plugin, [a_on, b_on, message], 0.6)
            a = render_stereo(plugin, [a_on, message], 0.6)
            plain = render_stereo(plugin, [a_on, b_on], 0.6)
            a_plain = render_stereo(plugin, [a_on], 0.6)
            assert np.max(np.abs((both - a) - (plain - a_plain))) < 1e-6, f"{name} reached the other note"
            assert np.max(np.abs(a - a_plain)) > 1e-4, f"{name} changed nothing"
    finally:
        plugin.mpe = False
        plugin.mode = "Single strike"


def test_notes_are_finite_and_audible():
    plugin = instance(0)
    assert plugin.is_instrument
    for note in (36, 60, 84):
        for velocity in (20, 127):
            out = strike(plugin, note, velocity)
            assert np.all(np.isfinite(out)), f"non-finite output for note {note}"
            assert rms(out) > 1e-4, f"silent: note {note} velocity {velocity}, rms {rms(out)}"


def test_louder_for_higher_velocity():
    plugin = instance(0)
    levels = [rms(strike(plugin, 60, v, 0.5)) for v in (10, 50, 90, 127)]
    assert all(b > a for a, b in zip(levels, levels[1:])), levels


def test_parameters_set_by_name_take_effect():
    plugin = instance(0)
    reference = strike(plugin)
    settings = {"stiffness_n_m": 1e6, "dissipation_s_m": 2.0, "contact_shape": 2.5}
    for name, value in settings.items():
        setattr(plugin, name, value)
        got = float(getattr(plugin, name))
        assert abs(got / value - 1.0) < 0.02, f"{name}: set {value}, host reads {got}"
    changed = strike(plugin)
    assert np.all(np.isfinite(changed)) and rms(changed) > 1e-5
    # A softer, lossier contact must sound different from the default one.
    assert np.max(np.abs(changed - reference)) > 1e-3


def test_every_factory_vstpreset_loads_to_its_parameters():
    """Each factory preset's .vstpreset file, loaded by the host (the SDK's PresetFile reading
    its header, class id and component state), sets every parameter to the preset's value."""
    plugin = instance(1)
    parameters = list(plugin.parameters.values())
    with open(PRESETS) as f:
        presets = json.load(f)
    failures = []
    for preset in presets:
        plugin.load_preset(f"{VSTPRESETS}/{preset['vstpreset']}")
        # JUCE's setStateFromPresetFile hands the file's component state to the plugin but does
        # not re-read the parameters it shows (its raw_state setter does): the state the plugin
        # now holds, given back, brings the host's view up to date.
        plugin.raw_state = plugin.raw_state
        for parameter, value in zip(parameters, preset["normalized"]):
            if abs(parameter.raw_value - value) > 1e-5:
                failures.append(f"{preset['name']}: {parameter.name} = {parameter.raw_value}, not {value}")
    print(f"  {len(presets)} .vstpreset files loaded")
    assert not failures, "\n".join(failures[:20])


def round_trip(plugin):
    """A fresh instance loaded with `plugin`'s raw_state, checked to save the same state back."""
    state = plugin.raw_state
    fresh = instance(1)
    fresh.raw_state = state
    # The whole state (parameters and the persisted preset name) comes back byte for byte.
    assert fresh.raw_state == state
    return fresh


def test_raw_state_round_trips():
    plugin = instance(0)
    plugin.stiffness_n_m = 3e9
    plugin.dissipation_s_m = 0.1
    plugin.contact_shape = 1.2
    fresh = round_trip(plugin)
    for name in ("stiffness_n_m", "dissipation_s_m", "contact_shape"):
        a, b = float(getattr(plugin, name)), float(getattr(fresh, name))
        assert abs(a - b) <= 1e-6 * abs(a), f"{name}: {a} != {b} after raw_state"
    np.testing.assert_array_equal(strike(plugin), strike(fresh))


def test_raw_state_keeps_choices_and_bounce_settings():
    plugin = instance(0)
    plugin.mode = "Bounce"
    plugin.drop_height_m = 0.05
    plugin.contact_law = "Hertz + linear damper"
    fresh = round_trip(plugin)
    for name in ("mode", "contact_law"):
        assert getattr(plugin, name) == getattr(fresh, name), name
    assert abs(float(fresh.drop_height_m) - 0.05) < 1e-6
    # A bouncing ball is sensitive to the last bit of its drop height (set here as a normalised
    # value, restored as a plain one), so the audio is compared for level, not bit for bit.
    a, b = strike(plugin), strike(fresh)
    assert np.all(np.isfinite(b)) and abs(rms(a) / rms(b) - 1.0) < 0.2


def test_reactivation_at_other_sample_rates_stays_in_tune():
    plugin = shared()
    for fs in (44_100, 8_000, 96_000, 192_000, 48_000):
        out = render(plugin, [mido.Message("note_on", note=69, velocity=100, time=0)], 1.0, fs)
        assert np.all(np.isfinite(out)) and rms(out) > 1e-4, f"{fs} Hz"
        peak = strongest_peak_hz(out, fs)
        assert abs(peak / 440.0 - 1.0) < 0.02, f"{fs} Hz: peak at {peak} Hz"


def test_reset_mid_note_silences():
    plugin = shared()
    note = [mido.Message("note_on", note=60, velocity=100, time=0)]
    first = render(plugin, note, 0.1, reset=True)
    assert rms(first) > 1e-4
    ringing = render(plugin, [], 0.1, reset=False)
    assert rms(ringing) > 1e-4, "without a reset the note rings on"
    render(plugin, note, 0.1, reset=True)
    plugin.reset()
    after = render(plugin, [], 0.1, reset=False)
    assert np.all(after == 0.0), "silent after reset()"


def test_block_sizes_change_nothing():
    plugin = shared()
    messages = [
        mido.Message("note_on", note=60, velocity=100, time=0),
        mido.Message("note_on", note=64, velocity=90, time=1000 / SAMPLE_RATE),
        mido.Message("note_off", note=64, velocity=0, time=7000 / SAMPLE_RATE),
    ]
    reference = render(plugin, messages, 0.5, buffer_size=512)
    assert rms(reference) > 1e-4
    for size in (1, 7, 64, 8192):
        np.testing.assert_array_equal(render(plugin, messages, 0.5, buffer_size=size), reference)


def test_a_note_on_the_last_sample_of_a_block_sounds_there():
    plugin = shared()
    out = render(plugin, [mido.Message("note_on", note=60, velocity=100, time=63 / SAMPLE_RATE)], 0.1, buffer_size=64)
    first = int(np.flatnonzero(out)[0])
    assert 62 <= first <= 65, f"first sound at sample {first}"


def test_note_offs_for_notes_never_on_are_harmless():
    plugin = shared()
    on = [mido.Message("note_on", note=60, velocity=100, time=100 / SAMPLE_RATE)]
    stray = [
        mido.Message("note_off", note=key, velocity=0, time=(50 + 37 * key) / SAMPLE_RATE)
        for key in range(128)
        if key != 60
    ]
    messages = sorted(on + stray, key=lambda m: m.time)
    np.testing.assert_array_equal(render(plugin, messages, 0.25), render(plugin, on, 0.25))


def chord(plugin, extra, mode="Single strike"):
    plugin.mode = mode
    try:
        notes = [mido.Message("note_on", note=k, velocity=100, time=0) for k in (48, 60, 67)]
        return render(plugin, notes + extra, 1.0)
    finally:
        plugin.mode = "Single strike"


def test_all_notes_off_and_all_sound_off():
    plugin = shared()
    # On a block boundary: the VST3 path carries MIDI controllers as parameter changes, which
    # reach the plugin at the start of their block (the CLAP test checks sample accuracy).
    end = 18 * 512 / SAMPLE_RATE
    offs = [mido.Message("note_off", note=k, velocity=0, time=end) for k in (48, 60, 67)]
    cc = lambda number: [mido.Message("control_change", control=number, value=0, time=end)]  # noqa: E731
    # Rolling balls roll on until their note-off, so a missed release is heard.
    held, released = chord(plugin, [], "Roll"), chord(plugin, offs, "Roll")
    assert np.max(np.abs(held - released)) > 0, "note-offs change a roll"
    np.testing.assert_array_equal(chord(plugin, cc(123), "Roll"), released)
    # All sound off: silent two choke times (2 x 10 ms) and a block after the controller.
    silent_from = int((end + 0.03) * SAMPLE_RATE)
    ringing = chord(plugin, [])
    assert rms(ringing[silent_from:]) > 1e-4
    choked = chord(plugin, cc(120))
    assert np.all(choked[silent_from:] == 0.0), "sound 30 ms after all sound off"


def test_garbage_state_is_refused_and_the_parameters_are_kept():
    plugin = shared()
    plugin.stiffness_n_m = 3e9
    try:
        before = plugin.raw_state
        garbage = [b"", b"\xff" * 3, bytes(range(256)) * 16, b"not json at all", before[: len(before) // 2]]
        for bytes_ in garbage:
            try:
                plugin.raw_state = bytes_
            except Exception:  # noqa: BLE001 - a host may report the refusal; either way, nothing changes
                pass
            assert plugin.raw_state == before, f"{len(bytes_)} bytes of garbage changed the state"
        out = strike(plugin)
        assert np.all(np.isfinite(out)) and rms(out) > 1e-4
    finally:
        plugin.stiffness_n_m = 1e8


def main():
    tests = [(name, f) for name, f in sorted(globals().items()) if name.startswith("test_") and callable(f)]
    failed = 0
    for name, test in tests:
        try:
            test()
            print(f"test {name} ... ok")
        except Exception:  # noqa: BLE001 - report every failure, then exit non-zero
            failed += 1
            print(f"test {name} ... FAILED")
            traceback.print_exc()
    print(f"vst3: {len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
