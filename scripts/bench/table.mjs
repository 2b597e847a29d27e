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

