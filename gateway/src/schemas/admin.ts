import { Type } from 'typebox';
import { Envelope } from './common.ts';

const Username = Type.String({ minLength: 1, maxLength: 64 });
export const UserParams = Type.Object({ username: Username }, { additionalProperties: false });
export const KeyParams = Type.Object({ username: Username, id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const AdminUser = Type.Object({
  id: Type.String(),
  username: Type.String(),
  /** The stored edition. */
  role: Type.String(),
  /** The edition in force now (an expired V2 is V1). */
  effective_role: Type.String(),
  is_admin: Type.Boolean(),
  is_forever: Type.Boolean(),
  active_until: Type.Union([Type.String(), Type.Null()]),
  has_subsonic_password: Type.Boolean(),
  api_key_count: Type.Integer(),
  created_at: Type.String(),
});

export const UserListResponse = Envelope(Type.Object({ users: Type.Array(AdminUser) }));
export const UserResponse = Envelope(AdminUser);
export const EmptyResponse = Envelope(Type.Null());

export const CreateUserRequest = Type.Object(
  {
    username: Username,
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    role: Type.Optional(Type.Union([Type.Literal('V1'), Type.Literal('V2')])),
    is_admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SetRoleRequest = Type.Object(
  {
    role: Type.Union([Type.Literal('V1'), Type.Literal('V2')]),
    /** V2 until this date (ISO 8601); absent or null = permanent. */
    active_until: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const SetAdminRequest = Type.Object({ is_admin: Type.Boolean() }, { additionalProperties: false });
export const PasswordRequest = Type.Object({ password: Type.String({ minLength: 1, maxLength: 1024 }) }, { additionalProperties: false });
export const SubsonicPasswordRequest = Type.Object({ password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
export const CreateKeyRequest = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
});
export const KeyListResponse = Envelope(Type.Object({ keys: Type.Array(ApiKey) }));
/** `key` is shown once, here, and never again. */
export const NewKeyResponse = Envelope(Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]));
