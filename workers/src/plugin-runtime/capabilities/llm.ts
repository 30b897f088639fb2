/**
 * `llm.chat`, `llm.translateLyric` and `llm.check` (`llm` grant): the language model the administrator configured in the
 * system settings (core/llm, the client behind the editor's lyric translation). The settings, the API key
 * among them, are read from the store on every call, so a change on the settings screen applies to the next
 * call without reloading the plugin, and the key never crosses into the sandbox: the plugin sends messages
 * and gets text back. Failures keep core's `TAGSONIC_ERR_LLM_*` codes (not configured, timeout, HTTP, …).
 *
 * A batch action runs one invocation per item, many at once across a 10k-file task: each plugin gets at most
 * {@link LLM_CONCURRENCY} requests in flight per process, the rest queue. A call waits and runs within its
 * invocation's deadline (the sandbox's watchdog covers it; the request is aborted when the invocation ends),
 * and time spent queued is reported as congestion, so a timeout caused by the queue does not count against
 * the plugin's health.
 */
import { TagsonicError } from '@tagsonic/core/errors';
import { checkLlmSettings, chatCompletion, DEFAULT_LLM_TIMEOUT_MS, readLlmSettings, translateLyric, type ChatMessage, type LlmSettings } from '@tagsonic/core/llm';
import type { Store } from '@tagsonic/core/store';
import { PLUGIN_ERROR_CODES, type HostCall, type HostFunction } from '../../plugin-host/index.ts';
import { invalidArgument, limit, optionalNumber, optionsOf } from './args.ts';

/** Requests of one plugin in flight at once, per process. */
export const LLM_CONCURRENCY = 2;
/** The text one call may send: a whole album's lyrics, not a book. */
export const LLM_MAX_CHARS = 200_000;
const MAX_MESSAGES = 100;
/** Time left to the plugin after a request that ran out of its invocation's time. */
const ANSWER_MARGIN_MS = 500;
const MAX_TOKENS = 32_768;
const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant']);

/** One FIFO of turns per plugin id, shared by every load of that plugin in this process. */
class Turns {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  /** Resolves when a turn is free; rejects when the invocation ends first (its place in the queue is given up). */
  acquire(signal: AbortSignal): Promise<void> {
    if (this.#running < LLM_CONCURRENCY) {
      this.#running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', cancel);
        this.#running += 1;
        resolve();
      };
      const cancel = () => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(new TagsonicError('unavailable', PLUGIN_ERROR_CODES.timeout, 'llm: the invocation ended while waiting for a turn'));
      };
      signal.addEventListener('abort', cancel, { once: true });
      this.#waiting.push(grant);
    });
  }

  release(): void {
    this.#running -= 1;
    this.#waiting.shift()?.();
  }
}

const turnsByPlugin = new Map<string, Turns>();

export function llmCapability(pluginId: string, store: Store): Record<string, HostFunction> {
  let turns = turnsByPlugin.get(pluginId);
  if (!turns) turnsByPlugin.set(pluginId, (turns = new Turns()));
  const queue = turns;

  /** Settings read now, one turn, the request bounded by what is left of the invocation. */
  const withModel = async <T>(call: HostCall, work: (settings: LlmSettings, timeoutMs: number) => Promise<T>): Promise<T> => {
    const settings = checkLlmSettings(await readLlmSettings(store));
    const queued = performance.now();
    await queue.acquire(call.signal);
    const waitedMs = performance.now() - queued;
    if (waitedMs >= 1) call.paced({ waitedMs });
    try {
      // Ends a little before the invocation does, so the plugin gets the model's timeout (a reason it can put in
      // its item's result) rather than being stopped by the watchdog mid-wait.
      const left = call.deadline - performance.now() - ANSWER_MARGIN_MS;
      return await work(settings, Math.floor(Math.max(1, Math.min(DEFAULT_LLM_TIMEOUT_MS, left))));
    } finally {
      queue.release();
    }
  };

  return {
    // No request: a batch action's plan refuses the whole task at once instead of failing every item alike.
    check: async () => {
      checkLlmSettings(await readLlmSettings(store));
      return null;
    },
    chat: async (args, call) => {
      const options = optionsOf(args, 'llm.chat');
      const messages = messagesOf(options.messages);
      const maxTokens = optionalNumber(options, 'maxTokens', 'llm.chat', 1, MAX_TOKENS);
      return withModel(call, (settings, timeoutMs) =>
        chatCompletion(settings, messages, { timeoutMs, signal: call.signal, ...(maxTokens === undefined ? {} : { maxTokens: Math.floor(maxTokens) }) }));
    },
    translateLyric: async (args, call) => {
      const options = optionsOf(args, 'llm.translateLyric');
      const lyrics = options.lyrics;
      if (typeof lyrics !== 'string' || lyrics.trim() === '') throw invalidArgument('llm.translateLyric: lyrics must be a non-empty string');
      if (lyrics.length > LLM_MAX_CHARS) throw limit(`llm.translateLyric: lyrics are longer than ${LLM_MAX_CHARS} characters`);
      return withModel(call, (settings, timeoutMs) => translateLyric(lyrics, settings, { timeoutMs, signal: call.signal }));
    },
  };
}

/** The plugin's messages re-checked: roles from the fixed set, text only, bounded in number and size. */
function messagesOf(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidArgument('llm.chat: messages must be a non-empty list of { role, content }');
  if (value.length > MAX_MESSAGES) throw limit(`llm.chat: more than ${MAX_MESSAGES} messages`);
  let chars = 0;
  const messages = value.map((m, i): ChatMessage => {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || !ROLES.has(role)) throw invalidArgument(`llm.chat: messages[${i}].role must be system, user or assistant`);
    if (typeof content !== 'string') throw invalidArgument(`llm.chat: messages[${i}].content must be a string`);
    chars += content.length;
    return { role: role as ChatMessage['role'], content };
  });
  if (chars > LLM_MAX_CHARS) throw limit(`llm.chat: the messages are longer than ${LLM_MAX_CHARS} characters in all`);
  return messages;
}
