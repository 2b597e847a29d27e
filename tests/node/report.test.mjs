// renderTurnReport (js/report.mjs, plain JS, re-exported by every entry): the `🧠 Neotoma` markdown
// report of a turn's result.
//
//   real turns    on the embedded store (a person created, then retrieved and produced again so she
//                 is matched_existing), with and without an Inspector base URL; a quiet turn's
//                 report is ""; what is not a turn result is refused
//   the renderer  exact markdown for every group, links and their encoding, names, escaping,
//                 truncation, issues of TurnResult / OpenTurnResult / CloseTurnResult, repairs,
//                 dedupe, refusals (the unit tests of the Rust renderer it replaced, ported)
//   ./report      `neotoma-agent-wasm/report` alone, in a Node with no WebAssembly at all

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent, renderTurnReport } from 'neotoma-agent-wasm';
import { renderTurnReport as renderFromSubpath } from 'neotoma-agent-wasm/report';
import { randomId } from '../server/harness.mjs';
import { describeRun, runNode } from '../packaging/helpers.mjs';

const DANA = { entity_type: 'person', name: 'Dana Whitfield' };

test('the report of two real turns: Dana created, then retrieved and matched', { timeout: 10_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: randomId('report') });
  const first = await agent.turn(
    'My colleague Dana Whitfield leads the launch.',
    () => ({ text: "Noted: I'll remember Dana Whitfield.", entities: [DANA] }),
    { turnId: 't1' },
  );
  const [created] = first.produced;
  assert.equal(created.action, 'created');
  const id = created.id;
  assert.match(id, /^ent_/);

  assert.equal(
    renderTurnReport(first),
    [
      '---',
      '',
      '## 🧠 Neotoma',
      '',
      'Created (1)',
      '- 👤 Dana Whitfield (`person`)',
      '',
    ].join('\n'),
  );
  assert.equal(
    renderTurnReport(first, { inspectorBaseUrl: 'https://inspector.example/' }),
    [
      '---',
      '',
      '## 🧠 Neotoma',
      '',
      'Created (1)',
      `- 👤 Dana Whitfield ([person](https://inspector.example/entities/${id}))`,
      '',
    ].join('\n'),
  );

  const second = await agent.turn(
    'What do you know about Dana Whitfield?',
    (message, ctx) => {
      assert.ok(ctx.retrieved.some((e) => e.id === id), 'Dana is retrieved');
      return { text: 'Dana Whitfield leads the launch.', entities: [DANA] };
    },
    { turnId: 't2' },
  );
  assert.deepEqual(second.produced.map((p) => [p.id, p.action]), [[id, 'matched_existing']]);
  assert.deepEqual(second.retrieved.map((e) => e.id), [id], 'only Dana is retrieved');

  const base = 'http://localhost:3080';
  assert.equal(
    renderTurnReport(second, { inspectorBaseUrl: base }),
    [
      '---',
      '',
      '## 🧠 Neotoma',
      '',
      'Retrieved (1)',
      `- 👤 Dana Whitfield ([person](${base}/entities/${id}))`,
      '',
      'Updated (1)',
      `- 👤 Dana Whitfield ([person](${base}/entities/${id}))`,
      '',
    ].join('\n'),
  );
  assert.equal(
    renderTurnReport(second),
    [
      '---',
      '',
      '## 🧠 Neotoma',
      '',
      'Retrieved (1)',
      '- 👤 Dana Whitfield (`person`)',
      '',
      'Updated (1)',
      '- 👤 Dana Whitfield (`person`)',
      '',
    ].join('\n'),
  );
  // no options, undefined and null options, and an empty base all mean no links
  for (const options of [undefined, null, {}, { inspectorBaseUrl: '' }]) {
    assert.equal(renderTurnReport(second, options), renderTurnReport(second), JSON.stringify(options));
  }

  // repairs (what a future repairTurn() returns) are listed after the entities
  const repaired = { ...second, repairs: [{ id: 'refers-to-missing', action: 'create_relationship', message: 'Re-created the edge to Dana.' }] };
  assert.ok(
    renderTurnReport(repaired).endsWith(
      '\nRepairs (1)\n- 🛠️ Re-created the edge to Dana. (`refers-to-missing`, `create_relationship`)\n',
    ),
  );
});

test('a turn that read and wrote nothing has an empty report', { timeout: 10_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: randomId('report-quiet') });
  const result = await agent.turn('hello there', () => 'Hi!');
  assert.deepEqual([result.retrieved, result.produced, result.storeWarnings], [[], [], []]);
  assert.equal(renderTurnReport(result, { inspectorBaseUrl: 'https://inspector.example' }), '');
});

