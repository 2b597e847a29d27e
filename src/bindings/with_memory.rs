//! `withMemory(agentFn, options)`: the upstream `@neotoma/agent` wrapper contract. Each call of
//! the returned function runs one turn; `wrapped.memory` is the `NeotomaAgent` behind it.

use js_sys::{Function, Promise, Reflect};

use wasm_bindgen::prelude::*;

use super::agent::{drain_in_background, NeotomaAgent};
use super::errors::{thrown, to_js};
use super::js_values::{field, string_arg};
use super::llm::JsLlm;
use crate::platform::spawn_promise;
use crate::protocol::error::Error;
use crate::protocol::turn::TurnOptions;
use crate::transport::js_json::to_js as json_to_js;
use serde_json::json;

#[wasm_bindgen(js_name = withMemory, unchecked_return_type = "WrappedAgent")]
pub fn with_memory(
    #[wasm_bindgen(js_name = agentFn, unchecked_param_type = "LlmCallback")] agent_fn: JsValue,
    #[wasm_bindgen(unchecked_param_type = "WithMemoryOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let agent_fn: Function = agent_fn
        .dyn_into()
        .map_err(|_| to_js(Error::invalid_input("withMemory needs an agent function")))?;
    let next_turn_id: Option<Function> = match field(&options, "nextTurnId") {
        Some(f) => Some(
            f.dyn_into()
                .map_err(|_| to_js(Error::invalid_input("nextTurnId must be a function")))?,
        ),
        None => None,
    };
    let memory = NeotomaAgent::build(&options, &["nextTurnId"])?;
    let agent = memory.shared();

    let wrapped = Closure::<dyn FnMut(JsValue) -> Promise>::new(move |message: JsValue| {
        let message = match string_arg("userMessage", &message) {
            Ok(m) => m,
            Err(e) => return Promise::reject(&to_js(e)),
        };
        let turn_id = match &next_turn_id {
            Some(next) => match next
                .call0(&JsValue::UNDEFINED)
                .map_err(|e| thrown(e, "nextTurnId"))
                .and_then(|id| string_arg("nextTurnId()", &id))
            {
                Ok(id) => Some(id),
                Err(e) => return Promise::reject(&to_js(e)),
            },
            None => None,
        };
        let agent = agent.clone();
        let llm = JsLlm::new(agent_fn.clone(), None, agent.config());
        spawn_promise(async move {
            let result = agent
                .turn(
                    message,
                    &llm,
                    TurnOptions {
                        turn_id,
                        ..TurnOptions::default()
                    },
                )
                .await;
            drain_in_background(&agent);
            let result = result.map_err(to_js)?;
            let out = json!({
                "assistantMessage": result.assistant_message,
                "ctx": {
                    "retrieved": result.retrieved,
                    "retrievedEntityIds": result.retrieved_entity_ids,
                    "turnId": result.turn_id,
                    "turnNumber": result.turn_number,
                    "conversationId": agent.config().conversation.conversation_id,
                },
                "result": result,
            });
            Ok(json_to_js(&out))
        })
    });
    let f = wrapped.into_js_value();
    Reflect::set(&f, &JsValue::from_str("memory"), &JsValue::from(memory))?;
    Ok(f)
}
