/**
 * User management mapped onto Tagsonic accounts: getUser (yourself, or anyone for administrators),
 * getUsers, createUser, updateUser, deleteUser (administrators), changePassword (yourself or an
 * administrator). The password a Subsonic client manages is the account's *Subsonic* password;
 * createUser also makes it the new account's dashboard password (an account needs one).
 */
import { conflict, notFound } from '@tagsonic/core/errors';
import type { UserDoc } from '@tagsonic/core/users';
import { notAuthorized } from './errors.ts';
import type { UserBody } from './model.ts';
import type { Params } from './params.ts';
import { defineGroup } from './registry.ts';

/** Subsonic passwords may come hex-encoded (`enc:…`) like `p`. */
function password(params: Params, name: string, required: true): string;
function password(params: Params, name: string, required: false): string | undefined;
function password(params: Params, name: string, required: boolean): string | undefined {
  const raw = required ? params.required(name) : params.str(name);
  if (raw === undefined || raw === '') return undefined;
  if (!raw.startsWith('enc:')) return raw;
  const hex = raw.slice(4);
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return raw;
  return Buffer.from(hex, 'hex').toString('utf8');
}

export const usersGroup = defineGroup('users', (api, ctx) => {
  const folderIds = async () => (await ctx.library.queries.musicFolders()).map((f) => f.id);

  // Roles follow what Tagsonic lets every account do; administrators also manage users and covers.
  const body = (u: UserDoc, folders: number[]): UserBody => ({
    username: u.username,
    scrobblingEnabled: true,
    adminRole: u.isAdmin,
    settingsRole: true,
    downloadRole: true,
    uploadRole: false,
    playlistRole: true,
    coverArtRole: u.isAdmin,
    commentRole: false,
    podcastRole: false,
    streamRole: true,
    jukeboxRole: false,
    shareRole: true,
    videoConversionRole: false,
    folder: folders,
  });

  const mustFind = async (username: string) => {
    const found = await ctx.users.findByName(username);
    if (!found) throw notFound('TAGSONIC_ERR_USER_NOT_FOUND', `No user named "${username}".`);
    return found;
  };

  api.method('getUser', async ({ params, user }) => {
    const username = params.required('username');
    if (username !== user.username && !user.isAdmin) throw notAuthorized('see other users (administrators only)');
    return { user: body(await mustFind(username), await folderIds()) };
  });

  api.method('getUsers', async ({ user }) => {
    if (!user.isAdmin) throw notAuthorized('list users (administrators only)');
    const folders = await folderIds();
    return { users: { user: (await ctx.users.list()).map((u) => body(u, folders)) } };
  });

  api.method('createUser', async ({ params, user }) => {
    if (!user.isAdmin) throw notAuthorized('create users (administrators only)');
    const username = params.required('username');
    const pw = password(params, 'password', true);
    // Subsonic's email is accepted and ignored: Tagsonic accounts have none.
    await ctx.users.create({ username, password: pw, isAdmin: params.bool('adminRole', false) });
    await ctx.subsonic.setPassword(username, pw);
  });

  api.method('updateUser', async ({ params, user }) => {
    if (!user.isAdmin) throw notAuthorized('update users (administrators only)');
    const target = await mustFind(params.required('username'));
    const pw = password(params, 'password', false);
    if (pw !== undefined) await ctx.subsonic.setPassword(target.username, pw);
    const admin = params.bool('adminRole');
    if (admin !== undefined && admin !== target.isAdmin) await ctx.users.setAdmin(target.username, admin);
  });

  api.method('deleteUser', async ({ params, user }) => {
    if (!user.isAdmin) throw notAuthorized('delete users (administrators only)');
    const username = params.required('username');
    if (username === user.username) throw conflict('TAGSONIC_ERR_SUBSONIC_DELETE_SELF', 'You cannot delete your own account.');
    await ctx.users.delete(username);
  });

  api.method('changePassword', async ({ params, user }) => {
    const username = params.required('username');
    if (username !== user.username && !user.isAdmin) throw notAuthorized("change another user's password (administrators only)");
    const pw = password(params, 'password', true);
    await mustFind(username);
    await ctx.subsonic.setPassword(username, pw);
  });
});
