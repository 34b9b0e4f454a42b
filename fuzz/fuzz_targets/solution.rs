//! The solution file reader on arbitrary bytes: never a panic, and whatever
//! reads writes back to a file that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{solution, Input};
use retrograde::Answers;

fuzz_target!(|data: &[u8]| {
    let input = Input::from_bytes("fuzz.tsv", data.to_vec());
    let claimed = data.len() % 7;
    let _ = solution::read(&input, Some(claimed));
    if let Ok(s) = solution::read(&input, None) {
        assert_eq!(solution::read(&input, Some(s.len())).unwrap(), s);
        let mut text = Vec::new();
        solution::write(&mut text, &s).unwrap();
        let back = solution::read(&Input::from_bytes("w.tsv", text), Some(s.len())).unwrap();
        assert_eq!(back, s);
    }
});
