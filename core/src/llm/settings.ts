import type { Store } from '../store/index.ts';
import { readSettings } from '../settings/settings.ts';
import type { LlmSettings } from './chat.ts';

/** The LLM settings (llm_base_url, llm_api_key, llm_model_name) as the settings screen saves them; checked by checkLlmSettings. */
export async function readLlmSettings(store: Store): Promise<Partial<LlmSettings>> {
  const s = await readSettings(store);
  return { baseUrl: s.llm_base_url, apiKey: s.llm_api_key, model: s.llm_model_name };
}
