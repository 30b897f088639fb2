import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_GENRES } from './constants.ts';
import { EN } from './i18n-en.ts';
import { translate } from './i18n.ts';

const SRC = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !['i18n-en.ts', 'server-messages.ts'].includes(e.name) ? [p] : [];
  });
}

describe('i18n', () => {
  // server-messages.ts holds both languages of each server message itself.
  it('every Chinese text in the dashboard has an English entry (tag values such as preset genres excepted)', () => {
    const values = new Set<string>(PRESET_GENRES);
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/'([^'\n]*[\u4e00-\u9fff][^'\n]*)'/g)) {
        if (!values.has(m[1]) && !(m[1] in EN)) missing.push(`${path.relative(SRC, file)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('translates with placeholders and falls back to the Chinese text', () => {
    expect(translate('已勾选 {n}', { n: 3 }, 'zh-CN')).toBe('已勾选 3');
    expect(translate('已勾选 {n}', { n: 3 }, 'en')).toBe('3 ticked');
    expect(translate('没有这条', undefined, 'en')).toBe('没有这条');
  });

  it('counts in English take the singular for one and the plural otherwise', () => {
    expect(translate('{total} 项', { total: 1 }, 'en')).toBe('1 entry');
    expect(translate('{total} 项', { total: 2 }, 'en')).toBe('2 entries');
    expect(translate('{total} 项', { total: 1 }, 'zh-CN')).toBe('1 项');
    expect(translate('{n} 个文件', { n: 1 }, 'en')).toBe('1 file');
    expect(translate('已勾选 {files} 个文件，{folders} 个文件夹。', { files: 1, folders: 3 }, 'en')).toBe('1 file and 3 folders ticked.');
    expect(translate('{n} 个文件失败（共 {total} 个）', { n: 1, total: 1 }, 'en')).toBe('1 of 1 file failed');
    // No English text is left with a count placeholder followed by a fixed plural.
    const fixedPlural = Object.entries(EN).filter(([, en]) => /\{(\w+)\} (entries|files|folders|rows)\b/.test(en));
    expect(fixedPlural).toEqual([]);
  });

  it('labels single-value tag fields in the singular, the navigation in the plural', () => {
    expect(translate('艺术家|字段', undefined, 'zh-CN')).toBe('艺术家');
    expect(translate('艺术家|字段', undefined, 'en')).toBe('Artist');
    expect(translate('专辑|字段', undefined, 'en')).toBe('Album');
    expect(translate('流派|字段', undefined, 'en')).toBe('Genre');
    expect(translate('艺术家', undefined, 'en')).toBe('Artists');
    expect(translate('没有英文|上下文', undefined, 'en')).toBe('没有英文');
  });
});
