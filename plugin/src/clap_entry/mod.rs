//! Urto's CLAP entry point: nice-plug's plugin factory (its descriptor and wrapper, as its export macro builds them) beside a preset-discovery factory, each instance given the preset-load extension.

mod discovery;
mod preset_load;

use crate::Urto;
use clap_sys::entry::clap_plugin_entry;
use clap_sys::factory::plugin_factory::{clap_plugin_factory, CLAP_PLUGIN_FACTORY_ID};
use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_FACTORY_ID, CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT,
};
use clap_sys::host::clap_host;
use clap_sys::plugin::{clap_plugin, clap_plugin_descriptor};
use clap_sys::version::CLAP_VERSION;
use nice_plug::wrapper::clap::{PluginDescriptor, Wrapper};
use nice_plug::wrapper::setup_logger;
use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, OnceLock};

/// The plugin's descriptor, made once.
fn descriptor() -> &'static PluginDescriptor {
    static DESCRIPTOR: OnceLock<PluginDescriptor> = OnceLock::new();
    DESCRIPTOR.get_or_init(PluginDescriptor::for_plugin::<Urto>)
}

unsafe extern "C" fn plugin_count(_factory: *const clap_plugin_factory) -> u32 {
    1
}

unsafe extern "C" fn plugin_descriptor(
    _factory: *const clap_plugin_factory,
    index: u32,
) -> *const clap_plugin_descriptor {
    if index == 0 {
        descriptor().clap_plugin_descriptor()
    } else {
        std::ptr::null()
    }
}

/// nice-plug's wrapper for `host`, its `get_extension` replaced by one that adds preset-load
/// and defers the rest to nice-plug's. The wrapper is freed by its `destroy`, as nice-plug's
/// macro leaves it.
unsafe extern "C" fn create_plugin(
    _factory: *const clap_plugin_factory,
    host: *const clap_host,
    plugin_id: *const c_char,
) -> *const clap_plugin {
    // SAFETY: the host passes a C string or null.
    if plugin_id.is_null() || unsafe { CStr::from_ptr(plugin_id) } != descriptor().clap_id() {
        return std::ptr::null();
    }
    // SAFETY: the host outlives the plugin it creates.
    let wrapper = Arc::into_raw(unsafe { Wrapper::<Urto>::new(host) });
    // SAFETY: `wrapper` was just made; nothing else borrows its `clap_plugin` before the host
    // has the pointer.
    let clap_plugin = unsafe { &(*wrapper).clap_plugin };
    preset_load::extend(&mut clap_plugin.borrow_mut(), host);
    clap_plugin.as_ptr()
}

static PLUGIN_FACTORY: clap_plugin_factory = clap_plugin_factory {
    get_plugin_count: Some(plugin_count),
    get_plugin_descriptor: Some(plugin_descriptor),
    create_plugin: Some(create_plugin),
};

extern "C" fn init(_plugin_path: *const c_char) -> bool {
    setup_logger::<Urto>();
    true
}

extern "C" fn deinit() {}

extern "C" fn get_factory(factory_id: *const c_char) -> *const c_void {
    if factory_id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: the host passes a C string.
    let id = unsafe { CStr::from_ptr(factory_id) };
    if id == CLAP_PLUGIN_FACTORY_ID {
        &PLUGIN_FACTORY as *const _ as *const c_void
    } else if id == CLAP_PRESET_DISCOVERY_FACTORY_ID
        || id == CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT
    {
        discovery::factory()
    } else {
        std::ptr::null()
    }
}

/// The CLAP entry point.
#[unsafe(no_mangle)]
#[used]
pub static clap_entry: clap_plugin_entry = clap_plugin_entry {
    clap_version: CLAP_VERSION,
    init: Some(init),
    deinit: Some(deinit),
    get_factory: Some(get_factory),
};
