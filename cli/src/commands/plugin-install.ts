/**
 * `tagsonic plugin install <zip|js> [--url URL] [--user U --password P]`: uploads a package to a running
 * Tagsonic, the way /mod's 插件市场 does. It signs in at `POST /apimt/token/` and uses the session token the
 * route hands header clients (`Authorization: jwt <token>`; a header client needs no CSRF token, unlike the
 * page's cookies), then posts the file to `/apimt/upload_script/` as `upload_file`. The server's envelope is
 * the answer: the installed id and version (a new plugin arrives disabled until an administrator enables it),
 * or the server's own message and code.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CliError } from '../cli-error.ts';
import type { Io } from './plugin-io.ts';

export const INSTALL_USAGE = `usage: tagsonic plugin install FILE.zip|FILE.js [--url URL] [--user USER] [--password PASSWORD]
  uploads to a running Tagsonic as an administrator; defaults from TAGSONIC_URL (http://localhost:8002),
  TAGSONIC_USER (admin) and TAGSONIC_PASSWORD`;

interface Envelope<T> {
  result: boolean;
  message: string;
  data: T;
  token?: string;
}

interface UploadedPlugin {
  id: string;
  name: string;
  version: string;
  kind: 'tag-source' | 'batch-action';
  enabled: boolean;
}

export async function pluginInstall(args: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { url: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' } } });
  if (positionals.length !== 1) throw new CliError(INSTALL_USAGE);
  const file = path.resolve(positionals[0]!);
  const base = (values.url ?? env.TAGSONIC_URL ?? 'http://localhost:8002').replace(/\/+$/, '');
  const username = values.user ?? env.TAGSONIC_USER ?? 'admin';
  const password = values.password ?? env.TAGSONIC_PASSWORD;
  if (!password) throw new CliError(`no password: pass --password or set TAGSONIC_PASSWORD\n${INSTALL_USAGE}`);
  if (!/^https?:\/\/[^/]+/.test(base)) throw new CliError(`--url must be the server's http(s) address, e.g. http://localhost:8002, not "${base}"`);
  const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ENOENT' ? new CliError(`no such file: ${file}`) : e;
  });

  const signIn = await post<null>(io, `${base}/apimt/token/`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (!signIn) return 1;
  const form = new FormData();
  form.append('upload_file', new Blob([bytes]), path.basename(file));
  const uploaded = await post<UploadedPlugin>(io, `${base}/apimt/upload_script/`, { headers: { authorization: `jwt ${signIn.token}` }, body: form });
  if (!uploaded) return 1;
  const p = uploaded.data;
  const screen = p.kind === 'batch-action' ? '/actionMod' : '/mod';
  io.out.write(`installed ${p.id} ${p.version} (${p.name})\n`);
  io.err.write(p.enabled
    ? `${p.id} is enabled; version ${p.version} is now the active one\n`
    : `${p.id} is disabled until an administrator enables it on ${screen} (${base}${screen}) after reading its permissions\n`);
  return 0;
}

/** POSTs and returns the envelope, or prints the server's message (and code) and returns null. */
async function post<T>(io: Io, url: string, init: { headers: Record<string, string>; body: string | FormData }): Promise<Envelope<T> | null> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', ...init, redirect: 'error' });
  } catch (error) {
    io.err.write(`cannot reach ${new URL(url).origin}: ${(error as { cause?: Error }).cause?.message ?? (error as Error).message}\n`);
    return null;
  }
  const text = await res.text();
  let body: Envelope<T> & { data?: { error?: string } };
  try {
    body = JSON.parse(text);
  } catch {
    io.err.write(`${url} answered HTTP ${res.status} with something that is not Tagsonic's API (${text.slice(0, 80).replace(/\s+/g, ' ')}…); is --url right?\n`);
    return null;
  }
  if (!res.ok || body.result !== true) {
    const code = (body.data as { error?: string } | null)?.error;
    io.err.write(`${new URL(url).pathname}: ${body.message ?? `HTTP ${res.status}`}${code ? ` (${code})` : ''}\n`);
    return null;
  }
  return body;
}
