// `neotoma-agent-wasm/glue` is the raw wasm-bindgen module: its types are the generated ones
// alone, so what it does not export at run time does not type-check either.
import init, { initSync, NeotomaAgent } from "neotoma-agent-wasm/glue";
// @ts-expect-error the raw glue does not export the proxy (the entries do)
import { createNeotomaProxy } from "neotoma-agent-wasm/glue";

async function start(wasmUrl: URL): Promise<NeotomaAgent> {
  await init({ module_or_path: wasmUrl });
  return new NeotomaAgent({ conversationId: "c1" });
}
void [start, initSync, createNeotomaProxy];
