// <neotoma-chat>: the package's browser face, a chat box that runs the Neotoma turn protocol.
// `import 'neotoma-agent-wasm/widget'` defines the element; the page gives it a model with
// `el.llm = (message, ctx) => reply` and, for a real Neotoma, a same-origin proxy with
// `base-url="/neotoma"`. Plain DOM in an open shadow root: no framework, no HTML from user or
// model text (only ever set as text), styleable from outside with the `--neotoma-chat-*` custom
// properties and `::part()` (listed in widget.d.ts).
//
// Per turn it renders the user message, streams the reply as it comes (`agent.turnStream`), and
// adds a collapsible memory panel: the identifiers extracted, the entities retrieved and
// produced, the two stored messages and their edges, the requests the turn made with their times
// and retries. Errors are shown in place in plain words, the typed text goes back in the box, and
// the Send button comes back after any outcome.

// The package's browser entry (next to this file in pkg/), loaded here rather than by a static
// import so that a wasm that cannot be fetched leaves a working element saying so, not an
// undefined tag. Top-level await: the element is defined once the engine is ready (or failed).
let lib = null;
let libError = null;
try {
  lib = await import('./browser.mjs');
} catch (error) {
  libError = error;
}

const TAG = 'neotoma-chat';

/** The protocol's calls, by transport method, as the paths the HTTP transport posts to. */
const CALL_PATHS = {
  retrieveEntityByIdentifier: '/retrieve_entity_by_identifier',
  store: '/store',
  createRelationships: '/create_relationships',
  retrieveRelatedEntities: '/retrieve_related_entities',
};

