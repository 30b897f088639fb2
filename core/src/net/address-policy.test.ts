import { describe, expect, it } from 'vitest';
import { isRefusedAddress } from './address-policy.ts';

describe('address policy', () => {
  it('refuses loopback, private, link-local, metadata, unspecified and their IPv4-mapped forms', () => {
    for (const a of [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
      '169.254.0.1', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255',
      '::1', '[::1]', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1', '::127.0.0.1', '::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::',
      'localhost', 'not an address', '',
    ]) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
  });

  it('lets public unicast addresses through, mapped ones too', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '[2a00:1450::1]']) {
      expect(isRefusedAddress(a), a).toBe(false);
    }
  });
});
