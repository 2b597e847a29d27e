// renderTurnReport: the `🧠 Neotoma` markdown report an agent puts under its reply, saying what the
// turn read and wrote. Pure presentation over a turn's result, so plain JS: no wasm is needed to
// format one (`neotoma-agent-wasm/report` loads nothing else; every entry re-exports it).
//
// The layout is upstream's (`renderTurnReport` of `@neotoma/agent`, packages/agent/src/turn_report.ts):
// a `---` rule, a `## 🧠 Neotoma` heading, then the groups `Retrieved (n)`, `Created (n)`,
// `Updated (n)`, `Issues (n)`, `Repairs (n)`, each a label line and a bullet list, a group left out
// when it is empty. An entity is `<emoji> <name> ([<entity_type>](<base>/entities/<id>))`, its type
// linked to the Inspector. Where this differs from upstream, on purpose:
// - a result with nothing to report gives "" (upstream prints the heading and "No durable facts
//   read or written this turn."; that line is kept when only issues or repairs are left);
// - no default Inspector URL (upstream reads NEOTOMA_INSPECTOR_URL or falls back to localhost):
//   without `inspectorBaseUrl` the type is a code span and nothing is linked;
// - names, messages and types are escaped, so a stored name cannot add links, HTML or formatting,
//   and a name longer than NAME_MAX_CHARS is cut;
// - an entity listed twice in a group (by id) is listed once.
//
// The report starts with `---`: put it after a blank line (`reply + "\n\n" + report`), or the rule
// turns the reply's last paragraph into a heading.

import { invalidInput, isObject } from './errors.mjs';

/** Longest entity name shown, in characters (code points); a longer one is cut and ends with `…`. */
const NAME_MAX_CHARS = 120;
const OPTION_NAMES = ['inspectorBaseUrl'];

/** Upstream's default emoji per entity type; any other type gets 🗂️. */
const EMOJI = {
  task: '✅',
  contact: '👤',
  person: '👤',
  company: '🏢',
  event: '📅',
  email_message: '✉\u{fe0f}',
  receipt: '🧾',
  invoice: '🧾',
  transaction: '💸',
  note: '📝',
  location: '📍',
  place: '📍',
  file_asset: '📎',
  research: '🔍',
  competitive_analysis: '🔍',
  market_research: '🔍',
  legal_research: '🔍',
  technical_research: '🔍',
  report: '🔍',
  neotoma_repair: '🛠\u{fe0f}',
  conversation: '🧵',
  product_feedback: '💬',
  conversation_message: '💬',
  agent_message: '💬',
};
const DEFAULT_EMOJI = '🗂\u{fe0f}';

const PENDING_USER = ['User message waiting in the outbox, not yet stored in Neotoma.', 'user-message-pending'];
const PENDING_REPLY = ['Reply waiting in the outbox, not yet stored in Neotoma.', 'assistant-message-pending'];
const PENDING_MESSAGE = ['Message waiting in the outbox, not yet stored in Neotoma.', 'message-pending'];

// Unicode White_Space, not String.prototype.trim's set (which has U+FEFF and lacks U+0085): what is
// blank, trimmed or encoded is exactly what the Rust renderer this replaces took as whitespace.
const WS = '\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const TRIM_END = new RegExp(`[${WS}]+$`);
/** A line break or a control character (Unicode Cc): each becomes a space, so nothing taken from a
 *  result can end the bullet it is in and start a block of its own. */
const BREAKS_LINE = /[\0-\x1f\x7f-\x9f\u2028\u2029]/g;
const BREAK_CHAR = /^[\0-\x1f\x7f-\x9f\u2028\u2029]$/; // not global: .test() keeps no state
/** Markdown's inline syntax (emphasis, code, links, images, raw HTML, entities, strikethrough,
 *  math), GFM's bare autolinks (`https://`, `www.`, the `@` of an e-mail address) and line breaks. */
