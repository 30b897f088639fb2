/**
 * The one value format that crosses the sandbox boundary: JSON. Strings cross (a copy of a string cannot
 * carry a getter, a prototype or a handle), and parsing here drops `__proto__` keys so a plugin's result can
 * never swap the prototype of an object a caller later merges it into.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Parses JSON text from the sandbox; `__proto__` keys are dropped at every depth. */
export function parseSandboxJson(text: string): JsonValue {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)) as JsonValue;
}

/**
 * Serialises a host value going into the sandbox (invocation options, host-call results): `undefined`
 * becomes `null`; functions, symbols, bigints and cycles make it throw, since they would not survive.
 */
export function toSandboxJson(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value, (_key, v: unknown) => {
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw new TypeError(`a ${typeof v} is not JSON`);
    return v;
  });
  return text;
}
