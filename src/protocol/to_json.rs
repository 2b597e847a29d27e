//! Results, the LLM's context and events as JSON: camelCase members in field order (what the
//! serde derives wrote before), which is the order JS sees them in.

use super::events::AgentEvent;
use super::response::RetrievedEntity;
use super::turn::{
    CloseTurnResult, FailedWrite, FlushResult, OpenTurnResult, PerMessage, TurnContext, TurnResult,
};
use crate::json::{ToJson, Writer};

impl ToJson for RetrievedEntity {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("id", &self.id)
            .field("entity_type", &self.entity_type)
            .field("canonical_name", &self.canonical_name)
            .field("snapshot", &self.snapshot)
            .field("identifier", &self.identifier)
            .end();
    }
}

impl ToJson for TurnContext {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("retrieved", &self.retrieved)
            .field("retrievedEntityIds", &self.retrieved_entity_ids)
            .field("turnId", &self.turn_id)
            .field("turnNumber", &self.turn_number)
            .field("conversationId", &self.conversation_id)
            .end();
    }
}

impl ToJson for OpenTurnResult {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("turnId", &self.turn_id)
            .field("turnNumber", &self.turn_number)
            .field("conversationEntityId", &self.conversation_entity_id)
            .field("userMessageEntityId", &self.user_message_entity_id)
            .field("retrieved", &self.retrieved)
            .field("retrievedEntityIds", &self.retrieved_entity_ids)
            .field("replayed", &self.replayed)
            .field("pending", &self.pending)
            .field("storeWarnings", &self.store_warnings)
            .end();
    }
}

impl ToJson for CloseTurnResult {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("turnId", &self.turn_id)
            .field_if_some("turnNumber", self.turn_number.as_ref().map(|n| n as _))
            .field("conversationEntityId", &self.conversation_entity_id)
            .field(
                "assistantMessageEntityId",
                &self.assistant_message_entity_id,
            )
            .field("refersTo", &self.refers_to)
            .field("replayed", &self.replayed)
            .field("pending", &self.pending)
            .field("storeWarnings", &self.store_warnings)
            .end();
    }
}

impl ToJson for PerMessage {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("user", &self.user)
            .field("assistant", &self.assistant)
            .end();
    }
}

impl ToJson for TurnResult {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("assistantMessage", &self.assistant_message)
            .field("turnId", &self.turn_id)
            .field("turnNumber", &self.turn_number)
            .field("conversationEntityId", &self.conversation_entity_id)
            .field("userMessageEntityId", &self.user_message_entity_id)
            .field(
                "assistantMessageEntityId",
                &self.assistant_message_entity_id,
            )
            .field("retrieved", &self.retrieved)
            .field("retrievedEntityIds", &self.retrieved_entity_ids)
            .field("refersTo", &self.refers_to)
            .field("replayed", &self.replayed)
            .field("pending", &self.pending)
            .field("storeWarnings", &self.store_warnings)
            .end();
    }
}

impl ToJson for FlushResult {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("flushed", &self.flushed)
            .field("pending", &self.pending)
            .field("failed", &self.failed)
            .field("superseded", &self.superseded)
            .end();
    }
}

impl ToJson for FailedWrite {
    fn write_json(&self, w: &mut Writer) {
        w.object()
            .field("idempotencyKey", &self.idempotency_key)
            .field("turnId", &self.turn_id)
            .field("role", &self.role)
            .field("code", &self.code)
            .field("message", &self.message)
            .end();
    }
}

/// `{ "type": "retry", … }`: the variant name, camelCase, then its fields.
impl ToJson for AgentEvent {
    fn write_json(&self, w: &mut Writer) {
        let object = w.object();
        match self {
            AgentEvent::Retry {
                path,
                attempt,
                delay_ms,
                code,
                status,
            } => object
                .field("type", &"retry")
                .field("path", path)
                .field("attempt", attempt)
                .field("delayMs", delay_ms)
                .field("code", code)
                .field_if_some("status", status.as_ref().map(|s| s as _)),
            AgentEvent::WritePending {
                turn_id,
                role,
                idempotency_key,
                code,
                message,
                pending,
            } => object
                .field("type", &"writePending")
                .field("turnId", turn_id)
                .field("role", role)
                .field("idempotencyKey", idempotency_key)
                .field("code", code)
                .field("message", message)
                .field("pending", pending),
            AgentEvent::WriteFlushed {
                turn_id,
                role,
                idempotency_key,
                replayed,
                pending,
            } => object
                .field("type", &"writeFlushed")
                .field("turnId", turn_id)
                .field("role", role)
                .field("idempotencyKey", idempotency_key)
                .field("replayed", replayed)
                .field("pending", pending),
            AgentEvent::WriteFailed {
                turn_id,
                role,
                idempotency_key,
                code,
                message,
                status,
            } => object
                .field("type", &"writeFailed")
                .field("turnId", turn_id)
                .field("role", role)
                .field("idempotencyKey", idempotency_key)
                .field("code", code)
                .field("message", message)
                .field_if_some("status", status.as_ref().map(|s| s as _)),
            AgentEvent::WriteSuperseded {
                turn_id,
                role,
                idempotency_key,
                message,
            } => object
                .field("type", &"writeSuperseded")
                .field("turnId", turn_id)
                .field("role", role)
                .field("idempotencyKey", idempotency_key)
                .field("code", &"IDEMPOTENCY_MISMATCH")
                .field("message", message),
            AgentEvent::Drain {
                flushed,
                failed,
                superseded,
                pending,
                next_attempt_ms,
            } => object
                .field("type", &"drain")
                .field("flushed", flushed)
                .field("failed", failed)
                .field("superseded", superseded)
                .field("pending", pending)
                .field_if_some("nextAttemptMs", next_attempt_ms.as_ref().map(|n| n as _)),
        }
        .end();
    }
}