const ESCAPED = /(?<=[A-Za-z0-9.+\-_])@|[\\`*_[\]<&~$]|:(?=\/\/)|(?<=[wW]{3})\.|[\0-\x1f\x7f-\x9f\u2028\u2029]/g;
/** What would end or break a markdown link destination: whitespace, controls, `<>()\`, quotes. */
const LINK_UNSAFE = new RegExp(`[\\0-\\x1f\\x7f-\\x9f${WS}<>()\\\\"'\`]`, 'g');

const trim = (s) => s.replace(TRIM, '');

/**
 * The report for one turn's result (`TurnResult`, `OpenTurnResult` or `CloseTurnResult`,
 * optionally with `repairs: [{ id, action, message }]`). Missing fields are empty groups; "" when
 * every group is empty. Throws a NeotomaError `INVALID_INPUT` for a result that is not a JSON
 * object, or whose `retrieved`, `produced`, `storeWarnings` or `repairs` is not an array of
 * objects, and for bad options.
 * @param {object} result
 * @param {{ inspectorBaseUrl?: string } | null} [options]
 * @returns {string}
 */
export function renderTurnReport(result, options) {
  if (!isObject(result)) {
    throw invalidInput('renderTurnReport needs a turn result object (TurnResult, OpenTurnResult or CloseTurnResult)');
  }
  const base = readOptions(options);
  const turn = toJson(result, 'result', new Set());

  const produced = objects(turn, 'produced');
  const withAction = (action) => produced.filter((e) => e.action === action);
  const entityGroups = [
    ['Retrieved', entityLines(objects(turn, 'retrieved'), base)],
    ['Created', entityLines(withAction('created'), base)],
    ['Updated', entityLines(withAction('matched_existing'), base)],
  ];
  const otherGroups = [
    ['Issues', issueLines(turn)],
    ['Repairs', repairLines(objects(turn, 'repairs'))],
  ];

  const noEntities = entityGroups.every(([, lines]) => lines.length === 0);
  if (noEntities && otherGroups.every(([, lines]) => lines.length === 0)) return '';
  let out = '---\n\n## 🧠 Neotoma\n\n';
  if (noEntities) out += 'No durable facts read or written this turn.\n\n';
  for (const [label, lines] of [...entityGroups, ...otherGroups]) {
    if (lines.length === 0) continue;
    out += `${label} (${lines.length})\n${lines.map((line) => `- ${line}\n`).join('')}\n`;
  }
  return out.slice(0, -1); // one final newline, as upstream
}

/** The Inspector link prefix, or null for none (no options, no `inspectorBaseUrl`, a blank one). */
function readOptions(options) {
  if (options === undefined || options === null) return null;
  if (!isObject(options)) throw invalidInput('options must be an object');
  for (const key of Object.keys(options)) {
    // A typo (`inspectorBaseURL`) would silently drop the links.
    if (!OPTION_NAMES.includes(key)) {
      throw invalidInput(`options has an unknown option "${key}" (known: ${OPTION_NAMES.join(', ')})`);
    }
  }
  const url = options.inspectorBaseUrl;
  if (url === undefined || url === null) return null;
  if (typeof url !== 'string') throw invalidInput('options.inspectorBaseUrl must be a string');
  if (!url.isWellFormed()) {
    throw invalidInput('options.inspectorBaseUrl contains a lone UTF-16 surrogate, which a URL cannot hold');
  }
  return linkBase(url);
}

/**
 * A copy of `value` holding exactly its JSON: `undefined` members left out (as JSON.stringify
 * does), objects without a prototype (so a field the result lacks is never an inherited one).
 * What JSON cannot hold is refused rather than shown differently from the same result after a
 * JSON round trip (logged, stored, sent): NaN, Infinity, `undefined` in an array, Dates, Maps,
 * class instances, functions, symbols, BigInts, cycles, and strings with lone UTF-16 surrogates
 * (which cannot be percent-encoded into a link).
 */
function toJson(value, path, parents) {
  const refuse = (what) => invalidInput(`${path} ${what}`);
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw refuse('is NaN or Infinity, which JSON cannot hold');
      return value;
    case 'string':
      if (!value.isWellFormed()) throw refuse('contains a lone UTF-16 surrogate (not valid Unicode text)');
      return value;
    case 'object': {
      if (value === null) return null;
      if (parents.has(value)) throw refuse('refers back to itself, which JSON cannot hold');
      const proto = Object.getPrototypeOf(value);
      if (Array.isArray(value)) {
        parents.add(value);
        const out = [];
        // by index, not map(): a hole is `undefined`, which an array cannot hold in JSON
        for (let i = 0; i < value.length; i++) out.push(toJson(value[i], `${path}[${i}]`, parents));
        parents.delete(value);
        return out;
      }
      if (proto !== null && proto !== Object.prototype) break;
      parents.add(value);
      const out = Object.create(null);
      for (const [key, member] of Object.entries(value)) {
        if (member === undefined) continue;
        if (!key.isWellFormed()) {
          throw invalidInput(`a key in ${path} contains a lone UTF-16 surrogate (not valid Unicode text)`);
        }
        out[key] = toJson(member, `${path}.${key}`, parents);
      }
      parents.delete(value);
      return out;
    }
  }
  throw refuse('is not a JSON value (a string, number, boolean, null, array or plain object)');
}

/** `turn[key]`: absent or null is empty; otherwise an array of objects. */
function objects(turn, key) {
  const items = turn[key];
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw invalidInput(`result.${key} must be an array`);
  items.forEach((item, i) => {
    if (!isObject(item)) throw invalidInput(`result.${key}[${i}] must be an object`);
  });
  return items;
}

/** A string field that is not blank, trimmed; else null. */
function text(obj, key) {
  const value = obj[key];
  if (typeof value !== 'string') return null;
  const trimmed = trim(value);
  return trimmed === '' ? null : trimmed;
}

/** Adds `line` unless the group already has it. */
function pushUnique(lines, line) {
  if (!lines.includes(line)) lines.push(line);
}

function entityLines(entities, base) {
  const ids = new Set();
  const lines = [];
  for (const entity of entities) {
    const id = text(entity, 'id') ?? text(entity, 'entity_id');
    if (id !== null) {
      if (ids.has(id)) continue;
      ids.add(id);
    }
    pushUnique(lines, entityLine(entity, id, base));
  }
  return lines;
}

/** `👤 Dana Whitfield ([person](<base>/entities/ent_1))`, or `` (`person`) `` without a base. */
function entityLine(entity, id, base) {
  const entityType = text(entity, 'entity_type');
  const name = truncate(displayName(entity, entityType, id), NAME_MAX_CHARS);
  const typeText = entityType ?? 'entity';
  // base may be "" (an Inspector URL of only slashes): still a link, relative to the page.
  const kind =
    base !== null && id !== null
      ? `[${escapeText(typeText)}](${base}/entities/${encodeComponent(id)})`
      : codeSpan(typeText);
  const emoji = Object.hasOwn(EMOJI, entityType ?? '') ? EMOJI[entityType] : DEFAULT_EMOJI;
  return `${emoji} ${escapeText(name)} (${kind})`;
}

/** The snapshot's `name` or `title`, else the canonical name without its `<entity_type>:` prefix,
 *  else the id. */
function displayName(entity, entityType, id) {
  if (isObject(entity.snapshot)) {
    const name = text(entity.snapshot, 'name') ?? text(entity.snapshot, 'title');
    if (name !== null) return name;
  }
  const canonical = text(entity, 'canonical_name');
  if (canonical !== null) {
    if (entityType !== null && canonical.startsWith(`${entityType}:`)) {
      const bare = trim(canonical.slice(entityType.length + 1));
      if (bare !== '') return bare;
    }
    return canonical;
  }
  return id ?? 'unnamed';
}

function truncate(name, maxChars) {
  const chars = Array.from(name); // code points, not UTF-16 units: an emoji is not cut in half
  if (chars.length <= maxChars) return name;
  return `${chars.slice(0, maxChars - 1).join('').replace(TRIM_END, '')}…`;
}

/** Messages waiting in the outbox, then the store's warnings. */
function issueLines(turn) {
  const pending = [];
  const p = turn.pending;
  if (isObject(p)) {
    // TurnResult: { user, assistant }
    if (p.user === true) pending.push(PENDING_USER);
    if (p.assistant === true) pending.push(PENDING_REPLY);
  } else if (p === true) {
    // OpenTurnResult (the user message) or CloseTurnResult (the reply): told apart by their fields
    const has = (key) => key in turn;
    pending.push(
      has('assistantMessageEntityId') || has('produced')
        ? PENDING_REPLY
        : has('userMessageEntityId')
          ? PENDING_USER
          : PENDING_MESSAGE,
    );
  }
  const lines = [];
  for (const [message, code] of pending) pushUnique(lines, `🟡 ${message} (${codeSpan(code)})`);
  for (const warning of objects(turn, 'storeWarnings')) {
    const message = text(warning, 'message') ?? 'Neotoma warned about this store.';
    const code = text(warning, 'code');
    pushUnique(lines, `🟡 ${escapeText(message)}${code === null ? '' : ` (${codeSpan(code)})`}`);
  }
  return lines;
}

/** `🛠️ <message> (`<id>`, `<action>`)`; without a message the action is the message. */
function repairLines(repairs) {
  const lines = [];
  for (const repair of repairs) {
    const id = text(repair, 'id');
    const action = text(repair, 'action');
    let message = text(repair, 'message');
    let tags = [id, action];
    if (message === null) {
      message = action ?? 'Repair applied.';
      tags = [id];
    }
    tags = tags.filter((tag) => tag !== null).map(codeSpan);
    pushUnique(lines, `🛠\u{fe0f} ${escapeText(message)}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}`);
  }
  return lines;
}

/**
 * Text shown as it is: markdown's inline syntax backslash-escaped, GFM's bare autolinks broken
 * (`https\://`, `www\.`, and U+2060 WORD JOINER before the `@` of an e-mail address: GFM links
 * `local@domain.tld` whatever is escaped, as it joins text nodes before it looks), line breaks and
 * control characters made spaces. Block syntax (`#`, `>`, `-`) only counts at the start of a
 * line, where such text never is.
 */
function escapeText(s) {
  return s.replace(ESCAPED, (c) => (c === '@' ? '\u2060@' : BREAK_CHAR.test(c) ? ' ' : `\\${c}`));
}

/** A code span holding `s` exactly: fenced with one backtick more than its longest run of
 *  backticks, padded with a space where CommonMark would otherwise strip or misread one. */
function codeSpan(s) {
  const content = s.replace(BREAKS_LINE, ' ');
  const longest = (content.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad =
    content.startsWith('`') || content.endsWith('`') ||
    (content.startsWith(' ') && content.endsWith(' ') && trim(content) !== '')
      ? ' '
      : '';
  return `${fence}${pad}${content}${pad}${fence}`;
}

/** An id as one URL path segment: RFC 3986 unreserved characters kept, the rest percent-encoded
 *  as UTF-8 (encodeURIComponent also keeps `!'()*`, and `(` `)` would end the link). */
function encodeComponent(s) {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The Inspector base as a link prefix: trimmed, trailing slashes dropped, and what would end or
 *  break a markdown link destination percent-encoded. null for a blank one. */
function linkBase(url) {
  const trimmed = trim(url);
  if (trimmed === '') return null;
  return trimmed.replace(/\/+$/, '').replace(LINK_UNSAFE, encodeComponent);
}
