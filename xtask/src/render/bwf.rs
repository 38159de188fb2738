//! Broadcast WAVE files: the samples written by hound, a `bext` chunk (EBU Tech 3285 version 2) placed before them.

use super::loudness::Loudness;
use super::sound::SampleFormat;
use anyhow::Result;
use std::io::Cursor;

/// The BWF description of one file (EBU Tech 3285, §2.3).
#[derive(Debug, Clone)]
pub struct Bext {
    /// Free text, at most 256 ASCII characters.
    pub description: String,
    /// Who made it, at most 32.
    pub originator: String,
    /// A reference unique to the file, at most 32 (no UMID is written).
    pub originator_reference: String,
    /// YYYY-MM-DD and HH:MM:SS.
    pub origination_date: String,
    pub origination_time: String,
    pub loudness: Loudness,
    /// The coding history, one line per process (Tech 3285 §2.4, EBU R 98).
    pub coding_history: String,
}

/// The `bext` fields of version 2 before the coding history, in bytes.
const BEXT_FIXED_BYTES: usize = 602;

impl Bext {
    /// The chunk's body: the fixed fields, then the coding history, padded to an even length.
    fn body(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(BEXT_FIXED_BYTES + self.coding_history.len() + 1);
        text(&mut body, &self.description, 256);
        text(&mut body, &self.originator, 32);
        text(&mut body, &self.originator_reference, 32);
        text(&mut body, &self.origination_date, 10);
        text(&mut body, &self.origination_time, 8);
        body.extend_from_slice(&0u64.to_le_bytes()); // TimeReference: the file starts at 0
        body.extend_from_slice(&2u16.to_le_bytes()); // Version 2: the loudness fields are set
        body.extend_from_slice(&[0; 64]); // UMID: none
        let l = &self.loudness;
        for value in [
            l.integrated_lufs,
            l.range_lu,
            l.true_peak_dbtp,
            l.max_momentary_lufs,
            l.max_short_term_lufs,
        ] {
            body.extend_from_slice(&centi(value).to_le_bytes());
        }
        body.extend_from_slice(&[0; 180]); // Reserved
        body.extend_from_slice(self.coding_history.as_bytes());
        if body.len() % 2 == 1 {
            body.push(0);
        }
        body
    }
}

/// `value` × 100 rounded, as Tech 3285 stores loudness (0x7FFF where it has none).
fn centi(value: f64) -> i16 {
    if value.is_finite() {
        (value * 100.0).round().clamp(-32768.0, 32766.0) as i16
    } else {
        0x7FFF
    }
}

/// `value`'s ASCII characters in a field of `len` bytes, cut or padded with NULs.
fn text(out: &mut Vec<u8>, value: &str, len: usize) {
    let bytes: Vec<u8> = value.bytes().filter(u8::is_ascii).take(len).collect();
    out.extend_from_slice(&bytes);
    out.resize(out.len() + len - bytes.len(), 0);
}

/// The WAV file of `channels` (each the same length) at `rate_hz` in `format`, its `bext` chunk
/// first, as bytes.
pub fn wav_bytes(
    channels: &[Vec<f32>],
    rate_hz: u32,
    format: SampleFormat,
    bext: &Bext,
) -> Result<Vec<u8>> {
    let (bits_per_sample, sample_format) = match format {
        SampleFormat::Pcm24 => (24, hound::SampleFormat::Int),
        SampleFormat::Float32 => (32, hound::SampleFormat::Float),
    };
    let spec = hound::WavSpec {
        channels: channels.len() as u16,
        sample_rate: rate_hz,
        bits_per_sample,
        sample_format,
    };
    let mut cursor = Cursor::new(Vec::new());
    let mut writer = hound::WavWriter::new(&mut cursor, spec)?;
    for i in 0..channels[0].len() {
        for channel in channels {
            match format {
                SampleFormat::Pcm24 => writer.write_sample(pcm24(channel[i]))?,
                SampleFormat::Float32 => writer.write_sample(channel[i])?,
            }
        }
    }
    writer.finalize()?;
    Ok(with_chunk_first(cursor.into_inner(), b"bext", &bext.body()))
}

/// `x` (full scale ±1) as a 24-bit sample, rounded to the nearest step and clipped.
fn pcm24(x: f32) -> i32 {
    const FULL: f64 = 8_388_607.0;
    (f64::from(x) * FULL).round().clamp(-FULL - 1.0, FULL) as i32
}

