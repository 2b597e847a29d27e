//! `verifyTurn()` and `repairTurn()`: a turn read back from the store, not taken on trust.
//!
//! ```text
//! verify: each message found by its exact turn key (its text, turn number) → its outbound
//!         edges (/retrieve_related_entities) → a diagnosis per check; writes of the turn still
//!         in the outbox are warnings
//! repair: the outbox flushed; a missing message stored again under its original key (its text
//!         from the caller, or the outbox); missing PART_OF / REFERS_TO edges created
//!         (/create_relationships is idempotent per pair) → verify again
//! ```
//! What a turn meant (the text of each message, what each refers to) is what this agent sent,
//! or, for a turn made by another agent or process, what the caller says: then the texts are
//! checked, and the edges only for being there.

use serde::Serialize;

use super::{Agent, Request, REMEMBER_ROLE};
use crate::protocol::error::Error;
use crate::protocol::keys::{text_hash, turn_key, Role};
use crate::protocol::outbox::{OutboxStorage, PendingWrite};
use crate::protocol::payload::{
    outbound_request, relationships_request, retrieve_typed_request, stored_message_request,
    Message,
};
use crate::protocol::response::{parse_stored_message, StoredMessage};
use crate::transport::Transport;
use serde_json::Value;

use super::Runtime;

/// Which turn, and (for a turn this agent did not make) what it said.
#[derive(Debug, Clone, Default)]
pub struct VerifyInput {
    pub turn_id: String,
    pub user_message: Option<String>,
    pub reply: Option<String>,
}

/// One check of a turn, shaped like the upstream SDK's `Diagnosis`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnosis {
    /// Stable: `user_message.stored`, `assistant_message.refers_to`, `outbox.pending`, …
    pub id: String,
    /// `ok`, `warn` or `error`.
    pub severity: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_repair: Option<String>,
}

/// One thing `repairTurn` did (or could not do).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// The diagnosis it answers.
    pub id: String,
    /// `flushed`, `stored_message`, `created_relationships` or `skipped`.
    pub action: &'static str,
    pub message: String,
}

/// What `repairTurn` did, and the turn as read back afterwards.
#[derive(Debug, Clone, Serialize)]
pub struct TurnRepairs {
    pub repairs: Vec<Repair>,
    pub diagnoses: Vec<Diagnosis>,
}

/// One message of the turn as the store holds it.
struct Found {
    message: StoredMessage,
    /// Its outbound edges: (type, target id). `None` when they could not be read.
    edges: Option<Vec<(String, String)>>,
    /// Its PART_OF target when that is this conversation's entity.
    conversation: Option<String>,
}

impl Found {
    /// The REFERS_TO targets `meant` has that the store lacks (none when its edges are unread
    /// or what it meant is unknown).
    fn missing_refers_to(&self, meant: &Meant) -> Vec<String> {
        let Some(edges) = &self.edges else {
            return Vec::new();
        };
        meant
            .refers_to
            .iter()
            .flatten()
            .filter(|target| {
                !edges
                    .iter()
                    .any(|(t, to)| t == "REFERS_TO" && to == *target)
            })
            .cloned()
            .collect()
    }
}

/// What a message should be, as far as this agent or the caller knows.
struct Meant {
    role: Role,
    text: Option<String>,
    text_hash: Option<u64>,
    turn_number: Option<u32>,
    refers_to: Option<Vec<String>>,
}

impl Meant {
    fn label(&self) -> &'static str {
        match self.role {
            Role::User => "user_message",
            Role::Assistant => "assistant_message",
        }
    }
}

