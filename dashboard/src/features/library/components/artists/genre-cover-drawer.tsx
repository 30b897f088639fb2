import { useEffect, useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { NonIdealState, Spinner } from '../../../../components/ui/display.tsx';
import { FormGroup, InputGroup } from '../../../../components/ui/form.tsx';
import { Drawer } from '../../../../components/ui/overlay.tsx';
import { useT } from '../../../../lib/i18n.ts';
import type { GenreCoverSuggestion } from '../../api/artist-types.ts';
import { getGenreCovers } from '../../api/get-genre-covers.ts';
import { postGenre } from '../../api/post-genre.ts';
import { coverUrl } from '../../lib/cover-url.ts';
import { CoverPicker } from './cover-picker.tsx';

/**
 * The genre's EDIT drawer (spec §2 Genre detail): only the picture changes — the name is shown disabled (a
 * genre is its name; renaming is a tag edit, not this drawer's). Suggestions are the genre's album covers;
 * clicking one takes it: the drawer sends that cover's id and the server reads the picture itself.
 */
export function GenreCoverDrawer({ genre, coverArt, isOpen, onClose, onSaved }: { genre: string; coverArt?: string; isOpen: boolean; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [image, setImage] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [suggestions, setSuggestions] = useState<GenreCoverSuggestion[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!isOpen) return;
    setImage(undefined);
    setSuggestions(null);
    setFailed(false);
    const ac = new AbortController();
    getGenreCovers(genre, ac.signal).then(setSuggestions, () => {
      if (!ac.signal.aborted) setFailed(true);
    });
    return () => ac.abort();
  }, [isOpen, genre]);

  const save = async () => {
    if (image === undefined) {
      onClose();
      return;
    }
    setSaving(true);
    try {
      await postGenre(genre, image);
      onSaved();
      onClose();
    } catch {
      // 修改失败！ has been shown.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer isOpen={isOpen} onClose={onClose} size="min(520px, 100vw)" title={t('编辑流派')} icon="edit" className="ts-entity-drawer">
      <div className="ts-drawer-body" data-testid="genre-edit">
        <CoverPicker coverArt={coverArt} value={image} onChange={setImage} testId="genre-cover" />
        <FormGroup label={t('流派名称')} labelFor="ts-genre-name">
          <InputGroup id="ts-genre-name" value={genre} disabled />
        </FormGroup>
        <div className="ts-row ts-drawer-actions">
          <Button text={t('取消')} onClick={onClose} />
          <Button intent="primary" icon="floppy-disk" text={t('保存')} loading={saving} data-testid="genre-save" onClick={() => void save()} />
        </div>
        <h4 className="ts-entity-suggest-title">{t('推荐封面')}</h4>
        {suggestions === null ? (
          failed ? <NonIdealState icon="search" description={t('没有找到推荐')} /> : <Spinner size={24} />
        ) : suggestions.length === 0 ? (
          <NonIdealState icon="search" description={t('没有找到推荐')} />
        ) : (
          <ul className="ts-entity-cover-suggestions" data-testid="genre-suggestions">
            {suggestions.map((s, i) => (
              <li key={`${s.coverArt}-${i}`}>
                <button type="button" className="ts-entity-cover-suggestion" title={`${s.album} — ${s.artist}`} onClick={() => setImage(s.coverArt)} aria-pressed={image === s.coverArt} data-cover={s.coverArt}>
                  <img src={coverUrl(s.coverArt, 160)} alt="" loading="lazy" />
                  <span className="ts-entity-cover-caption">{s.album}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Drawer>
  );
}
