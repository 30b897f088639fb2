/**
 * `tagsonic start` records the plugins shipped in plugins/ before it serves: the /mod list shows them, enabled and
 * marked built-in, from the first request, and a restart keeps them as they were (same code, nothing duplicated).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, startTagsonic } from './tagsonic-process.ts';

const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await rm(h, { recursive: true, force: true });
});

async function shippedIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const name of await readdir(path.join(ROOT, 'plugins'))) {
    if (await stat(path.join(ROOT, 'plugins', name, 'manifest.json')).catch(() => null)) ids.push(name);
  }
  return ids.sort();
}

async function sources(base: string): Promise<Array<{ id: string; builtin: boolean; enabled: boolean; version: string; updated_at: string }>> {
  const login = await fetch(`${base}/apimt/token/`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'plugins-admin-pw' }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${base}/apimt/get_resource_script/`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `jwt ${token}` }, body: JSON.stringify({ page_size: 100 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { items: Array<{ id: string; builtin: boolean; enabled: boolean; version: string; updated_at: string }> } }).data.items;
}

describe('tagsonic start with built-in plugins', () => {
  it('lists every shipped tag source as built-in from the first request, unchanged by a restart', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-builtins-'));
    homes.push(home);
    const env = { TAGSONIC_ADMIN_PASSWORD: 'plugins-admin-pw' };
    const first = await startTagsonic(home, env);
    const listed = await sources(first.base);
    expect(await first.stop()).toBe(0);
    expect(listed.map((p) => p.id).sort()).toEqual(expect.arrayContaining(['itunes', 'lrclib', 'musicbrainz']));
    // Every shipped tag source is there (batch actions are listed on /actionMod).
    for (const id of listed.map((p) => p.id)) expect(await shippedIds()).toContain(id);
    expect(listed.every((p) => p.builtin)).toBe(true);
    expect(listed.find((p) => p.id === 'lrclib')).toMatchObject({ enabled: true, version: '1.0.0' });

    const second = await startTagsonic(home, env);
    const again = await sources(second.base);
    expect(await second.stop()).toBe(0);
    expect(again).toEqual(listed);
  }, 120_000);
});
