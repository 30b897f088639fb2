import { Type } from 'typebox';
import { Envelope } from './common.ts';

export const TokenRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    code: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const TokenResponse = Type.Intersect([
  Envelope(Type.Object({ username: Type.String(), role: Type.String(), is_admin: Type.Boolean() })),
  Type.Object({ token: Type.String() }),
]);
