export {
  chatCompletion,
  checkLlmSettings,
  DEFAULT_LLM_TIMEOUT_MS,
  LLM_BAD_RESPONSE,
  LLM_HTTP,
  LLM_NOT_CONFIGURED,
  LLM_TIMEOUT,
  LLM_UNREACHABLE,
  type ChatMessage,
  type ChatOptions,
  type LlmSettings,
} from './chat.ts';
export { translateLyric, LINES_PER_REQUEST } from './translate.ts';
export { readLlmSettings } from './settings.ts';
