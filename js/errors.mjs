// What the plain-JS modules (proxy, report, AI SDK middleware) share: the package's typed input
// error, as the wasm's NeotomaError looks (`name`, a stable `code`), without loading the wasm.

/** A `NeotomaError` with code `INVALID_INPUT`. */
export function invalidInput(message) {
  const error = new Error(message);
  error.name = 'NeotomaError';
  error.code = 'INVALID_INPUT';
  return error;
}

/** An object that is not null and not an array. */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
