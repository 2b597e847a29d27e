//! `NeotomaAgent`: options in, protocol turns out, as promises.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;

use super::errors::to_js;
use super::js_values::{
    bool_field, entity_ids, entity_list, field, json_object_field, number_field, options_object,
    required_string, string_arg, string_field, turn_number_field, u32_field,
};
use super::llm::{ignore_rejection, js_extractor, JsLlm};
use super::outbox::{storage_from, JsOutboxStorage};
use super::reply_sink::ReplySink;
use crate::platform::{now_ms, spawn_promise, JsRuntime, Sleep};
use crate::protocol::error::Error;
use crate::protocol::events::AgentEvent;
use crate::protocol::produced::EntityFields;
use crate::protocol::retry::RetryPolicy;
use crate::protocol::turn::{
    Agent, AgentConfig, AssistantRefersTo, CloseTurnInput, OpenTurnInput, Reply, TurnOptions,
    VerifyInput,
};
use crate::store::EmbeddedStore;
use crate::transport::embedded::EmbeddedTransport;
use crate::transport::http::{HttpTransport, DEFAULT_TIMEOUT_MS};
use crate::transport::js_json::to_js as json_to_js;
use crate::transport::js_object::JsObjectTransport;
use crate::transport::{Call, Transport};
use serde::Serialize;
use serde_json::Value;

/// The transport an agent was given.
pub enum AnyTransport {
    Embedded(EmbeddedTransport),
    Http(HttpTransport),
    Js(JsObjectTransport),
}

impl Transport for AnyTransport {
    async fn call(&self, call: Call, body: &Value) -> Result<Value, Error> {
        match self {
            AnyTransport::Embedded(t) => t.call(call, body).await,
            AnyTransport::Http(t) => t.call(call, body).await,
            AnyTransport::Js(t) => t.call(call, body).await,
        }
    }
}

pub type JsAgent = Agent<AnyTransport, JsRuntime, JsOutboxStorage>;

fn transport_from(options: &JsValue) -> Result<AnyTransport, Error> {
    let Some(t) = field(options, "transport") else {
        let store = Rc::new(RefCell::new(EmbeddedStore::new()));
        return Ok(AnyTransport::Embedded(EmbeddedTransport::new(
            store,
            Rc::new(now_ms),
        )));
    };
    if field(&t, "store").is_some_and(|f| f.is_function()) {
        return JsObjectTransport::new(t).map(AnyTransport::Js);
    }
    // Any other object is HTTP settings, checked key by key: a `baseURL` typo or an unset
    // environment variable is named, not reported as a wrong shape.
    if t.is_object() && !t.is_function() && !js_sys::Array::is_array(&t) {
        options_object(
            &t,
            "transport",
            &["baseUrl", "token", "timeoutMs", "allowInsecureHttp"],
        )?;
        let base_url = required_string(&t, "baseUrl", "transport.")?;
        let token = string_field(&t, "token", "transport.")?;
        let timeout = u32_field(&t, "timeoutMs", "transport.")?.unwrap_or(DEFAULT_TIMEOUT_MS);
        let insecure = bool_field(&t, "allowInsecureHttp", "transport.")?.unwrap_or(false);
        return HttpTransport::new(&base_url, token, timeout, insecure).map(AnyTransport::Http);
    }
    Err(Error::invalid_input(
        "transport must be omitted (embedded store), { baseUrl, token?, timeoutMs?, \
         allowInsecureHttp? }, or an object with store, retrieveEntityByIdentifier and \
         createRelationships methods",
    ))
}

/// Everything `AgentOptions` may hold.
const AGENT_OPTIONS: &[&str] = &[
    "conversationId",
    "conversationTitle",
    "platform",
    "retrievalLimit",
    "retrievalTimeoutMs",
    "identifierExtractor",
    "assistantRefersTo",
    "maxMessageBytes",
    "maxProducedEntities",
    "memoryChars",
    "llmTimeoutMs",
    "retry",
    "outbox",
    "overlapUserStore",
    "onEvent",
    "transport",
];

