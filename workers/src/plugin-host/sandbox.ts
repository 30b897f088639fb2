import { randomBytes } from 'node:crypto';
import ivm from 'isolated-vm';
import { BOOTSTRAP_SOURCE, HOST_GLOBAL, wrapPluginCode } from './bootstrap.ts';
import { HTTP_BUSY, PLUGIN_ERROR_CODES, PluginError, pluginThrownCode, type PluginErrorCode } from './errors.ts';
import { CrossingBudget, type CrossingHold } from './crossing-budget.ts';
import { crossingSize, parseSandboxCrossing, toSandboxCrossing, type JsonValue } from './json.ts';
import { PluginHealth, type PluginStats } from './stats.ts';

/**
 * One plugin's sandbox: one isolated-vm isolate (kept across invocations, recreated after it ran out of
 * memory or was stopped), a fresh context per invocation (~0.3 ms here, so no reuse: nothing a plugin leaves
 * on its globals or prototypes survives into the next call), and a wall-clock watchdog that also covers time
 * spent awaiting host calls, which isolated-vm's own `timeout` does not count.
 */

/** Called with the plugin's arguments as JSON copies; it must re-check them (they come from untrusted code). */
export type HostFunction = (args: JsonValue[], call: HostCall) => unknown;

export interface HostCall {
  pluginId: string;
  /** Aborted when the invocation ends (returned, failed or timed out): stop work nobody will read. */
  signal: AbortSignal;
  /** The task this invocation works for (a batch action's item), given by the host, never by the plugin. */
  task?: TaskBinding;
  /**
   * When (performance.now()) the invocation's caller stops waiting: its wall-clock limit, or the caller's
   * shorter budget (InvokeBudget). Work queued past it is wasted; a host function may refuse it at once.
   */
  deadline: number;
  /**
   * Reports the host's own congestion: ms spent waiting for a pacing turn, or a request refused as busy. A
   * failure that follows a busy refusal, or a timeout spent mostly waiting, does not count towards auto-disable.
   */
  paced(event: { waitedMs: number } | { busy: true; retryAfterMs: number }): void;
}

/** How long the caller of one invocation will wait (beside the plugin's own options and the task). */
export interface InvokeBudget {
  /**
   * In ms (smart_tag's per-source deadline): host calls see it as their `deadline`, so a pacing turn that would
   * come later is refused as busy instead of queued. The invocation itself still runs under the sandbox's own
   * limit, so a slow answer is not counted as the plugin's timeout because one caller stopped waiting.
   */
  budgetMs?: number;
}

/**
 * What binds one invocation to a task: effects the capabilities make during it are journaled under `taskId`
 * (undoing the task undoes them) and stamped with `actor`, the user who started the task.
 */
export interface TaskBinding {
  taskId: string;
  actor: string;
  /** The task item being run: journal entries carry it, so a crashed item is settled by its own effects. */
  itemId?: string;
}

/** A constant a capability namespace carries (`http.baseUrl`); copied into each fresh context. */
export type CapabilityValue = string | number | boolean | null;

/**
 * Namespaces of host functions and constants: `{ http: { fetch, baseUrl } }` appears inside as
 * `capabilities.http.fetch(...)` and `capabilities.http.baseUrl`.
 */
export interface Capabilities {
  [name: string]: HostFunction | CapabilityValue | Capabilities;
}

export interface SandboxOptions {
  id: string;
  /** The plugin's code: one bundled script in CommonJS style (`module.exports = { search }` / `exports.search = …`). */
  code: string;
  /** Heap limit of the isolate; over it the invocation fails and the isolate is recreated. Default 64, minimum 8. */
  memoryLimitMb?: number;
  /** Wall-clock limit of one invocation, host calls included. Default 10 s. */
  timeoutMs?: number;
  capabilities?: Capabilities;
  /** Cap on the result's size: JSON characters plus bytes. Default 8 MiB. */
  maxResultChars?: number;
  /** Consecutive failed invocations after which the plugin is disabled. Default 5. */
  maxConsecutiveFailures?: number;
  /**
   * V8 lost control of the isolate (isolated-vm's `onCatastrophicError`): the process is no longer sound and
   * should log, stop taking work, finish what it can and `process.abort()`. The worker decides; not the sandbox.
   */
  onCatastrophicError?: (pluginId: string, message: string) => void;
}

