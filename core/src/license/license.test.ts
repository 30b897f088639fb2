import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { issueLicense, verifyLicense } from './license.ts';

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { priv: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), pub: publicKey.export({ format: 'pem', type: 'spki' }).toString() };
};

describe('activation codes', () => {
  const k = pair();

  it('round-trips edition, permanence, expiry, issue time and id', () => {
    const now = Date.UTC(2026, 0, 1);
    const { code, payload } = issueLicense(k.priv, { days: 30, now });
    expect(code.length).toBeLessThan(300);
    expect(verifyLicense(k.pub, code, now + 1000)).toEqual(payload);
    expect(payload).toMatchObject({ v: 1, edition: 'V2', isForever: false, issuedAt: now, expiresAt: now + 30 * 86_400_000 });
    const forever = issueLicense(k.priv, { forever: true, now });
    expect(verifyLicense(k.pub, forever.code, now + 100 * 365 * 86_400_000)).toMatchObject({ isForever: true, expiresAt: null });
    expect(issueLicense(k.priv).payload.id).not.toBe(issueLicense(k.priv).payload.id);
  });

  it('accepts codes with whitespace from copy-paste', () => {
    const { code } = issueLicense(k.priv, { forever: true });
    expect(verifyLicense(k.pub, ` ${code.slice(0, 20)}\n${code.slice(20)} `).isForever).toBe(true);
  });

  it('refuses expired, tampered, foreign-key and malformed codes with distinct codes', () => {
    const now = Date.now();
    const { code } = issueLicense(k.priv, { days: 1, now: now - 2 * 86_400_000 });
    expect(() => verifyLicense(k.pub, code, now)).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LICENSE_EXPIRED' }));
    const good = issueLicense(k.priv, { forever: true }).code;
    const flipped = good.slice(0, -2) + (good.at(-2) === 'A' ? 'B' : 'A') + good.at(-1);
    expect(() => verifyLicense(k.pub, flipped)).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LICENSE_BAD_SIGNATURE' }));
    expect(() => verifyLicense(pair().pub, good)).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LICENSE_BAD_SIGNATURE' }));
    for (const junk of ['', 'TSV2', 'TSV2..', 'XXXX.a.b', 'TSV2.a+b.c', 42, null, 'x'.repeat(5000)]) {
      expect(() => verifyLicense(k.pub, junk)).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LICENSE_MALFORMED' }));
    }
    // A validly signed payload of the wrong shape is still refused.
    expect(() => issueLicense(k.priv, { days: 0 })).toThrow(expect.objectContaining({ code: 'TAGSONIC_ERR_LICENSE_BAD_DAYS' }));
  });
});
