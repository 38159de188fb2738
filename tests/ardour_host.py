"""The release VST3 bundle in a real DAW: Ardour 7 (Debian's package), driven headless.

Ardour's Lua host (ardour7-lua) creates a session on the "None (Dummy)" backend with a MIDI track
whose instrument is Urto; a MIDI region of known notes (keys, velocities, positions off any block
grid) is written into the saved session (Ardour 7.3's Lua API cannot create MIDI sources or
regions); a second copy of the session has a parameter set by its host-visible name; ardour7-export
renders both to float WAVs. Checks: finite and non-silent; every onset within 1 ms of its note;
the strongest peak of each key-tracked note within 2% of its fundamental; a louder velocity gives
a louder note; the changed parameter changes the audio; two exports are bit-identical.

Every Ardour file lives under the work folder (HOME and XDG_* point there).

Run by `cargo xtask test` inside the .venv it creates:
    python tests/ardour_host.py <Urto.vst3> <work folder>
"""

import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import mido
import numpy as np
from pedalboard.io import AudioFile
from spectrum import strongest_peak_hz

BUNDLE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/bundled/Urto.vst3")
WORK = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "target/ardour")
ARDOUR_LIB = "/usr/lib/ardour7"
SAMPLE_RATE = 48_000
SESSION = "urto"
# A new Ardour session's tempo map: 120 quarter notes a minute; MIDI files are read in ticks of
# 1/1920 quarter note (Ardour's Temporal::ticks_per_beat).
TEMPO_BPM = 120
TICKS_PER_BEAT = 1920
SECONDS_PER_TICK = 60 / TEMPO_BPM / TICKS_PER_BEAT
# The notes of the region: (start in ticks, key, velocity, length in ticks). Starts are even
# tick counts (whole samples at 48 kHz: 25 samples per 2 ticks), none on a power-of-two block
# boundary, 1.5 s apart so each note's spectrum is measured alone.
NOTES = [
    (1_234, 60, 100, 1_920),
    (1_234 + 5_760, 67, 100, 1_920),
    (1_234 + 2 * 5_760, 72, 40, 1_920),
    (1_234 + 3 * 5_760, 72, 127, 1_920),
    (1_234 + 4 * 5_760, 48, 90, 1_920),
]
LENGTH_S = 9.0
# The parameter the second session changes, by its host-visible name, and the value Ardour shows
# (the plain value: log10 of k in N/m^alpha, default 8).
CHANGED_PARAMETER = ("Stiffness", 10.0)
ONSET_TOLERANCE_S = 0.001
# ardour7-export (Debian's 7.3) now and then aborts in glibc's heap check while its process
# thread tears down the export graph (ExportFormatSpecification's or PortExportChannel's
# destructor; Urto's threads idle): 4 exports in about 70 here while builds ran alongside, none
# in 25 beside two busy loops nor in 18 of the test's own. valgrind's memcheck finds no invalid
# read or write in an export: a race within Ardour, not a write out of bounds. Once (stop 37's
# CI) ardour7-lua died of a segmentation fault creating the plain session, where every other run
# of that script passed (55 in a row here, 30 of them beside two busy loops). A crash by either
# signal is run again and said in the log; three in a row fail the test. In stop 48's CI it
# crashed there again and the second attempt failed on the half-created session ("Session
# already exists"): creating the session removes its folder before each attempt.
HOST_CRASH_RETRIES = 2
HOST_CRASH_SIGNALS = (-signal.SIGABRT, -signal.SIGSEGV)
PITCH_TOLERANCE = 0.02


def env():
    home = os.path.join(WORK, "home")
    return dict(
        os.environ,
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(WORK, "config"),
        XDG_CACHE_HOME=os.path.join(WORK, "cache"),
        XDG_DATA_HOME=os.path.join(WORK, "data"),
        VST3_PATH=os.path.join(home, ".vst3"),
    )


