import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { open, readFile, mkdir, chmod, stat, link, unlink, rename } from 'node:fs/promises';
import path from 'node:path';
import { TagsonicError } from '../errors/errors.ts';

/** Secrets generated on first start; none of them is ever a constant in code. */
export interface Secrets {
  /** HMAC key for session JWTs (base64url, 64 random bytes). */
  jwtKey: string;
  /** Key for CSRF tokens (base64url, 32 random bytes). */
  csrfSecret: string;
  /** Ed25519 key pair that signs and verifies activation codes (PEM). */
  licensePrivateKey: string;
  licensePublicKey: string;
  /** AES-256-GCM key that encrypts stored Subsonic passwords (base64url, 32 random bytes). */
  subsonicKey: string;
}

/** Keys added after the first release: an older secrets.json gains them on the next start. */
const LATER_KEYS = {
  subsonicKey: () => randomBytes(32).toString('base64url'),
} as const;
const REQUIRED = ['jwtKey', 'csrfSecret', 'licensePrivateKey', 'licensePublicKey'] as const;
const UPGRADE_LOCK_STALE_MS = 30_000;

const FILE = 'secrets.json';

/**
 * Loads `data/secrets.json`, creating it with fresh random secrets (mode 0600) on first start.
 * Two processes starting at once (gateway and worker on a shared data dir) agree on one file:
 * the file is written to a temp name and linked into place only if absent.
 */
export async function ensureSecrets(dataDir: string): Promise<{ secrets: Secrets; created: boolean }> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, FILE);
  const existing = await readSecrets(file);
  if (existing) return { secrets: await upgradeSecrets(file, existing), created: false };

  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const secrets: Secrets = {
    jwtKey: randomBytes(64).toString('base64url'),
    csrfSecret: randomBytes(32).toString('base64url'),
    licensePrivateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    licensePublicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    subsonicKey: LATER_KEYS.subsonicKey(),
  };
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(JSON.stringify(secrets, null, 2));
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    // link() fails if the file exists: the first process to finish wins and everyone reads its file.
    try {
      await link(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    await unlink(tmp);
  } catch (e) {
    throw new TagsonicError('internal', 'TAGSONIC_ERR_CONFIG_SECRETS', `Cannot write ${file}.`, { cause: e });
  }
  const winner = await readSecrets(file);
  if (!winner) throw new TagsonicError('internal', 'TAGSONIC_ERR_CONFIG_SECRETS', `Cannot read ${file}.`);
  return { secrets: await upgradeSecrets(file, winner), created: winner.jwtKey === secrets.jwtKey };
}

type StoredSecrets = Omit<Secrets, keyof typeof LATER_KEYS> & Partial<Pick<Secrets, keyof typeof LATER_KEYS>>;

/**
 * Adds keys introduced after the file was written. Processes sharing the data dir must agree on one
 * value, so only the holder of an exclusive lock file rewrites secrets.json (temp file + rename);
 * the others wait for the lock to go and read the result. A lock left by a crash goes stale.
 */
async function upgradeSecrets(file: string, stored: StoredSecrets): Promise<Secrets> {
  const missing = () => (Object.keys(LATER_KEYS) as (keyof typeof LATER_KEYS)[]).filter((k) => typeof stored[k] !== 'string' || !stored[k]);
  if (missing().length === 0) return stored as Secrets;
  const lock = `${file}.upgrade.lock`;
  const deadline = Date.now() + 2 * UPGRADE_LOCK_STALE_MS;
  for (;;) {
    let held: Awaited<ReturnType<typeof open>> | null = null;
    try {
      held = await open(lock, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (held) {
      try {
        const current = (await readSecrets(file)) ?? stored;
        stored = current;
        const todo = missing();
        if (todo.length === 0) return current as Secrets;
        const next = { ...current } as Secrets;
        for (const key of todo) next[key] = LATER_KEYS[key]();
        const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        const fh = await open(tmp, 'wx', 0o600);
        try {
          await fh.writeFile(JSON.stringify(next, null, 2));
          await fh.sync();
        } finally {
          await fh.close();
        }
        await rename(tmp, file);
        return next;
      } finally {
        await held.close();
        await unlink(lock).catch(() => undefined);
      }
    }
    const again = await readSecrets(file);
    if (again) {
      stored = again;
      if (missing().length === 0) return again as Secrets;
    }
    const age = await stat(lock).then((st) => Date.now() - st.mtimeMs, () => 0);
    if (age > UPGRADE_LOCK_STALE_MS) await unlink(lock).catch(() => undefined);
    if (Date.now() > deadline) {
      throw new TagsonicError('internal', 'TAGSONIC_ERR_CONFIG_SECRETS', `Another process holds ${lock}; remove it if no Tagsonic process is starting.`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function readSecrets(file: string): Promise<StoredSecrets | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const mode = (await stat(file)).mode & 0o777;
  if (mode & 0o077) await chmod(file, 0o600); // someone loosened it: tighten rather than refuse to start
  const parsed = JSON.parse(text) as Partial<Secrets>;
  for (const key of REQUIRED) {
    if (typeof parsed[key] !== 'string' || !parsed[key]) {
      throw new TagsonicError('internal', 'TAGSONIC_ERR_CONFIG_SECRETS', `${file} is damaged (missing ${key}); restore it from a backup.`);
    }
  }
  return parsed as StoredSecrets;
}

