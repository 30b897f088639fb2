import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkLlmSettings, translateLyric, LINES_PER_REQUEST, type LlmSettings } from './index.ts';

/** A local fake of the OpenAI chat-completions API: records requests; `reply` decides the answer. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: string }> };
}
let server: Server;
let base: string;
const seen: Seen[] = [];
let reply: (lines: string[]) => [number, unknown] | 'hang' = (lines) => [200, completion(JSON.stringify(lines.map((l) => `译:${l}`)))];

const completion = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Seen['body'];
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const answer = reply(JSON.parse(body.messages.at(-1)!.content) as string[]);
      if (answer === 'hang') return;
      res.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  reply = (lines) => [200, completion('```json\n' + JSON.stringify(lines.map((l) => `译:${l}`)) + '\n```')];
});

const settings = (): LlmSettings => checkLlmSettings({ baseUrl: base, apiKey: 'sk-test-123', model: 'gpt-4o-mini' });

describe('lyric translation through an OpenAI-compatible API', () => {
  it('sends only the text lines, in one request, and puts each translation back behind the same time tags', async () => {
    const lyric = '[ar:Someone]\n[00:01.00]Hello\n\n[00:05.50][01:05.50]  Goodbye  \nplain line';
    const out = await translateLyric(lyric, settings());
    expect(out).toBe('[ar:Someone]\n[00:01.00]译:Hello\n\n[00:05.50][01:05.50]译:Goodbye\n译:plain line');
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-123');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body.model).toBe('gpt-4o-mini');
    expect(request.body.messages[0].role).toBe('system');
    expect(JSON.parse(request.body.messages[1].content)).toEqual(['Hello', 'Goodbye', 'plain line']);
  });

  it('batches a long lyric and keeps every line in place', async () => {
    const count = LINES_PER_REQUEST + 10;
    const lyric = Array.from({ length: count }, (_, i) => `[00:${String(i % 60).padStart(2, '0')}.00]line ${i}`).join('\n');
    const out = (await translateLyric(lyric, settings())).split('\n');
    expect(seen.map((s) => JSON.parse(s.body.messages[1].content).length)).toEqual([LINES_PER_REQUEST, 10]);
    expect(out).toHaveLength(count);
    expect(out[count - 1]).toBe(`[00:${String((count - 1) % 60).padStart(2, '0')}.00]译:line ${count - 1}`);
  });

  it('names the status and the API\'s message on an HTTP error, never the key', async () => {
    reply = () => [401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }];
    const err = await translateLyric('[00:01.00]Hi', settings()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TAGSONIC_ERR_LLM_HTTP', kind: 'unavailable', details: { status: 401 } });
    expect((err as Error).message).toContain('HTTP 401: Incorrect API key provided');
    expect((err as Error).message).not.toContain('sk-test-123');
  });

  it('refuses an answer that does not have one line per line, and one that is not a chat completion', async () => {
    reply = () => [200, completion('["only one"]')];
    await expect(translateLyric('[00:01.00]a\n[00:02.00]b', settings())).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_BAD_RESPONSE', message: expect.stringContaining('1 lines for 2') });
    reply = () => [200, { hello: 'world' }];
    await expect(translateLyric('[00:01.00]a', settings())).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_BAD_RESPONSE' });
  });

  it('gives up after the timeout, and says when the endpoint cannot be reached', async () => {
    reply = () => 'hang';
    const t0 = Date.now();
    await expect(translateLyric('[00:01.00]a', settings(), { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(3_000);
    await expect(translateLyric('[00:01.00]a', checkLlmSettings({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }))).rejects.toMatchObject({ code: 'TAGSONIC_ERR_LLM_UNREACHABLE' });
  });

  it('needs a base URL and a model', () => {
    expect(() => checkLlmSettings({})).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' }));
    expect(() => checkLlmSettings({ baseUrl: 'ftp://x', model: 'm' })).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LLM_NOT_CONFIGURED' }));
    expect(checkLlmSettings({ baseUrl: 'https://api.deepseek.com/', model: ' deepseek-chat ' })).toEqual({ baseUrl: 'https://api.deepseek.com', apiKey: '', model: 'deepseek-chat' });
  });
});
