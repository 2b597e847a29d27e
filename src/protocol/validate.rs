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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ErrorCode;

    #[test]
    fn ids_are_checked() {
        assert!(check_id("turnId", "t1").is_ok());
        for bad in ["", "   ", "a\nb"] {
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
}
