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
