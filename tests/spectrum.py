"""Spectral measurements shared by the Python host tests (pedalboard, Ardour)."""

import numpy as np


def strongest_peak_hz(x, sample_rate):
    """Frequency of the strongest bin of the Hann-windowed spectrum, refined by parabolic
    interpolation of the log magnitudes (as tests/src/lib.rs does for the CLAP)."""
    spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    k = int(np.argmax(spectrum[1:-1])) + 1
    a, b, c = np.log(spectrum[k - 1 : k + 2])
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + offset) * sample_rate / len(x)
