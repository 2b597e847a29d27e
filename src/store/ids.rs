//! Identifier generation: deterministic (no randomness, no clock reads), unique per store.
//!
//! Entity ids are `ent_` + 24 lowercase hex digits, like the real server's. Observation and
//! source ids are UUID-shaped (version-4 and variant bits set). Each id mixes a per-store counter
//! with the write's `now_ms` and a salt, so two stores started at different times hand out
//! different ids while one store replays identically from identical inputs.

use std::hash::Hasher;

use fnv::FnvHasher;

use crate::protocol::keys::uuid_v4;

/// SplitMix64 step.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a salt string: 64-bit on every target, so ids are the same natively and in wasm.
fn salt_hash(text: &str) -> u64 {
    let mut hasher = FnvHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

/// The id source of one store.
#[derive(Debug, Clone, Default)]
pub(crate) struct IdGen {
    counter: u64,
}

impl IdGen {
    /// The generator after `counter` ids: a store read back from storage goes on where it
    /// stopped, so its later ids differ from every earlier one.
    pub(crate) fn resume(counter: u64) -> Self {
        IdGen { counter }
    }

    /// Ids handed out so far.
    pub(crate) fn counter(&self) -> u64 {
        self.counter
    }

    fn stream(&mut self, now_ms: f64, salt: &str) -> u64 {
        self.counter = self.counter.wrapping_add(1);
        // `as` saturates: a NaN or huge clock cannot panic here.
        (now_ms as u64).rotate_left(23)
            ^ salt_hash(salt)
            ^ self.counter.wrapping_mul(0xA24B_AED4_963E_E407)
    }

    /// `ent_` + 24 hex digits.
    pub(crate) fn entity_id(&mut self, now_ms: f64, salt: &str) -> String {
        let mut state = self.stream(now_ms, salt);
        let a = splitmix64(&mut state);
        let b = splitmix64(&mut state) >> 32;
        format!("ent_{a:016x}{b:08x}")
    }

    /// A UUID-shaped id (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`).
    pub(crate) fn uuid(&mut self, now_ms: f64, salt: &str) -> String {
        let mut state = self.stream(now_ms, salt);
        let hi = splitmix64(&mut state);
        let lo = splitmix64(&mut state);
        uuid_v4(((u128::from(hi) << 64) | u128::from(lo)).to_be_bytes())
    }
}

/// `ent_` followed by 24 lowercase hex digits.
pub(crate) fn looks_like_entity_id(text: &str) -> bool {
    match text.strip_prefix("ent_") {
        Some(rest) => {
            rest.len() == 24
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn shapes() {
        let mut ids = IdGen::default();
        let e = ids.entity_id(1.0, "company:acme");
        assert!(looks_like_entity_id(&e), "{e}");
        let u = ids.uuid(1.0, "obs");
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'));
        assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
    }

    #[test]
    fn distinct_and_deterministic() {
        let mut a = IdGen::default();
        let mut b = IdGen::default();
        let mut seen = HashSet::new();
        for i in 0..10_000 {
            let x = a.entity_id(5.0, "same");
            assert_eq!(x, b.entity_id(5.0, "same"));
            assert!(seen.insert(x), "duplicate at {i}");
        }
        assert!(!looks_like_entity_id("ent_000"));
        assert!(!looks_like_entity_id("ent_AF939BEDAFBD1838B259772A"));
        assert!(looks_like_entity_id("ent_000000000000000000000000"));
    }
}
