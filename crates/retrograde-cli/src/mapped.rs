//! Files read through a memory map that another program changes meanwhile
//! (the library registers its maps: `retrograde::io::mapped_path_at`).
//!
//! A file cut short under its map raises SIGBUS where the missing bytes are
//! read: the handler names the file on one line and exits 2 instead of
//! dying by the signal. A file rewritten in place under its map is found
//! when the map is dropped: a run that read one ends with an error, not a
//! success, since what it printed may mix the old file and the new.

use std::process::ExitCode;

/// Installs the SIGBUS handler (failing to install it only loses the
/// message: the process then dies by the signal, as before).
pub fn stop_cleanly_on_bus_errors() {
    #[cfg(unix)]
    // SAFETY: the handler only reads atomics, writes to standard error,
    // removes the temporary files and exits; the action is zeroed and then
    // filled as sigaction(2) asks.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// One line naming the file that was cut short, then exit 2. Only
/// async-signal-safe calls, but for the removal of temporary files, which
/// takes the writers' lock: no thread holds it while it reads a map.
#[cfg(unix)]
extern "C" fn on_bus_error(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let mut name = [0u8; retrograde::io::MAPPED_PATH_BYTES];
    let len = retrograde::io::mapped_path_at(addr, &mut name);
    if len > 0 {
        write_err(b"retrograde: error: ");
        write_err(&name[..len]);
        write_err(b": the file was cut short by another program while it was read: stopped\n");
    } else {
        write_err(
            b"retrograde: error: memory that could not be read (a bus error, SIGBUS): stopped\n",
        );
    }
    let _held = retrograde::io::remove_temporary_files();
    // SAFETY: _exit ends the process at once, as a signal handler must.
    unsafe { libc::_exit(2) }
}

#[cfg(unix)]
fn write_err(mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a live slice to standard error.
        let n = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// `code`, unless a file was rewritten while it was mapped: then the error
/// line naming it, and exit 2.
pub fn unless_changed(code: ExitCode) -> ExitCode {
    match none_changed() {
        Ok(()) => code,
        Err(e) => {
            crate::report_error(&e.to_string());
            ExitCode::from(2)
        }
    }
}

/// Refuses to go on if a file was rewritten while it was mapped (and its
/// map has been dropped since): what was read of it cannot be trusted.
pub fn none_changed() -> anyhow::Result<()> {
    match retrograde::io::changed_while_mapped().first() {
        None => Ok(()),
        Some(path) => anyhow::bail!(
            "{}: the file changed while it was read (another program wrote to it): what was read of it cannot be trusted",
            crate::common::shown(path)
        ),
    }
}
