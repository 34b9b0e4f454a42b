//! How much memory this process may use: the machine's, the address space
//! left under `ulimit -v`, a cgroup's `memory.max`; and how much it has
//! used at most; a byte count written for people ([`human_bytes`]). Every
//! engine takes a memory limit ([`Explorer::memory_limit`](crate::Explorer::memory_limit),
//! [`CsrBuilder::memory_limit`](crate::CsrBuilder::memory_limit), …) and
//! refuses before allocating past it; [`machine_limit`] is the limit to give
//! them when the user gave none.
//!
//! Big arrays: [`filled`] fills one on every core, with huge pages where
//! the system has them, and fails as [`fallibly`](crate::fallibly) asks;
//! [`prefetch`] asks for a cache line ahead of a scattered read. The engines
//! and the built-in games use both.
//!
//! Everything is read from `/proc` and `/sys/fs/cgroup` (Linux); elsewhere
//! nothing is known and every function says so (`None`, or no limit).
//!
//! ```
//! let limit = retrograde::memory::memory_limit(None);
//! assert!(limit > 0);
//! // A limit asked for is kept, never raised past the address space left.
//! assert!(retrograde::memory::memory_limit(Some(1 << 20)) <= 1 << 20);
//! ```

pub use crate::alloc::{filled, prefetch};

/// The machine's physical memory in bytes, if it can be read.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The process's peak resident memory in bytes, if it can be read.
pub fn peak_memory() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// The memory a run may use: `max_memory` if given, else [`machine_limit`];
/// never more than the address space the process may still map, since
/// past it an allocation fails and the process aborts.
pub fn memory_limit(max_memory: Option<u64>) -> u64 {
    match max_memory {
        Some(m) => m.min(address_space_left().unwrap_or(u64::MAX)),
        None => machine_limit(),
    }
}

/// The memory this process may use without being given a limit: the least
/// of the machine's memory, the address space left under its limit
/// (`ulimit -v`, `prlimit --as`) and the cgroup's `memory.max` (a
/// container's or `systemd-run`'s limit), whichever of them are set;
/// `u64::MAX` where none can be read.
pub fn machine_limit() -> u64 {
    [physical_memory(), address_space_left(), cgroup_limit()]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(u64::MAX)
}

/// Address space kept free under an address-space limit, beyond what the
/// estimates count: the small allocations of the run and the buffers of
/// its reads and writes.
pub const ALLOCATOR_RESERVE: u64 = 16 << 20;

/// The address space this process may still map under its limit, if one
/// is set: the limit less what is mapped now (the program, its libraries,
/// the threads' stacks) and [`ALLOCATOR_RESERVE`].
pub fn address_space_left() -> Option<u64> {
    let limit = address_space_limit()?;
    let mapped = status_bytes("VmSize:").unwrap_or(0);
    Some(
        limit
            .saturating_sub(mapped)
            .saturating_sub(ALLOCATOR_RESERVE),
    )
}

/// The soft address-space limit of this process, if set (from
/// `/proc/self/limits`: no C library call needed).
pub fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// A size line of `/proc/self/status` (`VmSize:`, `VmHWM:`), in bytes.
fn status_bytes(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The memory limit of this process's cgroup (version 2), if set: the
/// tightest on the way up to the root.
fn cgroup_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let rel = text.lines().find_map(|l| l.strip_prefix("0::"))?;
    let mut dir = std::path::PathBuf::from("/sys/fs/cgroup");
    dir.push(rel.trim_start_matches('/'));
    let mut least: Option<u64> = None;
    loop {
        if let Ok(v) = std::fs::read_to_string(dir.join("memory.max"))
            && let Ok(b) = v.trim().parse::<u64>()
        {
            least = Some(least.map_or(b, |l| l.min(b)));
        }
        if !dir.pop() || dir.as_os_str() == "/sys/fs" {
            break;
        }
    }
    least
}

/// A byte count for people, as every message of the library writes it:
/// `1.5 GiB`, `512 B`.
///
/// ```
/// assert_eq!(retrograde::memory::human_bytes(3 << 29), "1.5 GiB");
/// ```
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut i = 0;
    while x >= 1024.0 && i + 1 < UNITS.len() {
        x /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[i])
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_limit_is_never_more_than_the_machine_has() {
        // Under `ulimit -v` the address space left changes between calls
        // (the process maps more as it runs): each is compared alone.
        if let Some(physical) = super::physical_memory() {
            assert!(super::machine_limit() <= physical);
            assert!(super::memory_limit(None) <= physical);
        }
        assert!(super::memory_limit(Some(1000)) <= 1000);
    }
}
