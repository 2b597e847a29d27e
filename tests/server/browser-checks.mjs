// Checks shared by the Chromium tests of the widget and the demo.

/** Distinct colours (sampled) and the share of the commonest one in a PNG, decoded by the
 *  browser: a blank screenshot has one colour, or nearly. */
export function imageStats(page, png) {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4 * 7) {
      const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    return { width: bitmap.width, colours: counts.size, commonest: Math.max(...counts.values()) / total };
  }, png.toString('base64'));
}

/** Starts `make demo`'s server (scripts/serve-demo.mjs) on a free port with `env`; resolves once it
 *  listens, with its URL, what it printed, and a close(). */
export async function serveDemo(env = {}) {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(new URL('../../scripts/serve-demo.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = out.match(/demo: (http:\/\/127\.0\.0\.1:\d+)\//)?.[1];
      if (url) resolve({ url, out: () => out, close: () => new Promise((r) => { child.once('exit', r); child.kill(); }) });
    });
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`serve-demo exited ${code}: ${out}`)));
  });
}
