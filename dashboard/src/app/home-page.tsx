import { BatchBar } from '../features/batch/components/batch-bar.tsx';
import { useEditorPanel } from '../features/editor/components/editor-panel.tsx';
import { TrackEditor } from '../features/editor/components/track-editor.tsx';
import { FileScreen } from '../features/files/components/file-screen.tsx';

/**
 * The file screen with the single-track editor in its edit area, the batch side bar above it (the edit
 * area's batch panel while entries are ticked), and the editor's panel (results, translation) in its
 * resource area.
 */
export function HomePage({ detail }: { detail: boolean }) {
  const rightPanel = useEditorPanel();
  return (
    <FileScreen
      detail={detail}
      rightPanel={rightPanel}
      renderBatch={(ticked, { onCreated, mobile }) => (
        <BatchBar selection={{ file_full_path: ticked.folder, select_data: ticked.items }} onCreated={onCreated} mobile={mobile} />
      )}
      renderEditor={(target, controls) => (
        <TrackEditor filePath={target?.filePath ?? null} name={target?.name} onSaved={controls.onSaved} onClose={target ? controls.close : undefined} />
      )}
    />
  );
}
