import { invalid } from '../errors/index.ts';

/**
 * Payloads cross the bus as JSON in both drivers, so embedded mode sees exactly what distributed mode would
 * (a Date arrives as a string, a Map as `{}`), and a handler can never mutate the sender's object.
 */
export function encodePayload(payload: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(payload ?? null);
  } catch (cause) {
    throw invalid('TAGSONIC_ERR_BUS_PAYLOAD_INVALID', `Bus payloads must be JSON-serialisable: ${errorMessage(cause)}`);
  }
  return json ?? 'null';
}

export function decodePayload<T = unknown>(json: string): T {
  return JSON.parse(json) as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}
