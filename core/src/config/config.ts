import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { invalid } from '../errors/errors.ts';

/** Display and project versions from the spec; the build id tells our own builds apart. */
export const VERSION = { display: '2.4.3', project: '20250516' } as const;

export interface Config {
  port: number;
  host: string;
  /** Holds media/ download/ webdav/ data/. */
  home: string;
  mediaDir: string;
  downloadDir: string;
  webdavDir: string;
  dataDir: string;
  /** Distributed mode when both are set; either alone switches that one port. */
  mongodbUrl: string | undefined;
  natsUrl: string | undefined;
  /** First start only: the admin's password (else a random one is printed once). */
  adminPassword: string | undefined;
  /** First start only: the admin's Subsonic password (Subsonic clients cannot use scrypt hashes). */
  subsonicPassword: string | undefined;
  /** Worker concurrency per command consumer. */
  workerConcurrency: number;
  /** Proxies allowed to set X-Forwarded-For (comma-separated addresses/CIDRs). */
  trustedProxies: string[];
  logLevel: string;
}

type Env = Record<string, string | undefined>;

/** Reads the configuration from environment variables, with the documented defaults (README). */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const home = path.resolve(cwd, env.TAGSONIC_HOME || (inContainer() ? '/app' : './tagsonic-home'));
  return {
    port: int(env, 'TAGSONIC_PORT', 8002, 0, 65535),
    host: env.TAGSONIC_HOST || '0.0.0.0',
    home,
    mediaDir: path.join(home, 'media'),
    downloadDir: path.join(home, 'download'),
    webdavDir: path.join(home, 'webdav'),
    dataDir: path.resolve(home, env.TAGSONIC_DATA_DIR || 'data'),
    mongodbUrl: env.TAGSONIC_MONGODB_URL || undefined,
    natsUrl: env.TAGSONIC_NATS_URL || undefined,
    adminPassword: env.TAGSONIC_ADMIN_PASSWORD || undefined,
    subsonicPassword: env.TAGSONIC_SUBSONIC_PASSWORD || undefined,
    workerConcurrency: int(env, 'TAGSONIC_WORKER_CONCURRENCY', 4, 1, 256),
    trustedProxies: (env.TAGSONIC_TRUSTED_PROXIES || '').split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: env.TAGSONIC_LOG_LEVEL || 'info',
  };
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw invalid('TAGSONIC_ERR_CONFIG_BAD_VALUE', `${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return n;
}

function inContainer(): boolean {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return true;
  try {
    return /docker|containerd|kubepods|libpod/.test(readFileSync('/proc/1/cgroup', 'utf8'));
  } catch {
    return false;
  }
}
