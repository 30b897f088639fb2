/**
 * Browser-test harness: builds the dashboard, starts a real `tagsonic start` on a temporary home with a
 * generated library, and launches Debian's chromium through playwright-core (never a downloaded browser).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { generateLibrary, type LibraryManifest } from '@tagsonic/test/library';
import { freePort } from '../support/free-port.ts';

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOTS = path.join(import.meta.dirname, 'screenshots');
const NODE_ARGS = ['--no-node-snapshot'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];


/** `node dashboard/build.ts`: the server serves whatever dashboard/dist holds when it starts. */
export async function buildDashboard(): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'dashboard/build.ts')], { cwd: ROOT });
  return stdout.trim();
}

export interface Home {
  home: string;
  media: string;
  library: LibraryManifest;
  /** Folder with `bigCount` entries, for the listing and scrolling figures. */
  big: string;
  bigCount: number;
}

/**
 * A fresh TAGSONIC_HOME: the small generated library (made once in a cache folder, copied so edits
 * never touch the cache) under media/lib, and a folder of 10 000 entries under media/big.
 */
export async function makeHome(bigCount = 10_000): Promise<Home> {
  const cache = path.join(tmpdir(), 'tagsonic-browser-library-cache');
  const cached = await generateLibrary({ root: cache });
  const home = await mkdtemp(path.join(tmpdir(), 'tagsonic-browser-'));
  const media = path.join(home, 'media');
  const lib = path.join(media, 'lib');
  await mkdir(media, { recursive: true });
  await cp(cache, lib, { recursive: true, filter: (src) => !path.basename(src).startsWith('.tagsonic-library.lock') });
  const big = path.join(media, 'big');
  await mkdir(big);
  const names = Array.from({ length: bigCount }, (_, i) => `track ${String(i + 1).padStart(5, '0')}.mp3`);
  for (let i = 0; i < names.length; i += 500) await Promise.all(names.slice(i, i + 500).map((n) => writeFile(path.join(big, n), '')));
  return { home, media, library: { ...cached, root: lib }, big, bigCount };
}

export interface Server {
  base: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startServer(home: string, adminPassword: string): Promise<Server> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, 'cli/src/main.ts'), 'start'], {
    env: { ...process.env, TAGSONIC_HOME: home, TAGSONIC_PORT: String(port), TAGSONIC_HOST: '127.0.0.1', TAGSONIC_ADMIN_PASSWORD: adminPassword, TAGSONIC_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tagsonic start exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`tagsonic start did not answer within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** `tagsonic license issue [--forever]` against the home's data dir; prints only the code on stdout. */
export async function issueLicense(home: string, forever: boolean): Promise<string> {
  const { stdout } = await run(process.execPath, [...NODE_ARGS, path.join(ROOT, 'cli/src/main.ts'), 'license', 'issue', ...(forever ? ['--forever'] : [])], {
    env: { ...process.env, TAGSONIC_HOME: home },
  });
  return stdout.trim();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export async function newContext(browser: Browser, viewport = { width: 1400, height: 860 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  context.setDefaultTimeout(20_000);
  return context;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export interface Probe {
  tags: Record<string, string>;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; disposition?: { attached_pic?: number } }[];
}

/** An independent reader: ffprobe's view of a file's tags (keys lower-cased) and streams. */
export async function ffprobe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format_tags:stream=codec_type,codec_name,width,height:stream_disposition=attached_pic', '-of', 'json', file]);
  const json = JSON.parse(stdout) as { format?: { tags?: Record<string, string> }; streams?: Probe['streams'] };
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries(json.format?.tags ?? {})) tags[k.toLowerCase()] = v;
  return { tags, streams: json.streams ?? [] };
}

export const coverOf = (p: Probe) => p.streams.find((s) => s.disposition?.attached_pic === 1 || (s.codec_type === 'video' && (s.codec_name === 'png' || s.codec_name === 'mjpeg')));

/** A picture made by ffmpeg, to upload as a cover. */
export async function makePicture(file: string, width: number, height: number, color: string): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${color}:s=${width}x${height}`, '-frames:v', '1', file]);
}
