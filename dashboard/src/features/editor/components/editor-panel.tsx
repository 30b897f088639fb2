import type { ReactNode } from 'react';
import { LyricTranslation } from './lyric-translation.tsx';
import { ScrapeResults } from './scrape-results.tsx';
import { useEditor } from '../stores/editor-store.ts';

/**
 * What the editor puts into the file screen's resource area (a drawer on phones): the online-source
 * results or the lyric translation, one at a time (§2); null leaves the area to the table or background.
 */
export function useEditorPanel(): { title: string; node: ReactNode; onClose: () => void } | null {
  const panel = useEditor((s) => s.panel);
  const onClose = () => useEditor.getState().setPanel(null);
  if (panel === 'results') return { title: '在线搜索', node: <ScrapeResults />, onClose };
  if (panel === 'translation') return { title: '歌词翻译', node: <LyricTranslation />, onClose };
  return null;
}