export interface Sandbox {
  readonly id: string;
  /**
   * Calls the exported function `exportName(options, capabilities)` in a fresh context and returns a copy of
   * what it returned (or resolved to): JSON, with `Uint8Array`s as `Uint8Array`s; `undefined` comes back as
   * `null`. Throws a {@link PluginError}.
   */
  invoke(exportName: string, options?: unknown, task?: TaskBinding, budget?: InvokeBudget): Promise<JsonValue>;
  stats(): PluginStats;
  /** Lifts an automatic or manual disable and resets the consecutive-failure count. */
  enable(): void;
  disable(): void;
  /** Disposes the isolate; further invocations fail with `TAGSONIC_ERR_PLUGIN_CLOSED`. */
  close(): void;
}

const MAX_HOST_ARGS_CHARS = 8 * 1024 * 1024;
/** A capability result this large (JSON characters plus bytes) counts against the sandbox's crossing budget. */
const LARGE_RESULT = 256 * 1024;
/**
 * The share of the isolate's memory that large results of invocations in flight may hold at once: 16 MB of a
 * 64 MB isolate (eight 4 MB covers at once were measured safe, sixteen aborted the process).
 */
const CROSSING_SHARE = 1 / 4;
const SEGMENT = /^[A-Za-z_$][\w$]*$/;
const COPY_IN_PROMISE_OUT = { arguments: { copy: true }, result: { promise: true, copy: true } } as const;

/** The isolate of a plugin with its two compiled scripts; replaced wholesale when it dies. */
interface LiveIsolate {
  isolate: ivm.Isolate;
  bootstrap: ivm.Script;
  plugin: ivm.Script;
  /** Set when the watchdog disposed it, so the calls that die with it report a timeout, not a crash. */
  stoppedByWatchdog: boolean;
}

