import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, configureApiClient, isApiError } from './api-client.ts';
import { onNotice, type Notice } from './notify.ts';
import { useLang } from './i18n.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base = '';
const seen: Seen[] = [];
const notices: Notice[] = [];
let unauthorized: string[] = [];

/** A small real HTTP server answering like the gateway does, route by route. */
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url?.split('?')[0] === '/ok') return json(200, { result: true, code: 0, message: '修改成功！', msg: '修改成功！', data: { n: 1 }, token: 'tok' });
      if (req.url === '/msg-only') return json(400, { result: false, code: 40000, msg: 'only msg', data: null });
      if (req.url === '/refused') return json(200, { result: false, code: 0, message: 'nope', data: { error: 'TAGSONIC_ERR_X_NOPE' } });
      if (req.url === '/forbidden') return json(403, { result: false, code: 40302, message: 'V1 version restriction: import', msg: '', data: { error: 'TAGSONIC_ERR_AUTH_V1_RESTRICTED' } });
      if (req.url === '/wrong-password') return json(400, { result: false, code: 40000, message: 'Wrong username or password.', data: { error: 'TAGSONIC_ERR_AUTH_BAD_CREDENTIALS' } });
      if (req.url === '/uploaded') return json(200, { result: true, code: 0, message: '上传成功！', data: '/x' });
      if (req.url === '/unauth') return json(401, { result: false, code: 40100, message: 'Sign in first', data: { error: 'TAGSONIC_ERR_AUTH_REQUIRED' } });
      if (req.url === '/broken') {
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html>bad gateway</html>');
      }
      json(404, { result: false, code: 40400, message: `No route ${req.method} ${req.url}`, data: { error: 'TAGSONIC_ERR_HTTP_NOT_FOUND' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onNotice((n) => notices.push(n));
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen.length = 0;
  notices.length = 0;
  unauthorized = [];
  configureApiClient({ baseUrl: base, cookies: () => 'other=1; csrftoken=csrf%2Btoken; username=admin', onUnauthorized: (p) => unauthorized.push(p) });
});

describe('api client', () => {
  it('sends the spec headers and unwraps the envelope', async () => {
    const env = await apiCall<{ n: number }>('/ok', { body: { a: 1 }, onSuccess: { title: '修改成功！', content: false, timeout: 2000 } });
    expect(env).toEqual({ result: true, code: 0, message: '修改成功！', data: { n: 1 }, token: 'tok' });
    const req = seen[0];
    expect(req.method).toBe('POST');
    expect(req.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(req.headers['x-csrftoken']).toBe('csrf+token');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({ a: 1 });
    expect(notices).toEqual([{ intent: 'success', title: '修改成功！', content: undefined, timeout: 2000, action: undefined }]);
  });

  it('GETs with a query and multipart bodies without a JSON content type', async () => {
    await apiCall('/ok', { query: { state: 'failed', page_size: 20 } });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/ok?state=failed&page_size=20' });
    const form = new FormData();
    form.append('upload_file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
    await apiCall('/ok', { body: form });
    expect(String(seen[1].headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[1].body).toContain('name="upload_file"');
  });

  it('a refusal inside a 200 rejects with the server code and shows the call notice with the server message', async () => {
    const error = await apiCall('/refused', { body: {}, onError: { title: '创建失败！', fallback: '创建失败', timeout: 5000 } }).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('TAGSONIC_ERR_X_NOPE');
    expect(notices).toEqual([{ intent: 'danger', title: '创建失败！', content: 'nope', timeout: 5000, action: undefined }]);
  });

  it('reads msg when message is absent, and keeps the envelope code and HTTP status', async () => {
    const error = await apiCall('/msg-only', { body: {}, onError: { title: '查询失败！', timeout: 5000 } }).catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    if (!isApiError(error)) return;
    expect(error.message).toBe('only msg');
    expect(error.details).toMatchObject({ status: 400, code: 40000 });
    expect(error.kind).toBe('invalid');
    const v1 = await apiCall('/forbidden', { body: {} }).catch((e: unknown) => e);
    expect(isApiError(v1) && v1.details.code).toBe(40302);
  });

  it('without a call notice, a status outside 2xx says 请求异常，请刷新重试 (also for non-JSON bodies)', async () => {
    await expect(apiCall('/broken')).rejects.toThrow('请求异常，请刷新重试');
    expect(notices[0]).toMatchObject({ intent: 'danger', title: '请求异常，请刷新重试' });
  });

  it('a silent 401 shows nothing but reports the lost session', async () => {
    await expect(apiCall('/unauth', { body: {}, onError: { title: '查询失败！', timeout: 5000, silentStatuses: [401] } })).rejects.toThrow('请先登录');
    expect(notices).toEqual([]);
    expect(unauthorized).toEqual(['/unauth']);
  });

  it('a network failure becomes code 500 with the error message', async () => {
    configureApiClient({ baseUrl: 'http://127.0.0.1:9' });
    const error = await apiCall('/ok', { onError: { title: '查询失败！', timeout: 5000 } }).catch((e: unknown) => e);
    expect(isApiError(error) && error.details.status).toBe(500);
    expect(notices[0].title).toBe('查询失败！');
    expect(notices[0].content).toBeTruthy();
  });

  it('shows a known code in the interface language (zh-CN default, English when switched), keeping the server text in details', async () => {
    const spec = { onError: { title: '登录失败！', fallback: '登录失败', timeout: 2000 } };
    const zh = await apiCall('/wrong-password', { body: {}, ...spec }).catch((e: unknown) => e);
    expect(notices.at(-1)).toMatchObject({ title: '登录失败！', content: '用户名或密码错误' });
    expect(isApiError(zh) && zh.details.serverMessage).toBe('Wrong username or password.');
    useLang.getState().setLang('en');
    try {
      await apiCall('/wrong-password', { body: {}, ...spec }).catch(() => undefined);
      expect(notices.at(-1)).toMatchObject({ title: 'Login failed!', content: 'Wrong username or password.' });
      await apiCall('/uploaded', { body: {}, onSuccess: { title: '上传成功！', timeout: 2000 } });
      expect(notices.at(-1)).toMatchObject({ intent: 'success', title: 'Uploaded!', content: 'Uploaded!' });
    } finally {
      useLang.getState().setLang('zh-CN');
    }
  });

  it('onError false keeps a failure silent', async () => {
    await expect(apiCall('/nowhere', { onError: false })).rejects.toThrow('接口不存在');
    expect(notices).toEqual([]);
  });
});
