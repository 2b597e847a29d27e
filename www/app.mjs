// The chat demo: a NeotomaAgent on an EmbeddedStore in this tab, a built-in responder that
// answers only from what retrieval found, and panels showing what each turn retrieved and stored.
// No framework, no network beyond this origin. User text is only ever set as textContent.

const $ = (sel) => document.querySelector(sel);

const ui = {
  body: document.body,
  status: $('#status'),
  conversationId: $('#conversation-id'),
  newConversation: $('#new-conversation'),
  messages: $('#messages'),
  composer: $('#composer'),
  input: $('#message'),
  send: $('#send'),
  chips: [...document.querySelectorAll('[data-example]')],
  turnLabel: $('#turn-label'),
  turnEmpty: $('#turn-empty'),
  turnDetails: $('#turn-details'),
  extracted: $('#extracted'),
  retrieved: $('#retrieved'),
  stored: $('#stored'),
  turnIndex: $('#turn-index'),
  turnIndexPath: $('#turn-index-path'),
  known: $('#known-entities'),
  addEntity: $('#add-entity'),
  entityType: $('#entity-type'),
  entityName: $('#entity-name'),
};

/** What the store holds besides conversations, for the side panel and for naming ids. */
const SEED = [
  { entity_type: 'company', name: 'Acme Corp', industry: 'aerospace', headquarters: 'Denver' },
  { entity_type: 'project', name: 'Project Falcon', status: 'in progress', owner: 'Sarah Chen' },
  { entity_type: 'person', name: 'Sarah Chen', role: 'engineering lead at Acme Corp', email: 'sarah.chen@acme.example' },
];

/** A demo-sized cap on one message (the package default is 1 MB). */
const MAX_MESSAGE_BYTES = 16 * 1024;
const SHOWN_CHARS = 2000;

const state = {
  lib: null,
  store: null,
  agent: null,
  conversationId: '',
  busy: false,
  names: new Map(), // entity id -> display name
  known: [], // [{id, entity_type, name}]
};

// ---------------------------------------------------------------- small DOM helpers

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const code = (text, title) => el('code', { class: 'id', title: title ?? text, text });

function entityName(e) {
  const s = e.snapshot ?? {};
  return s.name ?? s.title ?? s.full_name ?? (e.canonical_name ? String(e.canonical_name).replace(/^[a-z_]+:/, '') : null) ?? e.id;
}

function nameOf(id) {
  return state.names.get(id) ?? id;
}

function entityChip(id, type) {
  return el('span', { class: 'entity', title: id }, el('span', { class: 'entity-name', text: nameOf(id) }), type ? el('span', { class: 'type', text: type }) : null);
}

function setStatus(text, kind = '') {
  ui.status.textContent = text;
  ui.status.dataset.kind = kind;
}

function setBusy(busy) {
  state.busy = busy;
  ui.send.disabled = busy;
  ui.input.disabled = false;
  ui.newConversation.disabled = busy;
  for (const chip of ui.chips) chip.disabled = busy;
  ui.addEntity.querySelector('button').disabled = busy;
  ui.body.dataset.state = busy ? 'busy' : 'ready';
  ui.send.textContent = busy ? 'Sending…' : 'Send';
}

function scrollChat() {
  ui.messages.scrollTop = ui.messages.scrollHeight;
}

// ---------------------------------------------------------------- the responder

