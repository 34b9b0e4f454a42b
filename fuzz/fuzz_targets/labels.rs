//! The terminal labels reader on arbitrary bytes: never a panic, and labels
//! that read without a vertex count read the same with one just large enough.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{labels, Input};

fuzz_target!(|data: &[u8]| {
    let input = Input::from_bytes("fuzz.labels", data.to_vec());
    if let Ok(l) = labels::read(&input, None) {
        let n = l.max_vertex().map_or(0, |v| v as usize + 1);
        assert_eq!(labels::read(&input, Some(n)).unwrap(), l);
        if n > 0 {
            assert!(labels::read(&input, Some(n - 1)).is_err());
        }
    }
});