test('openTurn and closeTurn results are reported too', { timeout: 10_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: randomId('report-open') });
  await agent.turn('Dana Whitfield joined.', () => ({ text: 'Noted.', entities: [DANA] }));
  const open = await agent.openTurn({ userMessage: 'Is Dana Whitfield around?' });
  assert.equal(
    renderTurnReport(open),
    '---\n\n## 🧠 Neotoma\n\nRetrieved (1)\n- 👤 Dana Whitfield (`person`)\n',
  );
  const close = await agent.closeTurn({ turnId: open.turnId, assistantMessage: 'Yes.' });
  assert.equal(renderTurnReport(close), '');
  // pending messages are issues
  assert.equal(
    renderTurnReport({ ...close, pending: true }),
    '---\n\n## 🧠 Neotoma\n\nNo durable facts read or written this turn.\n\n' +
      'Issues (1)\n- 🟡 Reply waiting in the outbox, not yet stored in Neotoma. (`assistant-message-pending`)\n',
  );
});

test('a stored name cannot inject links or formatting', () => {
  const result = {
    retrieved: [
      { id: 'ent_1', entity_type: 'person', canonical_name: null, snapshot: { name: '[click](https://evil.example) **now**\n# big' }, identifier: 'x' },
    ],
  };
  assert.equal(
    renderTurnReport(result, { inspectorBaseUrl: 'https://inspector.example' }),
    '---\n\n## 🧠 Neotoma\n\nRetrieved (1)\n' +
      '- 👤 \\[click\\](https\\://evil.example) \\*\\*now\\*\\* # big ([person](https://inspector.example/entities/ent_1))\n',
  );
});

test('what is not a turn result is refused with INVALID_INPUT', () => {
  const invalid = (fn, what) => {
    assert.throws(fn, (err) => {
      assert.ok(err instanceof Error, `${what}: an Error`);
      assert.equal(err.name, 'NeotomaError', what);
      assert.equal(err.code, 'INVALID_INPUT', `${what}: ${err.message}`);
      return true;
    }, what);
  };
  for (const bad of [undefined, null, 'result', 42, true, [], [{ retrieved: [] }], () => ({})]) {
    invalid(() => renderTurnReport(bad), String(bad));
  }
  invalid(() => renderTurnReport({ retrieved: 'Dana' }), 'retrieved not an array');
  invalid(() => renderTurnReport({ produced: ['ent_1'] }), 'produced of strings');
  invalid(() => renderTurnReport({ repairs: {} }), 'repairs not an array');
  invalid(() => renderTurnReport({ retrieved: [{ id: 'e', snapshot: { when: new Date() } }] }), 'a Date inside');
  invalid(() => renderTurnReport(new Date()), 'a Date');
  invalid(() => renderTurnReport({}, 'https://inspector.example'), 'options as a string');
  invalid(() => renderTurnReport({}, { inspectorBaseURL: 'https://x.example' }), 'a misspelt option');
  invalid(() => renderTurnReport({}, { inspectorBaseUrl: 42 }), 'inspectorBaseUrl not a string');
  const err = (() => {
    try {
      renderTurnReport({}, { inspectorBaseURL: 'x' });
    } catch (e) {
      return e;
    }
  })();
  assert.match(err.message, /inspectorBaseURL/);
});

// --- the renderer, case by case (ported from the Rust renderer's unit tests) -------------------

const BASE = 'https://inspector.example/';
const NAME_MAX_CHARS = 120;

const render = (result, base) => renderTurnReport(result, base === undefined ? undefined : { inspectorBaseUrl: base });

function refusal(result) {
  try {
    renderTurnReport(result);
  } catch (err) {
    return err;
  }
  assert.fail(`not refused: ${JSON.stringify(result)}`);
}

