//! Arbitrary bytes into every reader of user input (see `npuzzle::fuzzing`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = npuzzle::fuzzing::exercise_readers(data);
});
