import { Type, type TSchema } from 'typebox';

/**
 * The envelope schema around a route's data. `data` is exactly the given schema (no `| null` union):
 * fast-json-stringify resolves a union by validating the whole value against each branch, which costs
 * more than the serialisation itself on a 10,000-node file list.
 */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    result: Type.Boolean(),
    code: Type.Integer(),
    message: Type.String(),
    msg: Type.String(),
    data,
  });

export const ErrorEnvelope = Envelope(Type.Union([Type.Object({ error: Type.String() }), Type.Null()]));

/** `string | null` as one JSON-schema type list (serialised without a union's per-value validation). */
export const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
/** A scrape state: success, failed or null. */
export const ScrapeStateSchema = Type.Unsafe<'success' | 'failed' | null>({ type: ['string', 'null'], enum: ['success', 'failed', null] });
