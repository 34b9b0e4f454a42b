//! The cluster engine's tests, in one binary: each file a module.

mod loopback;
#[path = "../../retrograde/tests/support/strategy.rs"]
mod strategy;

mod agree;
mod arenas;
mod on_the_fly;
