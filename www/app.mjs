// The chat demo (`make demo`): the package's <neotoma-chat> on an embedded store kept in this
// browser's IndexedDB, so a reload shows the conversation and everything remembered. The model is
// the built-in responder (www/responder.mjs, no key) or any OpenAI-compatible endpoint from the
// settings (the key stays in this tab's memory). When the server was started with NEOTOMA_URL and
// NEOTOMA_TOKEN, the memory can be a real Neotoma instead, through the site's own proxy.

import { EmbeddedStore, indexedDbStoreStorage } from '/pkg/browser.mjs';
import '/pkg/widget.mjs';
import { localResponder } from './responder.mjs';
import { openAIChatWithMemory } from './openai-llm.mjs';

const CONVERSATION_KEY = 'neotoma-demo-conversation';
const DATABASE = 'neotoma-demo';

const $ = (id) => document.getElementById(id);
const chat = $('chat');

const state = {
  /** The embedded store, open on IndexedDB. */
  store: null,
  storage: indexedDbStoreStorage({ databaseName: DATABASE }),
  conversationId: null,
  /** 'embedded' or 'neotoma' (a real Neotoma through /neotoma). */
  where: 'embedded',
  neotomaBaseUrl: null,
};

function status(text, kind = 'ok') {
  $('status').textContent = text;
  $('status').dataset.kind = kind;
}

function newConversationId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `demo-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The conversation's messages as the store holds them, oldest first, for the widget. */
function history(store, conversationId) {
  const index = store.handle('GET', `/conversations/${encodeURIComponent(conversationId)}/turn-index`);
  if (index.status !== 200) return [];
  const rows = [...index.body.turns].sort((a, b) => a.turn_number - b.turn_number || (a.role === 'user' ? -1 : 1));
  return rows.flatMap((row) => {
    const snap = store.handle('POST', '/get_entity_snapshot', { entity_id: row.message_entity_id });
    const content = snap.body?.snapshot?.content;
    return typeof content === 'string' ? [{ role: row.role, content }] : [];
  });
}

/** The newest demo conversation a store holds (after an import into another browser). */
function latestConversation(store) {
  const found = store.handle('POST', '/retrieve_entity_by_identifier', { identifier: 'demo-', entity_type: 'conversation', limit: 100 });
  const ids = (found.body?.entities ?? [])
    .map((e) => e.snapshot?.conversation_id ?? e.snapshot?.snapshot?.conversation_id)
    .filter((id) => typeof id === 'string' && id.startsWith('demo-'));
  return ids.at(-1) ?? null;
}

/** Points the widget at the current store and conversation, showing what is already stored. */
function connect() {
  if (state.where === 'embedded') localStorage.setItem(CONVERSATION_KEY, state.conversationId);
  $('conversation-id').textContent = state.conversationId;
  const transport = state.where === 'neotoma' ? { baseUrl: state.neotomaBaseUrl } : state.store;
  // as options, not an agent: the element then makes the agent itself and times its requests
  chat.agent = null;
  chat.agentOptions = { conversationId: state.conversationId, transport, platform: 'neotoma-agent-wasm demo' };
  if (state.where === 'embedded') {
    chat.load(history(state.store, state.conversationId));
    $('store-current').textContent = 'Kept in this browser (IndexedDB): a reload finds it again.';
  } else {
    chat.clear();
    $('store-current').textContent = 'Kept in the Neotoma server this site forwards to.';
  }
}

function onStoreError(error) {
  status(`This browser could not save the memory: ${error.message}`, 'error');
}

async function openStore(options = {}) {
  state.store = await EmbeddedStore.open(state.storage, { onError: onStoreError, ...options });
}

// ---------------------------------------------------------------- settings

function useBuiltin() {
  chat.llm = localResponder;
  $('model-current').textContent = 'Now: the built-in responder.';
}

$('model-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const baseUrl = $('model-base-url').value.trim();
  const model = $('model-name').value.trim();
  if (!baseUrl || !model) {
    $('model-current').textContent = 'Give a base URL and a model (the key may be empty for a local server).';
    return;
  }
  chat.llm = openAIChatWithMemory({ baseUrl, model, apiKey: $('model-key').value });
  $('model-current').textContent = `Now: ${model} at ${new URL(baseUrl).host}.`;
});
$('model-builtin').addEventListener('click', useBuiltin);

$('store-choice').addEventListener('change', (event) => {
  if (busy()) return;
  state.where = event.target.value;
  // The real Neotoma gets a conversation of its own: the page cannot read its history back
  // (the proxy forwards the turn protocol's calls only), so turns are numbered from 1 again.
  state.conversationId = state.where === 'neotoma' ? newConversationId() : localStorage.getItem(CONVERSATION_KEY);
  connect();
});

$('export').addEventListener('click', async () => {
  await state.store.flush();
  const text = JSON.stringify(state.store.export(), null, 2);
  const link = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(new Blob([text], { type: 'application/json' })),
    download: 'neotoma-memory.json',
  });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
  status('Memory exported to neotoma-memory.json.');
});

/** Whether a turn is running: its writes go to the store it started on, so that store must not
 *  be replaced under it (two stores writing one storage would leave records neither can load). */
function busy() {
  if (!chat.hasAttribute('busy')) return false;
  status('Wait for the reply to finish, then try again.', 'error');
  return true;
}

$('import').addEventListener('change', async (event) => {
  const file = event.target.files?.[0];
  event.target.value = '';
  if (!file || busy()) return;
  try {
    const doc = JSON.parse(await file.text());
    EmbeddedStore.import(doc); // refuses another format before the stored memory is replaced
    await openStore({ import: doc });
    state.conversationId = latestConversation(state.store) ?? newConversationId();
    state.where = 'embedded';
    connect();
    status(`Memory imported from ${file.name}.`);
  } catch (error) {
    status(`That file could not be imported: ${error.message}`, 'error');
  }
});

$('clear').addEventListener('click', async () => {
  if (busy()) return;
  await openStore({ import: new EmbeddedStore().export() }); // the stored records replaced by none
  state.conversationId = newConversationId();
  connect();
  status('Memory cleared: a new conversation.');
});

// ---------------------------------------------------------------- start

try {
  await openStore();
  state.conversationId = localStorage.getItem(CONVERSATION_KEY) ?? newConversationId();
  useBuiltin();
  const config = await fetch('/demo-config.json').then((r) => (r.ok ? r.json() : {}), () => ({}));
  if (config.neotoma?.baseUrl) {
    state.neotomaBaseUrl = config.neotoma.baseUrl;
    $('store-choice').hidden = false;
  }
  connect();
  document.body.dataset.state = 'ready';
  status('Ready.');
} catch (error) {
  document.body.dataset.state = 'error';
  status(`The demo could not start: ${error.message}`, 'error');
}
