import { parseArgs } from 'node:util';
import { SubsonicCredentials, type ApiKeyInfo } from '@tagsonic/core/users';
import { openRuntime } from '../runtime.ts';
import { CliError } from '../cli-error.ts';

const USAGE = `usage:
  tagsonic apikey create USER [--name NAME]   print a new API key for USER (shown once)
  tagsonic apikey list USER                   list USER's keys (id, name, first characters, dates)
  tagsonic apikey revoke USER ID              revoke one key by its id`;

/**
 * `tagsonic apikey create|list|revoke USER`: the Subsonic API keys the admin backend manages, from a shell
 * (same functions, same store). A key is a credential on its own (`apiKey=`), so `create` prints it once on
 * standard output and nothing else there, for `KEY=$(./run apikey create alice)`.
 */
export async function apikey(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { name: { type: 'string' } } });
  const [sub, username, id, ...extra] = positionals;
  const wanted = sub === 'revoke' ? 3 : 2;
  if (!['create', 'list', 'revoke'].includes(sub) || positionals.length !== wanted || extra.length) throw new CliError(USAGE);
  if (values.name !== undefined && sub !== 'create') throw new CliError(`--name goes with create only\n${USAGE}`);

  const rt = await openRuntime();
  try {
    const creds = new SubsonicCredentials(rt.store, rt.users, rt.secrets.subsonicKey);
    await creds.init();
    if (sub === 'create') {
      const created = await creds.createApiKey(username, values.name ?? `cli ${new Date().toISOString().slice(0, 10)}`);
      process.stderr.write(`API key "${created.name}" (id ${created.id}) for "${username}"; it is shown only this once:\n`);
      process.stdout.write(`${created.key}\n`);
    } else if (sub === 'list') {
      const keys = await creds.listApiKeys(username);
      process.stdout.write(keys.length ? formatKeys(keys) : `"${username}" has no API keys\n`);
    } else {
      await creds.revokeApiKey(username, id);
      process.stdout.write(`API key ${id} of "${username}" revoked\n`);
    }
  } finally {
    await rt.close();
  }
}

function formatKeys(keys: ApiKeyInfo[]): string {
  const day = (d: Date | null) => (d ? new Date(d).toISOString().slice(0, 16).replace('T', ' ') : 'never');
  const rows = [['ID', 'NAME', 'KEY', 'CREATED', 'LAST USED'], ...keys.map((k) => [k.id, k.name, `${k.prefix}…`, day(k.createdAt), day(k.lastUsedAt)])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}