/// `riff` (a RIFF WAVE file) with the chunk `id` holding `body` inserted before its first chunk,
/// and the RIFF size mended.
fn with_chunk_first(riff: Vec<u8>, id: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(riff.len() + 8 + body.len());
    out.extend_from_slice(&riff[..12]);
    out.extend_from_slice(id);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    out.extend_from_slice(&riff[12..]);
    let riff_size = (out.len() - 8) as u32;
    out[4..8].copy_from_slice(&riff_size.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bext() -> Bext {
        Bext {
            description: "Wine glass on tiles, C4, velocity 127".into(),
            originator: "Urto".into(),
            originator_reference: "URTO-0000000001-000001".into(),
            origination_date: "2026-11-29".into(),
            origination_time: "00:00:00".into(),
            loudness: Loudness {
                integrated_lufs: -23.004,
                range_lu: 4.2,
                true_peak_dbtp: -1.5,
                max_momentary_lufs: -15.0,
                max_short_term_lufs: -18.25,
                sample_peak_dbfs: -1.6,
            },
            coding_history: "A=PCM,F=48000,W=24,M=stereo,T=Urto\r\n".into(),
        }
    }

    /// The file's chunks, (id, body), read by walking the RIFF structure.
    fn chunks(file: &[u8]) -> Vec<(String, &[u8])> {
        assert_eq!(&file[0..4], b"RIFF");
        assert_eq!(
            u32::from_le_bytes(file[4..8].try_into().unwrap()) as usize,
            file.len() - 8
        );
        assert_eq!(&file[8..12], b"WAVE");
        let mut at = 12;
        let mut found = vec![];
        while at + 8 <= file.len() {
            let id = String::from_utf8_lossy(&file[at..at + 4]).into_owned();
            let size = u32::from_le_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
            found.push((id, &file[at + 8..at + 8 + size]));
            at += 8 + size + size % 2;
        }
        assert_eq!(at, file.len());
        found
    }

    #[test]
    fn the_bext_chunk_comes_first_with_tech_3285_s_layout() {
        let audio = vec![vec![0.25f32, -0.5, 1.0], vec![0.0, 0.125, -1.0]];
        let file = wav_bytes(&audio, 48_000, SampleFormat::Pcm24, &bext()).unwrap();
        let found = chunks(&file);
        let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids[0], "bext");
        assert!(ids.contains(&"fmt ") && ids.contains(&"data"));
        let body = found[0].1;
        let history = b"A=PCM,F=48000,W=24,M=stereo,T=Urto\r\n";
        assert_eq!(body.len(), 602 + history.len());
        assert!(body.starts_with(b"Wine glass on tiles, C4, velocity 127\0"));
        assert_eq!(&body[256..261], b"Urto\0");
        assert_eq!(&body[320..330], b"2026-11-29");
        assert_eq!(&body[330..338], b"00:00:00");
        let at = |offset: usize| i16::from_le_bytes([body[offset], body[offset + 1]]);
        assert_eq!(u16::from_le_bytes([body[346], body[347]]), 2);
        // Loudness value, range, true peak, momentary, short-term: after the 64-byte UMID.
        assert_eq!(
            [at(412), at(414), at(416), at(418), at(420)],
            [-2300, 420, -150, -1500, -1825]
        );
        assert_eq!(&body[602..], history);
    }

    #[test]
    fn the_samples_read_back_through_an_independent_reader() {
        let audio = vec![vec![0.25f32, -0.5, 1.0, -1.0]];
        let file = wav_bytes(&audio, 96_000, SampleFormat::Pcm24, &bext()).unwrap();
        let mut reader = hound::WavReader::new(Cursor::new(file)).unwrap();
        assert_eq!(reader.spec().sample_rate, 96_000);
        assert_eq!(reader.spec().bits_per_sample, 24);
        let read: Vec<i32> = reader.samples::<i32>().map(Result::unwrap).collect();
        assert_eq!(read, [2_097_152, -4_194_304, 8_388_607, -8_388_607]);
        let float = wav_bytes(&audio, 48_000, SampleFormat::Float32, &bext()).unwrap();
        let read: Vec<f32> = hound::WavReader::new(Cursor::new(float))
            .unwrap()
            .samples::<f32>()
            .map(Result::unwrap)
            .collect();
        assert_eq!(read, audio[0]);
    }
}
