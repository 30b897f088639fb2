import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { open, readFile, mkdir, chmod, stat, link, unlink } from 'node:fs/promises';
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
}

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
  if (existing) return { secrets: existing, created: false };

  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const secrets: Secrets = {
    jwtKey: randomBytes(64).toString('base64url'),
    csrfSecret: randomBytes(32).toString('base64url'),
    licensePrivateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    licensePublicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
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
  return { secrets: winner, created: winner.jwtKey === secrets.jwtKey };
}

async function readSecrets(file: string): Promise<Secrets | null> {
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
  for (const key of ['jwtKey', 'csrfSecret', 'licensePrivateKey', 'licensePublicKey'] as const) {
    if (typeof parsed[key] !== 'string' || !parsed[key]) {
      throw new TagsonicError('internal', 'TAGSONIC_ERR_CONFIG_SECRETS', `${file} is damaged (missing ${key}); restore it from a backup.`);
    }
  }
  return parsed as Secrets;
}