const STYLE = `
:host {
  --_font: var(--neotoma-chat-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  --_font-size: var(--neotoma-chat-font-size, 0.95rem);
  --_mono: var(--neotoma-chat-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  --_radius: var(--neotoma-chat-radius, 12px);
  --_space: var(--neotoma-chat-spacing, 0.5rem);
  --_bg: var(--neotoma-chat-bg, #ffffff);
  --_fg: var(--neotoma-chat-fg, #1c2330);
  --_muted: var(--neotoma-chat-muted, #5b6577);
  --_border: var(--neotoma-chat-border, #d5dbe5);
  --_accent: var(--neotoma-chat-accent, #2f5bd3);
  --_accent-fg: var(--neotoma-chat-accent-fg, #ffffff);
  --_focus: var(--neotoma-chat-focus, var(--_accent));
  --_user-bg: var(--neotoma-chat-user-bg, #e8eefc);
  --_user-fg: var(--neotoma-chat-user-fg, var(--_fg));
  --_assistant-bg: var(--neotoma-chat-assistant-bg, #f1f3f6);
  --_assistant-fg: var(--neotoma-chat-assistant-fg, var(--_fg));
  --_input-bg: var(--neotoma-chat-input-bg, var(--_bg));
  --_panel-bg: var(--neotoma-chat-panel-bg, #f7f8fa);
  --_error-bg: var(--neotoma-chat-error-bg, #fdecec);
  --_error-fg: var(--neotoma-chat-error-fg, #a3191f);
  --_notice-bg: var(--neotoma-chat-notice-bg, #fff6db);
  --_notice-fg: var(--neotoma-chat-notice-fg, #6b4a00);

  display: flex;
  flex-direction: column;
  gap: var(--_space);
  box-sizing: border-box;
  min-width: 0;
  max-width: 100%;
  padding: calc(var(--_space) * 1.5);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  background: var(--_bg);
  color: var(--_fg);
  color-scheme: light dark;
  font-family: var(--_font);
  font-size: var(--_font-size);
  line-height: 1.45;
  overflow-wrap: anywhere;
}
:host([hidden]) { display: none; }
@media (prefers-color-scheme: dark) {
  :host {
    --_bg: var(--neotoma-chat-bg, #1a1f27);
    --_fg: var(--neotoma-chat-fg, #e6e9ef);
    --_muted: var(--neotoma-chat-muted, #a3adbd);
    --_border: var(--neotoma-chat-border, #343c4a);
    --_accent: var(--neotoma-chat-accent, #8aa6ff);
    --_accent-fg: var(--neotoma-chat-accent-fg, #0c1120);
    --_user-bg: var(--neotoma-chat-user-bg, #26345a);
    --_assistant-bg: var(--neotoma-chat-assistant-bg, #252b36);
    --_panel-bg: var(--neotoma-chat-panel-bg, #20252e);
    --_error-bg: var(--neotoma-chat-error-bg, #3d1c1f);
    --_error-fg: var(--neotoma-chat-error-fg, #ffb3b7);
    --_notice-bg: var(--neotoma-chat-notice-bg, #3a3018);
    --_notice-fg: var(--neotoma-chat-notice-fg, #ffdf8f);
  }
}
*, *::before, *::after { box-sizing: border-box; }
:focus-visible { outline: 3px solid var(--_focus); outline-offset: 2px; }
.sr-only {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}

.log {
  flex: 1 1 auto;
  min-height: var(--neotoma-chat-log-min-height, 6rem);
  max-height: var(--neotoma-chat-log-max-height, 32rem);
  overflow-x: hidden;
  overflow-y: auto;
  display: flex;
  flex-direction: column;
  gap: var(--_space);
  padding: 4px;
}
.empty { color: var(--_muted); margin: auto 0; text-align: center; font-size: 0.9em; }
.msg {
  max-width: 88%;
  min-width: 0;
  padding: calc(var(--_space) * 1.1) calc(var(--_space) * 1.6);
  border: 1px solid transparent;
  border-radius: var(--_radius);
}
.msg .who { display: block; font-size: 0.75em; font-weight: 700; color: var(--_muted); }
.msg .text { margin: 0; white-space: pre-wrap; }
.msg.user { align-self: flex-end; background: var(--_user-bg); color: var(--_user-fg); border-bottom-right-radius: 4px; }
.msg.user .who { color: inherit; opacity: 0.8; }
.msg.assistant { align-self: flex-start; background: var(--_assistant-bg); color: var(--_assistant-fg); border-bottom-left-radius: 4px; }
.msg.assistant .who { color: inherit; opacity: 0.8; }
.msg.error, .notice {
  align-self: stretch; max-width: 100%; font-size: 0.92em;
}
.msg.error { background: var(--_error-bg); color: var(--_error-fg); }
.msg.error .text { white-space: normal; }
.msg.error details { margin-top: 0.25em; font-size: 0.9em; }
.msg.error summary { cursor: pointer; }
.msg.error code { font-family: var(--_mono); font-size: 0.95em; white-space: pre-wrap; }
.notice {
  margin: 0; padding: calc(var(--_space) * 0.8) calc(var(--_space) * 1.2);
  border-radius: calc(var(--_radius) * 0.6); background: var(--_notice-bg); color: var(--_notice-fg);
}
.notice[data-kind="stored"] { background: transparent; color: var(--_muted); padding-block: 0; }
.typing::after { content: "…"; display: inline-block; animation: blink 1s steps(2, start) infinite; }
@keyframes blink { to { visibility: hidden; } }
@media (prefers-reduced-motion: reduce) { .typing::after { animation: none; } }

.turn-meta { align-self: stretch; display: flex; flex-direction: column; align-items: flex-start; gap: calc(var(--_space) * 0.5); min-width: 0; }
.panel-toggle {
  font: inherit; font-size: 0.82em; color: var(--_accent); background: transparent;
  border: 1px solid var(--_border); border-radius: 999px; padding: 0.15em 0.75em; cursor: pointer;
  max-width: 100%; text-align: start;
}
.panel-toggle .chevron::before { content: "▸ "; }
.panel-toggle[aria-expanded="true"] .chevron::before { content: "▾ "; }
.panel-toggle .summary { color: var(--_muted); }
.panel {
  align-self: stretch; min-width: 0; font-size: 0.85em;
  padding: calc(var(--_space) * 1.2); border: 1px solid var(--_border);
  border-radius: calc(var(--_radius) * 0.7); background: var(--_panel-bg);
}
.panel[hidden] { display: none; }
.panel dl { margin: 0; display: grid; gap: calc(var(--_space) * 0.9); }
.panel dt { font-weight: 700; font-size: 0.9em; color: var(--_muted); }
.panel dd { margin: 0.15em 0 0; min-width: 0; }
.panel ul { margin: 0; padding-inline-start: 1.1em; }
.panel li + li { margin-top: 0.15em; }
.panel .none { color: var(--_muted); }
.panel code, .panel pre { font-family: var(--_mono); font-size: 0.92em; overflow-wrap: anywhere; }
.panel pre { white-space: pre-wrap; margin: 0.3em 0 0; }
.panel summary { cursor: pointer; }
.panel .timing { margin: 0 0 0.2em; }
.type {
  display: inline-block; font-size: 0.85em; padding: 0 0.35em; border-radius: 4px;
  border: 1px solid var(--_border); color: var(--_muted);
}

.composer { display: flex; flex-direction: column; gap: calc(var(--_space) * 0.5); margin: 0; }
.composer label { font-weight: 600; font-size: 0.85em; }
.row { display: flex; gap: var(--_space); align-items: stretch; min-width: 0; }
textarea {
  flex: 1 1 auto; min-width: 0; min-height: 2.8em; resize: vertical;
  font: inherit; color: inherit; background: var(--_input-bg);
  border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.7);
  padding: calc(var(--_space) * 0.9) calc(var(--_space) * 1.1);
}
textarea:focus-visible { outline-offset: 1px; }
.send {
  flex: 0 0 auto; font: inherit; font-weight: 600; cursor: pointer;
  color: var(--_accent-fg); background: var(--_accent);
  border: 1px solid transparent; border-radius: calc(var(--_radius) * 0.7);
  padding: 0 calc(var(--_space) * 2);
}
.send:disabled { opacity: 0.55; cursor: progress; }
.hint { margin: 0; font-size: 0.75em; color: var(--_muted); }
@media (forced-colors: active) {
  .msg, .panel, .notice { border-color: CanvasText; }
}
`;

let sheet = null;
function styleFor(root) {
  // A constructed sheet (shared by every element) where supported, else a <style> element.
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
    try {
      sheet ??= new CSSStyleSheet();
      if (sheet.cssRules.length === 0) sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
      return;
    } catch {
      // fall through
    }
  }
  const style = document.createElement('style');
  style.textContent = STYLE;
  root.append(style);
}

/** An element; string children become text nodes (never parsed as HTML). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let uid = 0;
const nextId = (what) => `nc${++uid}-${what}`;

function randomHex(bytes) {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

const ms = (n) => `${Math.round(n)} ms`;

/** An entity's name as a person would say it: its snapshot's name or title, else its canonical
 *  name without the `<type>:` prefix, else its id. */