def run(args, what, extra_env=None, marker=None, fresh_dir=None):
    """Run an Ardour tool; fail with its output if it fails or does not print `marker`.
    `fresh_dir`, if given, is removed before each attempt (what a crashed run left of a session
    it was creating would make the next attempt fail with "Session already exists")."""
    if shutil.which(args[0]) is None:
        raise RuntimeError(
            f"{args[0]} not found: this test needs Ardour 7 (Debian 12's `ardour` package, which "
            "`cargo xtask test` installs with apt-get)"
        )
    for attempt in range(1 + HOST_CRASH_RETRIES):
        if fresh_dir is not None and os.path.exists(fresh_dir):
            shutil.rmtree(fresh_dir)
        started = time.monotonic()
        result = subprocess.run(
            args,
            env=dict(env(), **(extra_env or {})),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=180,
        )
        output = result.stdout + result.stderr
        if result.returncode not in HOST_CRASH_SIGNALS or attempt == HOST_CRASH_RETRIES:
            break
        crash = signal.Signals(-result.returncode).name
        print(f"note: {what}: Ardour crashed ({crash}), run again:\n{output.strip()}")
    if result.returncode != 0 or (marker is not None and marker not in output):
        raise RuntimeError(f"{what} failed (exit {result.returncode}):\n{output}")
    return output, time.monotonic() - started


def install_and_scan():
    """Copy the bundle to ~/.vst3 (dated an hour back: Ardour ignores a bundle newer than its
    cache entry as stale) and index it with Ardour's VST3 scanner."""
    target = os.path.join(env()["VST3_PATH"], "Urto.vst3")
    if os.path.exists(target):
        shutil.rmtree(target)
    shutil.copytree(BUNDLE, target)
    an_hour_ago = time.time() - 3600
    for folder, _, files in os.walk(target):
        for name in files + [""]:
            os.utime(os.path.join(folder, name), (an_hour_ago, an_hour_ago))
    run(
        [f"{ARDOUR_LIB}/ardour-vst3-scanner", "-f", target],
        "the VST3 scan",
        extra_env={"LD_LIBRARY_PATH": ARDOUR_LIB},
    )


LUA_PRELUDE = """
function say(...) io.stdout:write(table.concat({...}, " "), "\\n") io.stdout:flush() end
AudioEngine:set_backend("None (Dummy)", "", "")
"""

LUA_CREATE = """
assert(create_session("{dir}", "{name}", {rate}), "could not create the session")
local urto = ARDOUR.LuaAPI.new_plugin_info("Urto", ARDOUR.PluginType.VST3)
assert(not urto:isnil(), "Ardour does not know the plugin Urto (VST3): the scanner's cache is stale")
local midi = ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1)
local stereo = ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2)
local tracks = Session:new_midi_track(midi, stereo, true, urto, nil, nil, 1, "Urto",
  ARDOUR.PresentationInfo.max_order, ARDOUR.TrackMode.Normal, true, false)
assert(tracks:size() == 1, "no track")
-- Ardour connects a new track's outputs to the master bus from its auto-connect thread, which may
-- not have run by the time the session is saved (a loaded machine saved it unconnected: a silent
-- export). Connect them here, as the auto-connect would.
local out = tracks:front():output()
for i = 0, 1 do
  local port = out:audio(i)
  assert(not port:isnil(), "the track has no audio output " .. i)
  if not port:connected() then
    assert(port:connect("Master/audio_in " .. (i + 1)) == 0, "could not connect output " .. i)
  end
end
Session:save_state("", false, false, false, false, false)
close_session()
say("URTO-OK")
"""

LUA_SET_PARAMETER = """
assert(load_session("{dir}", "{name}"), "could not load the session")
local track = Session:route_by_name("Urto")
local insert = track:nth_plugin(0):to_insert()
local plugin = insert:plugin(0)
local found = false
for i = 0, plugin:parameter_count() - 1 do
  if plugin:parameter_is_input(i) and plugin:parameter_label(i) == "{parameter}" then
    ARDOUR.LuaAPI.set_plugin_insert_param(insert, i, {value})
    found = true
  end
end
assert(found, "no parameter named {parameter}")
-- Plugin controls are real-time controls: the engine's process thread applies them.
ARDOUR.LuaAPI.usleep(500000)
local notes = 0
for region in track:to_track():playlist():region_list():iter() do
  notes = notes + ARDOUR.LuaAPI.note_list(region:to_midiregion():model()):size()
end
say("notes", notes)
Session:save_state("", false, false, false, false, false)
close_session()
say("URTO-OK")
"""