export function createSandbox(options: SandboxOptions): Sandbox {
  const id = options.id;
  const memoryLimitMb = Math.max(8, options.memoryLimitMb ?? 64);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxResultChars = options.maxResultChars ?? 8 * 1024 * 1024;
  const { functions: hostFunctions, values: hostValues } = flattenCapabilities(options.capabilities ?? {});
  const shapeJson = JSON.stringify({ functions: [...hostFunctions.keys()], values: [...hostValues] });
  const health = new PluginHealth(options.maxConsecutiveFailures ?? 5);
  const largeResults = new CrossingBudget(Math.floor(memoryLimitMb * 1024 * 1024 * CROSSING_SHARE));
  let live: Promise<LiveIsolate> | null = null;
  let closed = false;

  const pluginError = (code: PluginErrorCode, message: string, details?: Record<string, unknown>) => new PluginError(id, code, message, details);

  const startIsolate = async (): Promise<LiveIsolate> => {
    const onCatastrophicError = options.onCatastrophicError;
    const isolate = new ivm.Isolate({
      memoryLimit: memoryLimitMb,
      ...(onCatastrophicError && { onCatastrophicError: (message: string) => onCatastrophicError(id, message) }),
    });
    try {
      const bootstrap = await isolate.compileScript(BOOTSTRAP_SOURCE, { filename: 'tagsonic:bootstrap' });
      let plugin: ivm.Script;
      try {
        plugin = await isolate.compileScript(wrapPluginCode(options.code), { filename: `plugin:${id}` });
      } catch (error) {
        throw pluginError(PLUGIN_ERROR_CODES.compile, `the plugin's code does not compile: ${messageOf(error)}`);
      }
      return { isolate, bootstrap, plugin, stoppedByWatchdog: false };
    } catch (error) {
      isolate.dispose();
      throw error;
    }
  };

  const acquire = (): Promise<LiveIsolate> => {
    if (live === null) {
      const starting = startIsolate();
      live = starting;
      // A plugin that does not compile is retried on the next call (it counts as a failure each time).
      starting.catch(() => { if (live === starting) live = null; });
    }
    return live;
  };

  /** Forgets a dead isolate so the next invocation starts a new one. */
  const retire = (vm: LiveIsolate, current: Promise<LiveIsolate>) => {
    if (live === current) live = null;
    if (!vm.isolate.isDisposed) vm.isolate.dispose();
  };

  /**
   * The host side of every capability call: JSON and bytes in, an envelope (JSON and bytes) out, the message
   * only on failure. `marker` is the invocation's bytes marker (see json.ts).
   */
  const dispatcher = (signal: AbortSignal, hold: CrossingHold & { waitedMs: number }, marker: string, task: TaskBinding | undefined, invocation: Pick<HostCall, 'deadline' | 'paced'>) => async (path: string, argsJson: string, argsBytes: unknown): Promise<[string, Uint8Array[]]> => {
    try {
      if (signal.aborted) throw new Error('the invocation has ended');
      const fn = typeof path === 'string' ? hostFunctions.get(path) : undefined;
      if (fn === undefined) throw new Error(`no capability named ${String(path)}`);
      if (typeof argsJson !== 'string' || !Array.isArray(argsBytes) || crossingSize(argsJson, argsBytes as Uint8Array[]) > MAX_HOST_ARGS_CHARS) {
        throw new Error('the arguments are too large');
      }
      const args = parseSandboxCrossing(argsJson, argsBytes, marker);
      if (!Array.isArray(args)) throw new Error('the arguments are not a list');
      const value = await fn(args, task ? { pluginId: id, signal, task, ...invocation } : { pluginId: id, signal, ...invocation });
      const reply = toSandboxCrossing({ ok: true, value: value === undefined ? null : value }, marker);
      const size = crossingSize(reply.text, reply.bytes);
      // Held inside the isolate until the invocation ends: wait while others hold the budget (crossing-budget.ts).
      if (size >= LARGE_RESULT) hold.waitedMs += await largeResults.take(hold, size, signal);
      return [reply.text, reply.bytes];
    } catch (error) {
      // The code crosses (the plugin may branch on it and rethrow); the stack and cause stay here.
      return [JSON.stringify({ ok: false, message: messageOf(error), code: crossingCode(error) }), []];
    }
  };

  const run = async (
    exportName: string,
    options: { text: string; bytes: Uint8Array[] },
    marker: string,
    task: TaskBinding | undefined,
    invocation: Pick<HostCall, 'deadline' | 'paced'>,
    hold: CrossingHold & { waitedMs: number },
  ): Promise<JsonValue> => {
    const current = acquire();
    const vm = await current;
    let context: ivm.Context;
    try {
      context = await vm.isolate.createContext();
    } catch (error) {
      throw classify(vm, current, error); // the isolate may have died between two invocations
    }
    const ended = new AbortController();
    const host = new ivm.Reference(dispatcher(ended.signal, hold, marker, task, invocation));
    let runner: ivm.Reference<(name: string, optionsJson: string, optionsBytes: Uint8Array[], shapeJson: string, maxResultChars: number, marker: string) => Promise<[string, Uint8Array[]]>> | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          vm.stoppedByWatchdog = true;
          retire(vm, current);
          reject(pluginError(PLUGIN_ERROR_CODES.timeout, `the plugin did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
      });
      const work = (async () => {
        await context.global.set(HOST_GLOBAL, host);
        runner = (await vm.bootstrap.run(context, { reference: true, timeout: timeoutMs })) as NonNullable<typeof runner>;
        await vm.plugin.run(context, { timeout: timeoutMs });
        return runner.apply(undefined, [exportName, options.text, options.bytes, shapeJson, maxResultChars, marker], { ...COPY_IN_PROMISE_OUT, timeout: timeoutMs });
      })();
      work.catch(() => {}); // after a timeout nobody awaits it; its rejection is expected
      let reply: unknown;
      try {
        reply = await Promise.race([work, deadline]);
      } catch (error) {
        if (error instanceof PluginError) throw error;
        throw classify(vm, current, error);
      }
      // The runner built this pair; still checked, since plugin code ran in that context.
      const [text, bytes] = Array.isArray(reply) ? reply : [];
      if (typeof text !== 'string' || !Array.isArray(bytes) || !bytes.every((b) => b instanceof Uint8Array)) {
        throw pluginError(PLUGIN_ERROR_CODES.threw, 'the plugin returned something that is not JSON and bytes');
      }
      if (crossingSize(text, bytes) > maxResultChars + 64) {
        throw pluginError(PLUGIN_ERROR_CODES.resultTooLarge, `the result is larger than ${maxResultChars} characters of JSON and bytes`);
      }
      return unwrap(parseSandboxCrossing(text, bytes, marker));
    } finally {
      clearTimeout(timer);
      ended.abort();
      largeResults.release(hold);
      // Every Reference into the context must go, or the released context stays alive and the isolate's heap
      // fills up after a few hundred invocations (measured).
      // (Releasing is safe after the isolate was disposed, too.)
      host.release();
      runner?.release();
      context.release();
    }
  };

  /** Reads the runner's envelope as untrusted (plugin code ran in that context): value, or a PluginError. */
  const unwrap = (envelope: JsonValue): JsonValue => {
    const record = envelope !== null && typeof envelope === 'object' && !Array.isArray(envelope) && !(envelope instanceof Uint8Array) ? envelope : {};
    if (record.ok === true) return Object.hasOwn(record, 'value') ? record.value : null;
    let code = typeof record.code === 'string' && Object.hasOwn(RUNNER_CODES, record.code) ? RUNNER_CODES[record.code] : PLUGIN_ERROR_CODES.threw;
    // A PluginError the plugin threw (or a capability's it rethrew) keeps its code if it is one of the SDK's.
    if (code === PLUGIN_ERROR_CODES.threw) code = pluginThrownCode(record.pluginCode) ?? code;
    const details = record.pluginDetails;
    const plain = details !== null && typeof details === 'object' && !Array.isArray(details) && !(details instanceof Uint8Array) ? details : undefined;
    throw pluginError(code, typeof record.message === 'string' ? record.message : 'the plugin failed', plain);
  };

  /** Turns a rejection from isolated-vm itself (not the runner's envelope) into a PluginError. */
  const classify = (vm: LiveIsolate, current: Promise<LiveIsolate>, error: unknown): PluginError => {
    if (vm.stoppedByWatchdog) return pluginError(PLUGIN_ERROR_CODES.timeout, `the plugin was stopped after ${timeoutMs} ms`);
    const message = messageOf(error);
    if (vm.isolate.isDisposed || /memory limit/i.test(message)) {
      retire(vm, current);
      return pluginError(PLUGIN_ERROR_CODES.memory, `the plugin exceeded its memory limit of ${memoryLimitMb} MB`);
    }
    if (/timed out/i.test(message)) return pluginError(PLUGIN_ERROR_CODES.timeout, `the plugin did not finish within ${timeoutMs} ms`);
    // Top-level code of the plugin threw while loading: its message (copied out of the isolate) only.
    return pluginError(PLUGIN_ERROR_CODES.threw, message);
  };

  return {
    id,
    async invoke(exportName, invokeOptions, task, budget) {
      if (closed) throw pluginError(PLUGIN_ERROR_CODES.closed, 'the plugin sandbox is closed');
      if (health.disabled) throw pluginError(PLUGIN_ERROR_CODES.disabled, `the plugin ${id} is disabled`);
      // A fresh marker per invocation: unknown to the plugin and to any upstream it reads.
      const marker = `__tagsonic_bytes_${randomBytes(12).toString('hex')}`;
      let crossing: { text: string; bytes: Uint8Array[] };
      try {
        crossing = toSandboxCrossing(invokeOptions, marker);
      } catch (error) {
        throw pluginError(PLUGIN_ERROR_CODES.badOptions, `the options are not JSON: ${messageOf(error)}`);
      }
      const started = performance.now();
      const budgetMs = typeof budget?.budgetMs === 'number' && budget.budgetMs >= 0 ? budget.budgetMs : Infinity;
      const pacing = { waitedMs: 0, busyRetryAfterMs: null as number | null };
      const invocation: Pick<HostCall, 'deadline' | 'paced'> = {
        deadline: started + Math.min(timeoutMs, budgetMs),
        paced: (event) => {
          if ('busy' in event) pacing.busyRetryAfterMs = Math.max(pacing.busyRetryAfterMs ?? 0, event.retryAfterMs);
          else pacing.waitedMs += event.waitedMs;
        },
      };
      // The large results this invocation holds (crossing-budget.ts), and how long it waited to receive them.
      const hold = { held: 0, waitedMs: 0 };
      try {
        const value = await run(exportName, crossing, marker, task, invocation, hold);
        health.succeeded(performance.now() - started);
        return value;
      } catch (error) {
        const elapsed = performance.now() - started;
        let failure = error instanceof PluginError ? error : pluginError(PLUGIN_ERROR_CODES.threw, messageOf(error));
        // The host's congestion, not the plugin's fault (stats.ts): a request refused as busy, whatever the plugin
        // made of it, or a timeout that was mostly spent waiting for pacing turns.
        const busy = pacing.busyRetryAfterMs !== null;
        const timedOutWaiting = failure.code === PLUGIN_ERROR_CODES.timeout && pacing.waitedMs * 2 >= elapsed;
        // Or mostly spent waiting for other invocations of the plugin to let go of their large results.
        const timedOutQueued = failure.code === PLUGIN_ERROR_CODES.timeout && !timedOutWaiting && hold.waitedMs * 2 >= elapsed;
        if (busy && failure.code === HTTP_BUSY && typeof failure.details?.retryAfterSec !== 'number') {
          // The capability's details stay on the host side of the boundary; the caller needs the retry time.
          failure = pluginError(HTTP_BUSY, failure.message, { ...failure.details, retryAfterSec: Math.max(1, Math.ceil(pacing.busyRetryAfterMs! / 1000)) });
        } else if (timedOutWaiting) {
          failure = pluginError(PLUGIN_ERROR_CODES.timeout,
            `${failure.message} (${(pacing.waitedMs / 1000).toFixed(1)} s of it waiting for turns under the source's request pacing)`,
            { ...failure.details, pacingWaitMs: Math.round(pacing.waitedMs) });
        } else if (timedOutQueued) {
          failure = pluginError(PLUGIN_ERROR_CODES.timeout,
            `${failure.message} (${(hold.waitedMs / 1000).toFixed(1)} s of it waiting for the plugin's other calls to release their large results)`,
            { ...failure.details, crossingWaitMs: Math.round(hold.waitedMs) });
        }
        // A missing export answers the host's question (has this batch action a plan?): not the plugin's failure.
        if (failure.code !== PLUGIN_ERROR_CODES.noExport) health.failed(elapsed, failure.code, failure.message, { congestion: busy || timedOutWaiting || timedOutQueued });
        throw failure;
      }
    },
    stats: () => health.snapshot(),
    enable: () => health.setDisabled(false),
    disable: () => health.setDisabled(true),
    close() {
      closed = true;
      const current = live;
      live = null;
      current?.then((vm) => vm.isolate.isDisposed || vm.isolate.dispose(), () => {});
    },
  };
}