/** A TurnResult as `agent.turn` gives it, with something in every group. */
function fullTurn() {
  return {
    assistantMessage: 'Dana leads Kestrel.',
    turnId: 't2',
    turnNumber: 2,
    conversationEntityId: 'ent_conv',
    userMessageEntityId: 'ent_user',
    assistantMessageEntityId: null,
    retrieved: [
      { id: 'ent_dana', entity_type: 'person', canonical_name: 'person:Dana Whitfield', snapshot: { name: 'Dana Whitfield' }, identifier: 'Dana' },
      { id: 'ent_kestrel', entity_type: 'project', canonical_name: 'project:Project Kestrel', snapshot: {}, identifier: 'Kestrel' },
      { id: 'ent_call', entity_type: 'task', canonical_name: null, snapshot: { title: 'Call the printer' }, identifier: 'printer' },
    ],
    retrievedEntityIds: ['ent_dana', 'ent_kestrel', 'ent_call'],
    refersTo: ['ent_dana'],
    produced: [
      { id: 'ent_acme', entity_type: 'company', canonical_name: 'Acme', action: 'created', warnings: [] },
      { id: 'ent_note', entity_type: 'note', canonical_name: 'note:ent_note', action: 'created', warnings: [] },
      { id: 'ent_dana', entity_type: 'person', canonical_name: 'person:Dana Whitfield', action: 'matched_existing', warnings: [] },
    ],
    replayed: { user: false, assistant: false },
    pending: { user: false, assistant: true },
    storeWarnings: [
      {
        code: 'UNKNOWN_FIELD',
        message: 'person stored with field "organisation" that is not declared.',
        observation_index: 2,
        entity_type: 'person',
        entity_id: 'ent_dana',
      },
    ],
    repairs: [
      { id: 'refers-to-missing:ent_dana', action: 'create_relationship', message: 'Re-created the REFERS_TO edge to Dana Whitfield.' },
    ],
  };
}

test('every group, linked to the Inspector', () => {
  assert.equal(
    render(fullTurn(), BASE),
    `---

## 🧠 Neotoma

Retrieved (3)
- 👤 Dana Whitfield ([person](https://inspector.example/entities/ent_dana))
- 🗂\u{fe0f} Project Kestrel ([project](https://inspector.example/entities/ent_kestrel))
- ✅ Call the printer ([task](https://inspector.example/entities/ent_call))

Created (2)
- 🏢 Acme ([company](https://inspector.example/entities/ent_acme))
- 📝 ent\\_note ([note](https://inspector.example/entities/ent_note))

Updated (1)
- 👤 Dana Whitfield ([person](https://inspector.example/entities/ent_dana))

Issues (2)
- 🟡 Reply waiting in the outbox, not yet stored in Neotoma. (\`assistant-message-pending\`)
- 🟡 person stored with field "organisation" that is not declared. (\`UNKNOWN_FIELD\`)

Repairs (1)
- 🛠\u{fe0f} Re-created the REFERS\\_TO edge to Dana Whitfield. (\`refers-to-missing:ent_dana\`, \`create_relationship\`)
`,
  );
});

test('without a base URL nothing is linked', () => {
  const report = render(fullTurn());
  assert.ok(
    report.startsWith(`---

## 🧠 Neotoma

Retrieved (3)
- 👤 Dana Whitfield (\`person\`)
- 🗂\u{fe0f} Project Kestrel (\`project\`)
- ✅ Call the printer (\`task\`)

Created (2)
- 🏢 Acme (\`company\`)
- 📝 ent\\_note (\`note\`)

Updated (1)
- 👤 Dana Whitfield (\`person\`)

Issues (2)
`),
    report,
  );
  assert.ok(!report.includes(']('), report);
  // a blank base is no base
  assert.equal(render(fullTurn(), '  '), report);
});

test('the base URL loses trailing slashes and ids are URL-encoded', () => {
  const turn = { retrieved: [{ id: 'ent 1/é?#)', entity_type: 'person', snapshot: { name: 'Odd Id' } }] };
  const line = '- 👤 Odd Id ([person](https://x.example/neotoma/entities/ent%201%2F%C3%A9%3F%23%29))';
  for (const base of ['https://x.example/neotoma', 'https://x.example/neotoma/', ' https://x.example/neotoma// ']) {
    assert.ok(render(turn, base).includes(line), base);
  }
  // what would end the link destination is encoded in the base too
  const odd = render(turn, '/inspect me (local)/');
  assert.ok(odd.includes('([person](/inspect%20me%20%28local%29/entities/ent%201%2F%C3%A9%3F%23%29))'), odd);
});

