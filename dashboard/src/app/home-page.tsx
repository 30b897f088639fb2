import { LyricTranslation } from '../features/editor/components/lyric-translation.tsx';
import { TrackEditor } from '../features/editor/components/track-editor.tsx';
import { useEditor } from '../features/editor/stores/editor-store.ts';
import { FileScreen } from '../features/files/components/file-screen.tsx';

/** The file screen with the single-track editor in its edit area and the lyric translation in its resource area. */
export function HomePage({ detail }: { detail: boolean }) {
  const translationOpen = useEditor((s) => s.translationOpen);
  return (
    <FileScreen
      detail={detail}
      rightPanel={translationOpen ? { title: '歌词翻译', node: <LyricTranslation />, onClose: () => useEditor.getState().setTranslationOpen(false) } : null}
      renderEditor={(target, controls) => (
        <TrackEditor filePath={target?.filePath ?? null} name={target?.name} onSaved={controls.onSaved} onClose={target ? controls.close : undefined} />
      )}
    />
  );
}
