/**
 * A Subsonic request's parameters: the query string merged with an OpenSubsonic `formPost` body.
 * Every parameter may repeat (`id=1&id=2`); single-value reads take the first occurrence.
 */
import { badParam, missingParam } from './errors.ts';

type Raw = Record<string, unknown>;

export class Params {
  private readonly values = new Map<string, string[]>();

  constructor(...sources: Array<Raw | undefined | null>) {
    for (const source of sources) {
      if (!source || typeof source !== 'object') continue;
      for (const [key, raw] of Object.entries(source)) {
        const list = Array.isArray(raw) ? raw : [raw];
        const strings = list.filter((v) => v !== undefined && v !== null).map(String);
        if (strings.length === 0) continue;
        const existing = this.values.get(key);
        if (existing) existing.push(...strings);
        else this.values.set(key, strings);
      }
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** The first value, or undefined when absent. */
  str(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** The first value; a missing or empty parameter is Subsonic error 10. */
  required(name: string): string {
    const v = this.str(name);
    if (v === undefined || v === '') throw missingParam(name);
    return v;
  }

  /** Every value of a repeated parameter (empty strings dropped). */
  all(name: string): string[] {
    return (this.values.get(name) ?? []).filter((v) => v !== '');
  }

  int(name: string): number | undefined;
  int(name: string, fallback: number): number;
  int(name: string, fallback?: number): number | undefined {
    const v = this.str(name);
    if (v === undefined || v === '') return fallback;
    return parseInteger(name, v);
  }

  requiredInt(name: string): number {
    return parseInteger(name, this.required(name));
  }

  ints(name: string): number[] {
    return this.all(name).map((v) => parseInteger(name, v));
  }

  bool(name: string): boolean | undefined;
  bool(name: string, fallback: boolean): boolean;
  bool(name: string, fallback?: boolean): boolean | undefined {
    const v = this.str(name);
    if (v === undefined || v === '') return fallback;
    const lower = v.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
    throw badParam(name, 'true or false');
  }

  /** A parameter holding one of the given words. */
  oneOf<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const v = this.str(name);
    if (v === undefined || v === '') return undefined;
    if (!(choices as readonly string[]).includes(v)) throw badParam(name, `one of ${choices.join(', ')}`);
    return v as T;
  }
}

function parseInteger(name: string, v: string): number {
  if (!/^-?\d+$/.test(v.trim())) throw badParam(name, 'a whole number');
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw badParam(name, 'a whole number');
  return n;
}
