//! Input checks that run before anything is written. Each failure is an `INVALID_INPUT` error
//! naming the field and the rule.

use super::error::Error;

/// Longest conversation or turn id accepted, in bytes. Keys embed both, and the server indexes
/// them as canonical names; anything longer is almost certainly a mistake (a message pasted as id).
pub const MAX_ID_BYTES: usize = 256;

/// Default cap on one message's UTF-8 size.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Checks an id used inside turn keys and idempotency keys.
pub fn check_id(field: &str, value: &str) -> Result<(), Error> {
    if value.trim().is_empty() {
        return Err(Error::invalid_input(format!(
            "{field} must be a non-empty string"
        )));
    }
    if value.len() > MAX_ID_BYTES {
        return Err(Error::invalid_input(format!(
            "{field} is {} bytes long; the limit is {MAX_ID_BYTES}",
            value.len()
        )));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::invalid_input(format!(
            "{field} must not contain control characters"
        )));
    }
    // Turn keys are `{conversationId}:{turnId}[:assistant]`: a `:` inside an id would let one
    // conversation's key name another's message (conversation "a", turn "b:c" = "a:b", "c").
    if value.contains(':') {
        return Err(Error::invalid_input(format!(
            "{field} must not contain ':' (it separates the ids in turn keys)"
        )));
    }
    Ok(())
}

/// Checks a message body against the size limit. Empty messages are allowed: a user can send one.
pub fn check_message(field: &str, value: &str, max_bytes: usize) -> Result<(), Error> {
    if value.len() > max_bytes {
        return Err(Error::invalid_input(format!(
            "{field} is {} bytes; the limit is {max_bytes} (option maxMessageBytes)",
            value.len()
        )));
    }
    Ok(())
}

/// Checks a turn number: a positive integer.
pub fn check_turn_number(value: f64) -> Result<u32, Error> {
    if value.fract() != 0.0 || !(1.0..=f64::from(u32::MAX)).contains(&value) {
        return Err(Error::invalid_input(
            "turnNumber must be a positive integer".to_string(),
        ));
    }
    Ok(value as u32)
}

/// `transport.baseUrl`: an https URL, a same-origin path (`/neotoma`), or plain http to this
/// machine (localhost, 127.0.0.0/8, [::1]). Plain http elsewhere would send the bearer token
/// and every message in clear text, so it needs `allowInsecureHttp: true`.
pub fn check_base_url(base: &str, allow_insecure_http: bool) -> Result<(), Error> {
    let bytes = base.as_bytes();
    if bytes.first() == Some(&b'/') && bytes.get(1) != Some(&b'/') {
        return Ok(());
    }
    let lower = base.to_ascii_lowercase();
    if lower.as_bytes().starts_with(b"https://") {
        return if host_of(lower.get(8..).unwrap_or("")).is_empty() {
            Err(Error::invalid_input("transport.baseUrl has no host"))
        } else {
            Ok(())
        };
    }
    if !lower.as_bytes().starts_with(b"http://") {
        return Err(Error::invalid_input(
            "transport.baseUrl must be an http(s) URL or a same-origin path starting with /",
        ));
    }
    let host = host_of(lower.get(7..).unwrap_or("")).as_bytes();
    if host.is_empty() {
        return Err(Error::invalid_input("transport.baseUrl has no host"));
    }
    let loopback = host == b"localhost"
        || host.ends_with(b".localhost")
        || host == b"[::1]"
        || (host.starts_with(b"127.") && is_ipv4_tail(host.get(4..).unwrap_or(b"")));
    if loopback || allow_insecure_http {
        Ok(())
    } else {
        Err(Error::invalid_input(
            "transport.baseUrl uses plain http to a host that is not this machine: the token and \
             messages would travel unencrypted; use https, or set transport.allowInsecureHttp: true",
        ))
    }
}

