/**
 * Interface language: Chinese (the default, and the text of the spec) or English. Texts are keyed by
 * their Chinese wording, so a screen reads like the spec and a missing English entry shows the Chinese.
 */
import { create } from 'zustand';
import { EN } from './i18n-en.ts';
import { loadSetting, saveSetting } from './local-settings.ts';

export type Lang = 'zh-CN' | 'en';

interface LangState {
  lang: Lang;
  setLang: (lang: Lang) => void;
}

export const useLang = create<LangState>((set) => ({
  lang: loadSetting('lang', 'zh-CN') === 'en' ? 'en' : 'zh-CN',
  setLang: (lang) => {
    saveSetting('lang', lang);
    if (typeof document !== 'undefined') document.documentElement.lang = lang;
    set({ lang });
  },
}));

/**
 * `{name}` placeholders are filled from params. A key may name its context after a `|`
 * (`艺术家|字段`): one Chinese word can need two English ones (the Artists page, the Artist field);
 * Chinese shows the part before the `|`. English words that follow a count take the form
 * `{n:file/files}` (singular/plural by that parameter).
 */
export function translate(zh: string, params?: Record<string, string | number>, lang: Lang = useLang.getState().lang): string {
  const bar = zh.indexOf('|');
  const chinese = bar < 0 ? zh : zh.slice(0, bar);
  let text = lang === 'en' ? (EN[zh] ?? chinese) : chinese;
  if (params) {
    // `{n:file/files}` picks the English word by the count (Chinese has no plural, so only English uses it).
    text = text.replace(/\{(\w+):([^/{}]*)\/([^{}]*)\}/g, (all, k: string, one: string, other: string) =>
      k in params ? (Number(params[k]) === 1 ? one : other) : all,
    );
    for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{${k}}`, String(v));
  }
  return text;
}

/** A translator bound to the current language; the component re-renders when it changes. */
export function useT(): (zh: string, params?: Record<string, string | number>) => string {
  const lang = useLang((s) => s.lang);
  return (zh, params) => translate(zh, params, lang);
}