test('names come from the snapshot, then the canonical name, then the id', () => {
  const turn = {
    retrieved: [
      { id: 'e1', entity_type: 'person', canonical_name: 'person:Dana W', snapshot: { name: 'Dana Whitfield', title: 'CTO' } },
      { id: 'e2', entity_type: 'note', canonical_name: 'note:Weekly sync', snapshot: { name: '  ', title: 'Sync notes' } },
      { id: 'e3', entity_type: 'person', canonical_name: 'person:Lee Park' },
      { id: 'e4', entity_type: 'company', canonical_name: 'company:' },
      { id: 'e5', entity_type: 'event', canonical_name: 'Launch: day one' },
      { id: 'e6', entity_type: 'place' },
      { entity_type: 'place' },
      { id: 'e8' },
    ],
  };
  assert.equal(
    render(turn),
    `---

## 🧠 Neotoma

Retrieved (8)
- 👤 Dana Whitfield (\`person\`)
- 📝 Sync notes (\`note\`)
- 👤 Lee Park (\`person\`)
- 🏢 company: (\`company\`)
- 📅 Launch: day one (\`event\`)
- 📍 e6 (\`place\`)
- 📍 unnamed (\`place\`)
- 🗂\u{fe0f} e8 (\`entity\`)
`,
  );
});

test('names are escaped so they cannot link or format', () => {
  const names = [
    ['[click](https://evil.example)', '\\[click\\](https\\://evil.example)'],
    ['![x](https://evil.example/p.png)', '!\\[x\\](https\\://evil.example/p.png)'],
    ['<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)>'],
    ['<https://evil.example>', '\\<https\\://evil.example>'],
    ['**bold** _em_ ~~gone~~ `code`', '\\*\\*bold\\*\\* \\_em\\_ \\~\\~gone\\~\\~ \\`code\\`'],
    ['see www.evil.example or WWW.x.y', 'see www\\.evil.example or WWW\\.x.y'],
    // U+2060 WORD JOINER before the `@` of an e-mail address (GFM autolinks it whatever is escaped)
    ['mail dana@evil.example, @home', 'mail dana\u{2060}@evil.example, @home'],
    ['mailto:a@b.example', 'mailto:a\u{2060}@b.example'],
    ['AT&amp;T $x$ C:\\dir\\', 'AT\\&amp;T \\$x\\$ C:\\\\dir\\\\'],
    ['two\nlines\r\n# heading\u{2028}- item\u{0}', 'two lines  # heading - item '],
    ['Ünïcødé 名前 🙂', 'Ünïcødé 名前 🙂'],
  ];
  for (const [name, shown] of names) {
    const turn = { produced: [{ id: 'e1', entity_type: 'person', canonical_name: `person:${name}`, action: 'created' }] };
    const report = render(turn, BASE);
    const expected = `\n- 👤 ${shown} ([person](https://inspector.example/entities/e1))\n`;
    assert.ok(report.includes(expected), `${JSON.stringify(name)}:\n${report}`);
  }
  // the entity type, a warning's code and message, a repair: the same
  const turn = {
    retrieved: [{ id: 'e1', entity_type: 'x](https://evil.example)', snapshot: { name: 'n' } }],
    storeWarnings: [{ code: 'A`B', message: '<b>bold</b>\n## heading' }],
    repairs: [{ id: '``', action: '` x', message: '[fix](javascript:alert(1))' }],
  };
  assert.equal(
    render(turn, BASE),
    `---

## 🧠 Neotoma

Retrieved (1)
- 🗂\u{fe0f} n ([x\\](https\\://evil.example)](https://inspector.example/entities/e1))

Issues (1)
- 🟡 \\<b>bold\\</b> ## heading (\`\`A\`B\`\`)

Repairs (1)
- 🛠\u{fe0f} \\[fix\\](javascript:alert(1)) (\`\`\` \`\` \`\`\`, \`\` \` x \`\`)
`,
  );
  assert.ok(render(turn).includes('- 🗂\u{fe0f} n (`x](https://evil.example)`)\n'));
});

test('long names are cut', () => {
  const long = 'x'.repeat(NAME_MAX_CHARS + 1);
  const turn = { retrieved: [{ id: 'e1', entity_type: 'note', snapshot: { title: long } }] };
  assert.ok(render(turn).includes(`- 📝 ${'x'.repeat(NAME_MAX_CHARS - 1)}… (\`note\`)\n`));
  // characters, not UTF-16 units or bytes: 120 two-byte characters (or emoji) are not cut
  for (const exact of ['é'.repeat(NAME_MAX_CHARS), '🙂'.repeat(NAME_MAX_CHARS)]) {
    const turn = { retrieved: [{ id: 'e1', entity_type: 'note', snapshot: { title: exact } }] };
    assert.ok(render(turn).includes(`- 📝 ${exact} (\`note\`)\n`));
  }
});

