import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, NonIdealState, Spinner, Tag } from '../../../components/ui/display.tsx';
import { FormGroup } from '../../../components/ui/form.tsx';
import { ALBUM_TYPES, LANGUAGES, PRESET_GENRES } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { albumArtistChoices } from '../lib/artist-split.ts';
import { validYear } from '../lib/build-update.ts';
import { FIELD_LABELS, type EditorField } from '../lib/fields.ts';
import { isDirty, useEditor } from '../stores/editor-store.ts';
import { useScrape } from '../stores/scrape-store.ts';
import { useSourceName } from '../hooks/use-source-name.ts';
import { useTagSettings } from '../stores/tag-settings-store.ts';
import { CoverField } from './cover-field.tsx';
import { LyricsField } from './lyrics-field.tsx';
import { TagInput } from './tag-input.tsx';
import { TagSettingsDialog } from './tag-settings-dialog.tsx';
import { TechInfo } from './tech-info.tsx';

interface TrackEditorProps {
  /** The file to edit, or null for the empty state. */
  filePath: string | null;
  name?: string;
  onSaved: (renamedTo?: string) => void;
  onClose?: () => void;
}

const NUMERIC = new Set(['year', 'tracknumber', 'totaltracks', 'discnumber', 'totaldiscs']);

/**
 * 元数据详情: every Music info field of one track, shown and ordered per 刮削配置; cover, lyrics, the
 * read-only technical fields and a play preview. The search button looks the title up with the 刮削配置
 * source (results in the resource area). Save writes through update_id3; Undo takes the last save back
 * (POST /apimt/undo/).
 */
export function TrackEditor({ filePath, name, onSaved, onClose }: TrackEditorProps) {
  const t = useT();
  const editor = useEditor();
  const showFields = useTagSettings((s) => s.showFields);
  const resource = useTagSettings((s) => s.resource);
  const resourceName = useSourceName(resource);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const searching = useScrape((s) => s.status === 'loading');

  useEffect(() => {
    if (filePath) void useEditor.getState().load(filePath);
    else useEditor.getState().reset();
  }, [filePath]);

  if (!filePath) {
    return (
      <div className="ts-editor-empty">
        <NonIdealState icon="music" title={t('元数据详情')} description={t('在左侧点击一个音乐文件以编辑它的标签。')} />
      </div>
    );
  }

  const { info, values, loading, saving, undoId } = editor;
  const dirty = isDirty(editor);
  const yearBad = !validYear(values.year ?? '');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const result = await useEditor.getState().save();
    if (result) onSaved(result.renamedTo);
  }

  async function undo() {
    if (await useEditor.getState().undo()) onSaved();
  }

  const choicesFor = (field: string): { choices?: readonly string[]; title?: string } => {
    if (field === 'albumartist') return { choices: albumArtistChoices(values.artist), title: '从艺术家选择' };
    if (field === 'genre') return { choices: PRESET_GENRES, title: '预设流派' };
    if (field === 'language') return { choices: LANGUAGES, title: '语言' };
    if (field === 'album_type') return { choices: ALBUM_TYPES, title: '专辑类型' };
    return {};
  };

  const field = (f: EditorField) => {
    if (f === 'album_img') {
      return (
        <FormGroup key={f} label={t(FIELD_LABELS[f])} className="ts-field ts-field-wide">
          <CoverField />
        </FormGroup>
      );
    }
    if (f === 'lyrics') {
      return (
        <FormGroup key={f} label={t(FIELD_LABELS[f])} labelFor="ts-field-lyrics" className="ts-field ts-field-wide">
          <LyricsField />
        </FormGroup>
      );
    }
    const { choices, title } = choicesFor(f);
    const wide = f === 'title' || f === 'filename' || f === 'comment' || f === 'description' || f === 'artist' || f === 'album';
    const bad = f === 'year' && yearBad;
    return (
      <FormGroup
        key={f}
        label={t(FIELD_LABELS[f])}
        labelFor={`ts-field-${f}`}
        className={`ts-field${wide ? ' ts-field-wide' : ''}`}
        intent={bad ? 'danger' : 'none'}
        helperText={bad ? t('年份必须是数字') : undefined}
      >
        <TagInput
          id={`ts-field-${f}`}
          value={values[f] ?? ''}
          onChange={(v) => useEditor.getState().setValue(f, v)}
          choices={choices}
          choicesTitle={title}
          intent={bad ? 'danger' : 'none'}
          inputMode={NUMERIC.has(f) ? 'numeric' : 'text'}
        />
      </FormGroup>
    );
  };

  return (
    <form className="ts-editor" onSubmit={submit} aria-label={t('元数据详情')} data-testid="track-editor" data-file={filePath}>
      <div className="ts-editor-head">
        <div className="ts-editor-title">
          <strong className="ts-editor-heading">{t('元数据详情')}</strong>
          <span className="ts-muted ts-ellipsis" title={filePath}>
            {info?.filename ?? name}
          </span>
        </div>
        <Tag minimal title={`${t('标签来源')}: ${resource}`} data-source={resource}>
          {resourceName}
        </Tag>
        <Button
          variant="minimal"
          icon="search"
          aria-label={t('在线搜索')}
          title={t('按标题在线搜索')}
          disabled={!info}
          loading={searching}
          onClick={() => void useScrape.getState().lookup(resource)}
          data-testid="lookup-button"
        />
        <Button variant="minimal" icon="cog" aria-label={t('刮削配置')} title={t('刮削配置')} onClick={() => setSettingsOpen(true)} />
        {onClose ? <Button className="ts-editor-close" variant="minimal" icon="cross" aria-label={t('关闭')} onClick={onClose} /> : null}
      </div>

      {loading && !info ? (
        <Spinner className="ts-pad" />
      ) : info ? (
        <>
          {info.play_url ? <audio className="ts-player" controls preload="none" src={info.play_url} data-testid="play-preview" /> : null}
          <div className="ts-editor-fields">{showFields.map(field)}</div>
          <details className="ts-tech-wrap">
            <summary>{t('技术信息')}</summary>
            <TechInfo info={info} />
          </details>
          {undoId ? (
            <Callout icon="history" className="ts-undo-callout" compact>
              <span>{t('可以撤销最近一次保存的修改。')}</span>
              <Button size="small" icon="undo" text={t('撤销')} onClick={() => void undo()} data-testid="undo-button" />
            </Callout>
          ) : null}
        </>
      ) : (
        <NonIdealState icon="error" description={t('无法读取此文件的标签。')} />
      )}

      <div className="ts-editor-actions">
        <Button type="submit" intent="primary" icon="floppy-disk" text={t('保存')} loading={saving} disabled={!info || !dirty || yearBad} data-testid="save-button" />
        <Button text={t('重置')} disabled={!dirty || saving} onClick={() => filePath && void useEditor.getState().load(filePath)} />
      </div>
      <TagSettingsDialog isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </form>
  );
}