const RUNNER_CODES: Record<string, PluginErrorCode> = {
  compile: PLUGIN_ERROR_CODES.compile,
  noExport: PLUGIN_ERROR_CODES.noExport,
  resultTooLarge: PLUGIN_ERROR_CODES.resultTooLarge,
  threw: PLUGIN_ERROR_CODES.threw,
};

interface FlatCapabilities {
  functions: Map<string, HostFunction>;
  values: Map<string, CapabilityValue>;
}

/**
 * `{ http: { fetch, baseUrl } }` → functions `Map { 'http.fetch' → fetch }`, values `Map { 'http.baseUrl' → … }`;
 * names must be identifiers (they become code paths).
 */
function flattenCapabilities(
  capabilities: Capabilities,
  prefix = '',
  into: FlatCapabilities = { functions: new Map(), values: new Map() },
): FlatCapabilities {
  for (const [name, value] of Object.entries(capabilities)) {
    if (!SEGMENT.test(name)) throw new TypeError(`capability name ${JSON.stringify(name)} is not an identifier`);
    const path = prefix + name;
    if (typeof value === 'function') into.functions.set(path, value);
    else if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) {
      into.values.set(path, value);
    } else if (typeof value === 'object') flattenCapabilities(value, `${path}.`, into);
    else throw new TypeError(`capability ${path} is neither a function, a JSON constant nor a namespace`);
  }
  return into;
}

/** A host failure's stable code (`TAGSONIC_ERR_…`), the only part of a host error besides its message that crosses. */
function crossingCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^TAGSONIC_ERR_[A-Z0-9_]{1,80}$/.test(code) ? code : undefined;
}

/** The message of anything thrown, never its stack. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