def lua(script, what, fresh_dir=None, **fields):
    path = os.path.join(WORK, "script.lua")
    with open(path, "w") as f:
        f.write(LUA_PRELUDE + script.format(**fields))
    return run(["ardour7-lua", path], what, marker="URTO-OK", fresh_dir=fresh_dir)


def write_region(session_dir):
    """The notes as a standard MIDI file in the session's midifiles folder, a MIDI region of it
    on the track's playlist, and the session range over LENGTH_S, written into the session file."""
    midi = mido.MidiFile(ticks_per_beat=TICKS_PER_BEAT)
    track = mido.MidiTrack()
    midi.tracks.append(track)
    events = []
    for start, key, velocity, length in NOTES:
        events.append((start, "note_on", key, velocity))
        events.append((start + length, "note_off", key, 0))
    now = 0
    for tick, kind, key, velocity in sorted(events, key=lambda e: (e[0], e[1] == "note_on")):
        track.append(mido.Message(kind, note=key, velocity=velocity, time=tick - now))
        now = tick
    midi.save(os.path.join(session_dir, "interchange", SESSION, "midifiles", "notes.mid"))

    path = os.path.join(session_dir, f"{SESSION}.ardour")
    tree = ET.parse(path)
    root = tree.getroot()
    superclock_per_s = int(root.find("TempoMap").get("superclocks-per-second"))
    next_id = int(root.get("id-counter"))
    source_id, whole_id, region_id, range_id = (str(next_id + i) for i in range(4))
    root.set("id-counter", str(next_id + 4))
    ET.SubElement(
        root.find("Sources"),
        "Source",
        {"name": "notes.mid", "type": "midi", "flags": "", "id": source_id, "origin": ""},
    )
    length_ticks = round(LENGTH_S / SECONDS_PER_TICK)
    region = {
        "name": "notes",
        "muted": "0",
        "opaque": "1",
        "locked": "0",
        "start": "b0",
        "length": f"b{length_ticks}@a0",
        "sync-position": "b0",
        "layering-index": "0",
        "type": "midi",
        "source-0": source_id,
        "master-source-0": source_id,
        "channels": "1",
    }
    ET.SubElement(root.find("Regions"), "Region", dict(region, id=whole_id, **{"whole-file": "1"}))
    playlist = next(p for p in root.find("Playlists") if p.get("type") == "midi")
    ET.SubElement(playlist, "Region", dict(region, id=region_id, **{"whole-file": "0"}))
    ET.SubElement(
        root.find("Locations"),
        "Location",
        {
            "id": range_id,
            "name": "session",
            "start": "a0",
            "end": f"a{round(LENGTH_S * superclock_per_s)}",
            "flags": "IsSessionRange",
            "locked": "0",
            "timestamp": "0",
        },
    )
    tree.write(path)


def export(session_dir, wav):
    _, seconds = run(
        ["ardour7-export", "-b", "float", "-o", wav, session_dir, SESSION],
        f"exporting {session_dir}",
    )
    with AudioFile(wav) as f:
        assert f.samplerate == SAMPLE_RATE, f"exported at {f.samplerate} Hz"
        audio = f.read(f.frames)
    return np.asarray(audio, dtype=np.float64), seconds


def note_start_sample(start_ticks):
    return round(start_ticks * SECONDS_PER_TICK * SAMPLE_RATE)


