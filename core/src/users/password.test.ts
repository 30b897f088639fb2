import { describe, expect, it } from 'vitest';
import { hashPassword, randomPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt per hash', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });
  it('treats NFC and NFD spellings of the same password alike', async () => {
    const h = await hashPassword('caf\u00e9 passwort');
    expect(await verifyPassword('cafe\u0301 passwort', h)).toBe(true);
  });
  it('rejects malformed stored hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
  });
  it('generates unambiguous random passwords', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const p = randomPassword();
      expect(p).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{20}$/);
      seen.add(p);
    }
    expect(seen.size).toBe(50);
  });
});
