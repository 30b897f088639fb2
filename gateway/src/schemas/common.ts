import { Type, type TSchema } from 'typebox';

/** The envelope schema around a route's data. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    result: Type.Boolean(),
    code: Type.Integer(),
    message: Type.String(),
    msg: Type.String(),
    data: Type.Union([data, Type.Null()]),
  });

export const ErrorEnvelope = Envelope(Type.Union([Type.Object({ error: Type.String() }), Type.Null()]));
