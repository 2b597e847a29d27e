// Packaging fixture (workerd, run by Miniflare): a Worker that only proxies. It imports the
// package's `./proxy` subpath, which loads no wasm (the test gives Miniflare no .wasm module).
// The proxy is created on the first request because its settings come from the bindings (env).
import { createNeotomaProxy } from 'neotoma-agent-wasm/proxy';

let proxy;

export default {
  fetch(request, env) {
    proxy ??= createNeotomaProxy({
      upstream: env.NEOTOMA_URL,
      token: env.NEOTOMA_TOKEN,
      basePath: '/neotoma',
      conversationPrefix: env.CONVERSATION_PREFIX,
      allowedOrigins: [env.ALLOWED_ORIGIN],
    });
    return proxy(request);
  },
};
