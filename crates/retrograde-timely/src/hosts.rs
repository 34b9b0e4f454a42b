//! The host list: one `host:port` per process, in process order.

use retrograde::io::Input;

/// Reads a host list: one `host:port` line per process (process 0 first).
/// Blank lines and lines starting with `#` are skipped.
///
/// ```
/// use retrograde::io::Input;
/// let input = Input::from_bytes("hosts", b"# two machines\nalpha:7000\n10.0.0.2:7000\n".to_vec());
/// let hosts = retrograde_timely::read_hostfile(&input).unwrap();
/// assert_eq!(hosts, ["alpha:7000", "10.0.0.2:7000"]);
/// ```
///
/// # Errors
/// A line that is not `host:port` with a port from 1 to 65535 (named by its
/// line), or a host list with no entry.
pub fn read_hostfile(input: &Input) -> retrograde::Result<Vec<String>> {
    let text = String::from_utf8_lossy(input.bytes());
    let mut hosts = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| {
            retrograde::Error::at_line(
                input.path(),
                i as u64 + 1,
                format!("expected host:port, {what}, found {line:?}"),
            )
        };
        let Some((host, port)) = line.rsplit_once(':') else {
            return Err(bad("with a colon before the port"));
        };
        if host.is_empty() || line.contains(char::is_whitespace) {
            return Err(bad("a host name and no spaces"));
        }
        match port.parse::<u16>() {
            Ok(p) if p > 0 => {}
            _ => return Err(bad("with a port from 1 to 65535")),
        }
        hosts.push(line.to_string());
    }
    if hosts.is_empty() {
        return Err(retrograde::Error::at_line(
            input.path(),
            text.lines().count() as u64 + 1,
            "expected a line host:port: the host list names no process",
        ));
    }
    Ok(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> retrograde::Result<Vec<String>> {
        read_hostfile(&Input::from_bytes("hosts", text.as_bytes().to_vec()))
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            read("a:1\nb\n").unwrap_err().to_string(),
            "hosts:line 2: expected host:port, with a colon before the port, found \"b\""
        );
        assert!(read("a:0\n").unwrap_err().to_string().contains("line 1"));
        assert!(read("a:70000\n").is_err());
        assert!(read("# nothing\n\n").is_err());
        assert_eq!(read("[::1]:80\n").unwrap(), ["[::1]:80"]);
    }
}