function entityName(entity) {
  const snap = entity && typeof entity.snapshot === 'object' && entity.snapshot !== null ? entity.snapshot : {};
  for (const key of ['name', 'title', 'full_name', 'email']) {
    if (typeof snap[key] === 'string' && snap[key].trim()) return snap[key].trim();
  }
  const canonical = typeof entity?.canonical_name === 'string' ? entity.canonical_name : '';
  const prefix = `${entity?.entity_type}:`;
  if (canonical.startsWith(prefix) && canonical.length > prefix.length) return canonical.slice(prefix.length);
  if (canonical) return canonical;
  return entity?.id ?? 'unnamed';
}

function plainBytes(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}

/** Why a request failed or was retried, in words. */
function reasonWords(code, status) {
  if (code === 'NEOTOMA_NETWORK') return 'no answer';
  if (code === 'NEOTOMA_TIMEOUT') return 'timed out';
  if (status) return `HTTP ${status}`;
  return 'failed';
}

/** A store warning in plain words (the server's own text is long and speaks in codes). */
function warningWords(warning, entityType) {
  const field = /"([^"]+)"/.exec(warning?.message ?? '')?.[1];
  switch (warning?.code) {
    case 'UNKNOWN_FIELD':
      return `${field ? `“${field}”` : 'a field'} is not something Neotoma keeps for a ${entityType}, so it was left out`;
    case 'MISSING_REQUIRED_FIELD':
      return `a ${entityType} is normally stored with ${field ? `“${field}”` : 'more fields'}; remembered without it`;
    case 'SOURCE_PRIORITY_ESCALATION':
      return 'written at the default trust level (Neotoma notes this for every new name)';
    default:
      return warning?.message ?? warning?.code ?? null;
  }
}

/**
 * What went wrong, in plain words, for a person using the chat (the error's own `code` and
 * message stay on the event and in a collapsed "Technical details").
 * @param {unknown} error
 * @param {'load' | 'setup' | 'turn'} stage
 * @param {boolean} llmCalled the model was asked (the user message had been checked and sent)
 */
function describeError(error, stage, llmCalled) {
  const code = error && typeof error === 'object' ? error.code : undefined;
  const isNeotoma = error && typeof error === 'object' && error.name === 'NeotomaError';
  const message = error && typeof error.message === 'string' ? error.message : '';
  if (stage === 'load') return 'The chat could not load its engine (the WebAssembly module). Reload the page to try again.';
  if (code === 'NO_LLM') return 'This chat is not connected to a model yet, so nothing was sent. The page must give it one (the element’s llm property).';
  if (stage === 'setup') {
    return 'This chat is not set up correctly (its agent options were refused), so nothing was sent.';
  }
  if (!isNeotoma) {
    return llmCalled
      ? 'The model could not answer: its callback failed. Send again to retry.'
      : 'Something failed before the model was asked. Send again to retry.';
  }
  switch (code) {
    case 'INVALID_INPUT': {
      const tooLong = /^userMessage is \d+ bytes; the limit is (\d+)/.exec(message);
      if (tooLong) return `Your message is too long to send (the limit is ${plainBytes(Number(tooLong[1]))}). Shorten it and send again.`;
      if (/^userMessage .*surrogate/.test(message)) return 'Your message contains a broken character, so it was not sent.';
      if (/^assistantMessage is \d+ bytes/.test(message)) return 'The model’s reply was too long to store, so it was not kept.';
      if (llmCalled) return 'The model’s reply could not be stored: it was not in a form the memory accepts.';
      return 'This message could not be sent as it is.';
    }
    case 'NEOTOMA_NETWORK':
      return 'The memory store could not be reached, so this turn was not saved. Check the connection and send again.';
    case 'NEOTOMA_TIMEOUT':
      return 'The memory store did not answer in time, so this turn was not saved. Send again.';
    case 'NEOTOMA_HTTP': {
      const status = Number(error.status);
      if (status === 401 || status === 403) return 'The memory store refused access, so this turn was not saved.';
      if (status === 404) return 'The memory store was not found at its address, so this turn was not saved.';
      if (status === 429) return 'The memory store is busy, so this turn was not saved. Wait a moment and send again.';
      if (status >= 500) return 'The memory store had a problem, so this turn was not saved. Send again later.';
      return 'The memory store refused this turn, so it was not saved.';
    }
    case 'NEOTOMA_INVALID_RESPONSE':
      return 'The memory store sent an answer that could not be read, so this turn may not be saved.';
    case 'IDEMPOTENCY_MISMATCH':
      return 'This turn was already stored with a different text, so nothing was changed.';
    case 'LLM_TIMEOUT':
      return 'The model took too long to answer. Send again to retry.';
    case 'STORE_STORAGE':
      return 'This browser could not save the memory (its storage failed). Send again: the same turn is completed, not stored twice.';
    case 'OUTBOX_STORAGE':
      return 'The browser could not keep the unsent messages (its storage failed).';
    default:
      return 'Something went wrong, so this turn was not completed. Send again to retry.';
  }
}

// --- fetch timing, only for the base URLs of agents in a turn ---------------------------------
// The HTTP transport calls the global `fetch` at request time; while a widget runs a turn over
// HTTP, its base URL is listened to here, and every other request passes through untouched.

