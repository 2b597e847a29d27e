// The demo's built-in responder (www/responder.mjs): the deterministic rules README states, and
// the memory they make with a real agent on the embedded store (told, then asked).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { NeotomaAgent } from 'neotoma-agent-wasm';
import { entitiesIn, respond, localResponder, isQuestion } from '../../www/responder.mjs';

test('the rules: projects, companies by suffix, persons by cue or "at <company>", e-mails, who leads what', () => {
  assert.deepEqual(entitiesIn('My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel'), [
    { entity_type: 'person', name: 'Dana Whitfield', organization: 'Orbital Labs', role: 'leading Project Kestrel' },
    { entity_type: 'company', name: 'Orbital Labs' },
    { entity_type: 'project', name: 'Project Kestrel', status: 'active', owner: 'Dana Whitfield' },
  ]);
  assert.deepEqual(entitiesIn('I met Lee Park (lee@acme.example) from Acme Corp yesterday'), [
    { entity_type: 'person', name: 'Lee Park', email: 'lee@acme.example' },
    { entity_type: 'company', name: 'Acme Corp' },
  ]);
  assert.deepEqual(entitiesIn('Signed with Initech Ltd and Globex Inc.').map((e) => e.name), ['Initech Ltd', 'Globex Inc']);
  // a cue before a company or a project names no person
  assert.deepEqual(entitiesIn('We work with Orbital Labs on Project Kestrel').map((e) => e.entity_type), ['company', 'project']);
  assert.deepEqual(entitiesIn('the weather is nice today'), []);
  assert.equal(isQuestion('What do you know about Dana Whitfield?'), true);
  assert.equal(isQuestion('Tell me about Acme Corp'), true);
  assert.equal(isQuestion('I met Lee Park'), false);
});

test('replies: what it will remember, and answers from the retrieved fields only', () => {
  const told = respond('My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel', { retrieved: [] });
  assert.equal(told.text, "I'll remember Dana Whitfield (person, at Orbital Labs), Orbital Labs (company) and Project Kestrel (project).");
  const asked = respond('What do you know about Dana Whitfield?', {
    retrieved: [{ id: 'ent_1', entity_type: 'person', canonical_name: 'person:Dana Whitfield', snapshot: { name: 'Dana Whitfield', organization: 'Orbital Labs', role: 'leading Project Kestrel' } }],
  });
  assert.deepEqual(asked, { text: 'Dana Whitfield: person, at Orbital Labs, leading Project Kestrel.' });
  assert.match(respond('Who is Zed?', { retrieved: [] }).text, /don't know anything about that yet/);
});

test('with a real agent: told, then asked, the reply comes from memory and refers to the person', { timeout: 20_000 }, async () => {
  const agent = new NeotomaAgent({ conversationId: 'responder-test' });
  const told = await agent.turn('My colleague Dana Whitfield at Orbital Labs is leading Project Kestrel', localResponder);
  assert.deepEqual(told.produced.map((p) => [p.entity_type, p.action]), [['person', 'created'], ['company', 'created'], ['project', 'created']]);
  // every field the rules write is one the schemas keep (the company's priority advisory is the
  // real server's, for any company written at the default priority)
  const codes = told.produced.flatMap((p) => p.warnings.map((w) => w.code));
  assert.deepEqual(codes.filter((c) => c !== 'SOURCE_PRIORITY_ESCALATION'), []);
  const asked = await agent.turn('What do you know about Dana Whitfield?', localResponder);
  assert.equal(asked.assistantMessage, 'Dana Whitfield: person, at Orbital Labs, leading Project Kestrel.');
  assert.deepEqual(asked.refersTo, [told.produced[0].id]);
});