fn config_from(options: &JsValue) -> Result<AgentConfig, Error> {
    if !options.is_object() {
        return Err(Error::invalid_input(
            "NeotomaAgent needs an options object with conversationId",
        ));
    }
    let mut config = AgentConfig::new(required_string(options, "conversationId", "")?);
    config.conversation.title = string_field(options, "conversationTitle", "")?;
    config.conversation.platform = string_field(options, "platform", "")?;
    if let Some(n) = u32_option(options, "retrievalLimit", "", false)? {
        config.retrieval_limit = n as usize;
    }
    set_u32(
        options,
        "retrievalTimeoutMs",
        "",
        false,
        &mut config.retrieval_timeout_ms,
    )?;
    if let Some(n) = number_field(options, "maxMessageBytes", "")? {
        if n < 1.0 {
            return Err(Error::invalid_input("maxMessageBytes must be at least 1"));
        }
        config.max_message_bytes = n as usize;
    }
    config.assistant_refers_to = match string_field(options, "assistantRefersTo", "")?.as_deref() {
        None | Some("cited") => AssistantRefersTo::Cited,
        Some("retrieved") => AssistantRefersTo::Retrieved,
        Some(_) => {
            return Err(Error::invalid_input(
                "assistantRefersTo must be \"cited\" or \"retrieved\"",
            ))
        }
    };
    if let Some(n) = u32_option(options, "maxProducedEntities", "", false)? {
        config.max_produced_entities = n as usize;
    }
    if let Some(n) = u32_option(options, "memoryChars", "", false)? {
        config.memory_chars = n as usize;
    }
    set_u32(
        options,
        "llmTimeoutMs",
        "",
        true,
        &mut config.llm_timeout_ms,
    )?;
    config.retry = retry_policy_from(field(options, "retry"))?;
    config.overlap_user_store = bool_field(options, "overlapUserStore", "")?.unwrap_or(false);
    if let Some(f) = function_field(options, "onEvent")? {
        config.on_event = Some(Box::new(move |event: &AgentEvent| {
            // A listener's failure is its own: it must not fail the turn (nor, if it is async,
            // become an unhandled rejection).
            if let Ok(returned) = f.call1(&JsValue::UNDEFINED, &json_to_js(event)) {
                if let Ok(promise) = returned.dyn_into::<Promise>() {
                    ignore_rejection(&promise);
                }
            }
        }));
    }
    if let Some(f) = function_field(options, "identifierExtractor")? {
        config.extractor = Some(js_extractor(f));
    }
    Ok(config)
}

/// `retry`: omitted (defaults), `false` (one attempt), or `{ maxAttempts, initialDelayMs,
/// maxDelayMs, maxElapsedMs }`.
fn retry_policy_from(option: Option<JsValue>) -> Result<RetryPolicy, Error> {
    let mut policy = RetryPolicy::default();
    let Some(v) = option else {
        return Ok(policy);
    };
    if v.as_bool() == Some(false) {
        return Ok(RetryPolicy::none());
    }
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err(Error::invalid_input(
            "retry must be false or { maxAttempts?, initialDelayMs?, maxDelayMs?, maxElapsedMs? }",
        ));
    }
    options_object(
        &v,
        "retry",
        &[
            "maxAttempts",
            "initialDelayMs",
            "maxDelayMs",
            "maxElapsedMs",
        ],
    )?;
    set_u32(&v, "maxAttempts", "retry.", true, &mut policy.max_attempts)?;
    set_u32(
        &v,
        "initialDelayMs",
        "retry.",
        false,
        &mut policy.initial_delay_ms,
    )?;
    set_u32(&v, "maxDelayMs", "retry.", false, &mut policy.max_delay_ms)?;
    set_u32(
        &v,
        "maxElapsedMs",
        "retry.",
        false,
        &mut policy.max_elapsed_ms,
    )?;
    Ok(policy)
}

/// An integer option (`{path}{key}`); `positive` refuses 0.
fn u32_option(obj: &JsValue, key: &str, path: &str, positive: bool) -> Result<Option<u32>, Error> {
    let n = u32_field(obj, key, path)?;
    if positive && n == Some(0) {
        return Err(Error::invalid_input(format!(
            "{path}{key} must be at least 1"
        )));
    }
    Ok(n)
}

/// [`u32_option`] into `target` when given.
fn set_u32(
    obj: &JsValue,
    key: &str,
    path: &str,
    positive: bool,
    target: &mut u32,
) -> Result<(), Error> {
    if let Some(n) = u32_option(obj, key, path, positive)? {
        *target = n;
    }
    Ok(())
}

/// A callback option.
fn function_field(obj: &JsValue, key: &str) -> Result<Option<Function>, Error> {
    field(obj, key)
        .map(|f| {
            f.dyn_into()
                .map_err(|_| Error::invalid_input(format!("{key} must be a function")))
        })
        .transpose()
}