const fetchListeners = new Set();
let fetchHooked = false;

function hookFetch() {
  if (fetchHooked || typeof globalThis.fetch !== 'function') return;
  fetchHooked = true;
  const original = globalThis.fetch;
  globalThis.fetch = function fetch(input, init) {
    if (fetchListeners.size === 0) return original.call(globalThis, input, init);
    let url;
    try {
      url = typeof Request === 'function' && input instanceof Request ? input.url : new URL(String(input), document.baseURI).href;
    } catch {
      return original.call(globalThis, input, init);
    }
    const listening = [...fetchListeners].filter((l) => url === l.base || url.startsWith(`${l.base}/`));
    if (listening.length === 0) return original.call(globalThis, input, init);
    const start = performance.now();
    const method = (typeof Request === 'function' && input instanceof Request ? input.method : init?.method) ?? 'GET';
    const answer = original.call(globalThis, input, init);
    Promise.resolve(answer).then(
      (res) => {
        for (const l of listening) l.record({ method, path: url.slice(l.base.length), ms: performance.now() - start, status: res?.status });
      },
      () => {
        for (const l of listening) l.record({ method, path: url.slice(l.base.length), ms: performance.now() - start, failed: 'no answer' });
      },
    );
    return answer;
  };
}

/** A transport object whose calls are timed into the widget's current turn (if any). */
function timedTransport(target, recorder) {
  const out = {};
  for (const [method, path] of Object.entries(CALL_PATHS)) {
    if (typeof target[method] !== 'function') continue;
    out[method] = (body) => {
      const rec = recorder();
      const start = performance.now();
      const identifier = method === 'retrieveEntityByIdentifier' && typeof body?.identifier === 'string' ? body.identifier : undefined;
      const done = (entry) => rec?.({ method: 'POST', path, identifier, ms: performance.now() - start, ...entry });
      let answer;
      try {
        answer = target[method](body);
      } catch (error) {
        done({ failed: reasonWords(error?.code, error?.status) });
        throw error;
      }
      return Promise.resolve(answer).then(
        (value) => {
          done({ status: 200 });
          return value;
        },
        (error) => {
          done({ failed: reasonWords(error?.code, error?.status), status: error?.status });
          throw error;
        },
      );
    };
  }
  return out;
}

// --- the element ----------------------------------------------------------------------------

const Base = globalThis.HTMLElement ?? class {};

export class NeotomaChatElement extends Base {
  static get observedAttributes() {
    return ['conversation-id', 'base-url'];
  }

