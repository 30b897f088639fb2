import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, TextArea } from '../../../components/ui/form.tsx';
import { Tag } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { notifyWarning } from '../../../lib/notify.ts';
import { useEditor } from '../stores/editor-store.ts';

/** Lyrics text plus the .lrc options, and the way to the translation panel. */
export function LyricsField() {
  const t = useT();
  const lyrics = useEditor((s) => s.values.lyrics ?? '');
  const lyricsFile = useEditor((s) => s.info?.lyrics_file ?? false);
  const options = useEditor((s) => s.options);
  const { setValue, setOption, setPanel } = useEditor.getState();

  return (
    <div className="ts-lyrics-field">
      <TextArea id="ts-field-lyrics" value={lyrics} onChange={(e) => setValue('lyrics', e.currentTarget.value)} fill rows={8} spellCheck={false} className="ts-mono" />
      <div className="ts-row ts-wrap">
        <Tag minimal intent={lyricsFile ? 'success' : 'none'} icon={lyricsFile ? 'document' : 'document-open'}>
          {lyricsFile ? t('已有 .lrc 文件') : t('无 .lrc 文件')}
        </Tag>
        <Checkbox checked={options.is_save_lyrics_file} label={t('保存为 .lrc 文件')} onChange={(e) => setOption('is_save_lyrics_file', e.currentTarget.checked)} />
        <Checkbox
          checked={options.is_import_lyrics_file}
          disabled={!lyricsFile}
          label={t('从 .lrc 文件导入')}
          onChange={(e) => setOption('is_import_lyrics_file', e.currentTarget.checked)}
        />
        <Button
          size="small"
          icon="translate"
          variant="minimal"
          text={t('歌词翻译')}
          onClick={() => {
            if (lyrics.trim() === '') notifyWarning(t('歌词不能为空！'), undefined, 2000);
            else setPanel('translation');
          }}
        />
      </div>
    </div>
  );
}
