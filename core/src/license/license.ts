import { createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { invalid } from '../errors/errors.ts';

/**
 * Activation codes that can be checked offline: a small JSON payload signed with the install's
 * Ed25519 key (generated on first start, data/secrets.json). Text form, all base64url:
 * `TSV2.<payload>.<signature>` — short enough to paste, with no character a URL or a shell mangles.
 */
export interface LicensePayload {
  /** Format version of the payload. */
  v: 1;
  /** The edition the code unlocks. */
  edition: 'V2';
  /** Permanent activation. */
  isForever: boolean;
  /** End of the activation (ms since the epoch); null when forever. A code cannot be redeemed after it. */
  expiresAt: number | null;
  /** When the code was minted (ms since the epoch). */
  issuedAt: number;
  /** Random code id: a code is redeemed by one account only. */
  id: string;
}

const PREFIX = 'TSV2';
const MAX_CODE_CHARS = 1024;
const DAY_MS = 86_400_000;
export const DEFAULT_LICENSE_DAYS = 365;

export const LICENSE_ERRORS = {
  MALFORMED: 'TAGSONIC_ERR_LICENSE_MALFORMED',
  BAD_SIGNATURE: 'TAGSONIC_ERR_LICENSE_BAD_SIGNATURE',
  EXPIRED: 'TAGSONIC_ERR_LICENSE_EXPIRED',
  USED: 'TAGSONIC_ERR_LICENSE_USED',
  BAD_DAYS: 'TAGSONIC_ERR_LICENSE_BAD_DAYS',
  /** `tagsonic license issue` pointed at a home where no server was ever started (no signing key). */
  NO_INSTALLATION: 'TAGSONIC_ERR_LICENSE_NO_INSTALLATION',
} as const;

/** Mints a code with the install's private key (PEM, PKCS#8). */
export function issueLicense(
  privateKeyPem: string,
  options: { forever?: boolean; days?: number; now?: number } = {},
): { code: string; payload: LicensePayload } {
  const now = options.now ?? Date.now();
  const days = options.days ?? DEFAULT_LICENSE_DAYS;
  if (!options.forever && (!Number.isInteger(days) || days < 1 || days > 36_500)) {
    throw invalid(LICENSE_ERRORS.BAD_DAYS, `--days must be a whole number from 1 to 36500, not ${String(options.days)}.`);
  }
  const payload: LicensePayload = {
    v: 1,
    edition: 'V2',
    isForever: options.forever === true,
    expiresAt: options.forever ? null : now + days * DAY_MS,
    issuedAt: now,
    id: randomBytes(9).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const signature = sign(null, body, createPrivateKey(privateKeyPem));
  return { code: `${PREFIX}.${body.toString('base64url')}.${signature.toString('base64url')}`, payload };
}

/**
 * Checks a code against the install's public key and returns what it grants. Throws a clear
 * `invalid` error for anything else: garbage, a code from another install or edited by hand, expired.
 */
export function verifyLicense(publicKeyPem: string, code: unknown, now = Date.now()): LicensePayload {
  const malformed = () => invalid(LICENSE_ERRORS.MALFORMED, 'That is not an activation code; copy the whole code (it starts with TSV2.).');
  if (typeof code !== 'string') throw malformed();
  const text = code.replace(/\s+/g, '');
  if (text.length === 0 || text.length > MAX_CODE_CHARS) throw malformed();
  const parts = text.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX || !/^[A-Za-z0-9_-]+$/.test(parts[1]) || !/^[A-Za-z0-9_-]+$/.test(parts[2])) throw malformed();
  const body = Buffer.from(parts[1], 'base64url');
  const signature = Buffer.from(parts[2], 'base64url');
  let good = false;
  try {
    good = signature.length === 64 && verify(null, body, createPublicKey(publicKeyPem), signature);
  } catch {
    good = false;
  }
  if (!good) {
    throw invalid(LICENSE_ERRORS.BAD_SIGNATURE, 'This activation code is not valid for this server (it was changed or issued by another installation).');
  }
  let payload: LicensePayload;
  try {
    payload = JSON.parse(body.toString('utf8')) as LicensePayload;
  } catch {
    throw malformed();
  }
  if (
    payload?.v !== 1 ||
    payload.edition !== 'V2' ||
    typeof payload.isForever !== 'boolean' ||
    typeof payload.issuedAt !== 'number' ||
    typeof payload.id !== 'string' ||
    !(payload.expiresAt === null || typeof payload.expiresAt === 'number') ||
    (!payload.isForever && payload.expiresAt === null)
  ) {
    throw malformed();
  }
  if (!payload.isForever && payload.expiresAt !== null && payload.expiresAt <= now) {
    throw invalid(LICENSE_ERRORS.EXPIRED, `This activation code expired on ${new Date(payload.expiresAt).toISOString().slice(0, 10)}.`);
  }
  return payload;
}
