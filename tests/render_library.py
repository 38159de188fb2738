"""The sound-library renderer's output, checked by an independent reader and meter.

Usage: render_library.py ONE_THREAD_DIR ALL_THREADS_DIR TARGET_LUFS CEILING_DBTP VARIATIONS PRESETS

The two folders hold the same job rendered on one thread and on every core. Checks: the same
files to the bit, and the same manifests; VARIATIONS files for each of PRESETS presets, named in
the UCS pattern; a bext chunk (EBU Tech 3285 v2) first in each; each file's integrated loudness
(pyloudnorm, ITU-R BS.1770-4) within 0.5 LU of TARGET_LUFS, no sample above CEILING_DBTP and
no true peak above it (the manifest's, by ebur128); no
two files alike.
"""

import csv
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np
import pyloudnorm

NAME = re.compile(r"^[A-Z]{3,6}[a-z][A-Za-z]*_[^_]+_Urto_\d{2,}\.wav$")


def chunks(data: bytes) -> list:
    """(id, body) of each chunk of a RIFF WAVE file, walked by their sizes."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", "not a RIFF WAVE file"
    assert int.from_bytes(data[4:8], "little") == len(data) - 8, "RIFF size is wrong"
    found, at = [], 12
    while at + 8 <= len(data):
        size = int.from_bytes(data[at + 4 : at + 8], "little")
        found.append((data[at : at + 4].decode("latin-1"), data[at + 8 : at + 8 + size]))
        at += 8 + size + size % 2
    assert at == len(data), "chunks overrun the file"
    return found


def samples(found: list) -> tuple:
    """The audio (frames × channels, float) and its rate, from the fmt and data chunks."""
    fmt = dict(found)["fmt "]
    channels = int.from_bytes(fmt[2:4], "little")
    rate = int.from_bytes(fmt[4:8], "little")
    bits = int.from_bytes(fmt[14:16], "little")
    data = dict(found)["data"]
    if bits == 24:
        raw = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        ints = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
        ints = np.where(ints >= 1 << 23, ints - (1 << 24), ints)
        audio = ints / float(1 << 23)
    elif bits == 32:
        audio = np.frombuffer(data, dtype="<f4").astype(np.float64)
    else:
        raise AssertionError(f"{bits}-bit samples")
    return audio.reshape(-1, channels), rate


def main() -> None:
    one, every = Path(sys.argv[1]), Path(sys.argv[2])
    target, ceiling = float(sys.argv[3]), float(sys.argv[4])
    variations, presets = int(sys.argv[5]), int(sys.argv[6])

    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in every.iterdir()), "the two renders wrote other files"
    assert not [n for n in names if n.endswith(".part")], "a half-written file is left"
    for name in names:
        assert (one / name).read_bytes() == (every / name).read_bytes(), f"{name} differs by threads"

    rows = list(csv.DictReader(open(one / "manifest.csv", newline="")))
    listed = json.loads((one / "manifest.json").read_text())
    assert [r["file"] for r in rows] == [r["file"] for r in listed], "CSV and JSON disagree"
    per_preset = {}
    for row in rows:
        per_preset[row["preset"]] = per_preset.get(row["preset"], 0) + 1
    assert len(per_preset) == presets, f"{len(per_preset)} presets, not {presets}"
    assert all(n == variations for n in per_preset.values()), per_preset
    wavs = [n for n in names if n.endswith(".wav")]
    assert sorted(r["file"] for r in rows) == wavs, "the manifest lists other files"

    digests, worst, meters_apart = set(), 0.0, 0.0
    for row in rows:
        name = row["file"]
        assert NAME.match(name), f"{name} is not CatID_FXName_Urto_NN.wav"
        found = chunks((one / name).read_bytes())
        assert found[0][0] == "bext", f"{name}: bext is not the first chunk"
        bext = found[0][1]
        assert len(bext) >= 602 and int.from_bytes(bext[346:348], "little") == 2, name
        assert row["preset"].encode() in bext[:256], f"{name}: the description names no preset"
        audio, rate = samples(found)
        loudness = pyloudnorm.Meter(rate).integrated_loudness(audio)
        worst = max(worst, abs(loudness - target))
        meters_apart = max(meters_apart, abs(loudness - float(row["integrated_lufs"])))
        assert abs(loudness - target) <= 0.5, f"{name}: {loudness:.2f} LUFS"
        peak_db = 20 * np.log10(np.max(np.abs(audio)))
        assert peak_db <= ceiling + 1e-3, f"{name}: a sample at {peak_db:.2f} dBFS"
        true_peak = float(row["true_peak_dbtp"])
        assert true_peak <= ceiling, f"{name}: a true peak at {true_peak:.3f} dBTP (ebur128)"
        digests.add(hashlib.sha256(dict(found)["data"]).hexdigest())
    assert len(digests) == len(rows), f"only {len(digests)} of {len(rows)} files differ"
    print(
        f"render: {len(rows)} files of {presets} presets, the same bits on one thread and all; "
        f"loudness within {worst:.3f} LU of {target} LUFS (pyloudnorm), the two meters within "
        f"{meters_apart:.3f} LU; no two files alike"
    )


if __name__ == "__main__":
    main()
