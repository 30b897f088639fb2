import { mkdir } from 'node:fs/promises';
import type { Config } from './config.ts';

/** Creates the home layout (media/ download/ webdav/ data/) on first start. */
export async function ensureHome(config: Config): Promise<void> {
  for (const dir of [config.mediaDir, config.downloadDir, config.webdavDir]) await mkdir(dir, { recursive: true });
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
}
