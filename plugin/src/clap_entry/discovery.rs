//! The preset-discovery factory: one provider, which declares the factory presets' folder (written on first use) and the user's presets folder (`.json` files, one preset each), and tells a host's browser each preset's name, plugin, description, category and whether it is factory or user content.

use crate::presets::{factory_folder, user_folder, write_factory_files, Preset};
use crate::Urto;
use clap_sys::factory::preset_discovery::{
    clap_preset_discovery_factory, clap_preset_discovery_filetype, clap_preset_discovery_indexer,
    clap_preset_discovery_location, clap_preset_discovery_location_kind,
    clap_preset_discovery_metadata_receiver, clap_preset_discovery_provider,
    clap_preset_discovery_provider_descriptor, CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
    CLAP_PRESET_DISCOVERY_IS_USER_CONTENT, CLAP_PRESET_DISCOVERY_LOCATION_FILE,
};
use clap_sys::universal_plugin_id::clap_universal_plugin_id;
use clap_sys::version::CLAP_VERSION;
use nice_plug::prelude::ClapPlugin;
use std::ffi::{c_char, c_void, CStr, CString};

/// The provider's descriptor (one provider: Urto's presets).
static DESCRIPTOR: clap_preset_discovery_provider_descriptor =
    clap_preset_discovery_provider_descriptor {
        clap_version: CLAP_VERSION,
        id: c"org.urto.urto.presets".as_ptr(),
        name: c"Urto presets".as_ptr(),
        vendor: c"Urto".as_ptr(),
    };

static FACTORY: clap_preset_discovery_factory = clap_preset_discovery_factory {
    count: Some(count),
    get_descriptor: Some(get_descriptor),
    create: Some(create),
};

/// The factory a host's `get_factory` gets.
pub fn factory() -> *const c_void {
    &FACTORY as *const _ as *const c_void
}

unsafe extern "C" fn count(_factory: *const clap_preset_discovery_factory) -> u32 {
    1
}

unsafe extern "C" fn get_descriptor(
    _factory: *const clap_preset_discovery_factory,
    index: u32,
) -> *const clap_preset_discovery_provider_descriptor {
    if index == 0 {
        &DESCRIPTOR
    } else {
        std::ptr::null()
    }
}

/// The provider and the indexer it declares its locations to; `raw` first, so a pointer to it
/// is a pointer to the whole.
#[repr(C)]
struct Provider {
    raw: clap_preset_discovery_provider,
    indexer: *const clap_preset_discovery_indexer,
}

unsafe extern "C" fn create(
    _factory: *const clap_preset_discovery_factory,
    indexer: *const clap_preset_discovery_indexer,
    provider_id: *const c_char,
) -> *const clap_preset_discovery_provider {
    // SAFETY: the host passes a C string or null; DESCRIPTOR's id is one.
    let ours = unsafe { CStr::from_ptr(DESCRIPTOR.id) };
    if provider_id.is_null() || indexer.is_null() || unsafe { CStr::from_ptr(provider_id) } != ours
    {
        return std::ptr::null();
    }
    let provider = Box::new(Provider {
        raw: clap_preset_discovery_provider {
            desc: &DESCRIPTOR,
            provider_data: std::ptr::null_mut(),
            init: Some(init),
            destroy: Some(destroy),
            get_metadata: Some(get_metadata),
            get_extension: Some(get_extension),
        },
        indexer,
    });
    Box::into_raw(provider) as *const clap_preset_discovery_provider
}

unsafe extern "C" fn destroy(provider: *const clap_preset_discovery_provider) {
    // SAFETY: made by `create` with Box::into_raw, destroyed once.
    drop(unsafe { Box::from_raw(provider as *mut Provider) });
}

unsafe extern "C" fn get_extension(
    _provider: *const clap_preset_discovery_provider,
    _id: *const c_char,
) -> *const c_void {
    std::ptr::null()
}