  #ui;
  #llm = null;
  #agentOptions = null;
  #agent = null;
  #ownsAgent = false;
  #store = null; // the embedded store of agents this element makes without a transport
  #generatedConversationId = null;
  #busy = false;
  #generation = 0; // bumped by clear(): a turn still running leaves the cleared log alone
  // Turn numbers: the log's conversation has had #historyTurns (user messages given to load())
  // and then #turnsSinceLoad turns; the next is numbered after them, also by an agent made anew
  // (new agentOptions), which would otherwise count from 1 again. Reset for another conversation.
  #historyTurns = 0;
  #turnsSinceLoad = 0;
  #countedConversation = null;
  #entries = []; // { role, content } of the messages shown, for `history`
  #recorder = null; // the running turn's request log, while a turn runs
  #fetchListener = null;
  #pendingNotices = new Map(); // turnId -> { node, roles: Set<'user' | 'assistant'> }
  // The last turn that failed: sending the same text again reuses its turn id and number, so
  // the agent replays what was stored instead of storing the message a second time.
  #failedTurn = null;
  #lastOpened = [];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    styleFor(root);
    const ids = { input: nextId('input'), hint: nextId('hint') };
    const log = h('div', { class: 'log', part: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
    const empty = h('p', { class: 'empty', part: 'empty', text: 'No messages yet.' });
    log.append(empty);
    const setupNotice = h('p', { class: 'notice', part: 'notice', role: 'status', hidden: true });
    const input = h('textarea', {
      id: ids.input,
      part: 'input',
      name: 'message',
      rows: 2,
      autocomplete: 'off',
      'aria-describedby': ids.hint,
    });
    const send = h('button', { class: 'send', part: 'send', type: 'submit', text: 'Send' });
    const form = h(
      'form',
      { class: 'composer', part: 'composer', novalidate: true },
      h('label', { part: 'label', for: ids.input, text: 'Message' }),
      h('div', { class: 'row' }, input, send),
      h('p', { class: 'hint', part: 'hint', id: ids.hint, text: 'Enter sends · Shift+Enter adds a new line' }),
    );
    root.append(log, setupNotice, form);
    this.#ui = { root, log, empty, setupNotice, input, send, form };

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#submit();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
        event.preventDefault();
        this.#submit();
      }
    });
    root.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#closePanel()) event.preventDefault();
    });
    this.#updateSetupNotice();
  }

  connectedCallback() {
    // Properties set on the element before this module defined it shadow the accessors.
    for (const name of ['agentOptions', 'agent', 'llm', 'history']) {
      if (Object.hasOwn(this, name)) {
        const value = this[name];
        delete this[name];
        this[name] = value;
      }
    }
    this.#updateSetupNotice();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue !== newValue) this.#dropOwnedAgent();
  }

  /** The LLM callback: `(message, ctx) => reply`, any reply shape the package accepts. */
  get llm() {
    return this.#llm;
  }

  set llm(fn) {
    if (fn !== null && fn !== undefined && typeof fn !== 'function') {
      throw new TypeError('<neotoma-chat>.llm must be a function (message, ctx) => reply, or null');
    }
    this.#llm = fn ?? null;
    this.#updateSetupNotice();
  }

  /** Options for the `NeotomaAgent` this element makes (read when it makes one). */
  get agentOptions() {
    return this.#agentOptions;
  }

  set agentOptions(options) {
    if (options !== null && options !== undefined && (typeof options !== 'object' || Array.isArray(options))) {
      throw new TypeError('<neotoma-chat>.agentOptions must be an object (AgentOptions) or null');
    }
    this.#agentOptions = options ?? null;
    this.#dropOwnedAgent();
  }

  /** The agent: the one set, or the one this element makes from `agentOptions` and its attributes. */
  get agent() {
    return this.#ensureAgent();
  }

  set agent(agent) {
    if (agent !== null && agent !== undefined && typeof agent?.turnStream !== 'function') {
      throw new TypeError('<neotoma-chat>.agent must be a NeotomaAgent (or null to make one from agentOptions)');
    }
    this.#agent = agent ?? null;
    this.#ownsAgent = false;
  }

  /** The messages shown, as `{ role, content }` (user and assistant; no errors or notices). */
  get history() {
    return this.#entries.map(({ role, content }) => ({ role, content }));
  }

  set history(messages) {
    this.load(messages ?? []);
  }

  /**
   * Shows an earlier conversation in place of what the log holds: `[{ role: 'user' |
   * 'assistant', content: string }]`. New turns are numbered after its user messages.
   */
  load(messages) {
    if (!Array.isArray(messages)) throw new TypeError('<neotoma-chat>.load() takes an array of { role, content } messages');
    messages.forEach((m, i) => {
      if (!m || (m.role !== 'user' && m.role !== 'assistant') || typeof m.content !== 'string') {
        throw new TypeError(`<neotoma-chat>.load(): messages[${i}] must be { role: "user" | "assistant", content: string }`);
      }
    });
    this.clear();
    for (const m of messages) this.#addMessage(m.role, m.content);
    this.#historyTurns = messages.filter((m) => m.role === 'user').length;
    this.#turnsSinceLoad = 0;
    this.#countedConversation = this.#conversationId();
    this.#scrollToEnd(true);
  }

  /** Empties the log (messages, errors, panels). The agent and its store are kept. */
  clear() {
    this.#generation++;
    this.#entries = [];
    this.#pendingNotices.clear();
    this.#lastOpened = [];
    this.#failedTurn = null;
    // Within the same conversation turn numbers go on (a cleared log must not number turns from
    // 1 again: two turns would share a number); another conversation counts from 1.
    if (this.#conversationId() !== this.#countedConversation) {
      this.#historyTurns = 0;
      this.#turnsSinceLoad = 0;
      this.#countedConversation = this.#conversationId();
    }
    this.#ui.log.replaceChildren(this.#ui.empty);
    this.#ui.log.removeAttribute('aria-busy');
  }

  // --- agent -------------------------------------------------------------------------------

  #dropOwnedAgent() {
    // An agent this element made is remade with the new settings at its next use (a turn still
    // running keeps the one it has). One set from outside is the page's to replace.
    if (this.#ownsAgent) {
      this.#agent = null;
      this.#ownsAgent = false;
    }
  }

  /** The conversation of the agent in use, or of the one the element would make now. */
  #conversationId() {
    if (this.#agent) return this.#agent.conversationId;
    const given = this.#agentOptions?.conversationId;
    if (given !== undefined) return given;
    const attr = this.getAttribute('conversation-id');
    if (attr !== null) return attr;
    this.#generatedConversationId ??= `chat-${randomHex(8)}`;
    return this.#generatedConversationId;
  }

  #ensureAgent() {
    if (this.#agent) return this.#agent;
    if (!lib) throw libError ?? new Error('the neotoma-agent-wasm engine is not loaded');
    const given = this.#agentOptions ?? {};
    const options = { ...given };
    if (options.conversationId === undefined) options.conversationId = this.#conversationId();
    if (options.transport === undefined) {
      const baseUrl = this.getAttribute('base-url');
      if (baseUrl !== null) options.transport = { baseUrl };
    }
    // Requests are timed: a transport object is wrapped; HTTP is watched at the global fetch,
    // for its base URL only; without a transport, this element's embedded store is wrapped.
    const recorder = () => this.#recorder?.request ?? null;
    let httpBase = null;
    if (options.transport === undefined) {
      this.#store ??= new lib.EmbeddedStore();
      options.transport = timedTransport(this.#store, recorder);
    } else if (options.transport && typeof options.transport.store === 'function') {
      options.transport = timedTransport(options.transport, recorder);
    } else if (options.transport && typeof options.transport.baseUrl === 'string') {
      try {
        httpBase = new URL(options.transport.baseUrl.trim(), document.baseURI).href.replace(/\/+$/, '');
      } catch {
        httpBase = null; // the agent refuses it below, with its own words
      }
    }
    const onEvent = given.onEvent;
    if (onEvent === undefined || typeof onEvent === 'function') {
      options.onEvent = (event) => {
        this.#onAgentEvent(event);
        onEvent?.(event);
      };
    }
    const agent = new lib.NeotomaAgent(options);
    this.#agent = agent;
    this.#ownsAgent = true;
    this.#fetchListener = httpBase ? { base: httpBase, record: (entry) => this.#recorder?.request?.(entry) } : null;
    return agent;
  }

  #onAgentEvent(event) {
    if (!event || typeof event !== 'object') return;
    if (event.type === 'retry') this.#recorder?.event?.(event);
    if (event.type === 'writeFlushed') {
      const notice = this.#pendingNotices.get(event.turnId);
      if (!notice) return;
      notice.roles.delete(event.role);
      if (notice.roles.size === 0) {
        notice.node.dataset.kind = 'stored';
        notice.node.textContent = 'The memory store is back: this turn is now saved.';
        this.#pendingNotices.delete(event.turnId);
      }
    }
  }

  // --- rendering ---------------------------------------------------------------------------

  #updateSetupNotice() {
    const notice = this.#ui?.setupNotice;
    if (!notice) return;
    let text = '';
    if (!lib) text = 'This chat could not load its engine (the WebAssembly module), so it cannot send messages.';
    else if (!this.#llm) text = 'This chat needs a model before it can answer: the page must set the element’s llm property.';
    notice.textContent = text;
    notice.hidden = text === '';
  }

  #nearEnd() {
    const log = this.#ui.log;
    return log.scrollHeight - log.scrollTop - log.clientHeight < 48;
  }

  #scrollToEnd(force = false, wasNearEnd = true) {
    if (force || wasNearEnd) this.#ui.log.scrollTop = this.#ui.log.scrollHeight;
  }

  #append(node) {
    const near = this.#nearEnd();
    this.#ui.empty.remove();
    this.#ui.log.append(node);
    this.#scrollToEnd(false, near);
    return node;
  }

  #addMessage(role, content, track = true) {
    const text = h('p', { class: 'text', part: 'message-text' });
    text.textContent = content;
    const node = h(
      'div',
      { class: `msg ${role}`, part: `message message-${role}`, 'data-role': role },
      h('span', { class: 'who', part: 'message-role', text: role === 'user' ? 'You' : 'Assistant' }),
      text,
    );
    this.#append(node);
    const entry = { role, content, node };
    if (track) this.#entries.push(entry);
    return entry;
  }

  #addError(error, stage, llmCalled) {
    const code = error && typeof error === 'object' && typeof error.code === 'string' ? error.code : undefined;
    const technical = error instanceof Error ? `${error.name}${code ? ` (${code})` : ''}: ${error.message}` : String(error);
    const node = h(
      'div',
      { class: 'msg error', part: 'message message-error', role: 'alert', 'data-role': 'error', 'data-code': code },
      h('p', { class: 'text', text: describeError(error, stage, llmCalled) }),
      h('details', {}, h('summary', { text: 'Technical details' }), h('code', { text: technical })),
    );
    return this.#append(node);
  }

  #togglePanel(toggle, panel, open) {
    toggle.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    this.#lastOpened = this.#lastOpened.filter((p) => p.panel !== panel);
    if (open) {
      this.#lastOpened.push({ toggle, panel });
      panel.scrollIntoView?.({ block: 'nearest' });
    }
  }

  /** Escape: closes the panel holding the focus (or whose button has it), else the one opened last. */
  #closePanel() {
    const active = this.#ui.root.activeElement;
    let target = this.#lastOpened.find(({ toggle, panel }) => active && (toggle === active || panel.contains(active)));
    target ??= this.#lastOpened.at(-1);
    if (!target) return false;
    const focusInside = active && target.panel.contains(active);
    this.#togglePanel(target.toggle, target.panel, false);
    if (focusInside) target.toggle.focus();
    return true;
  }

  #entityItem(entity, extra) {
    return h(
      'li',
      { 'data-entity-id': entity.id },
      h('span', { class: 'type', text: entity.entity_type ?? 'entity' }),
      ' ',
      h('span', { class: 'name', text: entityName(entity) }),
      extra ? [' · ', extra] : null,
      ' ',
      h('code', { text: entity.id ?? '' }),
    );
  }

  #list(items, none) {
    return items.length ? h('ul', {}, items) : h('span', { class: 'none', text: none });
  }

  #panel(turn) {
    const { identifiers, result, rec, totalMs, firstTokenMs, recorded } = turn;
    const names = new Map();
    for (const e of result.retrieved ?? []) names.set(e.id, e);
    for (const e of result.produced ?? []) names.set(e.id, e);
    const edgeTarget = (id) => {
      const e = names.get(id);
      return h('li', {}, e ? [h('span', { class: 'type', text: e.entity_type }), ' ', entityName(e), ' '] : null, h('code', { text: id }));
    };
    const userRefers = result.retrievedEntityIds ?? [];
    const replyRefers = [...new Set([...(result.refersTo ?? []), ...(result.produced ?? []).map((p) => p.id)])];
    const stored = (id, pending, label) =>
      h('li', {}, `${label}: `, id ? h('code', { text: id }) : h('span', { class: 'none', text: pending ? 'waiting in the outbox' : 'not stored' }));

    const retries = rec.events.filter((e) => e.type === 'retry');
    const requests = rec.requests.map((r) =>
      h(
        'li',
        {},
        `${r.method} ${r.path}`,
        r.identifier ? ` “${r.identifier}”` : '',
        ` · ${r.failed ? r.failed : r.status ? `${r.status}` : 'ok'} · ${ms(r.ms)}`,
      ),
    );
    const retryItems = retries.map((e) =>
      h('li', {}, `${e.path}: attempt ${e.attempt} failed (${reasonWords(e.code, e.status)}), tried again after ${ms(e.delayMs)}`),
    );
    const timing = [`turn ${ms(totalMs)}`];
    if (firstTokenMs !== null) timing.push(`first words after ${ms(firstTokenMs)}`);
    if (recorded) timing.push(`${rec.requests.length} request${rec.requests.length === 1 ? '' : 's'}`, `${retries.length} ${retries.length === 1 ? 'retry' : 'retries'}`);

    let report = '';
    try {
      report = lib.renderTurnReport(result);
    } catch {
      report = '';
    }

    const section = (term, ...dd) => [h('dt', { text: term }), h('dd', {}, ...dd)];
    return h(
      'dl',
      {},
      section('Identifiers extracted', this.#list(identifiers.map((id) => h('li', { text: id })), 'none')),
      section(
        'Entities retrieved',
        this.#list((result.retrieved ?? []).map((e) => this.#entityItem(e, e.identifier ? `found by “${e.identifier}”` : null)), 'none'),
      ),
      section(
        'Entities produced',
        this.#list(
          (result.produced ?? []).map((p) => {
            const warnings = (p.warnings ?? []).map((w) => warningWords(w, p.entity_type)).filter(Boolean);
            return this.#entityItem(p, [p.action === 'created' ? 'created' : 'matched existing', warnings.length ? ` (${warnings.join('; ')})` : '']);
          }),
          result.pending?.assistant ? 'none yet (the reply is waiting in the outbox)' : 'none',
        ),
      ),
      section(
        'Messages stored',
        h(
          'ul',
          {},
          stored(result.userMessageEntityId, result.pending?.user, 'Your message'),
          stored(result.assistantMessageEntityId, result.pending?.assistant, 'The reply'),
          stored(result.conversationEntityId, result.pending?.user || result.pending?.assistant, 'Conversation'),
        ),
        h('span', { class: 'none', text: `turn ${result.turnNumber} · ${result.turnId}` }),
      ),
      section(
        'Edges',
        h(
          'ul',
          {},
          h('li', {}, 'Both messages PART_OF the conversation'),
          h('li', {}, `Your message REFERS_TO (${userRefers.length})`, userRefers.length ? h('ul', {}, userRefers.map(edgeTarget)) : ': nothing'),
          h('li', {}, `The reply REFERS_TO (${replyRefers.length})`, replyRefers.length ? h('ul', {}, replyRefers.map(edgeTarget)) : ': nothing'),
        ),
      ),
      section(
        'Requests',
        h('p', { class: 'timing', text: timing.join(' · ') }),
        recorded
          ? [this.#list(requests, 'none'), retryItems.length ? [h('span', { text: 'Retries:' }), h('ul', {}, retryItems)] : null]
          : h('span', { class: 'none', text: 'Requests are not listed for an agent set from outside the element.' }),
      ),
      report
        ? section('Report', h('details', {}, h('summary', { text: 'Markdown report (renderTurnReport)' }), h('pre', { text: report })))
        : null,
    );
  }

  #addTurnMeta(turn) {
    const { result } = turn;
    const panelId = nextId('panel');
    const produced = result.produced?.length ?? 0;
    const retrieved = result.retrieved?.length ?? 0;
    const toggle = h(
      'button',
      { type: 'button', class: 'panel-toggle', part: 'panel-toggle', 'aria-expanded': 'false', 'aria-controls': panelId },
      h('span', { class: 'chevron', 'aria-hidden': 'true' }),
      `Memory · turn ${result.turnNumber}`,
      h('span', { class: 'summary', text: ` · ${retrieved} retrieved · ${produced} produced · ${ms(turn.totalMs)}` }),
    );
    const panel = h('section', {
      class: 'panel',
      part: 'panel',
      id: panelId,
      role: 'region',
      'aria-label': `Memory of turn ${result.turnNumber}`,
      hidden: true,
    });
    panel.append(this.#panel(turn));
    toggle.addEventListener('click', () => this.#togglePanel(toggle, panel, panel.hidden));
    const meta = h('div', { class: 'turn-meta', part: 'turn-meta' }, toggle, panel);
    if (result.pending?.user || result.pending?.assistant) {
      const node = h('p', {
        class: 'notice',
        part: 'notice',
        'data-kind': 'pending',
        text: 'The memory store could not be reached: this turn is kept in this browser and will be saved when the store is back.',
      });
      meta.prepend(node);
      const roles = new Set([result.pending.user && 'user', result.pending.assistant && 'assistant'].filter(Boolean));
      this.#pendingNotices.set(result.turnId, { node, roles });
    }
    this.#append(meta);
  }

  #setBusy(busy) {
    this.#busy = busy;
    this.#ui.send.disabled = busy;
    this.toggleAttribute('busy', busy);
  }

  // --- a turn ------------------------------------------------------------------------------

  async #submit() {
    if (this.#busy) return;
    const { input, send, log } = this.#ui;
    const typed = input.value;
    const message = typed.trim();
    if (message === '') {
      input.focus();
      return;
    }
    const generation = this.#generation;
    const current = () => generation === this.#generation;
    this.#setBusy(true);
    // The button is disabled while the turn runs: keep the keyboard in the box.
    if (this.#ui.root.activeElement === send) input.focus();

    const t0 = performance.now();
    let stage = 'setup';
    let llmCalled = false;
    let userEntry = null;
    let bubble = null;
    let firstTokenMs = null;
    const rec = { requests: [], events: [] };
    rec.request = (entry) => rec.requests.push(entry);
    rec.event = (event) => rec.events.push(event);
    let listener = null;
    let opts = {};
    let again = null;

    try {
      // Nothing is shown as sent until the chat can send it.
      if (!lib) {
        stage = 'load';
        throw libError ?? new Error('the neotoma-agent-wasm engine is not loaded');
      }
      const llm = this.#llm;
      if (!llm) {
        throw Object.assign(new Error('<neotoma-chat> has no llm: set its llm property to (message, ctx) => reply'), {
          name: 'NeotomaChatError',
          code: 'NO_LLM',
        });
      }
      const agent = this.#ensureAgent();
      stage = 'turn';
      const recorded = this.#ownsAgent;
      const custom = recorded ? this.#agentOptions?.identifierExtractor : undefined;
      const identifiers = identifiersOf(typeof custom === 'function' ? custom : lib.extractIdentifiers, message);

      opts = {};
      if (agent.conversationId !== this.#countedConversation) {
        this.#historyTurns = 0;
        this.#turnsSinceLoad = 0;
        this.#countedConversation = agent.conversationId;
      }
      const failed = this.#failedTurn;
      again = failed && failed.message === message && failed.conversationId === agent.conversationId ? failed : null;
      if (again) {
        opts.turnId = again.turnId;
        if (again.turnNumber !== undefined) opts.turnNumber = again.turnNumber;
      } else {
        opts.turnId = `turn-${randomHex(12)}`;
        // An agent set from outside numbers its own turns unless the log holds earlier ones.
        if (this.#ownsAgent || this.#historyTurns > 0) opts.turnNumber = this.#historyTurns + this.#turnsSinceLoad + 1;
      }
      input.value = '';
      // a resend of a turn whose message is already stored (and shown) is not shown twice
      userEntry = again?.counted ? null : this.#addMessage('user', message);
      bubble = this.#addMessage('assistant', '', false);
      const textEl = bubble.node.querySelector('.text');
      textEl.classList.add('typing');
      log.setAttribute('aria-busy', 'true');

      this.#recorder = rec;
      listener = recorded ? this.#fetchListener : null;
      if (listener) {
        hookFetch();
        fetchListeners.add(listener);
      }
      const { textStream, done } = agent.turnStream(
        message,
        (m, ctx) => {
          llmCalled = true;
          return llm(m, ctx);
        },
        opts,
      );
      done.catch(() => {}); // awaited below; the streams error with the same error
      const reader = textStream.getReader();
      const textNode = document.createTextNode('');
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          if (firstTokenMs === null) {
            firstTokenMs = performance.now() - t0;
            textEl.classList.remove('typing');
            textEl.append(textNode);
          }
          if (current()) {
            const near = this.#nearEnd();
            textNode.appendData(value);
            this.#scrollToEnd(false, near);
          }
        }
      } catch {
        // `done` rejects with the same error
      }
      const result = await done;
      const totalMs = performance.now() - t0;
      if (!again?.counted) this.#turnsSinceLoad++;
      this.#failedTurn = null;
      if (current()) {
        // What was stored (a replayed turn answers with its stored reply, which is not streamed).
        textEl.classList.remove('typing');
        textEl.textContent = result.assistantMessage;
        bubble.content = result.assistantMessage;
        this.#entries.push(bubble);
        log.removeAttribute('aria-busy');
        this.#addTurnMeta({ identifiers, result, rec, totalMs, firstTokenMs, recorded });
      }
      this.dispatchEvent(new CustomEvent('neotoma-turn', { detail: result, bubbles: true, composed: true }));
    } catch (error) {
      // The model was asked only once the user message was stored (or queued): it stays shown.
      if (llmCalled && !again?.counted) this.#turnsSinceLoad++;
      if (opts.turnId) {
        const counted = llmCalled || Boolean(again?.counted);
        this.#failedTurn = { message, conversationId: this.#countedConversation, turnId: opts.turnId, turnNumber: opts.turnNumber, counted };
      }
      if (current()) {
        bubble?.node.remove(); // a reply that was not stored is not shown as one
        if (userEntry && !llmCalled) {
          userEntry.node.remove(); // not sent: it goes back in the box
          this.#entries = this.#entries.filter((e) => e !== userEntry);
        }
        log.removeAttribute('aria-busy');
        this.#addError(error, stage, llmCalled);
        if (input.value === '') input.value = typed;
      }
      this.dispatchEvent(new CustomEvent('neotoma-error', { detail: error, bubbles: true, composed: true }));
    } finally {
      this.#recorder = null;
      if (listener) fetchListeners.delete(listener);
      this.#setBusy(false);
    }
  }
}

/** The identifiers the agent will look up (its extractor's), for the panel; [] if it throws. */
function identifiersOf(extractor, message) {
  try {
    const ids = extractor(message);
    return Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

if (globalThis.customElements && !customElements.get(TAG)) {
  customElements.define(TAG, NeotomaChatElement);
}
