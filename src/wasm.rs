//! The WebAssembly boundary (the page's issue fills it in).
