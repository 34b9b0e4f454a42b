//! The tests of the `retrograde` binary, in one binary: each file a module
//! (one link for all of them). `cargo test -p retrograde-cli --test binary
//! browser` runs one file's.

mod common;

mod arenas;
mod browser;
mod cli;
mod cluster;
mod cluster_games;
mod cop_thief;
mod database;
mod grundy;
mod namespaces;
mod serve;
mod tiers;
mod tutorial;
