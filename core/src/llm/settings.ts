import type { Store } from '../store/index.ts';
import type { LlmSettings } from './chat.ts';

/** The LLM settings as the settings screen saves them (`settings` collection, `_id: 'system'`); unchecked. */
export async function readLlmSettings(store: Store): Promise<Partial<LlmSettings>> {
  const doc = await store.collection<{ _id: string; llm_base_url?: unknown; llm_api_key?: unknown; llm_model_name?: unknown }>('settings').findOne({ _id: 'system' });
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { baseUrl: str(doc?.llm_base_url), apiKey: str(doc?.llm_api_key), model: str(doc?.llm_model_name) };
}
