/**
 * The `llm` capability (workers/src/plugin-runtime/capabilities/llm.ts) through the real loadPlugin and sandbox,
 * the real embedded store holding the system settings, and a local server speaking OpenAI chat-completions:
 * absent without the grant, settings read per call, the key never in the sandbox, core's LLM error codes,
 * the editor's lyric translation, and at most two requests of one plugin in flight.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MediaRoots } from '@tagsonic/core/media';
import { openEmbeddedStore, type Store } from '@tagsonic/core/store';
import { createTagJournal, type TagJournal } from '@tagsonic/core/tags';
import { validateManifest, type Permissions } from '@tagsonic/sdk';
import { loadPlugin, LLM_PLUGIN_TIMEOUT_MS, type LoadedPlugin } from '@tagsonic/workers/plugin-runtime';

const CODE = `
exports.call = async ({ name, options }, caps) => {
  if (!caps.llm) return { absent: true };
  try { return { value: await caps.llm[name](options) }; } catch (e) { return { code: e.code ?? null, message: e.message }; }
};
exports.raw = async ({ name, options }, caps) => caps.llm[name](options);
exports.shape = async (_, caps) => ({ keys: Object.keys(caps).sort(), llm: caps.llm ? Object.keys(caps.llm).sort() : null, seen: JSON.stringify(caps) });
`;

interface Seen {
  headers: IncomingHttpHeaders;
  body: { model: string; max_tokens?: number; messages: Array<{ role: string; content: string }> };
}
const seen: Seen[] = [];
let inFlight = 0;
let maxInFlight = 0;
let holdMs = 0;
let server: Server;
let base: string;
let dir: string;
let store: Store;
let roots: MediaRoots;
let journal: TagJournal;
const loaded: LoadedPlugin[] = [];

const completion = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Seen['body'];
      seen.push({ headers: req.headers, body });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const last = body.messages.at(-1)!.content;
      // A translation request is a JSON array of lines; anything else is echoed.
      const content = last.startsWith('[') ? JSON.stringify((JSON.parse(last) as string[]).map((l) => `译:${l}`)) : `echo:${last}`;
      // In flight until answered or abandoned by the client (an aborted request).
      res.on('close', () => (inFlight -= 1));
      const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(content))), holdMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  dir = await mkdtemp(path.join(tmpdir(), 'tagsonic-llm-'));
  await mkdir(path.join(dir, 'media'));
  roots = await MediaRoots.open({ media: path.join(dir, 'media') });
  store = await openEmbeddedStore({ dir: path.join(dir, 'store') });
  journal = createTagJournal({ store, blobDir: path.join(dir, 'blobs') });
});

beforeEach(async () => {
  seen.length = 0;
  maxInFlight = 0;
  holdMs = 0;
  await store.collection('settings').deleteOne({ _id: 'system' });
});

afterEach(() => {
  for (const plugin of loaded.splice(0)) plugin.close();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const configure = (settings: Record<string, string>) =>
  store.collection('settings').updateOne({ _id: 'system' }, { $set: settings }, { upsert: true });

function load(permissions: Permissions, id = 'llmprobe', timeoutMs?: number) {
  const manifest = { id, name: 'LLM probe', version: '1.0.0', description: 'Calls the language model.', kind: 'batch-action', entry: 'index.js', permissions };
  const plugin = loadPlugin({ manifest, code: CODE, env: {}, host: { roots, journal, store }, ...(timeoutMs ? { sandbox: { timeoutMs } } : {}) });
  loaded.push(plugin);
  return {
    plugin,
    call: (name: string, options: unknown) => plugin.invoke('call', { name, options }) as Promise<{ value?: string; code?: string; message?: string; absent?: true }>,
    shape: () => plugin.invoke('shape') as Promise<{ keys: string[]; llm: string[] | null; seen: string }>,
  };
}

const GRANT: Permissions = { llm: { reason: 'Suggests genres' } };

describe('the llm permission', () => {
  it('is a strict manifest grant: { reason } only', () => {
    const manifest = (llm: unknown) => ({ id: 'x', name: 'X', version: '1.0.0', description: 'x', kind: 'batch-action', entry: 'index.js', permissions: { llm } });
    expect(validateManifest(manifest({ reason: 'Translates lyrics' })).ok).toBe(true);
    expect(validateManifest(manifest({}))).toMatchObject({ ok: false, errors: [{ path: 'permissions.llm.reason' }] });
    expect(validateManifest(manifest({ reason: 'x', model: 'gpt-4o' }))).toMatchObject({ ok: false, errors: [{ path: 'permissions.llm.model' }] });
  });

  it('without it the plugin has no llm; with it, chat and translateLyric and nothing of the settings', async () => {
    await configure({ llm_base_url: base, llm_api_key: 'sk-secret-42', llm_model_name: 'gpt-4o-mini' });
    const without = load({ tags: { access: 'read', reason: 'Reads tags' } });
    expect((await without.shape()).keys).not.toContain('llm');
    expect(await without.call('chat', { messages: [{ role: 'user', content: 'hi' }] })).toEqual({ absent: true });
    const granted = await load(GRANT).shape();
    expect(granted.llm).toEqual(['chat', 'check', 'translateLyric']);
    expect(granted.seen).not.toContain('sk-secret-42');
    expect(granted.seen).not.toContain('127.0.0.1');
  });

  it('is covered by the plugin\'s wall clock (3 min by default for an llm grant): a slow model\'s request ends within the invocation', async () => {
    expect(LLM_PLUGIN_TIMEOUT_MS).toBe(180_000);
    await configure({ llm_base_url: base, llm_model_name: 'm' });
    holdMs = 3_000;
    const { call } = load(GRANT, 'llmslow', 1_500);
    const t0 = Date.now();
    // The request ends half a second before the invocation would, so the plugin can still say why.
    expect(await call('chat', { messages: [{ role: 'user', content: 'slow' }] })).toMatchObject({ code: 'TAGSONIC_ERR_LLM_TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(1_500);
  });
});

describe('llm.chat and llm.translateLyric', () => {
  it('fails with TAGSONIC_ERR_LLM_NOT_CONFIGURED until the settings name a model, then answers without a reload', async () => {
    const { call } = load(GRANT);
    expect(await call('chat', { messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' });
    expect(await call('check', undefined)).toMatchObject({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' });
    expect(seen).toHaveLength(0);
    await configure({ llm_base_url: base, llm_api_key: 'sk-secret-42', llm_model_name: 'gpt-4o-mini' });
    expect(await call('check', undefined)).toEqual({ value: null });
    expect(seen).toHaveLength(0);
    expect(await call('chat', { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], maxTokens: 16 })).toEqual({ value: 'echo:hi' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-secret-42');
    expect(seen[0]!.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] });
    // The administrator switches the model: the next call uses it.
    await configure({ llm_model_name: 'deepseek-chat' });
    await call('chat', { messages: [{ role: 'user', content: 'again' }] });
    expect(seen[1]!.body.model).toBe('deepseek-chat');
    expect(seen[1]!.body.max_tokens).toBeUndefined();
  });

  it('a plugin that lets the model\'s error through fails with that code and its kind, not as a crash', async () => {
    const { plugin } = load(GRANT);
    await expect(plugin.invoke('raw', { name: 'check' })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED', kind: 'conflict', message: expect.stringContaining('llm_base_url') });
    await configure({ llm_base_url: 'http://127.0.0.1:1/v1', llm_model_name: 'm' });
    await expect(plugin.invoke('raw', { name: 'chat', options: { messages: [{ role: 'user', content: 'x' }] } })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_UNREACHABLE', kind: 'unavailable' });
  });

  it('translates a lyric as the editor does: only text lines, time tags kept', async () => {
    await configure({ llm_base_url: base, llm_model_name: 'm' });
    const { call } = load(GRANT);
    const out = await call('translateLyric', { lyrics: '[ar:Someone]\n[00:01.00]Hello\n\n[00:05.50]Goodbye' });
    expect(out).toEqual({ value: '[ar:Someone]\n[00:01.00]译:Hello\n\n[00:05.50]译:Goodbye' });
    expect(JSON.parse(seen[0]!.body.messages[1]!.content)).toEqual(['Hello', 'Goodbye']);
  });

  it('keeps core\'s codes for the endpoint\'s failures and refuses bad options', async () => {
    await configure({ llm_base_url: 'http://127.0.0.1:1/v1', llm_model_name: 'm' });
    const { call } = load(GRANT);
    expect(await call('chat', { messages: [{ role: 'user', content: 'hi' }] })).toMatchObject({ code: 'TAGSONIC_ERR_LLM_UNREACHABLE' });
    expect(await call('chat', { messages: [] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await call('chat', { messages: [{ role: 'tool', content: 'x' }] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID', message: expect.stringContaining('messages[0].role') });
    expect(await call('chat', { messages: [{ role: 'user', content: 'x' }], maxTokens: 0 })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
    expect(await call('chat', { messages: [{ role: 'user', content: 'x'.repeat(200_001) }] })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_LIMIT' });
    expect(await call('translateLyric', { lyrics: '  ' })).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_INVALID' });
  });

  it('lets one plugin have at most two requests in flight, the rest wait their turn', async () => {
    await configure({ llm_base_url: base, llm_model_name: 'm' });
    holdMs = 150;
    const { call } = load(GRANT, 'llmburst');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call('chat', { messages: [{ role: 'user', content: `q${i}` }] })));
    expect(answers.map((a) => a.value)).toEqual(Array.from({ length: 6 }, (_, i) => `echo:q${i}`));
    expect(seen).toHaveLength(6);
    expect(maxInFlight).toBe(2);
  });
});
