import { describe, expect, it } from 'vitest';
import { startReplayServer } from './replay-server.ts';

describe('replay server', () => {
  it('sends bytes as they are (a cover picture), strings as they are and anything else as JSON', async () => {
    const picture = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    const server = await startReplayServer((p) => {
      if (p === '/cover.jpg') return [200, 'image/jpeg', picture, { 'access-control-allow-origin': '*' }];
      if (p === '/text') return [200, 'text/plain', 'plain'];
      return [200, 'application/json', { ok: true }];
    });
    try {
      const cover = await fetch(`${server.baseUrl}/cover.jpg`);
      expect(cover.headers.get('content-type')).toBe('image/jpeg');
      expect(cover.headers.get('access-control-allow-origin')).toBe('*');
      expect(Buffer.from(await cover.arrayBuffer())).toEqual(picture);
      expect(await (await fetch(`${server.baseUrl}/text`)).text()).toBe('plain');
      expect(await (await fetch(`${server.baseUrl}/json`)).json()).toEqual({ ok: true });
      expect(server.seen.map((r) => r.path)).toEqual(['/cover.jpg', '/text', '/json']);
    } finally {
      await server.close();
    }
  });
});
