import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * CSRF tokens for cookie-authenticated requests (double submit, signed): the token is
 * `<nonce>.<hmac(secret, session id ‖ nonce)>`, sent as a readable cookie and echoed by the page in a
 * header. A forged request can neither read our cookie nor mint a token, and a token minted for one
 * session is worthless in another because the session id is inside the MAC.
 */
export function issueCsrfToken(secret: string, sessionId: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `${nonce}.${mac(secret, sessionId, nonce)}`;
}

export function verifyCsrfToken(secret: string, sessionId: string, token: unknown): boolean {
  if (typeof token !== 'string' || token.length > 200) return false;
  const [nonce, given, extra] = token.split('.');
  if (!nonce || !given || extra !== undefined) return false;
  const expected = Buffer.from(mac(secret, sessionId, nonce));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const mac = (secret: string, sessionId: string, nonce: string) =>
  createHmac('sha256', secret).update(`${sessionId}\u0000${nonce}`).digest('base64url');