/// Builds the protocol agent from JS options; `extra_options` are keys a wrapper reads itself
/// (`withMemory`'s `nextTurnId`).
pub fn agent_from(options: &JsValue, extra_options: &[&str]) -> Result<JsAgent, Error> {
    if options.is_object() {
        let mut known = AGENT_OPTIONS.to_vec();
        known.extend_from_slice(extra_options);
        options_object(options, "options", &known)?;
    }
    let mut config = config_from(options)?;
    let transport = transport_from(options)?;
    let storage = match storage_from(field(options, "outbox"))? {
        Some(storage) => storage,
        None => {
            config.outbox_enabled = false;
            JsOutboxStorage::Memory(Default::default())
        }
    };
    Agent::new(config, transport, JsRuntime, storage)
}

/// A protocol call's result as JS, or its error.
type Answer = Result<JsValue, Error>;

/// `result` as JS (the one generic step of answering a call).
fn answer<T: Serialize>(result: Result<T, Error>) -> Answer {
    result.map(|v| json_to_js(&v))
}

/// Runs `work` as a promise; protocol errors become JS errors. Not generic: one state machine
/// wraps every call.
fn promise(work: Pin<Box<dyn Future<Output = Answer>>>) -> Promise {
    spawn_promise(async move { work.await.map_err(to_js) })
}

/// Starts the outbox's own timer when writes wait and it is not running: passes every so often
/// (the server's `Retry-After`, else a growing backoff) until the outbox is empty. The timer
/// holds the agent weakly (a freed agent stops it) and does not keep a Node or Deno process
/// alive: `flush({ untilEmpty: true })` waits for the outbox on purpose. Started only from a
/// call, never at module load (workerd).
pub fn drain_in_background(agent: &Rc<JsAgent>) {
    let Some(first) = agent.start_drain() else {
        return;
    };
    let weak = Rc::downgrade(agent);
    wasm_bindgen_futures::spawn_local(async move {
        let mut wait = first;
        loop {
            Sleep::background(wait).await;
            let Some(agent) = weak.upgrade() else {
                return;
            };
            match agent.drain_pass().await {
                Some(next) => wait = next,
                None => return,
            }
        }
    });
}

/// Default bound on `flush({ untilEmpty: true })`.
const DEFAULT_FLUSH_TIMEOUT_MS: u32 = 60_000;

/// Runs the Neotoma turn protocol for one conversation.
#[wasm_bindgen]
pub struct NeotomaAgent {
    inner: Rc<JsAgent>,
    _online: Option<OnlineListener>,
}

/// Flushes the outbox when a browser comes back online. Holds the agent weakly and is removed
/// when the agent is freed.
struct OnlineListener {
    target: JsValue,
    callback: Closure<dyn FnMut(JsValue)>,
}

impl OnlineListener {
    fn attach(agent: &Rc<JsAgent>) -> Option<OnlineListener> {
        if !agent.config().outbox_enabled {
            return None;
        }
        let target: JsValue = js_sys::global().into();
        // Only where `online` means something: a browser window or worker (`navigator.onLine`).
        let navigator = field(&target, "navigator")?;
        field(&navigator, "onLine").filter(|v| v.as_bool().is_some())?;
        let add: Function = field(&target, "addEventListener")?.dyn_into().ok()?;
        let weak = Rc::downgrade(agent);
        let callback = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
            if let Some(agent) = weak.upgrade() {
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = agent.flush().await; // what happened is reported through onEvent
                });
            }
        });
        add.call2(&target, &JsValue::from_str("online"), callback.as_ref())
            .ok()?;
        Some(OnlineListener { target, callback })
    }
}

impl Drop for OnlineListener {
    fn drop(&mut self) {
        if let Some(remove) =
            field(&self.target, "removeEventListener").and_then(|f| f.dyn_into::<Function>().ok())
        {
            let _ = remove.call2(
                &self.target,
                &JsValue::from_str("online"),
                self.callback.as_ref(),
            );
        }
    }
}

impl NeotomaAgent {
    /// The agent for `options`, which may also hold the `extra_options` of a wrapper.
    pub fn build(options: &JsValue, extra_options: &[&str]) -> Result<NeotomaAgent, JsValue> {
        let agent = Rc::new(agent_from(options, extra_options).map_err(to_js)?);
        Ok(NeotomaAgent {
            _online: OnlineListener::attach(&agent),
            inner: agent,
        })
    }

    pub fn shared(&self) -> Rc<JsAgent> {
        self.inner.clone()
    }

