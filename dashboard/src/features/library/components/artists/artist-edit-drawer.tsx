import { useEffect, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../../components/ui/display.tsx';
import { FormGroup, InputGroup, TextArea } from '../../../../components/ui/form.tsx';
import { Drawer } from '../../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../../lib/constants.ts';
import { useT } from '../../../../lib/i18n.ts';
import { notifyError } from '../../../../lib/notify.ts';
import type { ArtistCandidate } from '../../api/artist-types.ts';
import { fetchArtists } from '../../api/fetch-artists.ts';
import { postArtist, type ArtistEdited } from '../../api/post-artist.ts';
import { applySuggestion, artistChanges, type ArtistForm, type SuggestionPart } from '../../lib/artist-view.ts';
import { CoverPicker } from './cover-picker.tsx';

export interface EditedArtist {
  id: string;
  description: string;
  coverArt?: string;
}

/**
 * The artist's EDIT drawer (spec §2 Artist detail): name, picture upload, description; Save keeps the
 * edit as the library's own (the files untouched), 'save and update music metadata' also writes the name
 * and picture into every track through an undoable task. Suggestions come from a tag source's artist
 * search (kuwo); clicking a suggestion's picture, name or description copies it into the form.
 */
export function ArtistEditDrawer({ artist, isOpen, onClose, onSaved }: { artist: EditedArtist & { name: string }; isOpen: boolean; onClose: () => void; onSaved: (answer: ArtistEdited, writeMetadata: boolean) => void }) {
  const t = useT();
  const [form, setForm] = useState<ArtistForm>({ name: artist.name, description: artist.description });
  const [saving, setSaving] = useState<'plain' | 'metadata' | null>(null);
  const [suggestions, setSuggestions] = useState<ArtistCandidate[] | null>(null);
  const [suggestFailed, setSuggestFailed] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    setForm({ name: artist.name, description: artist.description });
    setSuggestions(null);
    setSuggestFailed(false);
    const ac = new AbortController();
    fetchArtists(artist.name, 'kuwo', ac.signal).then(
      (list) => setSuggestions(list),
      () => {
        if (!ac.signal.aborted) setSuggestFailed(true);
      },
    );
    return () => ac.abort();
  }, [isOpen, artist.id, artist.name, artist.description]);

  const save = async (writeMetadata: boolean) => {
    if (!form.name.trim()) {
      notifyError(t('修改失败！'), t('艺术家名称不能为空！'), SECONDS.two);
      return;
    }
    const changes = artistChanges({ name: artist.name, description: artist.description }, form);
    if (!changes && !writeMetadata) {
      onClose();
      return;
    }
    setSaving(writeMetadata ? 'metadata' : 'plain');
    try {
      const answer = await postArtist({ id: artist.id, ...changes, ...(writeMetadata ? { write_metadata: true } : {}) });
      onSaved(answer, writeMetadata);
      onClose();
    } catch {
      // 修改失败！ has been shown.
    } finally {
      setSaving(null);
    }
  };

  const copy = (c: ArtistCandidate, part: SuggestionPart) => setForm((f) => applySuggestion(f, c, part));

  return (
    <Drawer isOpen={isOpen} onClose={onClose} size="min(520px, 100vw)" title={t('编辑艺术家')} icon="edit" className="ts-entity-drawer">
      <div className="ts-drawer-body" data-testid="artist-edit">
        <CoverPicker coverArt={artist.coverArt} value={form.image} onChange={(image) => setForm((f) => ({ ...f, image }))} testId="artist-cover" />
        <FormGroup label={t('艺术家名称')} labelFor="ts-artist-name" labelInfo="*">
          <InputGroup id="ts-artist-name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </FormGroup>
        <FormGroup label={t('描述')} labelFor="ts-artist-description">
          <TextArea id="ts-artist-description" fill rows={5} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </FormGroup>
        <div className="ts-row ts-drawer-actions">
          <Button text={t('取消')} onClick={onClose} />
          <Button icon="floppy-disk" text={t('保存')} loading={saving === 'plain'} disabled={saving !== null} data-testid="artist-save" onClick={() => void save(false)} />
          <Button intent="primary" icon="tag" text={t('保存并更新音乐元数据')} loading={saving === 'metadata'} disabled={saving !== null} data-testid="artist-save-metadata" onClick={() => void save(true)} />
        </div>
        <h4 className="ts-entity-suggest-title">{t('推荐')}</h4>
        <p className="ts-muted ts-entity-suggest-hint">{t('点击图片、名称或描述，复制到表单')}</p>
        {suggestions === null ? (
          suggestFailed ? (
            <NonIdealState icon="search" description={t('没有找到推荐')} />
          ) : (
            <Spinner size={24} />
          )
        ) : suggestions.length === 0 ? (
          <NonIdealState icon="search" description={t('没有找到推荐')} />
        ) : (
          <ul className="ts-entity-suggestions" data-testid="artist-suggestions">
            {suggestions.map((c, i) => (
              <li key={`${c.resource}-${i}`} className="ts-entity-suggestion" data-index={i}>
                <button type="button" className="ts-entity-suggestion-img" title={t('使用这张图片')} onClick={() => copy(c, 'image')} disabled={!c.artist_img} data-part="image">
                  {c.artist_img ? <img src={c.artist_img} alt="" loading="lazy" referrerPolicy="no-referrer" /> : null}
                </button>
                <div className="ts-entity-suggestion-text">
                  <button type="button" className="ts-entity-suggestion-name" title={t('使用这个名称')} onClick={() => copy(c, 'name')} data-part="name">
                    {c.artist}
                  </button>
                  {c.desc ? (
                    <button type="button" className="ts-entity-suggestion-desc" title={t('使用这段描述')} onClick={() => copy(c, 'description')} data-part="description">
                      {c.desc}
                    </button>
                  ) : null}
                  <span className="ts-muted ts-entity-suggestion-source">{c.resource}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Drawer>
  );
}
