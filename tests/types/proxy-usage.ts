// Compiled with the strict settings of tsconfig.json (make test-types) against pkg/proxy.d.ts and
// its re-export from the main types: the proxy's published types, used and misused.
import { createNeotomaProxy, toNodeHandler, DEFAULT_MAX_BODY_BYTES, type NeotomaProxyHandler, type NeotomaProxyOptions } from "neotoma-agent-wasm/proxy";
import { createNeotomaProxy as fromMain, type NeotomaProxyOptions as MainOptions } from "neotoma-agent-wasm";

const options: NeotomaProxyOptions = {
  upstream: "https://neotoma.example.com",
  token: "secret",
  allowedOrigins: ["https://app.example.com"],
  conversationPrefix: "widget-",
  basePath: "/neotoma",
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  timeoutMs: 10_000,
};
const proxy: NeotomaProxyHandler = createNeotomaProxy(options);
const same: (request: Request) => Promise<Response> = fromMain({ upstream: new URL("http://127.0.0.1:3080"), token: "t" });
const mainOptions: MainOptions = options;

// A Workers / Deno module: the handler is the fetch export.
export default { fetch: proxy };

async function handle(request: Request): Promise<number> {
  const response: Response = await proxy(request);
  return response.status + (await same(request)).status;
}

// node:http's (req, res) listener, here with stand-ins shaped like IncomingMessage / ServerResponse.
const listener = toNodeHandler(proxy);
declare const req: Parameters<typeof listener>[0];
declare const res: Parameters<typeof listener>[1];
listener(req, res);
toNodeHandler((request: Request) => new Response(request.url)); // any fetch handler, sync or async

// @ts-expect-error the token is required
createNeotomaProxy({ upstream: "https://neotoma.example.com" });
// @ts-expect-error upstream is required
createNeotomaProxy({ token: "t" });
// @ts-expect-error allowedOrigins is a list of origins
createNeotomaProxy({ upstream: "https://neotoma.example.com", token: "t", allowedOrigins: "https://app.example.com" });
// @ts-expect-error maxBodyBytes is a number
createNeotomaProxy({ upstream: "https://neotoma.example.com", token: "t", maxBodyBytes: "2MB" });
// @ts-expect-error a misspelt option is an error
createNeotomaProxy({ upstream: "https://neotoma.example.com", token: "t", conversationPrefx: "w-" });
// @ts-expect-error the handler takes a Request
proxy("https://neotoma.example.com/store");

void handle;
void mainOptions;