    /// Input already read from JS (or why it could not be): the protocol call as a promise,
    /// or a rejected one. Nothing is sent for bad input.
    fn run<I, Fut>(
        &self,
        parsed: Result<I, Error>,
        work: impl FnOnce(Rc<JsAgent>, I) -> Fut,
    ) -> Promise
    where
        Fut: Future<Output = Answer> + 'static,
    {
        match parsed {
            Ok(input) => {
                let agent = self.inner.clone();
                let work = work(agent.clone(), input);
                promise(Box::pin(async move {
                    let answer = work.await;
                    drain_in_background(&agent);
                    answer
                }))
            }
            Err(e) => Promise::reject(&to_js(e)),
        }
    }
}

#[wasm_bindgen]
impl NeotomaAgent {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentOptions")] options: JsValue,
    ) -> Result<NeotomaAgent, JsValue> {
        NeotomaAgent::build(&options, &[])
    }

    #[wasm_bindgen(getter, js_name = conversationId)]
    pub fn conversation_id(&self) -> String {
        self.inner.config().conversation.conversation_id.clone()
    }

    /// One whole turn: retrieval, the user message, your LLM, the assistant message.
    #[wasm_bindgen(unchecked_return_type = "Promise<TurnResult>")]
    pub fn turn(
        &self,
        #[wasm_bindgen(js_name = userMessage, unchecked_param_type = "string")]
        user_message: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LlmCallback")] llm: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TurnOptions")] opts: JsValue,
    ) -> Promise {
        let parsed = turn_args(&user_message, llm, &opts);
        self.run(parsed, |agent, (message, callback, options)| async move {
            let llm = JsLlm::new(callback, None, agent.config());
            answer(agent.turn(message, &llm, options).await)
        })
    }

    /// A whole turn whose reply streams: returns at once with `{ stream, textStream, done }`.
    /// The streams carry the reply's chunks as the LLM yields them and end when it is complete;
    /// `done` resolves to the `TurnResult` once the reply is stored. If anything fails (bad
    /// input, retrieval/store errors, the LLM's stream erroring midway), both streams error and
    /// `done` rejects with the same error; no assistant message is stored then.
    #[wasm_bindgen(js_name = turnStream, unchecked_return_type = "TurnStream")]
    pub fn turn_stream(
        &self,
        #[wasm_bindgen(js_name = userMessage, unchecked_param_type = "string")]
        user_message: JsValue,
        #[wasm_bindgen(unchecked_param_type = "LlmCallback")] llm: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TurnOptions")] opts: JsValue,
    ) -> Result<JsValue, JsValue> {
        let streams = ReplySink::create()?;
        let sink = streams.sink.clone();
        let parsed = turn_args(&user_message, llm, &opts);
        let agent = self.inner.clone();
        let done = spawn_promise(async move {
            let result = match parsed {
                Ok((message, callback, options)) => {
                    let llm = JsLlm::new(callback, Some(sink.clone()), agent.config());
                    agent.turn(message, &llm, options).await
                }
                Err(e) => Err(e),
            };
            drain_in_background(&agent);
            match result {
                Ok(turn) => {
                    sink.close();
                    Ok(json_to_js(&turn))
                }
                Err(e) => {
                    let error = to_js(e);
                    sink.error(&error);
                    Err(error)
                }
            }
        });
        // The same error reaches stream readers, so a host that only reads the stream must not
        // get an unhandled rejection; awaiting `done` still sees it.
        ignore_rejection(&done);
        let out = Object::new();
        Reflect::set(&out, &JsValue::from_str("stream"), &streams.bytes)?;
        Reflect::set(&out, &JsValue::from_str("textStream"), &streams.text)?;
        Reflect::set(&out, &JsValue::from_str("done"), &done)?;
        Ok(out.into())
    }

    /// Sends the writes kept in the outbox, oldest first (with retries). Resolves to
    /// `{ flushed, pending, failed, superseded }`; writes the server refuses on their merits
    /// are dropped and listed in `failed`, those another instance stored differently meanwhile
    /// in `superseded`. `{ untilEmpty: true, timeoutMs }` keeps trying until the outbox is
    /// empty or the time has passed.
    #[wasm_bindgen(unchecked_return_type = "Promise<FlushResult>")]
    pub fn flush(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "FlushOptions")] options: JsValue,
    ) -> Promise {
        let parsed = (|| {
            options_object(&options, "flush options", &["untilEmpty", "timeoutMs"])?;
            let until_empty = bool_field(&options, "untilEmpty", "")?.unwrap_or(false);
            let timeout = u32_field(&options, "timeoutMs", "")?;
            if timeout.is_some() && !until_empty {
                return Err(Error::invalid_input(
                    "flush options: timeoutMs bounds untilEmpty: pass untilEmpty: true too",
                ));
            }
            Ok(until_empty.then(|| timeout.unwrap_or(DEFAULT_FLUSH_TIMEOUT_MS)))
        })();
        self.run(parsed, |agent, until_empty| async move {
            match until_empty {
                Some(timeout_ms) => answer(agent.flush_until_empty(timeout_ms).await),
                None => answer(agent.flush().await),
            }
        })
    }

    /// The writes waiting in this conversation's outbox, oldest first (bodies and keys; never
    /// the token).
    #[wasm_bindgen(js_name = pendingWrites, unchecked_return_type = "Promise<PendingWrite[]>")]
    pub fn pending_writes(&self) -> Promise {
        self.run(Ok(()), |agent, ()| async move {
            let writes = agent.pending_writes().await?;
            Ok(json_to_js(&writes))
        })
    }

    /// Stores entities on purpose, outside a turn: each is looked up by its identity (name,
    /// title, email) and those not found are stored in one request, keyed by their content, so
    /// calling it twice writes once. One entity in, one result out; an array in, an array out.
    #[wasm_bindgen(unchecked_return_type = "Promise<RememberResult | RememberResult[]>")]
    pub fn remember(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EntityInput | EntityInput[]")] entities: JsValue,
    ) -> Promise {
        let one = entities.is_object() && !js_sys::Array::is_array(&entities);
        let parsed = if one {
            entity_list(&js_sys::Array::of1(&entities), "remember entities")
        } else {
            entity_list(&entities, "remember entities")
        };
        self.run(parsed, move |agent, entities| async move {
            let remembered = agent.remember(entities).await?;
            Ok(if one {
                json_to_js(&remembered.first())
            } else {
                json_to_js(&remembered)
            })
        })
    }

    /// Reads a turn back from the store (its messages by turn key, their text and turn number,
    /// their PART_OF and REFERS_TO edges) and says what holds: one diagnosis per check. For a
    /// turn another agent made, pass `{ turnId, userMessage, reply }` to have the texts checked.
    #[wasm_bindgen(js_name = verifyTurn, unchecked_return_type = "Promise<Diagnosis[]>")]
    pub fn verify_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | VerifyTurnInput")] turn: JsValue,
    ) -> Promise {
        self.run(
            verify_input(&turn, "verifyTurn"),
            |agent, input| async move { answer(agent.verify_turn(&input).await) },
        )
    }

    /// Applies what `verifyTurn` suggests (flushes the outbox, stores a missing message again
    /// under its original key, creates missing edges), idempotently, and reads the turn back.
    #[wasm_bindgen(js_name = repairTurn, unchecked_return_type = "Promise<TurnRepairs>")]
    pub fn repair_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | VerifyTurnInput")] turn: JsValue,
    ) -> Promise {
        self.run(
            verify_input(&turn, "repairTurn"),
            |agent, input| async move { answer(agent.repair_turn(&input).await) },
        )
    }

    /// Retrieval and the user message; call `closeTurn` with the reply.
    #[wasm_bindgen(js_name = openTurn, unchecked_return_type = "Promise<OpenTurnResult>")]
    pub fn open_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "OpenTurnInput")] input: JsValue,
    ) -> Promise {
        let parsed = (|| {
            input_object(
                &input,
                "openTurn input",
                &["turnId", "turnNumber", "userMessage", "userMessageExtra"],
            )?;
            Ok(OpenTurnInput {
                turn_id: string_field(&input, "turnId", "")?,
                turn_number: turn_number_field(&input, "turnNumber")?,
                user_message: message_field(&input, "userMessage")?,
                extra: json_object_field(&input, "userMessageExtra")?,
            })
        })();
        self.run(parsed, |agent, input| async move {
            answer(agent.open_turn(&input).await)
        })
    }

    /// The assistant message of a turn opened with `openTurn`.
    #[wasm_bindgen(js_name = closeTurn, unchecked_return_type = "Promise<CloseTurnResult>")]
    pub fn close_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CloseTurnInput")] input: JsValue,
    ) -> Promise {
        let parsed = (|| {
            input_object(
                &input,
                "closeTurn input",
                &[
                    "turnId",
                    "turnNumber",
                    "assistantMessage",
                    "refersTo",
                    "entities",
                    "assistantMessageExtra",
                    "revision",
                ],
            )?;
            Ok(CloseTurnInput {
                turn_id: required_string(&input, "turnId", "")?,
                turn_number: turn_number_field(&input, "turnNumber")?,
                assistant_message: message_field(&input, "assistantMessage")?,
                refers_to: refers_to_field(&input)?,
                entities: entities_field(&input)?,
                extra: json_object_field(&input, "assistantMessageExtra")?,
                revision: turn_number_field(&input, "revision")?,
            })
        })();
        self.run(parsed, |agent, input| async move {
            answer(agent.close_turn(input).await)
        })
    }

    /// Both messages of a turn that already happened.
    #[wasm_bindgen(js_name = recordTurn, unchecked_return_type = "Promise<TurnResult>")]
    pub fn record_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RecordTurnInput")] input: JsValue,
    ) -> Promise {
        let parsed = (|| {
            input_object(
                &input,
                "recordTurn input",
                &[
                    "turnId",
                    "turnNumber",
                    "userMessage",
                    "assistantMessage",
                    "refersTo",
                    "entities",
                ],
            )?;
            let reply = Reply {
                text: message_field(&input, "assistantMessage")?,
                refers_to: refers_to_field(&input)?,
                entities: entities_field(&input)?,
            };
            Ok((
                string_field(&input, "turnId", "")?,
                turn_number_field(&input, "turnNumber")?,
                message_field(&input, "userMessage")?,
                reply,
            ))
        })();
        self.run(
            parsed,
            |agent, (turn_id, turn_number, user, reply)| async move {
                answer(agent.record_turn(turn_id, turn_number, user, reply).await)
            },
        )
    }
}

