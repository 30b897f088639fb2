import { describe, expect, it } from 'vitest';
import { runTool } from './media-tools.ts';

describe('runTool', () => {
  it("keeps the end of a tool's stderr, where ffmpeg prints its summary, however much came before", async () => {
    // 200 KB of noise first (ffmpeg prints a file's tags, lyrics included, before its loudness summary).
    const script = 'head -c 200000 /dev/zero | tr "\\000" x >&2; echo >&2; echo "Summary: I: -14.2 LUFS" >&2';
    const { stderr } = await runTool('sh', ['-c', script], 10_000);
    expect(stderr.endsWith('Summary: I: -14.2 LUFS\n')).toBe(true);
    expect(stderr.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('names the last stderr line when the tool fails', async () => {
    const script = 'head -c 100000 /dev/zero | tr "\\000" y >&2; echo >&2; echo "Invalid data found" >&2; exit 1';
    await expect(runTool('sh', ['-c', script], 10_000)).rejects.toMatchObject({ message: expect.stringContaining('Invalid data found') });
  });
});
