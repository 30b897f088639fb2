/**
 * The one value format that crosses the sandbox boundary: JSON. Strings cross (a copy of a string cannot
 * carry a getter, a prototype or a handle), and parsing here drops `__proto__` keys so a plugin's result can
 * never swap the prototype of an object a caller later merges it into.
 */

export type JsonValue = null | boolean | number | string | Uint8Array | JsonValue[] | { [key: string]: JsonValue };

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

/**
 * JSON plus bytes, the one other thing that crosses: a `Uint8Array` (a Node `Buffer` too) is taken out of the
 * value, its place in the JSON text holding `{ "<marker>": index }`, and its bytes travel beside the text in
 * a list that isolated-vm copies (its ExternalCopy of the ArrayBuffer: plain bytes, no prototype, no getter).
 * The marker is random per invocation, so neither an upstream's JSON nor the plugin can forge a reference.
 */
export interface Crossing {
  text: string;
  bytes: Uint8Array[];
}

/** Serialises a host value going into the sandbox; like {@link toSandboxJson}, with bytes beside the text. */
export function toSandboxCrossing(value: unknown, marker: string): Crossing {
  const bytes: Uint8Array[] = [];
  const text = JSON.stringify(value === undefined ? null : value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // `this[key]` is the value before toJSON: Buffer's toJSON would have turned it into { type, data }.
    const raw = this[key];
    if (raw instanceof Uint8Array) {
      // A copy, never the view: a small Buffer is a window on a shared 8 KiB pool slab, and the whole
      // ArrayBuffer under a view is what gets copied across — other host data would go with it.
      bytes.push(new Uint8Array(raw));
      return { [marker]: bytes.length - 1 };
    }
    if (ArrayBuffer.isView(raw) || raw instanceof ArrayBuffer) throw new TypeError('only Uint8Array bytes cross, not other binary views');
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw new TypeError(`a ${typeof v} is not JSON`);
    return v;
  });
  return { text, bytes };
}

/**
 * Parses what the sandbox sent: JSON text (`__proto__` keys dropped) whose `{ "<marker>": i }` objects become
 * the i-th of `bytes`. Anything that is not a list of Uint8Array, or a reference out of range, is refused.
 */
export function parseSandboxCrossing(text: string, bytes: unknown, marker: string): JsonValue {
  if (!Array.isArray(bytes) || !bytes.every((b) => b instanceof Uint8Array)) throw new TypeError('the bytes beside the JSON are not a list of Uint8Array');
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') return undefined;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, marker)) {
      const index = (value as Record<string, unknown>)[marker];
      if (Object.keys(value).length !== 1 || typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= bytes.length) {
        throw new TypeError('a bytes reference is malformed');
      }
      return bytes[index];
    }
    return value;
  }) as JsonValue;
}

/** Total size of a crossing, JSON characters plus bytes, for the caps. */
export const crossingSize = (text: string, bytes: readonly Uint8Array[]): number => bytes.reduce((n, b) => n + b.byteLength, text.length);
