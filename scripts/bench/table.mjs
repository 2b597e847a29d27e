// The bench's table: rows from another bench's JSON output, and the markdown table.

import { ms } from './lib.mjs';

const fmtValue = (k, v) => {
  if (typeof v === 'number') {
    if (/(^|_)ms$|Ms$|_ms_|millis/i.test(k)) return ms(v);
    if (/(^|_)(us|micros)$|Us$/i.test(k)) return ms(v / 1000);
    if (/(^|_)ns$|Ns$/i.test(k)) return ms(v / 1e6);
    return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toPrecision(4);
  }
  return String(v);
};

/**
 * Rows from another bench's JSON, whatever its shape: `{ rows: [{what, figure}] }` as they are;
 * otherwise each array item or nested object becomes a row (its name/label/input/case as `what`,
 * its other scalar fields as `figure`), and top-level scalars one row together.
 */
export function externalRows(json, label) {
  if (json?.bench === 'extract_identifiers' && Array.isArray(json.rows)) return extractRows(json, label);
  if (json?.bench === 'store' && Array.isArray(json.sizes)) return storeRows(json, label);
  if (Array.isArray(json?.rows) && json.rows.every((r) => r && 'what' in r && 'figure' in r)) {
    return json.rows.map((r) => ({ what: `${label}: ${r.what}`, figure: String(r.figure) }));
  }
  const rows = [];
  const scalars = [];
  const NAME_KEYS = ['what', 'name', 'label', 'input', 'case', 'kind', 'size', 'id'];
  const describe = (obj) =>
    Object.entries(obj)
      .filter(([k, v]) => !NAME_KEYS.includes(k) && (typeof v !== 'object' || v === null))
      .map(([k, v]) => `${k} ${fmtValue(k, v)}`)
      .join(', ');
  const walk = (value, prefix) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (item && typeof item === 'object') {
          const nameKey = NAME_KEYS.find((k) => typeof item[k] === 'string' || typeof item[k] === 'number');
          const name = nameKey ? String(item[nameKey]) : `#${i}`;
          const fig = describe(item);
          if (fig) rows.push({ what: `${label}: ${prefix ? `${prefix} ` : ''}${name}`, figure: fig });
          for (const [k, v] of Object.entries(item)) if (v && typeof v === 'object') walk(v, `${prefix ? `${prefix} ` : ''}${name} ${k}`);
        }
      });
    } else if (value && typeof value === 'object') {
      const fig = describe(value);
      if (fig) (prefix ? rows : scalars).push({ what: `${label}${prefix ? `: ${prefix}` : ''}`, figure: fig });
      for (const [k, v] of Object.entries(value)) if (v && typeof v === 'object') walk(v, prefix ? `${prefix} ${k}` : k);
    }
  };
  walk(json, '');
  return [...scalars, ...rows];
}

/** Markdown cell: no raw newlines or pipes. */
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(m, sections) {
  const lines = [
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}; Node ${m.node}; ${m.os}; ${m.date}.`,
    '',
    '| area | what | figure |',
    '|---|---|---|',
  ];
  for (const s of sections) {
    s.rows.forEach((r, i) => lines.push(`| ${i === 0 ? `**${cell(s.title)}**` : ''} | ${cell(r.what)} | ${cell(r.figure)} |`));
  }
  return lines.join('\n');
}


/** examples/bench_extract.rs --json: `{ bench, build, rows: [{ input, size, bytes, ms, identifiers }] }`. */
function extractRows(json, label) {
  const sizes = [...new Set(json.rows.map((r) => r.size))];
  const rows = [];
  for (const size of sizes) {
    const at = json.rows.filter((r) => r.size === size);
    const typical = at.find((r) => /typical|chat/.test(r.input));
    const worst = at.filter((r) => r !== typical).sort((a, b) => b.ms - a.ms)[0];
    rows.push({
      what: `${label}, ${size}: typical chat text / the slowest adversarial text (best of runs)`,
      figure: `${typical ? `**${ms(typical.ms)}** (${typical.identifiers} identifiers)` : 'n/a'} / ${worst ? `**${ms(worst.ms)}** (${worst.input})` : 'n/a'}`,
    });
  }
  const last = sizes.at(-1);
  rows.push({
    what: `${label}, ${last} of each adversarial text`,
    figure: json.rows
      .filter((r) => r.size === last && !/typical|chat/.test(r.input))
      .map((r) => `${r.input} ${ms(r.ms)}`)
      .join(', '),
  });
  return rows;
}

/** examples/bench_store.rs and scripts/bench/store-wasm.mjs --json: `{ bench, build, sizes: [{ entities, fill_ms, calls: { name: { ms, result } } }] }`. */
function storeRows(json, label) {
  const sizes = json.sizes;
  const counts = sizes.map((s) => s.entities.toLocaleString('en-US')).join(' / ');
  const names = [...new Set(sizes.flatMap((s) => Object.keys(s.calls ?? {})))];
  const rows = [
    {
      what: `${label}: filling the store through /store, per entity, at ${counts} entities`,
      figure: sizes.map((s) => ms(s.fill_ms / s.entities)).join(' / '),
    },
  ];
  for (const name of names) {
    rows.push({
      what: `${label}: ${name}, ${counts} entities`,
      figure: sizes.map((s) => (s.calls?.[name] ? ms(s.calls[name].ms) : 'n/a')).join(' / ') + (sizes.at(-1).calls?.[name]?.result ? ` (${sizes.at(-1).calls[name].result})` : ''),
    });
  }
  return rows;
}