test('an empty result renders nothing', () => {
  assert.equal(render({}, BASE), '');
  const quiet = {
    assistantMessage: 'Hello.', turnId: 't1', turnNumber: 1,
    conversationEntityId: 'ent_c', userMessageEntityId: 'ent_u',
    assistantMessageEntityId: 'ent_a', retrieved: [], retrievedEntityIds: [],
    refersTo: [], produced: [], replayed: { user: true, assistant: true },
    pending: { user: false, assistant: false }, storeWarnings: [], repairs: null,
  };
  assert.equal(render(quiet, BASE), '');
});

test('pending messages and warnings are issues', () => {
  const turn = {
    retrieved: [],
    produced: [],
    pending: { user: true, assistant: true },
    storeWarnings: [
      { code: 'UNKNOWN_FIELD', message: 'Field dropped.' },
      { code: 'UNKNOWN_FIELD', message: 'Field dropped.' },
      { code: 'REFERS_TO_REPAIR_FAILED' },
      { message: 'No code here.' },
      {},
    ],
  };
  assert.equal(
    render(turn, BASE),
    `---

## 🧠 Neotoma

No durable facts read or written this turn.

Issues (6)
- 🟡 User message waiting in the outbox, not yet stored in Neotoma. (\`user-message-pending\`)
- 🟡 Reply waiting in the outbox, not yet stored in Neotoma. (\`assistant-message-pending\`)
- 🟡 Field dropped. (\`UNKNOWN_FIELD\`)
- 🟡 Neotoma warned about this store. (\`REFERS_TO_REPAIR_FAILED\`)
- 🟡 No code here.
- 🟡 Neotoma warned about this store.
`,
  );
});

test('OpenTurnResult and CloseTurnResult are read too', () => {
  const open = {
    turnId: 't1', turnNumber: 1, conversationEntityId: null,
    userMessageEntityId: null,
    retrieved: [{ id: 'ent_dana', entity_type: 'person', canonical_name: 'person:Dana Whitfield', snapshot: {}, identifier: 'Dana' }],
    retrievedEntityIds: ['ent_dana'], replayed: false, pending: true, storeWarnings: [],
  };
  assert.equal(
    render(open, BASE),
    `---

## 🧠 Neotoma

Retrieved (1)
- 👤 Dana Whitfield ([person](https://inspector.example/entities/ent_dana))

Issues (1)
- 🟡 User message waiting in the outbox, not yet stored in Neotoma. (\`user-message-pending\`)
`,
  );
  const close = {
    turnId: 't1', conversationEntityId: null, assistantMessageEntityId: null,
    refersTo: [], produced: [], replayed: false, pending: true, storeWarnings: [],
  };
  assert.ok(
    render(close).endsWith(
      'Issues (1)\n- 🟡 Reply waiting in the outbox, not yet stored in Neotoma. (`assistant-message-pending`)\n',
    ),
  );
  assert.ok(
    render({ pending: true }).endsWith(
      '- 🟡 Message waiting in the outbox, not yet stored in Neotoma. (`message-pending`)\n',
    ),
  );
  // an undefined field is no field (as after a JSON round trip)
  assert.equal(render({ pending: true, produced: undefined }), render({ pending: true }));
  // a stored CloseTurnResult with produced entities
  const stored = {
    turnId: 't1', assistantMessageEntityId: 'ent_a', refersTo: ['ent_dana'],
    produced: [
      { id: 'ent_dana', entity_type: 'person', canonical_name: 'person:Dana Whitfield', action: 'matched_existing', warnings: [] },
      { id: 'ent_x', entity_type: 'task', canonical_name: 'task:ent_x', action: 'something_else', warnings: [] },
    ],
    replayed: false, pending: false, storeWarnings: [],
  };
  assert.equal(render(stored), '---\n\n## 🧠 Neotoma\n\nUpdated (1)\n- 👤 Dana Whitfield (`person`)\n');
});

test('repairs are listed', () => {
  const turn = {
    repairs: [
      { id: 'edge-missing:ent_1', action: 'create_relationship', message: 'Re-created one edge.' },
      { id: 'edge-missing:ent_1', action: 'create_relationship', message: 'Re-created one edge.' },
      { id: 'msg-missing', action: 'store_message' },
      { message: 'Only a message.' },
      {},
    ],
  };
  assert.equal(
    render(turn, BASE),
    `---

## 🧠 Neotoma

No durable facts read or written this turn.

Repairs (4)
- 🛠\u{fe0f} Re-created one edge. (\`edge-missing:ent_1\`, \`create_relationship\`)
- 🛠\u{fe0f} store\\_message (\`msg-missing\`)
- 🛠\u{fe0f} Only a message.
- 🛠\u{fe0f} Repair applied.
`,
  );
});

