import { invalid } from '../errors/index.ts';

/** Prefix of every command subject (the work queue). */
export const COMMAND_PREFIX = 'tagsonic.cmd.';
/** Prefix of every event subject (publish/subscribe). */
export const EVENT_PREFIX = 'tagsonic.evt.';

const BAD_TOKEN = /[\s]/;

function tokens(subject: string): string[] {
  return subject.split('.');
}

/**
 * NATS subject matching: `*` matches exactly one token, `>` (last token only) one or more trailing tokens.
 * Both drivers route with this, so a pattern means the same thing in embedded and distributed mode.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = tokens(pattern);
  const s = tokens(subject);
  for (let i = 0; i < p.length; i++) {
    const t = p[i];
    if (t === '>') return s.length > i;
    if (i >= s.length) return false;
    if (t !== '*' && t !== s[i]) return false;
  }
  return p.length === s.length;
}

/** True when some subject would match both patterns (JetStream forbids that between work-queue consumers). */
export function patternsOverlap(a: string, b: string): boolean {
  const x = tokens(a);
  const y = tokens(b);
  for (let i = 0; ; i++) {
    const xi = x[i];
    const yi = y[i];
    if (xi === '>') return i < y.length;
    if (yi === '>') return i < x.length;
    if (xi === undefined || yi === undefined) return xi === yi;
    if (xi !== '*' && yi !== '*' && xi !== yi) return false;
  }
}

/** A concrete subject under `prefix`: non-empty tokens, no wildcards, no whitespace. */
export function assertSubject(subject: string, prefix: string): void {
  if (typeof subject !== 'string' || !subject.startsWith(prefix) || subject.length === prefix.length) {
    throw invalid('TAGSONIC_ERR_BUS_SUBJECT_INVALID', `Subject "${String(subject)}" must start with "${prefix}" and name an area.`);
  }
  for (const t of tokens(subject)) {
    if (t === '' || t === '*' || t === '>' || BAD_TOKEN.test(t)) {
      throw invalid('TAGSONIC_ERR_BUS_SUBJECT_INVALID', `Subject "${subject}" has an empty, wildcard or blank-containing token.`);
    }
  }
}

/** A pattern: like a subject, but `*` may stand for any token and `>` may end it. */
export function assertPattern(pattern: string, prefix?: string): void {
  if (typeof pattern !== 'string' || pattern === '') {
    throw invalid('TAGSONIC_ERR_BUS_SUBJECT_INVALID', 'A subject pattern must be a non-empty string.');
  }
  if (prefix !== undefined && (!pattern.startsWith(prefix) || pattern.length === prefix.length)) {
    throw invalid('TAGSONIC_ERR_BUS_SUBJECT_INVALID', `Pattern "${pattern}" must address subjects under "${prefix}".`);
  }
  const ts = tokens(pattern);
  ts.forEach((t, i) => {
    const misplacedTail = t === '>' && i !== ts.length - 1;
    const partialWildcard = t !== '*' && t !== '>' && (t.includes('*') || t.includes('>'));
    if (t === '' || misplacedTail || partialWildcard || BAD_TOKEN.test(t)) {
      throw invalid('TAGSONIC_ERR_BUS_SUBJECT_INVALID', `Pattern "${pattern}" is not a valid subject pattern.`);
    }
  });
}
