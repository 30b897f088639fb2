/**
 * Keeps bench/plugins/smart-tag.ts runnable: a short run (3 lookups one at a time, 3 with 2 in flight, per
 * target) on the real server must answer every lookup, with smart_tag's answers holding candidates of every
 * source it asks by default, each search reaching every source's replay server (11 HTTP requests: NetEase and
 * Kuwo read two albums each), and no source with a failure in the registry afterwards. A source whose plugin changed its requests beyond what the bench replays, or a
 * smart_tag that silently lost a source, fails here instead of leaving the bench measuring errors.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

interface BenchRow { target: string; inFlight: number; requests: number; errors: number; httpPerSearch: number; p50Ms: number; missed: Record<string, number> }

it('bench/plugins/smart-tag.ts measures smart_tag and its peer through the real server without a failed lookup', async () => {
  const { stdout } = await run(process.execPath, ['--no-node-snapshot', 'bench/plugins/smart-tag.ts', '--requests', '3', '--concurrency', '2'], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const line = stdout.split('\n').find((l) => l.startsWith('{"bench":"plugins/smart-tag"'));
  expect(line, stdout).toBeDefined();
  const result = JSON.parse(line!) as { rows: BenchRow[]; smartTagSources: string[]; ratios: unknown[]; sources: Array<{ id: string; enabled: boolean; failures: number }> };
  expect(result.rows.map((r) => [r.target, r.inFlight, r.requests, r.errors])).toEqual([
    ['smart_tag', 1, 3, 0], ['smart_tag', 2, 3, 0], ['netease', 1, 3, 0], ['netease', 2, 3, 0],
  ]);
  expect(result.rows.map((r) => r.httpPerSearch)).toEqual([11, 11, 3, 3]);
  expect(result.rows.map((r) => r.missed)).toEqual([{}, {}, {}, {}]);
  // Each source searched 10 (warm-up) + 6 times for smart_tag, netease 16 more on its own; none failed.
  expect(result.sources.every((s) => s.enabled && s.failures === 0)).toBe(true);
  expect(result.sources.map((s) => s.id).sort()).toEqual(['itunes', 'kugou', 'kuwo', 'migu', 'musicbrainz', 'netease', 'qmusic', 'smart_tag']);
  expect(result.rows.every((r) => r.p50Ms > 0)).toBe(true);
  expect(result.smartTagSources).toEqual(['itunes', 'kugou', 'kuwo', 'migu', 'musicbrainz', 'netease', 'qmusic']);
  expect(result.ratios).toHaveLength(2);
}, 150_000);