type TurnArgs = (String, Function, TurnOptions);

/// `turn`/`turnStream` arguments, checked before anything is sent.
fn turn_args(user_message: &JsValue, llm: JsValue, opts: &JsValue) -> Result<TurnArgs, Error> {
    if opts.is_string() {
        return Err(Error::invalid_input(
            "turn options must be an object: write { turnId: \"…\" }, not the turn id alone",
        ));
    }
    options_object(
        opts,
        "turn options",
        &[
            "turnId",
            "turnNumber",
            "revision",
            "regenerate",
            "overlapUserStore",
        ],
    )?;
    let message = string_arg("userMessage", user_message)?;
    let callback: Function = llm
        .dyn_into()
        .map_err(|_| Error::invalid_input("llm must be a function"))?;
    let options = TurnOptions {
        turn_id: string_field(opts, "turnId", "")?,
        turn_number: turn_number_field(opts, "turnNumber")?,
        revision: turn_number_field(opts, "revision")?,
        regenerate: bool_field(opts, "regenerate", "")?.unwrap_or(false),
        overlap_user_store: bool_field(opts, "overlapUserStore", "")?,
    };
    Ok((message, callback, options))
}

/// A required input object with only known keys.
fn input_object(input: &JsValue, path: &str, known: &[&str]) -> Result<(), Error> {
    if input.is_undefined() || input.is_null() {
        return Err(Error::invalid_input(format!("{path} must be an object")));
    }
    options_object(input, path, known)
}