function joinList(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function describe(e) {
  const facts = Object.entries(e.snapshot ?? {})
    .filter(([k, v]) => !['name', 'title'].includes(k) && (typeof v === 'string' || typeof v === 'number'))
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`);
  return `${entityName(e)} (${e.entity_type}${facts.length ? `; ${facts.join('; ')}` : ''})`;
}

/** The built-in "LLM": answers only from ctx.retrieved, and so cites exactly what it found. */
function responder(userMessage, ctx) {
  if (!ctx.retrieved.length) {
    return "I don't have anything stored about that yet. Add it under “In the store” and ask again.";
  }
  return `I found ${joinList(ctx.retrieved.map(describe))}.`;
}

/** The responder's reply as a model streams it: a few words at a time (`turnStream`). */
async function* streamingResponder(userMessage, ctx) {
  for (const words of responder(userMessage, ctx).match(/(?:\S+\s*){1,3}/g) ?? ['']) {
    yield words;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

// ---------------------------------------------------------------- rendering

function addMessage(role, text, extra = {}) {
  const item = el(
    'li',
    { class: `message ${role}`, dataset: { role } },
    el('span', { class: 'who', text: role === 'user' ? 'You' : role === 'assistant' ? 'Assistant' : 'Error' }),
    el('p', { class: 'text', text }),
  );
  if (extra.meta) item.append(el('p', { class: 'meta', text: extra.meta }));
  ui.messages.append(item);
  scrollChat();
  return item;
}

function addError(err) {
  const codeText = err && err.code ? err.code : err && err.name ? err.name : 'ERROR';
  const item = el(
    'li',
    { class: 'message error', role: 'alert', dataset: { role: 'error', code: codeText } },
    el('span', { class: 'who', text: 'Error' }),
    el('p', { class: 'text' }, el('strong', { class: 'code', text: codeText }), ' ', err && err.message ? err.message : String(err)),
  );
  if (err && err.status) item.append(el('p', { class: 'meta', text: `HTTP status ${err.status}` }));
  ui.messages.append(item);
  scrollChat();
}

function renderTurn(message, extracted, result) {
  ui.turnEmpty.hidden = true;
  ui.turnDetails.hidden = false;
  ui.turnLabel.textContent = `#${result.turnNumber}`;

  ui.extracted.replaceChildren(
    ...(extracted.length
      ? extracted.map((id) => el('li', { class: 'tag', text: id }))
      : [el('li', { class: 'muted', text: 'none' })]),
  );

  for (const e of result.retrieved) state.names.set(e.id, entityName(e));
  ui.retrieved.replaceChildren(
    ...(result.retrieved.length
      ? result.retrieved.map((e) =>
          el('tr', { dataset: { entityId: e.id } },
            el('td', { class: 'entity-name', text: entityName(e) }),
            el('td', {}, el('span', { class: 'type', text: e.entity_type })),
            el('td', {}, code(e.id)),
            el('td', { text: e.identifier })))
      : [el('tr', { class: 'empty' }, el('td', { colspan: 4, text: 'Nothing found for this message.' }))]),
  );

  const flag = (b) => el('span', { class: `flag ${b ? 'on' : 'off'}`, text: b ? 'yes' : 'no' });
  const rows = [
    ['Turn', el('span', {}, `#${result.turnNumber} · `, code(result.turnId))],
    ['Conversation entity', code(result.conversationEntityId)],
    ['User message', code(result.userMessageEntityId)],
    ['Assistant message', code(result.assistantMessageEntityId)],
    ['User REFERS_TO', result.retrievedEntityIds.length ? el('span', { class: 'chips' }, result.retrievedEntityIds.map((id) => entityChip(id))) : el('span', { class: 'muted', text: 'nothing' })],
    ['Assistant REFERS_TO', result.refersTo.length ? el('span', { class: 'chips' }, result.refersTo.map((id) => entityChip(id))) : el('span', { class: 'muted', text: 'nothing' })],
    ['Replayed', el('span', {}, 'user ', flag(result.replayed.user), ' · assistant ', flag(result.replayed.assistant))],
    ['Store warnings', renderWarnings(result.storeWarnings)],
  ];
  ui.stored.replaceChildren(
    ...rows.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { dataset: { field: k.toLowerCase().replace(/[^a-z]+/g, '-') } }, v)]),
  );
}

/** Warnings, one line per code (the same warning comes back from both stores of a turn). */
function renderWarnings(warnings) {
  if (!warnings.length) return el('span', { class: 'muted', text: 'none' });
  const byCode = new Map();
  for (const w of warnings) {
    const code = w.code ?? 'WARNING';
    if (!byCode.has(code)) byCode.set(code, { count: 0, message: w.message ?? '' });
    byCode.get(code).count++;
  }
  return el('ul', { class: 'warnings' },
    [...byCode].map(([code, { count, message }]) =>
      el('li', {},
        el('details', {},
          el('summary', {}, el('strong', { text: code }), count > 1 ? ` ×${count}` : ''),
          el('p', { text: message })))));
}

function renderTurnIndex() {
  const path = `/conversations/${encodeURIComponent(state.conversationId)}/turn-index`;
  ui.turnIndexPath.textContent = `GET ${path}`;
  const res = state.store.handle('GET', path);
  if (res.status === 404) {
    ui.turnIndex.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: 5, text: 'No messages yet.' })));
    return;
  }
  if (res.status !== 200) {
    ui.turnIndex.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: 5, text: `turn-index answered ${res.status}` })));
    return;
  }
  const turns = res.body.turns ?? [];
  if (!turns.length) {
    ui.turnIndex.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: 5, text: 'No messages yet.' })));
    return;
  }
  const list = (xs) =>
    xs.length
      ? el('span', { class: 'chips' }, xs.map((x) => {
          state.names.set(x.entity_id, state.names.get(x.entity_id) ?? x.canonical_name ?? x.entity_id);
          return entityChip(x.entity_id, x.entity_type);
        }))
      : el('span', { class: 'muted', text: '—' });
  ui.turnIndex.replaceChildren(
    ...turns.map((t) =>
      el('tr', { dataset: { role: t.role, turnKey: t.turn_key } },
        el('td', { class: 'num', text: String(t.turn_number) }),
        el('td', {}, el('span', { class: `role ${t.role}`, text: t.role })),
        el('td', { class: 'preview', title: t.turn_key, text: t.content_preview }),
        el('td', { class: 'stored' }, list(t.stored ?? [])),
        el('td', { class: 'retrieved' }, list(t.retrieved ?? [])))),
  );
}

