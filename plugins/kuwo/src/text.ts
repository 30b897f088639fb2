/**
 * Kuwo's text quirks, handled in the plugin (the sandbox has only the language itself):
 * - `search.kuwo.cn/r.s` answers JSON for `rformat=json&vermerge=1&mobi=1`, but some of its modes and mirrors
 *   answer the same object as a JavaScript literal with single-quoted strings (`{'abslist':[{'NAME':'晴天'}]}`);
 *   {@link parseLoose} reads both.
 * - Names and biographies carry HTML entities (`&nbsp;`, `&amp;`, `&#39;`) and `<br>` tags; {@link plainText}
 *   turns them into text.
 */

/**
 * The value of a JSON text, or of a JavaScript object literal written with single-quoted strings (converted to
 * JSON string by string, so a `'` inside a double-quoted string or a `"` inside a single-quoted one survives).
 * Throws a SyntaxError when it is neither.
 */
export function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(singleQuotesToJson(text));
  }
}

function singleQuotesToJson(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '"' && c !== "'") {
      out += c;
      i += 1;
      continue;
    }
    // A string literal delimited by `c`: read its characters (undoing escapes), then write it as JSON.
    let value = '';
    i += 1;
    while (i < text.length && text[i] !== c) {
      if (text[i] === '\\' && i + 1 < text.length) {
        const next = text[i + 1]!;
        const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          value += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        value += simple[next] ?? next;
        i += 2;
        continue;
      }
      value += text[i];
      i += 1;
    }
    if (i >= text.length) throw new SyntaxError('unterminated string');
    out += JSON.stringify(value);
    i += 1;
  }
  return out;
}

const NAMED: Record<string, string> = { nbsp: ' ', amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', middot: '·' };

/** Text without HTML: `<br>` and `<p>` as line breaks, other tags removed, entities decoded, whitespace trimmed. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return NAMED[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .trim();
}
