//! The preset-load extension: a host loads a preset file (factory or user, as discovery lists them), restored as the state a host would restore, and is told how it went.

use crate::presets::Preset;
use crate::UrtoParams;
use clap_sys::ext::preset_load::{
    clap_host_preset_load, clap_plugin_preset_load, CLAP_EXT_PRESET_LOAD,
    CLAP_EXT_PRESET_LOAD_COMPAT,
};
use clap_sys::ext::state::{clap_plugin_state, CLAP_EXT_STATE};
use clap_sys::factory::preset_discovery::{
    clap_preset_discovery_location_kind, CLAP_PRESET_DISCOVERY_LOCATION_FILE,
};
use clap_sys::host::clap_host;
use clap_sys::plugin::clap_plugin;
use clap_sys::stream::clap_istream;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;
use std::sync::{Mutex, OnceLock};

type GetExtension = unsafe extern "C" fn(*const clap_plugin, *const c_char) -> *const c_void;

/// nice-plug's `get_extension`, which every other extension comes from.
static NICE_PLUG_GET_EXTENSION: OnceLock<GetExtension> = OnceLock::new();

/// Each instance's host (plugin, host addresses), told when a preset loads; an entry is
/// replaced when a new instance takes a freed one's address.
static HOSTS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

static PRESET_LOAD: clap_plugin_preset_load = clap_plugin_preset_load {
    from_location: Some(from_location),
};

/// Give `plugin` (made for `host`) the preset-load extension.
pub fn extend(plugin: &mut clap_plugin, host: *const clap_host) {
    if let Some(original) = plugin.get_extension {
        NICE_PLUG_GET_EXTENSION.get_or_init(|| original);
    }
    plugin.get_extension = Some(get_extension);
    let key = plugin as *const clap_plugin as usize;
    let mut hosts = HOSTS.lock().unwrap_or_else(|e| e.into_inner());
    hosts.retain(|(p, _)| *p != key);
    hosts.push((key, host as usize));
}

/// nice-plug's extension `id` of `plugin`.
unsafe fn nice_plug_extension(plugin: *const clap_plugin, id: &CStr) -> *const c_void {
    match NICE_PLUG_GET_EXTENSION.get() {
        // SAFETY: the host's plugin pointer, and a valid C string.
        Some(get) => unsafe { get(plugin, id.as_ptr()) },
        None => std::ptr::null(),
    }
}

unsafe extern "C" fn get_extension(plugin: *const clap_plugin, id: *const c_char) -> *const c_void {
    if id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the host passes a C string.
    let id = unsafe { CStr::from_ptr(id) };
    if id == CLAP_EXT_PRESET_LOAD || id == CLAP_EXT_PRESET_LOAD_COMPAT {
        &PRESET_LOAD as *const _ as *const c_void
    } else {
        // SAFETY: as the host called us.
        unsafe { nice_plug_extension(plugin, id) }
    }
}

/// `ptr` as a string, if it is one.
unsafe fn text<'a>(ptr: *const c_char) -> Option<&'a str> {
    // SAFETY: the host passes C strings or null.
    (!ptr.is_null())
        .then(|| unsafe { CStr::from_ptr(ptr) }.to_str().ok())
        .flatten()
}

/// The preset in the file at `location`.
pub fn preset_at(
    kind: clap_preset_discovery_location_kind,
    location: Option<&str>,
) -> Result<Preset, String> {
    match (kind, location) {
        (CLAP_PRESET_DISCOVERY_LOCATION_FILE, Some(path)) => {
            Preset::load(Path::new(path)).map_err(|e| format!("{path}: {e}"))
        }
        _ => Err(format!(
            "Urto's presets are files, not location kind {kind}"
        )),
    }
}

/// The bytes read from by [`read`].
struct Reader {
    bytes: Vec<u8>,
    at: usize,
}

