import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_CODES, serverMessage } from './server-messages.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every `TAGSONIC_ERR_*` code written in the server's sources (tests excepted). */
function serverCodes(): Set<string> {
  const codes = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        // A template type (`TAGSONIC_ERR_PLUGIN_HTTP_${string}`) names a family, not a code.
        for (const m of readFileSync(p, 'utf8').matchAll(/TAGSONIC_ERR_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_]|\$\{)/g)) codes.add(m[0]);
      }
    }
  };
  for (const pkg of ['core', 'gateway', 'workers', 'sdk']) walk(path.join(ROOT, pkg, 'src'));
  return codes;
}

/**
 * Codes that never reach the dashboard: the Subsonic API's own (its clients get Subsonic envelopes), the
 * library/playlist/share/transcoding ones only /rest serves, start-up configuration, and store/bus
 * programming errors the gateway answers as "Internal error" (TAGSONIC_ERR_INTERNAL).
 */
const NOT_FOR_THE_DASHBOARD = /^TAGSONIC_ERR_SUBSONIC(_|$)|^TAGSONIC_ERR_(LIBRARY|PLAYLIST|SHARE|TRANSCODE|CONFIG)_|^TAGSONIC_ERR_(STORE|BUS)_(?!UNAVAILABLE$|DUPLICATE_KEY$)/;

describe('server messages', () => {
  it('every code the dashboard API can answer with has a Chinese and an English text', () => {
    const missing = [...serverCodes()].filter((c) => !NOT_FOR_THE_DASHBOARD.test(c) && !KNOWN_CODES.includes(c));
    expect(missing).toEqual([]);
  });

  it('shows the catalogue text in the interface language, the server text for an unknown code', () => {
    expect(serverMessage('TAGSONIC_ERR_AUTH_BAD_CREDENTIALS', 'Wrong username or password.', 'zh-CN')).toBe('用户名或密码错误');
    expect(serverMessage('TAGSONIC_ERR_AUTH_BAD_CREDENTIALS', 'Wrong username or password.', 'en')).toBe('Wrong username or password.');
    expect(serverMessage('TAGSONIC_ERR_LICENSE_MALFORMED', 'This is not an activation code.', 'zh-CN')).toBe('激活码格式错误，请检查是否完整复制');
    expect(serverMessage('TAGSONIC_ERR_AUTH_ADMIN_ONLY', 'Only an administrator can do this.', 'zh-CN')).toBe('只有管理员可以执行此操作');
    expect(serverMessage('TAGSONIC_ERR_SOMETHING_NEW', 'Something new happened.', 'zh-CN')).toBe('Something new happened.');
    expect(serverMessage(undefined, 'plain', 'en')).toBe('plain');
  });

  it('keeps the wait of a rate limit', () => {
    const code = 'TAGSONIC_ERR_AUTH_RATE_LIMITED';
    expect(serverMessage(code, 'Too many failed sign-ins; try again in 15 minutes.', 'zh-CN')).toBe('尝试次数过多，请 15 分钟后再试');
    expect(serverMessage(code, 'Too many failed sign-ins; try again in 1 minute.', 'en')).toBe('Too many attempts; try again in 1 minute.');
    expect(serverMessage(code, 'Slow down: wait 20 seconds.', 'zh-CN')).toBe('尝试次数过多，请 20 秒后再试');
    expect(serverMessage(code, 'Too many failed sign-ins.', 'en')).toBe('Too many attempts; try again later.');
  });

  it("says why a source's cover could not be downloaded (one code, the reason in the server's words)", () => {
    const code = 'TAGSONIC_ERR_TAGS_COVER_FETCH';
    const from = 'The cover could not be downloaded from p1.music.126.net: ';
    expect(serverMessage(code, `${from}the server answered HTTP 404.`, 'zh-CN')).toBe('封面下载失败：来源网站返回 HTTP 404');
    expect(serverMessage(code, `${from}127.0.0.1 is a loopback, private, link-local or reserved address; requests to it are refused.`, 'zh-CN')).toMatch(/本机或内网/);
    expect(serverMessage(code, `${from}the picture is larger than 16 MiB, more than fits in a tag.`, 'en')).toBe('The cover is larger than 16 MB and cannot be written into a tag.');
    expect(serverMessage(code, `${from}what it sent (text/html) is not a JPEG, PNG or WebP picture.`, 'zh-CN')).toBe('封面地址返回的不是 JPEG、PNG 或 WebP 图片');
    expect(serverMessage(code, `${from}no complete answer from p1.music.126.net within 20000 ms.`, 'en')).toBe('Downloading the cover timed out; try again later.');
    expect(serverMessage(code, `${from}could not get an answer from p1.music.126.net (ECONNREFUSED).`, 'zh-CN')).toBe('封面下载失败：无法连接来源网站');
  });

  it('every text is non-empty in both languages, and the Chinese one is Chinese', () => {
    for (const code of KNOWN_CODES) {
      const zh = serverMessage(code, 'x 3 minutes', 'zh-CN');
      const en = serverMessage(code, 'x 3 minutes', 'en');
      expect(zh, code).toMatch(/[\u4e00-\u9fff]/);
      expect(en, code).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
