// A small reader of a .wasm file's sections and of its `name` section: enough for the size
// breakdown (scripts/bench/size.mjs). No dependencies.

/** LEB128 unsigned at `pos` -> [value, next]. */
function uleb(buf, pos) {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7;
  }
}

function str(buf, pos) {
  const [len, p] = uleb(buf, pos);
  return [buf.toString('utf8', p, p + len), p + len];
}

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'datacount', 'tag'];

/**
 * `{ sections: [{ id, name, size }], functionImports, bodies: [{ index, size }], names: Map<index, name>, dataSegments: [size] }`
 * where `size` counts a section's content (not its id and length bytes) and a body's bytes with its length prefix.
 */
export function readWasm(buf) {
  if (buf.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  let pos = 8;
  const out = { sections: [], functionImports: 0, bodies: [], names: new Map(), dataSegments: [] };
  while (pos < buf.length) {
    const id = buf[pos];
    let [size, p] = uleb(buf, pos + 1);
    const start = p;
    const end = p + size;
    let name = SECTION_NAMES[id] ?? `unknown-${id}`;
    if (id === 0) {
      const [cname, q] = str(buf, p);
      name = `custom "${cname}"`;
      if (cname === 'name') readNames(buf, q, end, out.names);
    } else if (id === 2) {
      let [count, q] = uleb(buf, p);
      for (let i = 0; i < count; i++) {
        [, q] = str(buf, q);
        [, q] = str(buf, q);
        const kind = buf[q++];
        if (kind === 0) {
          [, q] = uleb(buf, q);
          out.functionImports++;
        } else if (kind === 1) {
          q++;
          const [flags, r] = uleb(buf, q);
          q = r;
          [, q] = uleb(buf, q);
          if (flags & 1) [, q] = uleb(buf, q);
        } else if (kind === 2) {
          const [flags, r] = uleb(buf, q);
          q = r;
          [, q] = uleb(buf, q);
          if (flags & 1) [, q] = uleb(buf, q);
        } else if (kind === 3) q += 2;
        else if (kind === 4) q += 2;
      }
    } else if (id === 10) {
      let [count, q] = uleb(buf, p);
      for (let i = 0; i < count; i++) {
        const [bsize, r] = uleb(buf, q);
        out.bodies.push({ index: out.functionImports + i, size: r - q + bsize });
        q = r + bsize;
      }
    } else if (id === 11) {
      let [count, q] = uleb(buf, p);
      // segment sizes only roughly (the bytes between segment starts)
      const starts = [];
      for (let i = 0; i < count; i++) {
        const segStart = q;
        const [flags, r] = uleb(buf, q);
        q = r;
        if (flags === 2) [, q] = uleb(buf, q);
        if (flags !== 1) {
          // init expr: read until `end` (0x0b)
          while (buf[q] !== 0x0b) q++;
          q++;
        }
        const [len, s] = uleb(buf, q);
        q = s + len;
        starts.push(q - segStart);
      }
      out.dataSegments = starts;
    }
    out.sections.push({ id, name, size: end - start + (start - pos) });
    pos = end;
  }
  return out;
}

function readNames(buf, pos, end, names) {
  while (pos < end) {
    const sub = buf[pos];
    const [size, p] = uleb(buf, pos + 1);
    if (sub === 1) {
      let [count, q] = uleb(buf, p);
      for (let i = 0; i < count; i++) {
        let idx;
        [idx, q] = uleb(buf, q);
        let name;
        [name, q] = str(buf, q);
        names.set(idx, name);
      }
    }
    pos = p + size;
  }
}
