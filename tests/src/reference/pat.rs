//! A reader for Gravis Ultrasound `.pat` patches (GF1PATCH100/110): every wave of every layer, decoded to full scale.
//!
//! The layout (little-endian, packed), as the GF1 patch format documents it:
//!
//! | bytes | what |
//! |---|---|
//! | 129 | patch header: `"GF1PATCH110\0"` (or `100`), `"ID#000002\0"`, description[60], instruments, voices, channels, waveforms u16, master volume u16, data size u32, reserved[36] |
//! | 63 | per instrument: id u16, name[16], size u32, layers u8, reserved[40] |
//! | 47 | per layer: duplicate u8, layer u8, size u32, waves u8, reserved[40] |
//! | 96 + data | per wave: name[7], loop fractions u8, data size u32 (bytes), loop start u32 and loop end u32 (bytes), sample rate u16, low, high and root frequency u32 (milliHz), tune i16, balance u8, envelope rates[6] and offsets[6], tremolo and vibrato sweep/rate/depth, modes u8, scale frequency i16, scale factor u16, reserved[36]; then the PCM data |
//!
//! Modes: bit 0 16-bit, bit 1 unsigned, bit 2 looping, bit 3 ping-pong, bit 4 reverse. The loop
//! fractions byte holds the loop start's sixteenths of a sample in its low nibble, the end's in
//! its high nibble.

use std::fmt;
use std::path::Path;

/// Bytes of the patch header.
pub const PATCH_HEADER_BYTES: usize = 129;
/// Bytes of an instrument header.
pub const INSTRUMENT_HEADER_BYTES: usize = 63;
/// Bytes of a layer header.
pub const LAYER_HEADER_BYTES: usize = 47;
/// Bytes of a wave header (its PCM data follows it).
pub const WAVE_HEADER_BYTES: usize = 96;

/// Mode bit: samples are 16-bit (else 8-bit).
pub const MODE_16_BIT: u8 = 1;
/// Mode bit: samples are unsigned (else two's complement).
pub const MODE_UNSIGNED: u8 = 1 << 1;
/// Mode bit: the wave loops between its loop points while the note is held.
pub const MODE_LOOPING: u8 = 1 << 2;
/// Mode bit: the loop plays forwards and backwards.
pub const MODE_PING_PONG: u8 = 1 << 3;
/// Mode bit: the wave plays backwards.
pub const MODE_REVERSE: u8 = 1 << 4;

/// A decoded patch: its texts and every wave of every instrument and layer, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    /// The patch header's description (often empty, sometimes the author).
    pub description: String,
    /// The first instrument's name.
    pub instrument_name: String,
    /// Every wave, in file order.
    pub waves: Vec<Wave>,
}

/// One wave (sample) of a patch.
#[derive(Clone, Debug, PartialEq)]
pub struct Wave {
    /// The wave's 7-character name.
    pub name: String,
    /// PCM decoded to full scale ±1 (8-bit over 128, 16-bit over 32768).
    pub samples: Vec<f64>,
    /// 8 or 16.
    pub bits: u8,
    /// The data was unsigned (offset binary) in the file.
    pub unsigned: bool,
    /// Sample rate of the data, Hz.
    pub sample_rate_hz: f64,
    /// Lowest frequency this wave plays, Hz (stored in milliHz).
    pub low_hz: f64,
    /// Highest frequency this wave plays, Hz (stored in milliHz).
    pub high_hz: f64,
    /// Frequency the wave sounds at its own rate, Hz (stored in milliHz).
    pub root_hz: f64,
    /// Loop start in samples, with its sixteenths.
    pub loop_start_samples: f64,
    /// Loop end in samples, with its sixteenths.
    pub loop_end_samples: f64,
    /// The looping mode bit: the loop plays while the note is held.
    pub looping: bool,
    /// The loop plays forwards and backwards.
    pub ping_pong: bool,
    /// The wave plays backwards.
    pub reverse: bool,
    /// The key (MIDI number) the frequency scaling is centred on.
    pub scale_frequency: i16,
    /// Semitone scaling per key in 1/1024 (1024: one semitone per key; 0: fixed pitch).
    pub scale_factor: u16,
}

impl Wave {
    /// The root frequency as a fractional MIDI key (A4 = 69 = 440 Hz).
    pub fn root_key(&self) -> f64 {
        key_of_hz(self.root_hz)
    }

