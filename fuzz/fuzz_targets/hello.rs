//! The cluster handshake on arbitrary bytes: a hello decodes only after its
//! magic string, encodes back to the same bytes, and matches itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde_timely::{Hello, HELLO_BYTES};

fuzz_target!(|data: &[u8]| {
    let mut bytes = [0u8; HELLO_BYTES];
    let n = data.len().min(HELLO_BYTES);
    bytes[..n].copy_from_slice(&data[..n]);
    if let Some(h) = Hello::decode(&bytes) {
        assert_eq!(h.encode(), bytes);
        assert_eq!(h.mismatch(&h), None);
        let other = Hello {
            fingerprint: h.fingerprint ^ 1,
            ..h
        };
        assert!(h.mismatch(&other).is_some());
    }
});
