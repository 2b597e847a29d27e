//! Input checks that run before anything is written. Each failure is an `INVALID_INPUT` error
//! naming the field and the rule.

use crate::prelude::*;

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
    if base.starts_with('/') && !base.starts_with("//") {
        return Ok(());
    }
    let lower = base.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("https://") {
        return if host_of(rest).is_empty() {
            Err(Error::invalid_input("transport.baseUrl has no host"))
        } else {
            Ok(())
        };
    }
    let Some(rest) = lower.strip_prefix("http://") else {
        return Err(Error::invalid_input(
            "transport.baseUrl must be an http(s) URL or a same-origin path starting with /",
        ));
    };
    let host = host_of(rest);
    if host.is_empty() {
        return Err(Error::invalid_input("transport.baseUrl has no host"));
    }
    let loopback = host == "localhost"
        || host.ends_with(".localhost")
        || host == "[::1]"
        || host
            .strip_prefix("127.")
            .is_some_and(|r| r.split('.').count() == 3 && r.split('.').all(is_octet));
    if loopback || allow_insecure_http {
        Ok(())
    } else {
        Err(Error::invalid_input(
            "transport.baseUrl uses plain http to a host that is not this machine: the token and \
             messages would travel unencrypted; use https, or set transport.allowInsecureHttp: true",
        ))
    }
}

/// The host of `rest` (what follows `scheme://`), without userinfo or port.
fn host_of(rest: &str) -> &str {
    // a backslash ends the authority too: browsers read it as `/`
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    if host_port.starts_with('[') {
        return host_port.split_inclusive(']').next().unwrap_or("");
    }
    host_port.split(':').next().unwrap_or("")
}

fn is_octet(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 3
        && s.bytes().all(|b| b.is_ascii_digit())
        && s.parse::<u16>().is_ok_and(|n| n <= 255)
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