    /// The samples before the loop: from the start to the loop start when the wave loops, the
    /// whole wave when it does not.
    pub fn unlooped(&self) -> &[f64] {
        if self.looping {
            let end = (self.loop_start_samples.floor() as usize).min(self.samples.len());
            &self.samples[..end]
        } else {
            &self.samples
        }
    }
}

/// The fractional MIDI key of a frequency (A4 = 69 = 440 Hz, equal temperament).
pub fn key_of_hz(freq_hz: f64) -> f64 {
    69.0 + 12.0 * (freq_hz / 440.0).log2()
}

/// Why bytes are not a patch this reader decodes.
#[derive(Clone, Debug, PartialEq)]
pub enum PatError {
    /// The file could not be read.
    Io(String),
    /// The first 12 bytes are not `GF1PATCH100\0` or `GF1PATCH110\0`.
    BadMagic { found: Vec<u8> },
    /// A header or a wave's data runs past the end of the file.
    Truncated {
        what: String,
        at_byte: usize,
        needed_bytes: usize,
        file_bytes: usize,
    },
    /// A field holds a value the format does not allow.
    Invalid(String),
}

impl fmt::Display for PatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatError::Io(why) => write!(f, "cannot read the patch: {why}"),
            PatError::BadMagic { found } => write!(
                f,
                "bad magic: a GUS patch starts with \"GF1PATCH110\\0\" or \"GF1PATCH100\\0\", this one with {:?}",
                String::from_utf8_lossy(found)
            ),
            PatError::Truncated {
                what,
                at_byte,
                needed_bytes,
                file_bytes,
            } => write!(
                f,
                "truncated {what} at byte {at_byte}: it needs {needed_bytes} bytes, the file ends at byte {file_bytes}"
            ),
            PatError::Invalid(why) => write!(f, "invalid patch: {why}"),
        }
    }
}

impl std::error::Error for PatError {}

/// Read and decode the patch at `path`.
pub fn read(path: &Path) -> Result<Patch, PatError> {
    let bytes =
        std::fs::read(path).map_err(|e| PatError::Io(format!("{}: {e}", path.display())))?;
    parse(&bytes)
}

/// Little-endian fields read from a byte slice, each bounds-checked and named when it is not there.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl<'a> Cursor<'a> {
    /// `len` bytes at `at`, or the truncation of `what`.
    fn take(&self, at: usize, len: usize, what: &str) -> Result<&'a [u8], PatError> {
        at.checked_add(len)
            .and_then(|end| self.bytes.get(at..end))
            .ok_or_else(|| PatError::Truncated {
                what: what.to_string(),
                at_byte: at,
                needed_bytes: len,
                file_bytes: self.bytes.len(),
            })
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// A fixed-size text field up to its first NUL, trailing blanks dropped.
fn text(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).trim_end().to_string()
}

/// Decode a whole patch from its bytes.
pub fn parse(bytes: &[u8]) -> Result<Patch, PatError> {
    let cursor = Cursor { bytes };
    let magic = bytes.get(..12).unwrap_or(bytes);
    if magic != b"GF1PATCH110\0" && magic != b"GF1PATCH100\0" {
        return Err(PatError::BadMagic {
            found: magic.to_vec(),
        });
    }
    let header = cursor.take(0, PATCH_HEADER_BYTES, "patch header")?;
    let instruments = header[82];
    if instruments == 0 {
        return Err(PatError::Invalid(
            "the patch header counts 0 instruments".into(),
        ));
    }
    let mut patch = Patch {
        description: text(&header[22..82]),
        instrument_name: String::new(),
        waves: vec![],
    };
    let mut at = PATCH_HEADER_BYTES;
    for instrument in 0..instruments {
        let what = format!("instrument {instrument} header");
        let head = cursor.take(at, INSTRUMENT_HEADER_BYTES, &what)?;
        if instrument == 0 {
            patch.instrument_name = text(&head[2..18]);
        }
        at += INSTRUMENT_HEADER_BYTES;
        for layer in 0..head[22] {
            let what = format!("instrument {instrument} layer {layer} header");
            let layer_head = cursor.take(at, LAYER_HEADER_BYTES, &what)?;
            at += LAYER_HEADER_BYTES;
            for _ in 0..layer_head[6] {
                let (wave, next) = parse_wave(&cursor, at, patch.waves.len())?;
                patch.waves.push(wave);
                at = next;
            }
        }
    }
    Ok(patch)
}