test('an entity listed twice in a group is listed once', () => {
  const dana = { id: 'ent_dana', entity_type: 'person', snapshot: { name: 'Dana' } };
  const turn = { retrieved: [dana, dana, { id: 'ent_dana', entity_type: 'person' }] };
  assert.equal(render(turn), '---\n\n## 🧠 Neotoma\n\nRetrieved (1)\n- 👤 Dana (`person`)\n');
});

test('the output is deterministic and the result is left as it was', () => {
  const turn = fullTurn();
  const a = render(turn, BASE);
  for (let i = 0; i < 3; i++) assert.equal(render(fullTurn(), BASE), a);
  assert.deepEqual(turn, fullTurn());
});

test('what is not a result is INVALID_INPUT, with a message saying why', () => {
  for (const bad of [null, 'TurnResult', 42, [{ retrieved: [] }], true]) {
    const err = refusal(bad);
    assert.equal(err.name, 'NeotomaError', JSON.stringify(bad));
    assert.equal(err.code, 'INVALID_INPUT', JSON.stringify(bad));
    assert.ok(err.message.startsWith('renderTurnReport needs a turn result object'), err.message);
  }
  assert.equal(refusal({ retrieved: 'Dana' }).message, 'result.retrieved must be an array');
  assert.equal(refusal({ produced: [{ id: 'e' }, 'ent_2'] }).message, 'result.produced[1] must be an object');
  assert.equal(refusal({ storeWarnings: { code: 'X' } }).message, 'result.storeWarnings must be an array');
  assert.equal(refusal({ repairs: [null] }).message, 'result.repairs[0] must be an object');
  // what JSON cannot hold, wherever it is (a cycle too: refused, not a stack overflow)
  const cycle = { retrieved: [{ id: 'e' }] };
  cycle.retrieved[0].self = cycle;
  for (const [bad, message] of [
    [{ retrieved: [{ id: 'e', n: NaN }] }, 'result.retrieved[0].n is NaN or Infinity, which JSON cannot hold'],
    [{ retrieved: [{ id: 'e' }, undefined] }, 'result.retrieved[1] is not a JSON value (a string, number, boolean, null, array or plain object)'],
    [{ retrieved: [{ id: 'e', n: 1n }] }, 'result.retrieved[0].n is not a JSON value (a string, number, boolean, null, array or plain object)'],
    [{ retrieved: [{ id: 'e\u{d800}' }] }, 'result.retrieved[0].id contains a lone UTF-16 surrogate (not valid Unicode text)'],
    [cycle, 'result.retrieved[0].self refers back to itself, which JSON cannot hold'],
  ]) {
    const err = refusal(bad);
    assert.equal(err.code, 'INVALID_INPUT', message);
    assert.equal(err.message, message);
  }
  assert.throws(() => renderTurnReport({}, { inspectorBaseUrl: 'https://x.example/\u{dc00}' }), { code: 'INVALID_INPUT' });
});

// --- neotoma-agent-wasm/report -----------------------------------------------------------------

test('every entry re-exports the ./report module', () => {
  assert.equal(renderTurnReport, renderFromSubpath);
});

test('neotoma-agent-wasm/report renders without loading the wasm', { timeout: 30_000 }, async () => {
  // a Node without WebAssembly: any wasm the module (or anything it imports) tried to load would throw
  const r = await runNode(`
    delete globalThis.WebAssembly;
    const { renderTurnReport } = await import('neotoma-agent-wasm/report');
    const report = renderTurnReport(
      { retrieved: [{ id: 'ent_1', entity_type: 'person', snapshot: { name: 'Dana Whitfield' } }] },
      { inspectorBaseUrl: 'https://inspector.example' },
    );
    let refused = null;
    try { renderTurnReport('x'); } catch (e) { refused = [e.name, e.code]; }
    console.log(JSON.stringify({ report, refused, wasm: typeof WebAssembly }));
  `);
  assert.equal(r.code, 0, describeRun('node -e import(neotoma-agent-wasm/report)', r));
  assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').at(-1)), {
    report: '---\n\n## 🧠 Neotoma\n\nRetrieved (1)\n- 👤 Dana Whitfield ([person](https://inspector.example/entities/ent_1))\n',
    refused: ['NeotomaError', 'INVALID_INPUT'],
    wasm: 'undefined',
  });
});
