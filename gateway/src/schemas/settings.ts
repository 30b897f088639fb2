import { Type } from 'typebox';
import { Envelope } from './common.ts';

/**
 * getSysDict: every setting by key (typed: booleans, numbers, lists, objects), secrets as '' and named in
 * `secrets_set` when they hold a value. A non-administrator gets only the keys the spec shows every user.
 */
export const SysDictResponse = Envelope(Type.Object({ secrets_set: Type.Array(Type.String()) }, { additionalProperties: Type.Unknown() }));

/** UpdateSys: one key a call. `value` in the screen's form ("1"/"0", "a,b", JSON text) or as JSON; `clear` empties a secret. */
export const UpdateSysRequest = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 100 }),
    value: Type.Optional(Type.Unknown()),
    clear: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateSysResponse = Envelope(Type.Object({ key: Type.String(), value: Type.Unknown(), kept: Type.Boolean() }));
