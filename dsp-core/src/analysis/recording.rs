//! A recording read from a WAV or FLAC file: its mono (or stereo mid) samples in full scale and its rate.

use std::fmt;
use std::path::Path;

/// A recording as the analysis takes it: mono samples (the mid, (L + R)/2, of a stereo file;
/// the mean of all channels of more), full scale ±1, and the rate they were sampled at.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub samples: Vec<f64>,
    pub sample_rate_hz: f64,
}

/// Why a file could not be read as a recording.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(String),
    /// The file is neither a WAV nor a FLAC file that decodes.
    NotAudio(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(why) => write!(f, "cannot read the file: {why}"),
            ReadError::NotAudio(why) => write!(f, "not a WAV or FLAC recording: {why}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Read a WAV (integer or float PCM) or FLAC file, chosen by its first bytes, not its name.
pub fn read(path: &Path) -> Result<Recording, ReadError> {
    let bytes =
        std::fs::read(path).map_err(|e| ReadError::Io(format!("{}: {e}", path.display())))?;
    if bytes.starts_with(b"fLaC") {
        read_flac(&bytes)
    } else if bytes.starts_with(b"RIFF") {
        read_wav(&bytes)
    } else {
        Err(ReadError::NotAudio(format!(
            "{} starts with neither RIFF nor fLaC",
            path.display()
        )))
    }
}

/// Mix interleaved frames of `channels` channels down to their mean.
fn mix_down(interleaved: &[f64], channels: usize) -> Vec<f64> {
    let channels = channels.max(1);
    interleaved
        .chunks_exact(channels)
        .map(|frame| frame.iter().sum::<f64>() / channels as f64)
        .collect()
}

fn read_wav(bytes: &[u8]) -> Result<Recording, ReadError> {
    let reader = hound::WavReader::new(std::io::Cursor::new(bytes))
        .map_err(|e| ReadError::NotAudio(e.to_string()))?;
    let spec = reader.spec();
    let interleaved: Result<Vec<f64>, hound::Error> = match spec.sample_format {
        hound::SampleFormat::Float => reader
            .into_samples::<f32>()
            .map(|s| s.map(f64::from))
            .collect(),
        hound::SampleFormat::Int => {
            let full_scale = 2f64.powi(i32::from(spec.bits_per_sample) - 1);
            reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| f64::from(v) / full_scale))
                .collect()
        }
    };
    let interleaved = interleaved.map_err(|e| ReadError::NotAudio(e.to_string()))?;
    Ok(Recording {
        samples: mix_down(&interleaved, usize::from(spec.channels)),
        sample_rate_hz: f64::from(spec.sample_rate),
    })
}

fn read_flac(bytes: &[u8]) -> Result<Recording, ReadError> {
    let mut reader = claxon::FlacReader::new(std::io::Cursor::new(bytes))
        .map_err(|e| ReadError::NotAudio(e.to_string()))?;
    let info = reader.streaminfo();
    let full_scale = 2f64.powi(info.bits_per_sample as i32 - 1);
    let interleaved: Result<Vec<f64>, claxon::Error> = reader
        .samples()
        .map(|s| s.map(|v| f64::from(v) / full_scale))
        .collect();
    let interleaved = interleaved.map_err(|e| ReadError::NotAudio(e.to_string()))?;
    Ok(Recording {
        samples: mix_down(&interleaved, info.channels as usize),
        sample_rate_hz: f64::from(info.sample_rate),
    })
}
