// Types of `neotoma-agent-wasm/widget` (js/widget.mjs): the <neotoma-chat> custom element.
// `import 'neotoma-agent-wasm/widget'` defines it (browsers only: it needs a DOM, and loads the
// package's browser entry itself).

import type { AgentOptions, LlmCallback, NeotomaAgent, TurnResult } from './neotoma_agent_wasm.js';

/** One message of an earlier conversation, for `load()` / `history`. */
export interface NeotomaChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What `neotoma-error` carries when the element itself could not send (no `llm` set). */
export interface NeotomaChatError extends Error {
  name: 'NeotomaChatError';
  code: 'NO_LLM';
}

/**
 * `<neotoma-chat>`: a chat box running the Neotoma turn protocol in the page. It renders the
 * conversation, streams each reply as it comes (`agent.turnStream`), and adds under each reply a
 * collapsible memory panel: identifiers extracted, entities retrieved (type, name) and produced
 * (type, name, created / matched existing), the two stored messages with their entity ids, the
 * edges (PART_OF, REFERS_TO targets), and the turn's requests with their times and retries.
 * Errors are shown in place in plain words (the error itself goes to `neotoma-error`), the typed
 * text is put back in the box, and the Send button comes back after any outcome. User and model
 * text is only ever set as text, never parsed as HTML.
 *
 * Requests: an agent the element makes has its calls timed for the panel. A transport object
 * (and the embedded store) is wrapped; over HTTP (`base-url`, `transport: { baseUrl }`) the
 * element wraps the global `fetch` once, at its first turn over HTTP, and times only the requests
 * to that base URL while one of its turns runs (every other request passes through untouched;
 * two elements with the same base URL running turns at once both list them). Retries come from
 * `onEvent`. For an agent set with `el.agent`, the panel gives the turn's time only.
 *
 * Keyboard: Tab reaches the message box, Enter sends, Shift+Enter adds a new line, Escape closes
 * the open memory panel (the one holding the focus, else the one opened last).
 *
 * **Attributes** (for simple cases; `agentOptions` wins where both say something):
 * - `conversation-id`: the conversation (`AgentOptions.conversationId`). Without it (and without
 *   `agentOptions.conversationId`) the element makes up one, `chat-<16 hex>`, for its lifetime.
 * - `base-url`: a Neotoma (or, from a browser, your same-origin proxy: `"/neotoma"`), as
 *   `transport: { baseUrl }`. Without it (and without `agentOptions.transport`) the element
 *   keeps one embedded store, in this tab's memory, for its lifetime.
 * - `busy` (set by the element while a turn runs; read-only, for styling).
 *
 * Changing an attribute or `agentOptions` makes a new agent at the next message (an agent set
 * with `el.agent` is left alone).
 *
 * **Events** (both bubble and are composed):
 * - `neotoma-turn`: `detail` is the `TurnResult`, once the reply is stored (or waiting in the
 *   outbox: `detail.pending`).
 * - `neotoma-error`: `detail` is the error, as thrown: a `NeotomaError` (`code`), your `llm`'s
 *   own error, or a `NeotomaChatError` (`code: "NO_LLM"`).
 *
 * **Parts** (`neotoma-chat::part(name)`): `log` (the message list, `role="log"`), `empty` (its
 * "No messages yet"), `message` (every message; also one of `message-user`, `message-assistant`,
 * `message-error`), `message-role` (the "You" / "Assistant" label), `message-text`, `notice`
 * (setup and "waiting in the outbox" notes), `turn-meta` (what follows a reply: the panel button
 * and the panel), `panel-toggle` (the "Memory · turn n" button), `panel` (the memory panel),
 * `composer` (the form), `label` (its "Message" label), `input` (the textarea), `send` (the
 * button), `hint` (the keyboard hint).
 *
 * **CSS custom properties** (set them on the element or an ancestor; each has a light and a dark
 * default, picked by `prefers-color-scheme`, and a value you set applies to both):
 * - colours: `--neotoma-chat-bg`, `--neotoma-chat-fg`, `--neotoma-chat-muted` (secondary text),
 *   `--neotoma-chat-border`, `--neotoma-chat-accent` (Send button, links, focus ring),
 *   `--neotoma-chat-accent-fg` (text on the accent), `--neotoma-chat-focus` (focus ring; default
 *   the accent), `--neotoma-chat-user-bg`, `--neotoma-chat-user-fg`, `--neotoma-chat-assistant-bg`,
 *   `--neotoma-chat-assistant-fg`, `--neotoma-chat-input-bg`, `--neotoma-chat-panel-bg`,
 *   `--neotoma-chat-error-bg`, `--neotoma-chat-error-fg`, `--neotoma-chat-notice-bg`,
 *   `--neotoma-chat-notice-fg`;
 * - font: `--neotoma-chat-font` (family), `--neotoma-chat-font-size` (default `0.95rem`),
 *   `--neotoma-chat-mono-font` (ids);
 * - shape and spacing: `--neotoma-chat-radius` (default `12px`), `--neotoma-chat-spacing` (the
 *   base gap, default `0.5rem`), `--neotoma-chat-log-min-height` (default `6rem`),
 *   `--neotoma-chat-log-max-height` (default `32rem`; `none` to let a sized element's log fill it).
 *
 * The element itself is a flex column with a border, radius and padding: style it like any
 * element (`neotoma-chat { height: 100dvh; border: 0 }`).
 */
export declare class NeotomaChatElement extends HTMLElement {
  /**
   * The LLM callback, `(message, ctx) => reply`: a string, `{ text, refersTo?, entities? }`, a
   * stream (`AsyncIterable<string>` or `ReadableStream`), `{ stream, refersTo?, entities? }`, or
   * a promise of one. Without it the element says that it needs one and sends nothing. Setting
   * anything but a function or null throws a `TypeError`.
   */
  llm: LlmCallback | null;
  /**
   * Options for the `NeotomaAgent` the element makes (`new NeotomaAgent(options)`), read when it
   * makes one; `conversationId` and `transport` fall back to the attributes. Its `onEvent` is
   * called too (the element listens to retries and pending writes alongside).
   */
  agentOptions: Partial<AgentOptions> | null;
  /**
   * The agent. Reading it makes one from `agentOptions` and the attributes if none is set (and
   * throws the `NeotomaError` if those are refused). Set an existing `NeotomaAgent` to use it (its
   * requests are then not listed in the panel: only the turn's time); `null` goes back to making
   * one.
   */
  get agent(): NeotomaAgent;
  set agent(agent: NeotomaAgent | null);
  /** The messages shown (user and assistant, not errors or notices). Setting it is `load()`. */
  get history(): NeotomaChatMessage[];
  set history(messages: readonly NeotomaChatMessage[]);
  /**
   * Shows an earlier conversation in place of what the log holds (e.g. one the page kept in
   * `localStorage`); the next turns are numbered after its user messages. Throws a `TypeError`
   * (showing nothing new) if an item is not `{ role: "user" | "assistant", content: string }`.
   */
  load(messages: readonly NeotomaChatMessage[]): void;
  /** Empties the log (messages, errors, panels). The agent and its store are kept, and in the
   *  same conversation turns go on being numbered after the ones already stored. */
  clear(): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'neotoma-chat': NeotomaChatElement;
  }
  interface HTMLElementEventMap {
    /** From a <neotoma-chat> (bubbles, composed): the turn's result. */
    'neotoma-turn': CustomEvent<TurnResult>;
    /** From a <neotoma-chat> (bubbles, composed): what went wrong, as thrown. */
    'neotoma-error': CustomEvent<unknown>;
  }
}
