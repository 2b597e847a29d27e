//! Deterministic keys: turn keys resolve a message to one entity, idempotency keys collapse a
//! replayed store onto one observation. Shapes match the upstream TypeScript SDK so either SDK's
//! replay of a turn lands on the same observation.

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            _ => None,
        }
    }
}

/// `{conversation_id}:{turn_id}` for the user message, `…:assistant` for the reply.
pub fn turn_key(conversation_id: &str, turn_id: &str, role: Role) -> String {
    match role {
        Role::User => format!("{conversation_id}:{turn_id}"),
        Role::Assistant => format!("{conversation_id}:{turn_id}:assistant"),
    }
}

/// `conversation-{conversation_id}-{turn_id}-{role}-turn`, the upstream SDK's shape.
pub fn idempotency_key(conversation_id: &str, turn_id: &str, role: Role) -> String {
    format!(
        "conversation-{conversation_id}-{turn_id}-{}-turn",
        role.as_str()
    )
}

/// `remember-{conversation_id}-{hash}`: the key of a `remember()` store, derived from the JSON
/// of the entities it stores (64-bit FNV-1a, hex), so storing the same entities again replays.
pub fn remember_key(conversation_id: &str, entities_json: &str) -> String {
    format!(
        "remember-{conversation_id}-{:016x}",
        text_hash(entities_json)
    )
}

/// A 64-bit FNV-1a hash of `text`: what an agent keeps of a message it sent, to tell later
/// whether the stored text is byte for byte the same (`verifyTurn`).
pub fn text_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

/// The key of revision `n` of a message stored under `key`: `key` itself for the first, else
/// `{key}-v{n}` (a deliberate regeneration gets its own key, so the store replaces the text).
pub fn revision_key(key: &str, n: u32) -> String {
    if n > 1 {
        format!("{key}-v{n}")
    } else {
        key.to_owned()
    }
}

/// Which revision of its message a key of [`revision_key`]'s shape stands for (1 when it has
/// no `-turn-v{n}` ending).
pub fn revision_of(key: &str) -> u32 {
    key.rsplit_once("-turn-v")
        .and_then(|(_, n)| n.parse().ok())
        .unwrap_or(1)
}

/// Formats 16 random bytes as an RFC 4122 version-4 UUID (version and variant bits set).
pub fn uuid_v4(random: [u8; 16]) -> String {
    uuid::Builder::from_random_bytes(random)
        .into_uuid()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_round_trip_through_their_keys() {
        let key = idempotency_key("c-v2", "t-v3", Role::Assistant);
        assert_eq!(revision_key(&key, 1), key);
        assert_eq!(
            revision_of(&key),
            1,
            "ids that contain -v are not revisions"
        );
        for n in [2, 3, 17] {
            assert_eq!(revision_of(&revision_key(&key, n)), n);
        }
    }

    #[test]
    fn keys_have_the_upstream_shapes() {
        assert_eq!(turn_key("c1", "t1", Role::User), "c1:t1");
        assert_eq!(turn_key("c1", "t1", Role::Assistant), "c1:t1:assistant");
        assert_eq!(
            idempotency_key("c1", "t1", Role::User),
            "conversation-c1-t1-user-turn"
        );
        assert_eq!(
            idempotency_key("c1", "t1", Role::Assistant),
            "conversation-c1-t1-assistant-turn"
        );
    }

    #[test]
    fn uuid_v4_sets_version_and_variant() {
        let u = uuid_v4([0xff; 16]);
        assert_eq!(u, "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let z = uuid_v4([0; 16]);
        assert_eq!(z, "00000000-0000-4000-8000-000000000000");
    }
}