/// The wave whose header starts at byte `at` (the `index`-th of the file), and the byte after
/// its data.
fn parse_wave(cursor: &Cursor, at: usize, index: usize) -> Result<(Wave, usize), PatError> {
    let h = cursor.take(at, WAVE_HEADER_BYTES, &format!("wave {index} header"))?;
    let data_bytes = u32_at(h, 8) as usize;
    let (loop_start_bytes, loop_end_bytes) = (u32_at(h, 12), u32_at(h, 16));
    let sample_rate_hz = f64::from(u16_at(h, 20));
    let milli_hz = |at: usize| f64::from(u32_at(h, at)) / 1000.0;
    let modes = h[55];
    let data_at = at + WAVE_HEADER_BYTES;
    let data = cursor.take(data_at, data_bytes, &format!("wave {index} data"))?;
    let bytes_per_sample = if modes & MODE_16_BIT != 0 { 2 } else { 1 };
    let unsigned = modes & MODE_UNSIGNED != 0;
    let samples = decode(data, bytes_per_sample, unsigned);
    let fraction = |nibble: u8| f64::from(nibble) / 16.0;
    let per_sample = bytes_per_sample as f64;
    let wave = Wave {
        name: text(&h[..7]),
        samples,
        bits: 8 * bytes_per_sample as u8,
        unsigned,
        sample_rate_hz,
        low_hz: milli_hz(22),
        high_hz: milli_hz(26),
        root_hz: milli_hz(30),
        loop_start_samples: f64::from(loop_start_bytes) / per_sample + fraction(h[7] & 0x0f),
        loop_end_samples: f64::from(loop_end_bytes) / per_sample + fraction(h[7] >> 4),
        looping: modes & MODE_LOOPING != 0,
        ping_pong: modes & MODE_PING_PONG != 0,
        reverse: modes & MODE_REVERSE != 0,
        scale_frequency: i16::from_le_bytes([h[56], h[57]]),
        scale_factor: u16_at(h, 58),
    };
    check_wave(&wave, index, loop_start_bytes, loop_end_bytes, data_bytes)?;
    Ok((wave, data_at + data_bytes))
}

/// Refuse values no player could play: no rate, no root, or a loop outside the data.
fn check_wave(
    wave: &Wave,
    index: usize,
    loop_start_bytes: u32,
    loop_end_bytes: u32,
    data_bytes: usize,
) -> Result<(), PatError> {
    if wave.sample_rate_hz <= 0.0 {
        return Err(PatError::Invalid(format!("wave {index}: sample rate 0")));
    }
    if wave.root_hz <= 0.0 {
        return Err(PatError::Invalid(format!("wave {index}: root frequency 0")));
    }
    if wave.looping && (loop_start_bytes > loop_end_bytes || loop_end_bytes as usize > data_bytes) {
        return Err(PatError::Invalid(format!(
            "wave {index}: loop {loop_start_bytes}..{loop_end_bytes} (bytes) lies outside its {data_bytes} bytes of data"
        )));
    }
    Ok(())
}

