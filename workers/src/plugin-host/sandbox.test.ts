import { TagsonicError } from '@tagsonic/core/errors';
import { isPluginError } from '@tagsonic/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, PLUGIN_ERROR_CODES, PluginError, type Sandbox, type SandboxOptions } from './index.ts';

/** Every sandbox a test opens; closed after it so isolates do not pile up in the fork. */
const open: Sandbox[] = [];
const sandbox = (options: Partial<SandboxOptions> & { code: string }) => {
  const s = createSandbox({ id: `p${open.length}`, timeoutMs: 2_000, memoryLimitMb: 32, ...options });
  open.push(s);
  return s;
};
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** A second, healthy plugin: after each attack, it must still be served. */
async function expectOthersStillServed() {
  const healthy = sandbox({ code: 'exports.ping = async (o) => ({ pong: o.n + 1 });' });
  await expect(healthy.invoke('ping', { n: 1 })).resolves.toEqual({ pong: 2 });
}

async function failure(promise: Promise<unknown>): Promise<PluginError> {
  const error = await promise.then(
    () => { throw new Error('expected the invocation to fail'); },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PluginError);
  return error as PluginError;
}

describe('plugin sandbox', () => {
  it('delivers host calls the plugin did not await (caps.log.info) before the invocation ends', async () => {
    const seen: string[] = [];
    const s = sandbox({
      code: "exports.run = async (o, caps) => { caps.log.info('first'); caps.log.info('second'); return 'done'; };",
      capabilities: {
        log: {
          // Slow on purpose: the invocation must wait for both, not return while they are in flight.
          info: async (args) => {
            await new Promise((resolve) => setTimeout(resolve, 50));
            seen.push(String(args[0]));
            return null;
          },
        },
      },
    });
    await expect(s.invoke('run', {})).resolves.toBe('done');
    expect(seen).toEqual(['first', 'second']);
  });

  it('runs an exported function with its options and returns a copy of the result', async () => {
    const s = sandbox({ code: 'module.exports = { search: async ({ title }) => [{ name: title.toUpperCase(), year: 2001 }] };' });
    await expect(s.invoke('search', { title: 'abc' })).resolves.toEqual([{ name: 'ABC', year: 2001 }]);
    await expect(s.invoke('search', { title: 'd' })).resolves.toEqual([{ name: 'D', year: 2001 }]);
    expect(s.stats()).toMatchObject({ calls: 2, failures: 0, consecutiveFailures: 0, disabled: false });
    expect(s.stats().p50Ms).toBeGreaterThan(0);
    expect((await failure(s.invoke('nope'))).code).toBe(PLUGIN_ERROR_CODES.noExport);
  });

  it('exposes capabilities as plain async functions whose arguments cross as JSON copies', async () => {
    const seen: unknown[] = [];
    const s = sandbox({
      code: `exports.run = async (o, { http, tags }) => {
        const body = await http.fetch('https://example.org/a', { headers: { x: 1 }, fn() {} });
        return { body, read: await tags.read(o.path), kinds: [typeof http.fetch, Object.isFrozen(http), String(http.fetch).includes('call(')] };
      };`,
      capabilities: {
        http: { fetch: async (args) => { seen.push(args); return { status: 200, text: 'ok' }; } },
        tags: { read: (args) => { if (typeof args[0] !== 'string') throw new Error('path must be a string'); return { title: `t:${args[0]}` }; } },
      },
    });
    await expect(s.invoke('run', { path: 'a.mp3' })).resolves.toEqual({ body: { status: 200, text: 'ok' }, read: { title: 't:a.mp3' }, kinds: ['function', true, true] });
    expect(seen).toEqual([['https://example.org/a', { headers: { x: 1 } }]]);
    // The caller-provided function re-checks what untrusted code sent.
    await expect(s.invoke('run', { path: 42 })).rejects.toMatchObject({ code: PLUGIN_ERROR_CODES.threw, message: 'path must be a string' });
  });

  it("contains this.constructor.constructor('return process')() and other escapes", async () => {
    const s = sandbox({
      code: `
        exports.viaThis = () => this.constructor.constructor('return process')();
        exports.viaCapability = (o, caps) => caps.util.echo.constructor('return typeof process + typeof require + typeof globalThis.__tagsonicHost')();
        exports.globals = () => Object.getOwnPropertyNames(globalThis);
        exports.probe = async (o, caps) => {
          const f = caps.util.echo;
          const r = await f('x');
          return {
            ownKeysOfCapability: Reflect.ownKeys(f).map(String),
            prototypeIsPlain: Object.getPrototypeOf(f) === Object.getPrototypeOf(async () => {}),
            resultIsPlain: Object.getPrototypeOf(r) === Object.prototype,
            hostGone: typeof __tagsonicHost + typeof __tagsonicDefine,
          };
        };`,
      capabilities: { util: { echo: async (args) => ({ echoed: args[0] }) } },
    });
    const viaThis = await failure(s.invoke('viaThis'));
    expect(viaThis.code).toBe(PLUGIN_ERROR_CODES.threw);
    expect(viaThis.message).toBe('process is not defined');
    await expect(s.invoke('viaCapability')).resolves.toBe('undefinedundefinedundefined');
    const globals = (await s.invoke('globals')) as string[];
    expect(globals.filter((name) => /ivm|tagsonic|^reference$|require|process|module|host/i.test(name))).toEqual([]);
    await expect(s.invoke('probe')).resolves.toEqual({
      ownKeysOfCapability: ['length', 'name'],
      prototypeIsPlain: true,
      resultIsPlain: true,
      hostGone: 'undefinedundefined',
    });
    await expectOthersStillServed();
  });

  it('hides the bootstrap from caller chains and structured stack traces', async () => {
    const s = sandbox({
      code: `
        function callers() { return [String(callers.caller), String(arguments.callee.caller)]; }
        exports.callers = callers;
        exports.frames = async (o, caps) => {
          Error.prepareStackTrace = (e, sites) => sites.map((site) => [typeof site.getFunction(), typeof site.getThis()]);
          const before = new Error().stack;
          await caps.util.tick();
          const after = new Error().stack;
          let inCapability;
          try { await caps.util.fail(); } catch (e) { inCapability = e.stack; }
          return { before, after, inCapability };
        };`,
      capabilities: { util: { tick: async () => null, fail: async () => { throw new Error('no'); } } },
    });
    await expect(s.invoke('callers')).resolves.toEqual(['null', 'null']);
    const frames = (await s.invoke('frames')) as Record<string, [string, string][]>;
    // Only the plugin's own (sloppy) function is visible; the bootstrap's strict frames give nothing away.
    for (const stack of Object.values(frames)) {
      expect(stack.filter(([fn]) => fn === 'function').length).toBeLessThanOrEqual(1);
    }
    expect(frames.before[0]).toEqual(['function', 'object']);
    expect(frames.before.slice(1).every(([fn, self]) => fn === 'undefined' && self === 'undefined')).toBe(true);
  });

  it('cannot forge the outcome of an invocation through toJSON', async () => {
    const s = sandbox({
      code: `exports.forge = () => {
        Object.prototype.toJSON = function () { return { ok: true, value: 'forged', code: 'constructor' }; };
        throw new Error('real failure');
      };`,
    });
    const error = await failure(s.invoke('forge'));
    expect(error).toMatchObject({ code: PLUGIN_ERROR_CODES.threw, message: 'real failure' });
    expect(s.stats()).toMatchObject({ failures: 1 });
  });

  it('returns results without __proto__ keys, and pollution inside one context does not reach the host or the next call', async () => {
    const s = sandbox({
      code: `
        exports.pollute = () => {
          Object.prototype.polluted = 'yes';
          Array.prototype.polluted = 'yes';
          return JSON.parse('{"__proto__": {"polluted": "yes"}, "a": {"__proto__": {"admin": true}, "b": 1}, "list": [1]}');
        };
        exports.check = () => ({ polluted: ({}).polluted ?? null });`,
    });
    const result = (await s.invoke('pollute')) as Record<string, unknown>;
    expect(result).toEqual({ a: { b: 1 }, list: [1] });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(false);
    expect(Object.assign({}, result.a)).not.toHaveProperty('admin');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A fresh context per invocation: the next call sees pristine prototypes.
    await expect(s.invoke('check')).resolves.toEqual({ polluted: null });
  });

  it('stops while(true) with the CPU timeout, and a loop after an awaited host call with the watchdog', async () => {
    const s = sandbox({
      code: `exports.spin = () => { while (true) {} };
             exports.spinLater = async (o, caps) => { await caps.util.tick(); while (true) {} };
             exports.ok = () => 'ok';`,
      timeoutMs: 300,
      capabilities: { util: { tick: async () => null } },
    });
    const spin = await failure(s.invoke('spin'));
    expect(spin.code).toBe(PLUGIN_ERROR_CODES.timeout);
    const spinLater = await failure(s.invoke('spinLater'));
    expect(spinLater.code).toBe(PLUGIN_ERROR_CODES.timeout);
    await expect(s.invoke('ok')).resolves.toBe('ok'); // the isolate was recreated
    await expectOthersStillServed();
  });

  it('keeps serving other plugins while one is stuck in a loop', async () => {
    const stuck = sandbox({ code: `exports.spin = async (o, caps) => { await caps.util.tick(); while (true) {} };`, timeoutMs: 1_500,
      capabilities: { util: { tick: async () => null } } });
    const healthy = sandbox({ code: 'exports.ping = () => "pong";' });
    const spinning = failure(stuck.invoke('spin'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await expect(healthy.invoke('ping')).resolves.toBe('pong');
    expect(performance.now() - started).toBeLessThan(1_000); // the stuck one would hold it for 1.5 s
    expect((await spinning).code).toBe(PLUGIN_ERROR_CODES.timeout);
  });

  it('caps the message of a failure', async () => {
    const s = sandbox({ code: `exports.loud = () => { throw new Error('x'.repeat(100000)); };` });
    expect((await failure(s.invoke('loud'))).message.length).toBeLessThanOrEqual(2001);
  });

  it('stops never-settling awaits, in plugin code and in a host function, with the wall-clock watchdog', async () => {
    let hostSignal: AbortSignal | undefined;
    const s = sandbox({
      code: `exports.forever = async () => { await new Promise(() => {}); };
             exports.slowHost = async (o, caps) => caps.http.fetch('x');`,
      timeoutMs: 300,
      capabilities: { http: { fetch: (_args, call) => { hostSignal = call.signal; return new Promise(() => {}); } } },
    });
    const started = performance.now();
    expect((await failure(s.invoke('forever'))).code).toBe(PLUGIN_ERROR_CODES.timeout);
    expect((await failure(s.invoke('slowHost'))).code).toBe(PLUGIN_ERROR_CODES.timeout);
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(hostSignal?.aborted).toBe(true); // the host function learns its caller is gone
    await expectOthersStillServed();
  });

  it('contains an allocation bomb with the memory limit and recreates the isolate', async () => {
    const s = sandbox({
      code: `exports.bomb = () => { const a = []; while (true) a.push(new Array(100000).fill(Math.random())); };
             exports.ok = () => 'ok';`,
      memoryLimitMb: 16,
      timeoutMs: 10_000,
    });
    const bomb = await failure(s.invoke('bomb'));
    expect(bomb.code).toBe(PLUGIN_ERROR_CODES.memory);
    expect(bomb.message).toContain('16 MB');
    await expect(s.invoke('ok')).resolves.toBe('ok');
    await expectOthersStillServed();
  });

  it('frees each invocation\'s context: many calls fit in a small heap', async () => {
    // A context kept alive costs ~160 KB (measured): a leak fails after ~100 calls in 16 MB. 16 rather than the
    // floor of 8 leaves room for a collection that runs late on a loaded machine (8 MB failed once under CI load).
    const s = sandbox({ code: 'exports.echo = async (o, caps) => ({ n: o.n, twice: await caps.util.twice(o.n) });', memoryLimitMb: 16,
      capabilities: { util: { twice: async (args) => Number(args[0]) * 2 } } });
    for (let n = 0; n < 600; n++) await s.invoke('echo', { n });
    expect(s.stats()).toMatchObject({ calls: 600, failures: 0 });
  });

  it('refuses a result over the size cap', async () => {
    const s = sandbox({ code: `exports.huge = () => 'x'.repeat(9 * 1024 * 1024);`, memoryLimitMb: 128 });
    const huge = await failure(s.invoke('huge'));
    expect(huge.code).toBe(PLUGIN_ERROR_CODES.resultTooLarge);
    await expectOthersStillServed();
  });

  it('lets no host stack trace in (a throwing host function) or out (a throwing plugin)', async () => {
    const s = sandbox({
      code: `exports.call = async (o, caps) => {
               try { await caps.files.stat('/x'); } catch (e) { return { message: e.message, stack: String(e.stack) }; }
             };
             exports.fail = () => { throw new TypeError('bad tag'); };
             exports.failValue = () => { throw { toString() { throw new Error('nested'); } }; };`,
      capabilities: {
        files: {
          stat: async () => {
            throw new Error('upstream said no');
          },
        },
      },
    });
    const inside = (await s.invoke('call')) as { message: string; stack: string };
    expect(inside.message).toBe('upstream said no');
    expect(inside.stack).not.toMatch(/plugin-host|sandbox\.ts|node:|\/work\//);
    const thrown = await failure(s.invoke('fail'));
    expect(thrown).toMatchObject({ code: PLUGIN_ERROR_CODES.threw, message: 'bad tag', pluginId: s.id });
    expect(thrown.stack).toBe('PluginError: bad tag');
    expect(thrown.cause).toBeUndefined();
    expect((await failure(s.invoke('failValue'))).message).toBe('the plugin threw a value that cannot be shown');
    await expectOthersStillServed();
  });

  it('carries error codes across both ways: a host failure reaches the plugin as a PluginError, a plugin PluginError reaches the host', async () => {
    // The SDK's PluginError as esbuild bundles it into a plugin (a class of the plugin's own realm).
    const sdkError = `class PluginError extends Error {
      constructor(code, message, details) { super(message); this.name = 'PluginError'; this.code = code; if (details) this.details = details; }
    }`;
    const s = sandbox({
      code: `${sdkError}
        exports.seen = async (o, caps) => {
          try { await caps.http.fetch('http://elsewhere.test/'); } catch (e) {
            return { name: e.name, code: e.code, message: e.message, isError: e instanceof Error, stack: String(e.stack) };
          }
        };
        exports.rethrow = async (o, caps) => { try { await caps.http.fetch('x'); } catch (e) { throw new PluginError(e.code, 'lyrics: ' + e.message); } };
        exports.passThrough = async (o, caps) => caps.http.fetch('x');
        exports.upstream = () => { throw new PluginError('TAGSONIC_ERR_PLUGIN_UPSTREAM', 'response shape changed: songs', { status: 200, pluginId: 'forged', __proto__: { polluted: 1 } }); };
        exports.madeUp = () => { throw new PluginError('TAGSONIC_ERR_CORE_PANIC', 'not a plugin code'); };
        exports.frozen = async (o, caps) => {
          Object.freeze(Error.prototype);
          try { await caps.http.fetch('x'); } catch (e) { return [e.name, e.code]; }
        };
        exports.plainHostError = async (o, caps) => { try { await caps.util.boom(); } catch (e) { return { name: e.name, code: e.code === undefined }; } };`,
      capabilities: {
        http: {
          fetch: async () => {
            throw new TagsonicError('forbidden', 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED', 'Plugin p has no permission to reach elsewhere.test.');
          },
        },
        util: { boom: async () => { throw new TypeError('host bug at /work/main/x.ts'); } },
      },
    });
    const inside = (await s.invoke('seen')) as Record<string, unknown>;
    expect(inside).toMatchObject({ name: 'PluginError', code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED', isError: true });
    expect(inside.message).toBe('Plugin p has no permission to reach elsewhere.test.');
    expect(inside.stack).not.toMatch(/plugin-host|sandbox\.ts|node:|\/work\//);

    const rethrown = await failure(s.invoke('rethrow'));
    expect(rethrown).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED', message: 'lyrics: Plugin p has no permission to reach elsewhere.test.' });
    expect(isPluginError(rethrown)).toBe(true);
    expect((await failure(s.invoke('passThrough'))).code).toBe('TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED');
    const upstream = await failure(s.invoke('upstream'));
    expect(upstream).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM', message: 'response shape changed: songs', kind: 'unavailable' });
    expect(isPluginError(upstream)).toBe(true);
    expect(upstream.details).toEqual({ status: 200, pluginId: s.id }); // the plugin's details, our pluginId
    expect(s.stats().lastError).toMatchObject({ code: 'TAGSONIC_ERR_PLUGIN_UPSTREAM' });
    // A code that is not one of the SDK's is the plugin's failure, not a code it may claim.
    expect(await failure(s.invoke('madeUp'))).toMatchObject({ code: PLUGIN_ERROR_CODES.threw, message: 'not a plugin code' });
    await expect(s.invoke('frozen')).resolves.toEqual(['PluginError', 'TAGSONIC_ERR_PLUGIN_HTTP_HOST_NOT_GRANTED']);
    // A host error without a stable code stays a plain Error inside.
    await expect(s.invoke('plainHostError')).resolves.toEqual({ name: 'Error', code: true });
  });

  it("accepts exports on module.exports.default (TypeScript's export default bundled as CommonJS)", async () => {
    // What esbuild --format=cjs makes of \`export default { search }\`: a getter on an __esModule exports object.
    const s = sandbox({
      code: `var __defProp = Object.defineProperty;
        var src_exports = {};
        __defProp(src_exports, 'default', { get: () => src_default, enumerable: true });
        module.exports = __defProp(src_exports, '__esModule', { value: true });
        var src_default = { async search(o) { return [o.title, this === src_default]; } };`,
    });
    await expect(s.invoke('search', { title: 'x' })).resolves.toEqual(['x', true]);
    expect((await failure(s.invoke('lyrics'))).code).toBe(PLUGIN_ERROR_CODES.noExport);
  });

  it('hands JSON constants of a capability namespace to the plugin (http.baseUrl)', async () => {
    const s = sandbox({
      code: `exports.base = async (o, caps) => [caps.http.baseUrl, caps.http.none, typeof caps.http.fetch, Object.isFrozen(caps.http)];`,
      capabilities: { http: { fetch: async () => null, baseUrl: 'http://127.0.0.1:9001', none: null } },
    });
    await expect(s.invoke('base')).resolves.toEqual(['http://127.0.0.1:9001', null, 'function', true]);
  });

  it('reports code that does not compile', async () => {
    const s = sandbox({ code: 'exports.a = () => {' });
    const error = await failure(s.invoke('a'));
    expect(error.code).toBe(PLUGIN_ERROR_CODES.compile);
    expect(error.message).toMatch(/does not compile/);
  });

  it('counts failures, disables the plugin after consecutive failures, and enable() lifts it', async () => {
    const s = sandbox({ code: `exports.fail = () => { throw new Error('site changed'); }; exports.ok = () => 1;`, maxConsecutiveFailures: 3 });
    await s.invoke('ok');
    for (let i = 0; i < 3; i++) await failure(s.invoke('fail'));
    const stats = s.stats();
    expect(stats).toMatchObject({ calls: 4, failures: 3, consecutiveFailures: 3, disabled: true, disabledReason: 'auto' });
    expect(stats.lastError).toMatchObject({ code: PLUGIN_ERROR_CODES.threw, message: 'site changed' });
    expect(stats.lastSuccessAt).not.toBeNull();
    expect((await failure(s.invoke('ok'))).code).toBe(PLUGIN_ERROR_CODES.disabled);
    expect(s.stats().calls).toBe(4); // a refused call is not an invocation
    s.enable();
    await expect(s.invoke('ok')).resolves.toBe(1);
    expect(s.stats()).toMatchObject({ disabled: false, consecutiveFailures: 0, calls: 5 });
  });

  it('carries Uint8Array bytes both ways: options, capability arguments and results, and plugin results', async () => {
    const received: unknown[] = [];
    const s = sandbox({
      code: `exports.run = async ({ input }, { files }) => {
        const read = await files.read({ path: 'a' });
        const echoed = await files.write({ data: new Uint8Array([9, 8, 7]), nested: [{ cover: read.data.subarray(1) }] });
        return { sawInput: input instanceof Uint8Array ? Array.from(input) : typeof input, sawRead: read.data instanceof Uint8Array, length: read.data.length, underlying: read.data.buffer.byteLength, echoed, cover: read.data };
      };`,
      capabilities: {
        files: {
          read: () => ({ data: Buffer.from([1, 2, 3, 255]) }),
          write: (args) => { received.push(args[0]); return 'ok'; },
        },
      },
    });
    const result = await s.invoke('run', { input: new Uint8Array([4, 5]) }) as Record<string, unknown>;
    // `underlying`: only the 4 bytes crossed, not the Buffer pool slab the host's Buffer is a window on.
    expect(result).toEqual({ sawInput: [4, 5], sawRead: true, length: 4, underlying: 4, echoed: 'ok', cover: new Uint8Array([1, 2, 3, 255]) });
    expect(result.cover).toBeInstanceOf(Uint8Array);
    expect(received).toEqual([{ data: new Uint8Array([9, 8, 7]), nested: [{ cover: new Uint8Array([2, 3, 255]) }] }]);
    expect((received[0] as { data: unknown }).data).toBeInstanceOf(Uint8Array);
  });

  it('bytes cannot be forged: marker-like keys from the plugin or a host value stay plain objects, a fake Uint8Array is JSON', async () => {
    const s = sandbox({
      code: `exports.run = async (_o, { echo }) => {
        const back = await echo.value({ __tagsonic_bytes_0: 0 });
        const fake = { length: 2, 0: 1, 1: 2 };
        Object.setPrototypeOf(fake, Uint8Array.prototype);
        Uint8Array.prototype.toJSON = () => 'patched';
        return { back, fromHost: await echo.host(), fake: (() => { try { return JSON.stringify(fake); } catch (e) { return 'unreadable'; } })(), real: new Uint8Array([1]) };
      };`,
      capabilities: { echo: { value: (args) => args[0], host: () => ({ __tagsonic_bytes_0: 0, x: [1] }) } },
    });
    const result = await s.invoke('run') as Record<string, unknown>;
    expect(result.back).toEqual({ __tagsonic_bytes_0: 0 });
    expect(result.fromHost).toEqual({ __tagsonic_bytes_0: 0, x: [1] });
    expect(result.real).toEqual(new Uint8Array([1]));
  });

  it('counts bytes against the result cap', async () => {
    const s = sandbox({ code: `exports.big = () => ({ cover: new Uint8Array(2 * 1024 * 1024) });`, maxResultChars: 1024 * 1024, memoryLimitMb: 64 });
    expect((await failure(s.invoke('big'))).code).toBe(PLUGIN_ERROR_CODES.resultTooLarge);
    const ok = sandbox({ code: `exports.small = () => ({ cover: new Uint8Array(512 * 1024).fill(7) });`, maxResultChars: 1024 * 1024 });
    const value = await ok.invoke('small') as { cover: Uint8Array };
    expect(value.cover.byteLength).toBe(512 * 1024);
    expect(value.cover[100]).toBe(7);
  });
});
