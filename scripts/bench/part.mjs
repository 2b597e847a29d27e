// Runs one bench part in this process and writes its result as JSON:
//   node scripts/bench/part.mjs <part> <out.json>
// (scripts/bench/run.mjs runs every part this way, each in a fresh process.)

import { writeFileSync } from 'node:fs';

const [name, out] = process.argv.slice(2);
const mod = await import(`./${name}.mjs`);
const t0 = performance.now();
const result = await mod.run();
result.seconds = (performance.now() - t0) / 1000;
if (out) writeFileSync(out, JSON.stringify(result, null, 2));
else console.log(JSON.stringify(result, null, 2));
process.exit(0);