/// PCM bytes to full scale: 8-bit over 128, 16-bit little-endian over 32768; unsigned data is
/// offset by half its range. A trailing odd byte of 16-bit data is not a sample and is dropped.
fn decode(data: &[u8], bytes_per_sample: usize, unsigned: bool) -> Vec<f64> {
    // Full scale 2^(bits − 1): 128 for 8 bits, 32768 for 16 (little-endian).
    let full_scale: i32 = if bytes_per_sample == 2 { 32768 } else { 128 };
    data.chunks_exact(bytes_per_sample)
        .map(|b| {
            let raw = if bytes_per_sample == 2 {
                i32::from(u16::from_le_bytes([b[0], b[1]]))
            } else {
                i32::from(b[0])
            };
            // Unsigned is offset binary; signed is two's complement.
            let value = if unsigned {
                raw - full_scale
            } else if raw >= full_scale {
                raw - 2 * full_scale
            } else {
                raw
            };
            f64::from(value) / f64::from(full_scale)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! The reader against patches written byte by byte here from the documented layout, not
    //! through the reader's own constants or helpers.
    use super::*;

    /// One wave's header fields and data, as a test writes them.
    struct TestWave {
        name: &'static [u8; 7],
        fractions: u8,
        data: Vec<u8>,
        loop_bytes: (u32, u32),
        rate: u16,
        low_mhz: u32,
        high_mhz: u32,
        root_mhz: u32,
        modes: u8,
    }

    fn le16(v: u16) -> [u8; 2] {
        v.to_le_bytes()
    }

    fn le32(v: u32) -> [u8; 4] {
        v.to_le_bytes()
    }

    /// A whole patch: the 129-byte header, one 63-byte instrument, one 47-byte layer, the waves.
    fn patch_bytes(waves: &[TestWave]) -> Vec<u8> {
        let mut b = vec![];
        b.extend_from_slice(b"GF1PATCH110\0");
        b.extend_from_slice(b"ID#000002\0");
        let mut description = [0u8; 60];
        description[..9].copy_from_slice(b"test kit ");
        b.extend_from_slice(&description);
        b.extend_from_slice(&[1, 14, 0]); // instruments, voices, channels
        b.extend_from_slice(&le16(waves.len() as u16));
        b.extend_from_slice(&le16(127)); // master volume
        b.extend_from_slice(&le32(0)); // data size (not read)
        b.extend_from_slice(&[0; 36]);
        assert_eq!(b.len(), 129);
        b.extend_from_slice(&le16(0)); // instrument id
        let mut name = [0u8; 16];
        name[..5].copy_from_slice(b"Bells");
        b.extend_from_slice(&name);
        b.extend_from_slice(&le32(0)); // instrument size
        b.push(1); // layers
        b.extend_from_slice(&[0; 40]);
        assert_eq!(b.len(), 129 + 63);
        b.extend_from_slice(&[0, 0]); // duplicate, layer
        b.extend_from_slice(&le32(0)); // layer size
        b.push(waves.len() as u8);
        b.extend_from_slice(&[0; 40]);
        assert_eq!(b.len(), 129 + 63 + 47);
        for w in waves {
            b.extend_from_slice(&wave_bytes(w));
        }
        b
    }

    /// One wave: its 96-byte header, then its data.
    fn wave_bytes(w: &TestWave) -> Vec<u8> {
        let mut b = vec![];
        b.extend_from_slice(w.name);
        b.push(w.fractions);
        b.extend_from_slice(&le32(w.data.len() as u32));
        b.extend_from_slice(&le32(w.loop_bytes.0));
        b.extend_from_slice(&le32(w.loop_bytes.1));
        b.extend_from_slice(&le16(w.rate));
        b.extend_from_slice(&le32(w.low_mhz));
        b.extend_from_slice(&le32(w.high_mhz));
        b.extend_from_slice(&le32(w.root_mhz));
        b.extend_from_slice(&[1, 0]); // tune
        b.push(7); // balance
        b.extend_from_slice(&[63; 6]); // envelope rates
        b.extend_from_slice(&[246; 6]); // envelope offsets
        b.extend_from_slice(&[0; 6]); // tremolo, vibrato
        b.push(w.modes);
        b.extend_from_slice(&le16(60)); // scale frequency
        b.extend_from_slice(&le16(1024)); // scale factor
        b.extend_from_slice(&[0; 36]);
        assert_eq!(b.len(), 96);
        b.extend_from_slice(&w.data);
        b
    }

    /// A signed 16-bit looping wave and an unsigned 8-bit one-shot.
    fn two_waves() -> Vec<TestWave> {
        let mut pcm16 = vec![];
        for v in [0i16, 16384, -32768, 32767, -16384, 0] {
            pcm16.extend_from_slice(&v.to_le_bytes());
        }
        vec![
            TestWave {
                name: b"Bell C6",
                fractions: 0x83, // start + 3/16, end + 8/16
                data: pcm16,
                loop_bytes: (4, 10),
                rate: 44100,
                low_mhz: 8176,
                high_mhz: 1_396_775,
                root_mhz: 1_046_502,
                modes: 0b0000_0101, // 16-bit, signed, looping
            },
            TestWave {
                name: b"Click\0\0",
                fractions: 0,
                data: vec![128, 192, 0, 255, 64],
                loop_bytes: (1, 3),
                rate: 22050,
                low_mhz: 1_396_776,
                high_mhz: 8_372_018,
                root_mhz: 440_000,
                modes: 0b0000_0010, // 8-bit, unsigned, not looping
            },
        ]
    }

    #[test]
    fn decodes_every_field_of_a_hand_written_patch() {
        let patch = parse(&patch_bytes(&two_waves())).expect("a valid patch");
        assert_eq!(patch.description, "test kit");
        assert_eq!(patch.instrument_name, "Bells");
        assert_eq!(patch.waves.len(), 2);
        let bell = &patch.waves[0];
        assert_eq!(bell.name, "Bell C6");
        assert_eq!((bell.bits, bell.unsigned, bell.looping), (16, false, true));
        assert_eq!(bell.samples, [0.0, 0.5, -1.0, 32767.0 / 32768.0, -0.5, 0.0]);
        assert_eq!(bell.sample_rate_hz, 44100.0);
        assert_eq!((bell.low_hz, bell.high_hz), (8.176, 1396.775));
        assert_eq!(bell.root_hz, 1046.502);
        assert!((bell.root_key() - 84.0).abs() < 1e-3, "C6 is key 84");
        assert_eq!(bell.loop_start_samples, 2.0 + 3.0 / 16.0);
        assert_eq!(bell.loop_end_samples, 5.0 + 8.0 / 16.0);
        assert_eq!(bell.unlooped(), &[0.0, 0.5], "up to the loop start");
        assert_eq!((bell.scale_frequency, bell.scale_factor), (60, 1024));
        let click = &patch.waves[1];
        assert_eq!(click.name, "Click");
        assert_eq!(
            (click.bits, click.unsigned, click.looping),
            (8, true, false)
        );
        assert_eq!(click.samples, [0.0, 0.5, -1.0, 127.0 / 128.0, -0.5]);
        assert_eq!(click.unlooped().len(), 5, "no loop: the whole wave");
        assert_eq!(click.sample_rate_hz, 22050.0);
        assert_eq!(click.root_key(), 69.0);
    }

    #[test]
    fn signed_8_bit_and_unsigned_16_bit_decode_to_full_scale() {
        let mut waves = two_waves();
        waves[0].modes = 0b0000_0011; // 16-bit unsigned
        waves[0].data = [0u16, 32768, 65535]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        waves[0].loop_bytes = (0, 6);
        waves[1].modes = 0; // 8-bit signed
        waves[1].data = vec![0x80, 0x00, 0x7f, 0xc0];
        let patch = parse(&patch_bytes(&waves)).expect("a valid patch");
        assert_eq!(patch.waves[0].samples, [-1.0, 0.0, 32767.0 / 32768.0]);
        assert_eq!(patch.waves[1].samples, [-1.0, 0.0, 127.0 / 128.0, -0.5]);
    }

    #[test]
    fn a_truncated_file_names_where_it_ends() {
        let bytes = patch_bytes(&two_waves());
        // Inside the first wave's header (it starts at 239).
        let error = parse(&bytes[..250]).expect_err("truncated");
        let PatError::Truncated { what, at_byte, .. } = &error else {
            panic!("not a truncation: {error}");
        };
        assert_eq!((what.as_str(), *at_byte), ("wave 0 header", 239));
        assert!(error
            .to_string()
            .contains("truncated wave 0 header at byte 239"));
        // Inside the second wave's data.
        let error = parse(&bytes[..bytes.len() - 2]).expect_err("truncated");
        assert!(
            error.to_string().contains("truncated wave 1 data"),
            "{error}"
        );
        // Cut anywhere, it is refused, never a panic and never a shorter patch.
        for len in 0..bytes.len() {
            assert!(parse(&bytes[..len]).is_err(), "{len} bytes decoded");
        }
        // Inside the patch header, after a complete magic.
        let error = parse(&bytes[..100]).expect_err("truncated");
        assert!(
            error
                .to_string()
                .contains("truncated patch header at byte 0"),
            "{error}"
        );
    }

    #[test]
    fn bad_magic_and_bad_loops_are_refused_by_name() {
        let mut bytes = patch_bytes(&two_waves());
        bytes[..4].copy_from_slice(b"RIFF");
        let error = parse(&bytes).expect_err("bad magic");
        assert!(matches!(error, PatError::BadMagic { .. }), "{error}");
        assert!(error.to_string().contains("RIFFATCH110"), "{error}");
        assert!(parse(b"GF1").is_err_and(|e| matches!(e, PatError::BadMagic { .. })));
        let mut waves = two_waves();
        waves[0].loop_bytes = (4, 14); // past the 12 bytes of data
        let error = parse(&patch_bytes(&waves)).expect_err("loop outside the data");
        assert!(error.to_string().contains("wave 0: loop 4..14"), "{error}");
    }
}
