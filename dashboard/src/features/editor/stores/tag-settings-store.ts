/** 刮削配置: the tag source and which editor fields show in which order, remembered locally (§2). */
import { create } from 'zustand';
import { DEFAULT_SCRAPE_SOURCE } from '../../../lib/constants.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import { DEFAULT_SHOWN_FIELDS, sanitizeFieldList, type EditorField } from '../lib/fields.ts';

interface TagSettingsState {
  resource: string;
  showFields: EditorField[];
  save: (resource: string, showFields: EditorField[]) => void;
}

/** A plugin id (built-in or uploaded, get_sources); anything else stored falls back to the default. */
const PLUGIN_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const initialResource = () => {
  const saved = loadSetting('resource', DEFAULT_SCRAPE_SOURCE);
  return PLUGIN_ID.test(saved) ? saved : DEFAULT_SCRAPE_SOURCE;
};

export const useTagSettings = create<TagSettingsState>((set) => ({
  resource: initialResource(),
  showFields: (() => {
    const saved = sanitizeFieldList(loadSetting('showFields', DEFAULT_SHOWN_FIELDS));
    return saved.length > 0 ? saved : DEFAULT_SHOWN_FIELDS;
  })(),
  save: (resource, showFields) => {
    saveSetting('resource', resource);
    saveSetting('showFields', showFields);
    set({ resource, showFields });
  },
}));
