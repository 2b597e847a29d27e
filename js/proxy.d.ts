// Types of `neotoma-agent-wasm/proxy` (js/proxy.mjs): a same-origin proxy in front of a real
// Neotoma for browser chat widgets. Also re-exported from the package's main entry.

/** Options of `createNeotomaProxy`. */
export interface NeotomaProxyOptions {
  /** The Neotoma API base URL, e.g. "https://neotoma.example.com" (no credentials, query or fragment). */
  upstream: string | URL;
  /** The bearer token added to every upstream request. Never sent to the client. */
  token: string;
  /**
   * Origins (scheme://host[:port]) allowed to call the proxy cross-origin, with CORS. Same-origin
   * requests (no Origin header, or the request URL's own origin) always pass. Omitted: same-origin only.
   */
  allowedOrigins?: readonly string[];
  /**
   * Every conversation the requests write to must have an id starting with this (no ":"):
   * /store may only write `conversation`/`conversation_message` entities inside it (plus entities
   * of `entityTypes`), and /create_relationships may only start edges at messages inside it.
   * Reads stay inside it too: /retrieve_related_entities answers only for a conversation or a
   * message inside it (else 403 CONVERSATION_FORBIDDEN), and lookups and edge reads leave out
   * other conversations and their messages (and the edges leading to them).
   */
  conversationPrefix?: string;
  /**
   * With `conversationPrefix` (required with it): the entity types a /store may write besides the
   * conversation and its messages — what a reply produces (under the turn's
   * `conversation-{prefix}…` key) and what `remember()` stores alone (under a `remember-…` key,
   * no conversation or message). Any other type is refused (403 CONVERSATION_FORBIDDEN).
   * Snake_case names, not `conversation` or `conversation_message`; `[]` allows none.
   * Default `DEFAULT_ENTITY_TYPES`: person, company, project, task, event, note, location, contact.
   */
  entityTypes?: readonly string[];
  /** Path the endpoints live under, e.g. "/neotoma" for `transport: { baseUrl: "/neotoma" }`. Default "". */
  basePath?: string;
  /** Largest request body accepted, in bytes (413 above). Default `DEFAULT_MAX_BODY_BYTES` (2 MiB + 64 KiB). */
  maxBodyBytes?: number;
  /** Bound on each upstream call, in milliseconds (504 NEOTOMA_TIMEOUT after). Default 30000. */
  timeoutMs?: number;
  /** Plain `http://` upstream to a host that is not this machine is refused unless true. */
  allowInsecureHttp?: boolean;
}

/** A web-standard fetch handler: a Workers/Deno `fetch` export, or Node through `toNodeHandler`. */
export type NeotomaProxyHandler = (request: Request) => Promise<Response>;

/**
 * Creates the proxy. Throws an `Error` named "NeotomaError" with `code: "INVALID_INPUT"` on bad
 * options (the message never contains the token).
 */
export declare function createNeotomaProxy(options: NeotomaProxyOptions): NeotomaProxyHandler;

/** The part of node:http's IncomingMessage `toNodeHandler` uses. */
export interface NodeProxyRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  complete: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

/** The part of node:http's ServerResponse `toNodeHandler` uses. */
export interface NodeProxyResponse {
  readonly headersSent: boolean;
  statusCode: number;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  writeHead(statusCode: number, headers?: Record<string, string>): unknown;
  write(chunk: Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  destroy(error?: Error): unknown;
}

/**
 * Adapts a fetch handler to node:http: `http.createServer(toNodeHandler(createNeotomaProxy(…)))`.
 * Mount it before any body parser; the URL's origin comes from the Host header.
 */
export declare function toNodeHandler(
  handler: (request: Request) => Response | Promise<Response>,
): (req: NodeProxyRequest, res: NodeProxyResponse) => void;

/** 2 MiB + 64 KiB: a 1 MiB message whose every character JSON-escapes to two bytes, and the rest of the body. */
export declare const DEFAULT_MAX_BODY_BYTES: number;
/** 30000 ms. */
export declare const DEFAULT_TIMEOUT_MS: number;
/** The default `entityTypes`: person, company, project, task, event, note, location, contact (frozen). */
export declare const DEFAULT_ENTITY_TYPES: readonly string[];