/// Declare the preset file type, the factory presets' folder (written now if this version has
/// not written it) and, if it exists, the user's folder.
///
/// The factory presets are files rather than the plugin location's container of keyed presets:
/// clap-validator 0.4.1's metadata receiver deadlocks on a container's second preset (its
/// `begin_preset` holds the result's lock while flushing the first preset, which takes it too).
unsafe extern "C" fn init(provider: *const clap_preset_discovery_provider) -> bool {
    // SAFETY: made by `create`; the indexer outlives its providers.
    let indexer = unsafe { &*(*(provider as *const Provider)).indexer };
    let (Some(declare_filetype), Some(declare_location)) =
        (indexer.declare_filetype, indexer.declare_location)
    else {
        return false;
    };
    let filetype = clap_preset_discovery_filetype {
        name: c"Urto preset".as_ptr(),
        description: c"An Urto preset: its parameters as JSON".as_ptr(),
        file_extension: c"json".as_ptr(),
    };
    // SAFETY: the indexer's callback, the file type alive for the call.
    let mut declared = unsafe { declare_filetype(indexer, &filetype) };
    let folders = [
        (
            write_factory_files().ok(),
            c"Urto factory presets",
            CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
        ),
        (
            user_folder().filter(|f| f.is_dir()),
            c"Urto user presets",
            CLAP_PRESET_DISCOVERY_IS_USER_CONTENT,
        ),
    ];
    for (folder, name, flags) in folders {
        let Some(path) = folder.and_then(|f| CString::new(f.to_string_lossy().into_owned()).ok())
        else {
            continue;
        };
        let location = clap_preset_discovery_location {
            flags,
            name: name.as_ptr(),
            kind: CLAP_PRESET_DISCOVERY_LOCATION_FILE,
            location: path.as_ptr(),
        };
        // SAFETY: as above.
        declared &= unsafe { declare_location(indexer, &location) };
    }
    declared
}

/// Tell `receiver` of the preset a file holds: factory content if it lies in the factory
/// presets' folder, user content otherwise.
unsafe extern "C" fn get_metadata(
    _provider: *const clap_preset_discovery_provider,
    kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    receiver: *const clap_preset_discovery_metadata_receiver,
) -> bool {
    if receiver.is_null() || location.is_null() || kind != CLAP_PRESET_DISCOVERY_LOCATION_FILE {
        return false;
    }
    // SAFETY: the host's receiver, alive for this call, and a C string.
    let (receiver, path) = unsafe { (&*receiver, CStr::from_ptr(location)) };
    let path = std::path::PathBuf::from(path.to_string_lossy().into_owned());
    match Preset::load(&path) {
        Ok(preset) => {
            let factory = factory_folder().is_some_and(|f| path.starts_with(f));
            let flags = if factory {
                CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT
            } else {
                CLAP_PRESET_DISCOVERY_IS_USER_CONTENT
            };
            describe(receiver, &preset, flags)
        }
        Err(e) => {
            if let Some(on_error) = receiver.on_error {
                let message = c_string(&format!("{}: {e}", path.display()));
                // SAFETY: the receiver's callback, the message alive for the call.
                unsafe { on_error(receiver, 0, message.as_ptr()) };
            }
            false
        }
    }
}

/// `text` as a C string (a NUL inside made a space).
fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

/// Tell `receiver` of one preset (a file's only one: no load key): its name, Urto's CLAP id,
/// `flags`, Urto as its creator, its description and its category as a feature.
fn describe(
    receiver: &clap_preset_discovery_metadata_receiver,
    preset: &Preset,
    flags: u32,
) -> bool {
    let name = c_string(&preset.name);
    let description = c_string(&preset.description);
    let category = c_string(&preset.category.to_lowercase());
    let id = c_string(Urto::CLAP_ID);
    let plugin_id = clap_universal_plugin_id {
        abi: c"clap".as_ptr(),
        id: id.as_ptr(),
    };
    // SAFETY: the receiver's callbacks, every pointer alive for the calls.
    unsafe {
        match receiver.begin_preset {
            Some(begin) if begin(receiver, name.as_ptr(), std::ptr::null()) => {
                if let Some(add) = receiver.add_plugin_id {
                    add(receiver, &plugin_id);
                }
                if let Some(set) = receiver.set_flags {
                    set(receiver, flags);
                }
                if let Some(add) = receiver.add_creator {
                    add(receiver, c"Urto".as_ptr());
                }
                if let Some(set) = receiver.set_description {
                    set(receiver, description.as_ptr());
                }
                if let Some(add) = receiver.add_feature {
                    add(receiver, category.as_ptr());
                }
                true
            }
            _ => false,
        }
    }
}
