/**
 * A client for an OpenAI-compatible chat-completions endpoint (OpenAI, DeepSeek, a local Ollama or vLLM…):
 * `POST {base}/chat/completions` with a Bearer key, one answer's text back. Failures say what went wrong in
 * words an administrator can act on (the endpoint's status and its own error message), never the key.
 */
import { TagsonicError } from '../errors/index.ts';

export const LLM_NOT_CONFIGURED = 'TAGSONIC_ERR_LLM_NOT_CONFIGURED';
export const LLM_TIMEOUT = 'TAGSONIC_ERR_LLM_TIMEOUT';
export const LLM_HTTP = 'TAGSONIC_ERR_LLM_HTTP';
export const LLM_UNREACHABLE = 'TAGSONIC_ERR_LLM_UNREACHABLE';
export const LLM_BAD_RESPONSE = 'TAGSONIC_ERR_LLM_BAD_RESPONSE';

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;
/** An answer larger than this is not a translation of a lyric. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The system settings `llm_base_url`, `llm_api_key`, `llm_model_name`. */
export interface LlmSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  timeoutMs?: number;
  /** Lower is steadier; a translation wants little invention. Default 0.2. */
  temperature?: number;
  /** The answer's length cap (`max_tokens`); the endpoint's own default when absent. */
  maxTokens?: number;
  /** Ends the request early (a plugin's invocation that ended): fails as unreachable, nobody reads it. */
  signal?: AbortSignal;
}

/** The settings checked: an http(s) base URL and a model are required; the key may be empty (a local server). */
export function checkLlmSettings(settings: Partial<LlmSettings> | null | undefined): LlmSettings {
  const baseUrl = (settings?.baseUrl ?? '').trim();
  const model = (settings?.model ?? '').trim();
  if (baseUrl === '' || model === '') {
    throw new TagsonicError('conflict', LLM_NOT_CONFIGURED, 'No language model is configured: set llm_base_url and llm_model_name in the system settings.');
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TagsonicError('conflict', LLM_NOT_CONFIGURED, `llm_base_url is not a URL: ${baseUrl.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TagsonicError('conflict', LLM_NOT_CONFIGURED, 'llm_base_url must be an http:// or https:// address.');
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: (settings?.apiKey ?? '').trim(), model };
}

/** Sends the conversation and returns the first choice's text. */
export async function chatCompletion(settings: LlmSettings, messages: ChatMessage[], options: ChatOptions = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const endpoint = `${settings.baseUrl}/chat/completions`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: settings.model,
        messages,
        temperature: options.temperature ?? 0.2,
        ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
        stream: false,
      }),
      signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await readCapped(response);
  } catch (error) {
    if (error instanceof TagsonicError) throw error;
    if ((error as Error)?.name === 'TimeoutError') {
      throw new TagsonicError('unavailable', LLM_TIMEOUT, `The language model at ${settings.baseUrl} did not answer within ${Math.round(timeoutMs / 1000)} s.`);
    }
    throw new TagsonicError('unavailable', LLM_UNREACHABLE, `Cannot reach the language model at ${settings.baseUrl}: ${causeOf(error)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const said = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
    const detail = typeof said === 'string' && said !== '' ? `: ${said.slice(0, 300)}` : '';
    throw new TagsonicError('unavailable', LLM_HTTP, `The language model answered HTTP ${response.status}${detail}`, {
      details: { status: response.status },
    });
  }
  const content = (body as { choices?: Array<{ message?: { content?: unknown } }> } | undefined)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new TagsonicError('unavailable', LLM_BAD_RESPONSE, 'The language model\'s answer has no choices[0].message.content: is llm_base_url an OpenAI-compatible API?');
  }
  return content;
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new TagsonicError('unavailable', LLM_BAD_RESPONSE, `The language model's answer is larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** fetch() hides the network error (ECONNREFUSED, ENOTFOUND) in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}
