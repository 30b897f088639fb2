import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Makes a short, non-silent audio file with Debian's ffmpeg (tags written by ffmpeg, not by us). */
export async function makeAudio(file: string, options: { seconds?: number; freq?: number; tags?: Record<string, string> } = {}): Promise<void> {
  const seconds = options.seconds ?? 1;
  const f = options.freq ?? 440;
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    `aevalsrc='0.4*sin(${f}*2*PI*t)+0.2*sin(${f * 1.5}*2*PI*t*(1+0.1*sin(3*t)))':s=44100:d=${seconds}`];
  for (const [k, v] of Object.entries(options.tags ?? {})) args.push('-metadata', `${k}=${v}`);
  if (file.endsWith('.mp3')) args.push('-id3v2_version', '3');
  args.push(file);
  await run('ffmpeg', args);
}

/** Tags of the first audio file as an independent reader (ffprobe) sees them, keys lower-cased. */
export async function probeTags(file: string): Promise<Record<string, string>> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  const info = JSON.parse(stdout) as { format?: { tags?: Record<string, string> }; streams?: Array<{ tags?: Record<string, string> }> };
  const out: Record<string, string> = {};
  for (const src of [info.format?.tags, ...(info.streams ?? []).map((s) => s.tags)]) {
    for (const [k, v] of Object.entries(src ?? {})) out[k.toLowerCase()] ??= v;
  }
  return out;
}

/** Polls `check` until it returns true (usable in hooks, where expect.poll is not). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