fn message_field(input: &JsValue, key: &str) -> Result<String, Error> {
    match field(input, key) {
        Some(v) => string_arg(key, &v),
        None => Err(Error::invalid_input(format!("{key} must be a string"))),
    }
}

/// `verifyTurn`/`repairTurn`'s argument: a turn id, or `{ turnId, userMessage?, reply? }`.
fn verify_input(turn: &JsValue, what: &str) -> Result<VerifyInput, Error> {
    if turn.is_string() {
        return Ok(VerifyInput {
            turn_id: string_arg("turnId", turn)?,
            ..VerifyInput::default()
        });
    }
    input_object(
        turn,
        &format!("{what} input"),
        &["turnId", "userMessage", "reply"],
    )?;
    Ok(VerifyInput {
        turn_id: required_string(turn, "turnId", "")?,
        user_message: string_field(turn, "userMessage", "")?,
        reply: string_field(turn, "reply", "")?,
    })
}

fn entities_field(input: &JsValue) -> Result<Vec<EntityFields>, Error> {
    field(input, "entities")
        .map(|v| entity_list(&v, "entities"))
        .transpose()
        .map(Option::unwrap_or_default)
}

fn refers_to_field(input: &JsValue) -> Result<Vec<String>, Error> {
    field(input, "refersTo")
        .map(|v| entity_ids(&v, "refersTo"))
        .transpose()
        .map(Option::unwrap_or_default)
}