unsafe extern "C" fn read(stream: *const clap_istream, buffer: *mut c_void, size: u64) -> i64 {
    // SAFETY: `ctx` is the `Reader` of `restore`, alive for the call that reads it.
    let reader = unsafe { &mut *((*stream).ctx as *mut Reader) };
    let n = (reader.bytes.len() - reader.at).min(size as usize);
    // SAFETY: the caller's buffer holds `size` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(reader.bytes[reader.at..].as_ptr(), buffer as *mut u8, n);
    }
    reader.at += n;
    n as i64
}

/// Restore `preset` into `plugin` through its state extension, as a host restores a saved
/// state: the state's JSON after its length (nice-plug's CLAP state format).
unsafe fn restore(plugin: *const clap_plugin, preset: &Preset) -> Result<(), String> {
    let json =
        serde_json::to_vec(&preset.to_state(&UrtoParams::default())).map_err(|e| e.to_string())?;
    let mut reader = Reader {
        bytes: (json.len() as u64).to_le_bytes().to_vec(),
        at: 0,
    };
    reader.bytes.extend_from_slice(&json);
    // SAFETY: the host's plugin pointer.
    let state = unsafe { nice_plug_extension(plugin, CLAP_EXT_STATE) } as *const clap_plugin_state;
    // SAFETY: nice-plug's state extension, if any, lives as long as the plugin.
    let load = (!state.is_null())
        .then(|| unsafe { (*state).load })
        .flatten()
        .ok_or("the plugin has no state extension")?;
    let stream = clap_istream {
        ctx: &mut reader as *mut Reader as *mut c_void,
        read: Some(read),
    };
    // SAFETY: `stream` and `reader` outlive the call.
    if unsafe { load(plugin, &stream) } {
        Ok(())
    } else {
        Err(format!("the preset {:?} would not load", preset.name))
    }
}

unsafe extern "C" fn from_location(
    plugin: *const clap_plugin,
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
) -> bool {
    // SAFETY: the host passes C strings or null.
    let found = preset_at(kind, unsafe { text(location) });
    // SAFETY: the host's plugin pointer.
    let result = found.and_then(|preset| unsafe { restore(plugin, &preset) });
    // SAFETY: as above.
    unsafe { tell_host(plugin, kind, location, load_key, &result) };
    result.is_ok()
}

/// Tell the host of `plugin` that the preset loaded, or why not.
unsafe fn tell_host(
    plugin: *const clap_plugin,
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
    result: &Result<(), String>,
) {
    let host = HOSTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(p, _)| *p == plugin as usize)
        .map(|(_, h)| *h as *const clap_host);
    let Some(host) = host else { return };
    // SAFETY: the host outlives its plugins; its get_extension is main-thread, as this call.
    let Some(get) = (unsafe { (*host).get_extension }) else {
        return;
    };
    // The host's extension under its id, or under the draft's.
    let ext = [CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT]
        .iter()
        // SAFETY: the host's own callback, with its own pointer and a C string.
        .map(|id| unsafe { get(host, id.as_ptr()) } as *const clap_host_preset_load)
        .find(|ext| !ext.is_null());
    let Some(ext) = ext else {
        return;
    };
    // SAFETY: the host's extension; its callbacks take the strings we were given.
    unsafe {
        match result {
            Ok(()) => {
                if let Some(loaded) = (*ext).loaded {
                    loaded(host, kind, location, load_key);
                }
            }
            Err(reason) => {
                if let Some(on_error) = (*ext).on_error {
                    let message = CString::new(reason.replace('\0', " ")).unwrap_or_default();
                    on_error(host, kind, location, load_key, 0, message.as_ptr());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_file_is_found_and_other_locations_are_refused() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../presets/wine-glass.json");
        let preset = preset_at(CLAP_PRESET_DISCOVERY_LOCATION_FILE, Some(path)).unwrap();
        assert_eq!(preset.name, "Wine glass");
        assert!(preset_at(CLAP_PRESET_DISCOVERY_LOCATION_FILE, Some("/nowhere.json")).is_err());
        // The plugin location (kind 1) holds no presets of Urto's.
        assert!(preset_at(1, None).unwrap_err().contains("location kind 1"));
    }
}