impl<T: Transport, R: Runtime, S: OutboxStorage> Agent<T, R, S> {
    /// Reads the turn back from the store: one diagnosis per check, `ok` when it holds.
    pub async fn verify_turn(&self, input: &VerifyInput) -> Result<Vec<Diagnosis>, Error> {
        crate::protocol::validate::check_id("turnId", &input.turn_id)?;
        let meant = self.meant(input);
        let pending = self.pending_of(&input.turn_id).await;
        let mut diagnoses = Vec::new();
        for meant in &meant {
            let found = self.read_back(&input.turn_id, meant.role).await?;
            let queued = pending.iter().any(|w| w.role == meant.role.as_str());
            diagnoses.extend(diagnose(meant, found.as_ref(), queued));
        }
        diagnoses.push(if pending.is_empty() {
            ok(
                "outbox.pending",
                "no write of this turn waits in the outbox",
            )
        } else {
            Diagnosis {
                id: "outbox.pending".into(),
                severity: "warn",
                message: format!(
                    "{} write(s) of this turn wait in the outbox: {}",
                    pending.len(),
                    pending
                        .iter()
                        .map(|w| w.idempotency_key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                suggested_repair: Some("flush the outbox".into()),
            }
        });
        Ok(diagnoses)
    }

    /// Applies the repairs `verify_turn` suggests, idempotently (a second call finds nothing to
    /// do), and reads the turn back again.
    pub async fn repair_turn(&self, input: &VerifyInput) -> Result<TurnRepairs, Error> {
        let before = self.verify_turn(input).await?;
        let needs = |id: &str| {
            before
                .iter()
                .any(|d| d.id == id && d.severity != "ok" && d.suggested_repair.is_some())
        };
        let mut repairs = Vec::new();
        if needs("outbox.pending") {
            // a flush the timer is sending would make this pass only count: wait for it
            self.flush_idle().await;
            let flushed = self.flush_pass(&self.config.retry, None).await?;
            repairs.push(Repair {
                id: "outbox.pending".into(),
                action: "flushed",
                message: format!(
                    "sent {} waiting write(s); {} still wait",
                    flushed.flushed, flushed.pending
                ),
            });
        }
        let meant = self.meant(input);
        let mut conversation = None;
        for meant in &meant {
            let label = meant.label();
            let mut found = self.read_back(&input.turn_id, meant.role).await?;
            // not stored, and not (or no longer) waiting in the outbox: store it again
            if found.is_none() && !self.queued(&input.turn_id, meant.role).await {
                let stored_id = format!("{label}.stored");
                repairs.push(self.store_again(&input.turn_id, meant, stored_id).await);
                found = self.read_back(&input.turn_id, meant.role).await?;
            }
            let Some(found) = found else {
                continue;
            };
            conversation = conversation.or(found.conversation.clone());
            if found.edges.is_none() {
                continue;
            }
            let mut part_of = Vec::new();
            if found.conversation.is_none() {
                if conversation.is_none() {
                    conversation = self.conversation_entity().await;
                }
                part_of.extend(conversation.clone());
            }
            // one request per edge type: a same-origin proxy may take REFERS_TO from a message
            // and refuse PART_OF, and one refusal must not cost the other edges
            let mut created = 0;
            let mut failures = Vec::new();
            for (kind, targets) in [
                ("REFERS_TO", found.missing_refers_to(meant)),
                ("PART_OF", part_of),
            ] {
                if targets.is_empty() {
                    continue;
                }
                let body = relationships_request(kind, &found.message.entity_id, &targets);
                match self
                    .send(Request::CreateRelationships, &body, &self.config.retry)
                    .await
                {
                    Ok(_) => created += targets.len(),
                    Err(e) => {
                        failures.push(format!("{} edge(s) failed: {}", targets.len(), e.message))
                    }
                }
            }
            if created == 0 && failures.is_empty() {
                continue;
            }
            let mut message = format!("created {created} missing edge(s) of the {label}");
            if !failures.is_empty() {
                message = format!("{message}; {}", failures.join("; "));
            }
            repairs.push(Repair {
                id: format!("{label}.edges"),
                action: if created > 0 {
                    "created_relationships"
                } else {
                    "skipped"
                },
                message,
            });
        }
        let diagnoses = self.verify_turn(input).await?;
        Ok(TurnRepairs { repairs, diagnoses })
    }

    /// What each message of the turn should be: this agent's record of it, else the caller's.
    fn meant(&self, input: &VerifyInput) -> [Meant; 2] {
        let known = self.turns.borrow().get(&input.turn_id).cloned();
        let given_hash = |text: &Option<String>| text.as_deref().map(text_hash);
        let user = Meant {
            role: Role::User,
            text: input.user_message.clone(),
            text_hash: given_hash(&input.user_message).or(known.as_ref().and_then(|t| t.user_text)),
            turn_number: known.as_ref().map(|t| t.turn_number),
            refers_to: known
                .as_ref()
                .filter(|t| t.user_text.is_some())
                .map(|t| t.retrieved.iter().map(|e| e.id.clone()).collect()),
        };
        let reply = known.as_ref().and_then(|t| t.reply.clone());
        let assistant = Meant {
            role: Role::Assistant,
            text: input.reply.clone(),
            text_hash: given_hash(&input.reply).or(reply.as_ref().map(|r| r.text)),
            turn_number: known.as_ref().map(|t| t.turn_number),
            refers_to: reply.map(|r| r.refers_to),
        };
        [user, assistant]
    }

    /// The turn's writes waiting in the outbox.
    async fn pending_of(&self, turn_id: &str) -> Vec<PendingWrite> {
        self.outbox
            .writes()
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|w| w.turn_id == turn_id && w.role != REMEMBER_ROLE)
            .collect()
    }

    async fn queued(&self, turn_id: &str, role: Role) -> bool {
        self.pending_of(turn_id)
            .await
            .iter()
            .any(|w| w.role == role.as_str())
    }

    /// One message as the store holds it: found by its exact turn key, with its outbound edges.
    async fn read_back(&self, turn_id: &str, role: Role) -> Result<Option<Found>, Error> {
        let key = turn_key(self.conversation_id(), turn_id, role);
        let answer = self
            .send(
                Request::Retrieve,
                &stored_message_request(&key),
                &self.config.retry,
            )
            .await?;
        let Some(message) = parse_stored_message(&answer, &key) else {
            return Ok(None);
        };
        let related = self
            .send(
                Request::RetrieveRelated,
                &outbound_request(&message.entity_id),
                &self.config.retry,
            )
            .await
            .ok();
        let edges = related.as_ref().map(|r| {
            r["relationships"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| e["source_entity_id"] == message.entity_id.as_str())
                .filter_map(|e| {
                    Some((
                        e["relationship_type"].as_str()?.to_owned(),
                        e["target_entity_id"].as_str()?.to_owned(),
                    ))
                })
                .collect::<Vec<_>>()
        });
        let conversation = edges.iter().flatten().find_map(|(t, target)| {
            let is_ours = related.as_ref()?["entities"]
                .as_array()?
                .iter()
                .any(|e| e["id"] == target.as_str() && self.is_own_conversation(e));
            (t == "PART_OF" && is_ours).then(|| target.clone())
        });
        Ok(Some(Found {
            message,
            edges,
            conversation,
        }))
    }

    /// Whether an entity row of an answer is this conversation (by its canonical name).
    fn is_own_conversation(&self, entity: &Value) -> bool {
        entity["canonical_name"]
            .as_str()
            .and_then(|c| c.strip_prefix("conversation:"))
            == Some(self.conversation_id())
    }

    /// This conversation's entity, found by its id (a substring match: the exact one counts).
    async fn conversation_entity(&self) -> Option<String> {
        let body = retrieve_typed_request(self.conversation_id(), "conversation", 10);
        let answer = self
            .send(Request::Retrieve, &body, &self.config.retry)
            .await
            .ok()?;
        answer["entities"]
            .as_array()?
            .iter()
            .find(|e| self.is_own_conversation(e))
            .and_then(|e| e["id"].as_str())
            .map(str::to_owned)
    }

    /// A missing message stored again under its original key, with the edges it meant.
    async fn store_again(&self, turn_id: &str, meant: &Meant, id: String) -> Repair {
        let Some(text) = &meant.text else {
            return Repair {
                id,
                action: "skipped",
                message: format!(
                    "the {} is not stored and its text is not known here: pass it to repairTurn",
                    meant.label()
                ),
            };
        };
        let refers_to = meant.refers_to.clone().unwrap_or_default();
        let message = Message {
            role: meant.role,
            turn_id,
            content: text,
            turn_number: meant.turn_number,
            extra: None,
            refers_to: &refers_to,
            produced: &[],
        };
        match self
            .store_message(self.pending_write(&message, None), false)
            .await
        {
            Ok(_) => Repair {
                id,
                action: "stored_message",
                message: format!("stored the {} under its original key", meant.label()),
            },
            Err(e) => Repair {
                id,
                action: "skipped",
                message: format!("storing the {} failed: {}", meant.label(), e.message),
            },
        }
    }
}

/// The checks of one message.
fn diagnose(meant: &Meant, found: Option<&Found>, queued: bool) -> Vec<Diagnosis> {
    let label = meant.label();
    let id = |check: &str| format!("{label}.{check}");
    let Some(found) = found else {
        return vec![Diagnosis {
            id: id("stored"),
            severity: if queued { "warn" } else { "error" },
            message: if queued {
                format!("the {label} is not stored yet: it waits in the outbox")
            } else {
                format!("the {label} is not in the store")
            },
            suggested_repair: Some(if queued {
                "flush the outbox".into()
            } else {
                format!("store the {label} again under its original key")
            }),
        }];
    };
    let mut out = vec![ok(&id("stored"), &format!("the {label} is stored"))];
    out.push(match meant.text_hash {
        None => ok(&id("content"), "the text is not known here: not compared"),
        Some(hash) if hash == text_hash(&found.message.content) => ok(
            &id("content"),
            "the stored text is byte for byte what was sent",
        ),
        Some(_) => Diagnosis {
            id: id("content"),
            severity: "error",
            message: format!("the stored text of the {label} differs from what was sent"),
            suggested_repair: None,
        },
    });
    let stored_number = found.message.turn_number;
    out.push(match (meant.turn_number, stored_number) {
        (_, None) => Diagnosis {
            id: id("turn_number"),
            severity: "warn",
            message: format!("the {label} has no turn_number"),
            suggested_repair: None,
        },
        (Some(want), Some(have)) if u64::from(want) != have => Diagnosis {
            id: id("turn_number"),
            severity: "warn",
            message: format!("the {label} has turn_number {have}, not {want}"),
            suggested_repair: None,
        },
        (_, Some(have)) => ok(&id("turn_number"), &format!("turn_number {have}")),
    });
    if found.edges.is_none() {
        out.push(Diagnosis {
            id: id("edges"),
            severity: "warn",
            message: format!("the {label}'s edges could not be read"),
            suggested_repair: None,
        });
        return out;
    }
    out.push(if found.conversation.is_some() {
        ok(&id("part_of"), "PART_OF this conversation")
    } else {
        Diagnosis {
            id: id("part_of"),
            severity: "error",
            message: format!("the {label} is not PART_OF this conversation"),
            suggested_repair: Some("create the PART_OF edge".into()),
        }
    });
    let missing = found.missing_refers_to(meant);
    out.push(match &meant.refers_to {
        None => ok(
            &id("refers_to"),
            "what it should refer to is not known here: not compared",
        ),
        Some(_) if missing.is_empty() => ok(&id("refers_to"), "every REFERS_TO edge is there"),
        Some(_) => Diagnosis {
            id: id("refers_to"),
            severity: "error",
            message: format!("the {label} lacks REFERS_TO {}", missing.join(", ")),
            suggested_repair: Some("create the missing REFERS_TO edges".into()),
        },
    });
    out
}

fn ok(id: &str, message: &str) -> Diagnosis {
    Diagnosis {
        id: id.to_owned(),
        severity: "ok",
        message: message.to_owned(),
        suggested_repair: None,
    }
}
