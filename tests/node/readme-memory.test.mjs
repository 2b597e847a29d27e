// README's "Memory that grows" snippet (tests/snippets/memory.mjs) runs as written, on the
// embedded store, and does what README says it does.

import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the README memory snippet: produced entities, ctx.memory, remember, verify/repair, the report', { timeout: 20_000 }, async () => {
  const { told, asked, company, task, diagnoses, repairs, report } = await import('../snippets/memory.mjs');
  assert.deepEqual(told.produced.map((p) => [p.entity_type, p.canonical_name, p.action]), [
    ['person', 'person:Dana Whitfield', 'created'],
    ['company', 'Orbital Labs', 'created'],
    ['project', 'project:Project Kestrel', 'created'],
  ]);
  const dana = asked.retrieved.find((e) => e.entity_type === 'person');
  assert.equal(dana.id, told.produced[0].id);
  assert.equal(asked.assistantMessage, `From memory: person "Dana Whitfield" (${dana.id}): organization: Orbital Labs`);
  assert.equal(company.action, 'matched_existing');
  assert.equal(company.id, told.produced[1].id);
  assert.equal(task.action, 'created');
  assert.deepEqual(diagnoses.filter((d) => d.severity !== 'ok'), []);
  assert.deepEqual(repairs, []);
  assert.match(report, /## 🧠 Neotoma/);
  assert.ok(report.includes(`http://localhost:3080/entities/${dana.id}`), report);
});
