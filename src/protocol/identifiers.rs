//! Identifier extraction (placeholder until implemented).

/// Extracts the concrete identifiers a message names, in order of first appearance.
pub fn extract_identifiers(_text: &str) -> Vec<String> {
    Vec::new()
}
