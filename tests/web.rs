//! The JS surface, run by wasm-bindgen-test in Node, in headless Chromium and in a dedicated
//! worker (no `window`). Not configured with `run_in_browser`, so the runner's environment
//! variables pick where it runs.
#![cfg(target_arch = "wasm32")]

use js_sys::{Function, Object, Promise, Reflect};
use serde_json::json;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

use neotoma_agent_wasm::bindings::agent::NeotomaAgent;
use neotoma_agent_wasm::bindings::store::EmbeddedStoreJs;
use neotoma_agent_wasm::bindings::{extract_identifiers_js, idempotency_key_js};

fn js(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |acc, k| {
        Reflect::get(&acc, &JsValue::from_str(k)).unwrap()
    })
}

fn s(v: &JsValue, path: &str) -> String {
    get(v, path).as_string().unwrap_or_default()
}

/// A store seeded with a few entities, shared as the agent's transport.
fn seeded_store() -> EmbeddedStoreJs {
    let store = EmbeddedStoreJs::new();
    for (t, name) in [
        ("company", "Acme Corp"),
        ("project", "Project Falcon"),
        ("person", "Sarah Chen"),
    ] {
        let r = store
            .handle("POST".into(), "/store".into(), js(json!({"entities":[{"entity_type": t, "name": name}], "idempotency_key": format!("seed-{name}")})),
            )
            .unwrap();
        assert_eq!(get(&r, "status").as_f64(), Some(200.0));
    }
    store
}

fn agent_on(store: &EmbeddedStoreJs, extra: Value) -> NeotomaAgent {
    let options = js(json!({"conversationId": "c-web"}));
    let _ = Object::assign(
        options.unchecked_ref::<Object>(),
        js(extra).unchecked_ref::<Object>(),
    );
    Reflect::set(
        &options,
        &"transport".into(),
        &JsValue::from(store.clone_handle()),
    )
    .unwrap();
    NeotomaAgent::new(options).unwrap()
}

async fn settle(p: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(p).await
}

fn llm(body: &str) -> JsValue {
    Function::new_with_args("userMessage, ctx", body).into()
}

#[wasm_bindgen_test]
async fn a_turn_retrieves_stores_and_cites() {
    let store = seeded_store();
    let before = store.entity_count();
    let agent = agent_on(&store, json!({}));
    let reply = llm("return 'About ' + ctx.retrieved.filter(e => e.entity_type === 'company').map(e => e.snapshot.name).join(', ') + ' (turn ' + ctx.turnId + ')';");
    let result = settle(agent.turn(
        JsValue::from_str("Tell me about Acme Corp and \"Project Falcon\""),
        reply,
        js(json!({"turnId": "t1"})),
    ))
    .await
    .unwrap();
    assert_eq!(s(&result, "assistantMessage"), "About Acme Corp (turn t1)");
    assert_eq!(s(&result, "turnId"), "t1");
    assert_eq!(get(&result, "turnNumber").as_f64(), Some(1.0));
    let retrieved: js_sys::Array = get(&result, "retrievedEntityIds").unchecked_into();
    assert_eq!(
        retrieved.length(),
        2,
        "Acme Corp and Project Falcon are found"
    );
    // cited mode: the assistant refers only to the company its reply names
    let refers: js_sys::Array = get(&result, "refersTo").unchecked_into();
    assert_eq!(refers.length(), 1);
    assert_eq!(get(&result, "replayed.user").as_bool(), Some(false));
    // conversation + 2 messages were added
    assert_eq!(store.entity_count(), before + 3);

    // the turn index of the store shows the turn: company stored, project retrieved
    let index = store
        .handle(
            "GET".into(),
            "/conversations/c-web/turn-index".into(),
            JsValue::UNDEFINED,
        )
        .unwrap();
    let turns: js_sys::Array = get(&index, "body.turns").unchecked_into();
    assert_eq!(turns.length(), 2);

    // replaying the same turn id writes nothing and returns the same ids
    let again = settle(agent.turn(
        JsValue::from_str("Tell me about Acme Corp and \"Project Falcon\""),
        llm("return 'About Acme Corp (turn t1)';"),
        js(json!({"turnId": "t1"})),
    ))
    .await
    .unwrap();
    assert_eq!(store.entity_count(), before + 3);
    assert_eq!(
        s(&again, "userMessageEntityId"),
        s(&result, "userMessageEntityId")
    );
    assert_eq!(
        s(&again, "assistantMessageEntityId"),
        s(&result, "assistantMessageEntityId")
    );
    assert_eq!(get(&again, "replayed.user").as_bool(), Some(true));
    assert_eq!(get(&again, "replayed.assistant").as_bool(), Some(true));
}

