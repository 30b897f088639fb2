/**
 * Lyric translation: only the text of each line goes to the model, as one numbered JSON batch per request,
 * and each translation is put back behind the same time tags, so the result lines up with the original
 * line for line (header tags such as [ar:] and blank lines are kept as they are, untranslated).
 */
import { TagsonicError } from '../errors/index.ts';
import { chatCompletion, LLM_BAD_RESPONSE, type ChatOptions, type LlmSettings } from './chat.ts';

/** Lines per request: a long lyric is still a handful of calls, each answer small enough to come back whole. */
export const LINES_PER_REQUEST = 120;

/** Leading time tags (`[00:12.34]`, several allowed), and header tags that are not lyric text. */
const STAMPS = /^((?:\s*\[\s*\d{1,3}\s*:\s*\d{1,2}(?:\s*[.:]\s*\d{1,3})?\s*\])+)\s*/;
const HEADER_TAG = /^\s*\[[A-Za-z#]+:[^\]]*\]\s*$/;

interface Line {
  prefix: string;
  text: string;
}

/** Splits a lyric into its lines' time tags and text (text `''` for lines that are not translated). */
function splitLines(lyric: string): Line[] {
  return lyric
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/)
    .map((raw) => {
      if (HEADER_TAG.test(raw)) return { prefix: raw, text: '' };
      const m = STAMPS.exec(raw);
      return m ? { prefix: m[1]!, text: raw.slice(m[0].length).trim() } : { prefix: '', text: raw.trim() };
    });
}

const SYSTEM_PROMPT = (target: string) =>
  `You translate song lyrics into ${target}. You receive a JSON array of lyric lines. Answer with a JSON array ` +
  'of the same length only, each element the translation of the line at the same index (keep names, and keep ' +
  'a line that is already in the target language as it is). No comments, no numbering, no code fences.';

/**
 * The lyric with every text line translated into `target` (default Simplified Chinese) behind its original
 * time tags. Throws `TAGSONIC_ERR_LLM_BAD_RESPONSE` when the model does not answer one translation per line.
 */
export async function translateLyric(lyric: string, settings: LlmSettings, options: ChatOptions & { target?: string } = {}): Promise<string> {
  const lines = splitLines(lyric);
  const todo = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.text !== '');
  const translated = new Map<number, string>();
  for (let start = 0; start < todo.length; start += LINES_PER_REQUEST) {
    const batch = todo.slice(start, start + LINES_PER_REQUEST);
    const answer = await chatCompletion(
      settings,
      [
        { role: 'system', content: SYSTEM_PROMPT(options.target ?? 'Simplified Chinese') },
        { role: 'user', content: JSON.stringify(batch.map(({ line }) => line.text)) },
      ],
      options,
    );
    const texts = parseArray(answer, batch.length);
    batch.forEach(({ index }, i) => translated.set(index, texts[i]!));
  }
  return lines
    .map((line, index) => {
      const text = translated.get(index);
      return text === undefined ? line.prefix + line.text : line.prefix + text;
    })
    .join('\n');
}

/** The model's JSON array of strings, tolerating code fences and text around it; one element per line. */
function parseArray(answer: string, expected: number): string[] {
  const start = answer.indexOf('[');
  const end = answer.lastIndexOf(']');
  let parsed: unknown;
  try {
    parsed = start >= 0 && end > start ? JSON.parse(answer.slice(start, end + 1)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed)) {
    throw new TagsonicError('unavailable', LLM_BAD_RESPONSE, 'The language model did not answer with a JSON array of translated lines.');
  }
  if (parsed.length !== expected) {
    throw new TagsonicError('unavailable', LLM_BAD_RESPONSE, `The language model answered ${parsed.length} lines for ${expected}; try again or use another model.`);
  }
  // One line each: a translation must not add lines between the time tags.
  return parsed.map((t) => String(t ?? '').replace(/\s*[\r\n]+\s*/g, ' ').trim());
}