/// The host of `rest` (what follows `scheme://`), without userinfo or port. (Byte loops: the
/// delimiters are ASCII, and str's pattern machinery costs more in the wasm.)
fn host_of(rest: &str) -> &str {
    let b = rest.as_bytes();
    // a backslash ends the authority too: browsers read it as `/`
    let end = b
        .iter()
        .position(|c| matches!(c, b'/' | b'\\' | b'?' | b'#'))
        .unwrap_or(b.len());
    let authority = b.get(..end).unwrap_or(b"");
    let start = authority
        .iter()
        .rposition(|&c| c == b'@')
        .map_or(0, |at| at + 1);
    let host_port = authority.get(start..).unwrap_or(b"");
    let len = if host_port.first() == Some(&b'[') {
        host_port
            .iter()
            .position(|&c| c == b']')
            .map_or(host_port.len(), |close| close + 1)
    } else {
        host_port
            .iter()
            .position(|&c| c == b':')
            .unwrap_or(host_port.len())
    };
    rest.get(start..start + len).unwrap_or("")
}

/// `N.N.N` with each N a decimal octet (0–255, at most 3 digits): the rest of a 127.x address.
fn is_ipv4_tail(rest: &[u8]) -> bool {
    let (mut parts, mut digits, mut value) = (1, 0, 0u32);
    for &c in rest {
        if c == b'.' {
            if digits == 0 {
                return false;
            }
            parts += 1;
            digits = 0;
            value = 0;
        } else if c.is_ascii_digit() {
            digits += 1;
            value = value * 10 + u32::from(c - b'0');
            if digits > 3 || value > 255 {
                return false;
            }
        } else {
            return false;
        }
    }
    digits > 0 && parts == 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ErrorCode;

    #[test]
    fn ids_are_checked() {
        assert!(check_id("turnId", "t1").is_ok());
        for bad in ["", "   ", "a\nb", "y:z", "c1:"] {
            assert_eq!(
                check_id("turnId", bad).unwrap_err().code,
                ErrorCode::InvalidInput
            );
        }
        assert!(check_id("turnId", &"x".repeat(MAX_ID_BYTES)).is_ok());
        let e = check_id("conversationId", &"x".repeat(MAX_ID_BYTES + 1)).unwrap_err();
        assert!(e.message.contains("conversationId"));
    }

    #[test]
    fn messages_are_size_checked() {
        assert!(check_message("userMessage", "", 10).is_ok());
        assert!(check_message("userMessage", "0123456789", 10).is_ok());
        assert!(check_message("userMessage", "01234567890", 10).is_err());
        // the limit is in UTF-8 bytes, not chars
        assert!(check_message("userMessage", "ééééé", 9).is_err());
    }

    #[test]
    fn turn_numbers_are_positive_integers() {
        assert_eq!(check_turn_number(3.0).unwrap(), 3);
        for bad in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
            assert!(check_turn_number(bad).is_err());
        }
    }

    #[test]
    fn base_url_needs_https_or_loopback_http() {
        for ok in [
            "https://neotoma.example.com",
            "https://neotoma.example.com:8443/api",
            "/neotoma",
            "http://127.0.0.1:3080",
            "http://localhost:3080/",
            "http://LOCALHOST",
            "http://127.1.2.3",
            "http://[::1]:3080",
            "http://app.localhost",
        ] {
            assert!(check_base_url(ok, false).is_ok(), "{ok}");
        }
        for bad in [
            "http://neotoma.example.com",
            "http://10.0.0.5:3080",
            "http://127.0.0.1.evil.com",
            "http://127.0.0.1@evil.com",
            "http://evil.com\\@127.0.0.1",
            "http://evil.com\\.127.0.0.1",
            "http://localhost.evil.com",
            "ftp://x",
            "//evil.com/x",
            "neotoma",
            "https://",
            "http://",
        ] {
            let e = check_base_url(bad, false).unwrap_err();
            assert_eq!(
                e.code,
                crate::protocol::error::ErrorCode::InvalidInput,
                "{bad}"
            );
        }
        assert!(check_base_url("http://10.0.0.5:3080", true).is_ok());
        assert!(check_base_url("ftp://x", true).is_err());
    }
}