#[wasm_bindgen_test]
async fn the_default_transport_is_an_embedded_store_and_turn_ids_are_uuids() {
    let agent = NeotomaAgent::new(js(json!({"conversationId": "c-default"}))).unwrap();
    let a = settle(agent.turn(
        JsValue::from_str("hello"),
        llm("return 'hi';"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let b = settle(agent.turn(
        JsValue::from_str("hello"),
        llm("return 'hi';"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let (ta, tb) = (s(&a, "turnId"), s(&b, "turnId"));
    assert_eq!(ta.len(), 36);
    assert_ne!(ta, tb, "turn ids never collide");
    assert_eq!(get(&b, "turnNumber").as_f64(), Some(2.0));
    assert_ne!(s(&a, "userMessageEntityId"), s(&b, "userMessageEntityId"));
}

#[wasm_bindgen_test]
async fn a_callback_error_comes_back_unchanged_and_the_user_message_stays() {
    let store = seeded_store();
    let before = store.entity_count();
    let agent = agent_on(&store, json!({}));
    let thrown = js_sys::RangeError::new("model overloaded");
    Reflect::set(&js_sys::global(), &"__neotomaTestError".into(), &thrown).unwrap();
    let err = settle(agent.turn(
        JsValue::from_str("Ask Acme Corp"),
        llm("return Promise.reject(globalThis.__neotomaTestError);"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert!(Object::is(&err, &thrown), "the very same error object");
    // conversation + user message only
    assert_eq!(store.entity_count(), before + 2);

    let sync_throw = settle(agent.turn(
        JsValue::from_str("Ask Acme Corp again"),
        llm("throw globalThis.__neotomaTestError;"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert!(Object::is(&sync_throw, &thrown));
}

#[wasm_bindgen_test]
async fn bad_input_is_refused_before_anything_is_written() {
    let store = seeded_store();
    let before = store.entity_count();
    let agent = agent_on(&store, json!({"maxMessageBytes": 16}));
    let lone = js_sys::JsString::from_char_code1(0xD800);
    let cases: Vec<(JsValue, JsValue)> = vec![
        (lone.into(), JsValue::UNDEFINED),
        (JsValue::from(42), JsValue::UNDEFINED),
        (
            JsValue::from_str("this message is over sixteen bytes"),
            JsValue::UNDEFINED,
        ),
        (JsValue::from_str("ok"), js(json!({"turnId": ""}))),
        (
            JsValue::from_str("ok"),
            js(json!({"turnId": "x".repeat(300)})),
        ),
        (JsValue::from_str("ok"), js(json!({"turnNumber": -1}))),
    ];
    for (message, opts) in cases {
        let err = settle(agent.turn(message, llm("return 'never';"), opts))
            .await
            .unwrap_err();
        assert!(err.is_instance_of::<js_sys::Error>());
        assert_eq!(s(&err, "code"), "INVALID_INPUT", "{}", s(&err, "message"));
        assert_eq!(s(&err, "name"), "NeotomaError");
    }
    assert_eq!(store.entity_count(), before, "nothing was written");

    for bad in [
        json!({}),
        json!({"conversationId": ""}),
        json!({"conversationId": "c", "retrievalLimit": "8"}),
    ] {
        let err = NeotomaAgent::new(js(bad)).err().expect("refused");
        assert_eq!(s(&err, "code"), "INVALID_INPUT");
    }
}

#[wasm_bindgen_test]
async fn http_transport_reports_network_failures_without_the_token() {
    // no retry, no outbox: the failure is the turn's error
    let agent = NeotomaAgent::new(js(json!({
        "conversationId": "c-net",
        "transport": {"baseUrl": "http://127.0.0.1:9", "token": "secret-token-123", "timeoutMs": 5000},
        "retry": false,
        "outbox": false
    })))
    .unwrap();
    let err = settle(agent.turn(
        JsValue::from_str("hello"),
        llm("return 'hi';"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap_err();
    assert_eq!(s(&err, "code"), "NEOTOMA_NETWORK", "{}", s(&err, "message"));
    let text = format!("{} {}", s(&err, "message"), s(&err, "stack"));
    assert!(!text.contains("secret-token-123"));

    // the defaults keep both messages in the outbox and the turn goes on
    let agent = NeotomaAgent::new(js(json!({
        "conversationId": "c-net",
        "transport": {"baseUrl": "http://127.0.0.1:9", "token": "secret-token-123", "timeoutMs": 5000},
        "retry": {"maxAttempts": 1}
    })))
    .unwrap();
    let result = settle(agent.turn(
        JsValue::from_str("hello"),
        llm("return 'hi';"),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let pending = js_sys::Reflect::get(&result, &"pending".into()).unwrap();
    assert_eq!(
        js_sys::JSON::stringify(&pending)
            .unwrap()
            .as_string()
            .unwrap(),
        r#"{"user":true,"assistant":true}"#
    );
    let outbox = settle(agent.pending_writes()).await.unwrap();
    let outbox_text = js_sys::JSON::stringify(&outbox)
        .unwrap()
        .as_string()
        .unwrap();
    assert!(outbox_text.contains("conversation-c-net-"));
    assert!(
        !outbox_text.contains("secret-token-123"),
        "the token is never in the outbox"
    );
}

#[wasm_bindgen_test]
fn exported_helpers() {
    let ids = extract_identifiers_js(JsValue::from_str("Email jane.doe@acme.com about INV-2041"))
        .unwrap();
    assert!(ids.contains(&"jane.doe@acme.com".to_string()));
    assert_eq!(
        idempotency_key_js("c1".into(), "t1".into(), "assistant".into()).unwrap(),
        "conversation-c1-t1-assistant-turn"
    );
    let err = idempotency_key_js("c1".into(), "t1".into(), "system".into()).unwrap_err();
    assert_eq!(s(&err, "code"), "INVALID_INPUT");
}

/// Every JS number comes back as the same number; safe integers are integers in Rust.
#[wasm_bindgen_test]
fn numbers_cross_the_js_boundary_exactly() {
    use neotoma_agent_wasm::transport::js_json::{json_value, to_js};

    let numbers = js_sys::JSON::parse(
        "[0, -0, 7, -12, 0.1, 1.5e-7, 1e21, -2.5, 9007199254740991, 9007199254740992, 1.7976931348623157e308, 5e-324]",
    )
    .unwrap();
    let value = json_value(&numbers, "numbers").unwrap();
    let texts: Vec<String> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(texts[..4], ["0", "0", "7", "-12"]);
    assert_eq!(texts[8], "9007199254740991");
    let back = to_js(&value);
    let same: js_sys::Array = back.unchecked_into();
    let original: js_sys::Array = numbers.unchecked_into();
    for i in 0..original.length() {
        assert!(
            Object::is(&same.get(i), &original.get(i)) || i == 1,
            "index {i}"
        );
    }
    assert_eq!(value[4].as_f64(), Some(0.1));
    assert_eq!(value[10].as_f64(), Some(f64::MAX));
    // An integer a JS number cannot hold exactly is refused as a whole, as before.
    let big: Value = serde_json::from_str(r#"{"id": 9007199254740993}"#).unwrap();
    assert!(to_js(&big).is_null());
}

/// A refused JS value is named by its path; values that are JSON convert whole.
#[wasm_bindgen_test]
fn a_refused_value_is_named_by_its_path() {
    use neotoma_agent_wasm::transport::js_json::json_value;

    let make = |body: &str| {
        js_sys::Function::new_no_args(&format!("return {body};"))
            .call0(&JsValue::NULL)
            .unwrap()
    };
    let refused = |body: &str| json_value(&make(body), "extra").unwrap_err();
    assert_eq!(
        refused("{ a: [1, { b: NaN }] }"),
        "extra.a[1].b is NaN or Infinity, which JSON cannot hold"
    );
    assert_eq!(
        refused(r#"{ a: [{ "\ud800": 1 }] }"#),
        "a key in extra.a[0] contains a lone UTF-16 surrogate; it would be stored changed"
    );
    assert!(refused("{ when: new Date(0) }").starts_with("extra.when is not a JSON value"));
    assert!(refused("[undefined]").starts_with("extra[0] is not a JSON value"));
    let value = json_value(
        &make("{ a: [1, 'x', null, { b: true }], skipped: undefined }"),
        "extra",
    );
    assert_eq!(
        value.unwrap(),
        serde_json::json!({ "a": [1, "x", null, { "b": true }] })
    );
}