function renderKnown() {
  ui.known.replaceChildren(
    ...state.known.map((e) =>
      el('li', { dataset: { entityId: e.id } },
        el('span', { class: 'entity-name', text: e.name }),
        el('span', { class: 'type', text: e.entity_type }),
        code(e.id))),
  );
}

// ---------------------------------------------------------------- actions

async function addToStore(entity, idempotencyKey) {
  const res = await state.store.store({ entities: [entity], idempotency_key: idempotencyKey });
  const stored = res.entities[0];
  const id = stored.entity_id;
  state.names.set(id, entity.name);
  if (!state.known.some((k) => k.id === id)) state.known.push({ id, entity_type: entity.entity_type, name: entity.name });
  renderKnown();
  return id;
}

function randomSuffix() {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function startConversation() {
  // A fresh id per page load: the embedded store lives in this tab's memory only.
  state.conversationId = `demo-${randomSuffix()}`;
  state.agent = new state.lib.NeotomaAgent({
    conversationId: state.conversationId,
    conversationTitle: 'Demo conversation',
    platform: 'neotoma-agent-wasm demo',
    transport: state.store,
    maxMessageBytes: MAX_MESSAGE_BYTES,
  });
  ui.conversationId.textContent = state.conversationId;
  ui.messages.querySelectorAll('.message:not(#welcome)').forEach((n) => n.remove());
  ui.turnEmpty.hidden = false;
  ui.turnDetails.hidden = true;
  ui.turnLabel.textContent = '';
  renderTurnIndex();
}

async function sendMessage(text) {
  if (state.busy) return;
  const message = text.replace(/\s+$/, '');
  if (!message.trim()) {
    ui.input.focus();
    return;
  }
  setBusy(true);
  setStatus('Running the turn…', 'busy');
  addMessage('user', message.length > SHOWN_CHARS ? `${message.slice(0, SHOWN_CHARS)}… (${message.length} characters)` : message);
  ui.input.value = '';
  const extracted = state.lib.extractIdentifiers(message);
  const t0 = performance.now();
  let bubble = null;
  try {
    // The reply renders as it streams; `done` is the TurnResult once the reply is stored.
    const { textStream, done } = state.agent.turnStream(message, streamingResponder);
    let chunks = 0;
    for await (const text of textStream) {
      bubble ??= addMessage('assistant', '');
      bubble.querySelector('.text').textContent += text;
      bubble.dataset.chunks = String(++chunks);
      scrollChat();
    }
    const result = await done;
    const ms = performance.now() - t0;
    bubble ??= addMessage('assistant', '');
    bubble.querySelector('.text').textContent = result.assistantMessage;
    bubble.append(el('p', { class: 'meta', text: `${result.retrieved.length} retrieved · refers to ${result.refersTo.length} · ${ms.toFixed(0)} ms` }));
    renderTurn(message, extracted, result);
    setStatus(`Turn ${result.turnNumber} stored`, 'ok');
  } catch (err) {
    bubble?.remove(); // a reply that was not stored is not shown as one
    addError(err);
    setStatus(`Error: ${err && err.code ? err.code : 'unexpected'}`, 'error');
  } finally {
    renderTurnIndex();
    setBusy(false);
    ui.input.focus();
  }
}

// ---------------------------------------------------------------- start-up

async function main() {
  try {
    state.lib = await import('../pkg/browser.mjs');
  } catch (err) {
    setStatus('Could not load /pkg/browser.mjs: run `make pkg`', 'error');
    addError(Object.assign(new Error(String(err && err.message ? err.message : err)), { code: 'PKG_NOT_LOADED' }));
    ui.body.dataset.state = 'error';
    return;
  }
  state.store = new state.lib.EmbeddedStore();
  for (const entity of SEED) {
    await addToStore(entity, `demo-seed-${entity.entity_type}-${entity.name}`);
  }
  startConversation();

  ui.composer.addEventListener('submit', (ev) => {
    ev.preventDefault();
    sendMessage(ui.input.value);
  });
  ui.input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      sendMessage(ui.input.value);
    }
  });
  for (const chip of ui.chips) {
    chip.addEventListener('click', () => sendMessage(chip.dataset.example));
  }
  ui.newConversation.addEventListener('click', () => {
    startConversation();
    setStatus('New conversation', 'ok');
    ui.input.focus();
  });
  ui.addEntity.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const name = ui.entityName.value.trim();
    if (!name) return;
    const entity_type = ui.entityType.value;
    try {
      await addToStore({ entity_type, name }, `demo-${entity_type}-${name}`);
      ui.entityName.value = '';
      setStatus(`Stored ${entity_type} “${name}”`, 'ok');
    } catch (err) {
      addError(err);
    }
  });

  setBusy(false);
  setStatus('Ready', 'ok');
  ui.input.focus();
}

main();