def onset_sample(mono, expected):
    """The first sample near `expected` where the note's strike rises out of what came before:
    above 10% of the note's first 50 ms peak and 4x the loudest of the 100 ms before it."""
    before = np.max(np.abs(mono[expected - SAMPLE_RATE // 10 : expected - SAMPLE_RATE // 100]))
    search = np.abs(mono[expected - SAMPLE_RATE // 50 : expected + SAMPLE_RATE // 20])
    threshold = max(0.1 * search.max(), 4 * before)
    return expected - SAMPLE_RATE // 50 + int(np.argmax(search > threshold))


def main():
    started = time.monotonic()
    if os.path.exists(WORK):
        shutil.rmtree(WORK)
    os.makedirs(env()["HOME"])
    install_and_scan()

    # A session's folder has the session's name: Ardour keeps its MIDI files in
    # interchange/<folder name>/midifiles.
    plain = os.path.join(WORK, "plain", SESSION)
    changed = os.path.join(WORK, "changed", SESSION)
    lua(
        LUA_CREATE,
        "creating the session",
        fresh_dir=plain,
        dir=plain,
        name=SESSION,
        rate=SAMPLE_RATE,
    )
    write_region(plain)
    shutil.copytree(plain, changed)
    parameter, value = CHANGED_PARAMETER
    output, _ = lua(
        LUA_SET_PARAMETER,
        f"setting {parameter}",
        dir=changed,
        name=SESSION,
        parameter=parameter,
        value=value,
    )
    assert f"notes {len(NOTES)}" in output, f"Ardour did not read the region's notes:\n{output}"

    first, export_s = export(plain, os.path.join(WORK, "plain.wav"))
    second, _ = export(plain, os.path.join(WORK, "plain-again.wav"))
    other, _ = export(changed, os.path.join(WORK, "changed.wav"))

    results = []

    def check(ok, message):
        print(("ok    " if ok else "FAIL  ") + message)
        results.append(ok)

    peak = np.max(np.abs(first))
    check(
        bool(np.all(np.isfinite(first))) and peak > 1e-4,
        f"the export is finite and sounds: peak {20 * np.log10(max(peak, 1e-30)):.1f} dBFS",
    )
    check(
        first.shape[1] == round(LENGTH_S * SAMPLE_RATE),
        f"the export covers the session range: {first.shape[1]} samples",
    )
    mono = first.sum(axis=0)
    onset_errors_ms = []
    note_peaks = []
    for index, (start, key, velocity, _) in enumerate(NOTES):
        expected = note_start_sample(start)
        error_ms = 1000 * (onset_sample(mono, expected) - expected) / SAMPLE_RATE
        onset_errors_ms.append(error_ms)
        check(
            abs(error_ms) <= 1000 * ONSET_TOLERANCE_S,
            f"note {index} (key {key}, velocity {velocity}) starts {error_ms:+.3f} ms from its "
            f"position at sample {expected}",
        )
        segment = mono[expected : expected + SAMPLE_RATE]
        note_peaks.append(np.max(np.abs(segment[: SAMPLE_RATE // 10])))
        fundamental = 440.0 * 2 ** ((key - 69) / 12)
        measured = strongest_peak_hz(segment, SAMPLE_RATE)
        check(
            abs(measured / fundamental - 1) <= PITCH_TOLERANCE,
            f"note {index}: strongest peak {measured:.2f} Hz, fundamental {fundamental:.2f} Hz "
            f"({100 * (measured / fundamental - 1):+.3f}%)",
        )
    soft, loud = note_peaks[2], note_peaks[3]
    check(
        loud > soft * 1.5,
        f"key 72 at velocity 127 is louder than at velocity 40: peaks {loud:.4f} > {soft:.4f}",
    )
    saved = next(
        (
            c.get("value")
            for c in ET.parse(os.path.join(changed, f"{SESSION}.ardour")).iter("Controllable")
            if c.get("name") == parameter
        ),
        None,
    )
    check(
        saved is not None and float(saved) == value,
        f"Ardour saved {parameter} = {saved} in the second session",
    )
    check(other.shape == first.shape, f"both sessions export {first.shape[1]} samples")
    difference = np.max(np.abs(other - first)) if other.shape == first.shape else 0.0
    check(
        difference > 0.01 * peak,
        f"{parameter} = {value} changes the audio: largest difference "
        f"{difference:.4f} (peak {peak:.4f})",
    )
    check(
        first.shape == second.shape and np.array_equal(first, second),
        "two exports of the same session are bit-identical",
    )
    print(
        f"Ardour: {len(NOTES)} notes, worst onset error {max(map(abs, onset_errors_ms)):.3f} ms, "
        f"one export {export_s:.1f} s, everything {time.monotonic() - started:.1f} s"
    )
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
