import { Type } from 'typebox';
import { Envelope } from './common.ts';

export const TokenRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    /** Optional activation code applied at sign-in (empty = none). */
    code: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: false },
);

export const TokenResponse = Type.Intersect([
  Envelope(Type.Object({ username: Type.String(), role: Type.String(), is_admin: Type.Boolean(), is_forever: Type.Boolean(), csrf_token: Type.String() })),
  Type.Object({ token: Type.String() }),
]);

export const UserInfo = Type.Object({
  username: Type.String(),
  role: Type.Union([Type.Literal('V1'), Type.Literal('V2')]),
  is_forever: Type.Boolean(),
  /** ISO date the V2 activation ends; null when forever or V1. */
  active_until: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
  /** For the dashboard's own Subsonic calls: a fresh salt and md5(subsonic password + salt); empty without a Subsonic password. */
  salt: Type.String(),
  hash: Type.String(),
  sys_dict: Type.Object({ mi_play_in_pl: Type.Integer(), background_url: Type.Union([Type.String(), Type.Null()]) }),
  version: Type.Object({ display: Type.String(), project: Type.String() }),
});
export const UserInfoResponse = Envelope(UserInfo);

export const ActivateRequest = Type.Object({ code: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false });
export const ActivateResponse = Envelope(
  Type.Object({ role: Type.String(), is_forever: Type.Boolean(), active_until: Type.Union([Type.String(), Type.Null()]) }),
);

export const LogoutResponse = Envelope(Type.Null());
