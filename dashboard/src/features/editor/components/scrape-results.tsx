import './editor-panel.css';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Callout, NonIdealState, Spinner } from '../../../components/ui/display.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { SECONDS } from '../../../lib/constants.ts';
import { useT } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import type { ScoredSong } from '../api/types.ts';
import { SCORE_HINT, scoreTone } from '../lib/score.ts';
import { ofTotal, yearOf, type CopyCell } from '../lib/scrape-copy.ts';
import { useScrape } from '../stores/scrape-store.ts';
import { useSourceName } from '../hooks/use-source-name.ts';
import { useTagSettings } from '../stores/tag-settings-store.ts';

/**
 * The online-source results in the resource area (§2): cover, title/artist, album, lyrics, track/disc,
 * year, coloured by the server's scores. A click on a cell copies it into the editor, the left arrow copies
 * the whole row (cover included), the cover opens a preview, the lyrics button shows the source's lyric.
 */
export function ScrapeResults() {
  const t = useT();
  const { query, status, results, error, busy, lyric } = useScrape();
  const resource = useTagSettings((s) => s.resource);
  const sourceName = useSourceName(query?.resource ?? resource);
  const [preview, setPreview] = useState<ScoredSong | null>(null);
  const scrape = useScrape.getState();

  const copy = (song: ScoredSong, cell: CopyCell) => {
    scrape.copyCell(song, cell);
    notifySuccess(t('已复制到编辑器'), undefined, SECONDS.one);
  };

  /** A copyable value; the score (if any) colours it. */
  const cell = (song: ScoredSong, which: CopyCell, value: string, score?: number) => {
    const tone = score === undefined ? 'plain' : scoreTone(score);
    const hint = SCORE_HINT[tone] ? `${t(SCORE_HINT[tone])} · ` : '';
    return (
      <button
        type="button"
        className={`ts-scrape-cell ts-score-${tone}`}
        data-cell={which}
        data-score={score}
        title={`${hint}${t('点击复制到编辑器')}`}
        disabled={value === ''}
        onClick={() => copy(song, which)}
      >
        {value || '—'}
      </button>
    );
  };

  let body;
  if (status === 'loading') body = <Spinner className="ts-pad" />;
  else if (status === 'error') {
    body = (
      <Callout intent="danger" icon="error" title={t('搜索失败！')} className="ts-scrape-error" data-testid="scrape-error">
        <div>{error?.text}</div>
        {error?.detail ? <div className="ts-small ts-muted ts-scrape-error-detail">{error.detail}</div> : null}
      </Callout>
    );
  } else if (results.length === 0) body = <NonIdealState icon="search" description={t('暂无信息')} />;
  else {
    body = (
      <table className="ts-scrape-table" data-testid="scrape-table">
        <thead>
          <tr>
            <th className="ts-scrape-tight" aria-label={t('复制整行')} />
            <th>{t('封面')}</th>
            <th>{t('标题/艺术家')}</th>
            <th>{t('专辑|字段')}</th>
            <th className="ts-scrape-tight">{t('歌词')}</th>
            <th className="ts-scrape-tight">{t('音轨/碟片').replace('/', '/\u200b')}</th>
            <th className="ts-scrape-tight ts-scrape-year">{t('年份')}</th>
          </tr>
        </thead>
        <tbody>
          {results.map((song) => (
            <tr key={`${song.resource}:${song.id}`} data-song={song.id}>
              <td className="ts-scrape-tight">
                <Button
                  size="small"
                  variant="minimal"
                  icon="arrow-left"
                  aria-label={t('复制整行')}
                  title={t('复制整行')}
                  loading={busy[song.id] === true}
                  onClick={() => scrape.copyRow(song)}
                  data-testid="copy-row"
                />
              </td>
              <td className="ts-scrape-cover">
                {song.album_img ? (
                  <>
                    <button type="button" className="ts-scrape-thumb" title={t('预览封面')} onClick={() => setPreview(song)}>
                      <img src={song.album_img} alt={t('封面')} loading="lazy" referrerPolicy="no-referrer" />
                    </button>
                    <Button size="small" variant="minimal" icon="import" title={t('复制封面')} aria-label={t('复制封面')} onClick={() => scrape.copyCover(song)} data-testid="copy-cover" />
                  </>
                ) : (
                  <span className="ts-muted">—</span>
                )}
              </td>
              <td className="ts-scrape-stack">
                {cell(song, 'title', song.name ?? '', song.title_score)}
                {cell(song, 'artist', song.artist ?? '', song.artist_score)}
              </td>
              <td className="ts-scrape-album">{cell(song, 'album', song.album ?? '', song.album_score)}</td>
              <td className="ts-scrape-tight">
                <Button className="ts-scrape-lyrics" size="small" icon="align-left" text={t('歌词')} aria-label={t('歌词')} onClick={() => void scrape.showLyric(song)} data-testid="show-lyric" />
              </td>
              <td className="ts-scrape-stack ts-scrape-tight">
                {cell(song, 'track', ofTotal(song.tracknumber, song.totaltracks))}
                {cell(song, 'disc', ofTotal(song.discnumber, song.totaldiscs))}
                {/* Phones have no room for a year column: the year joins the track/disc stack there. */}
                <span className="ts-scrape-year-stacked">{cell(song, 'year', yearOf(song.year))}</span>
              </td>
              <td className="ts-scrape-tight ts-scrape-year">{cell(song, 'year', yearOf(song.year))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <div className="ts-scrape" data-testid="scrape-results" data-status={status}>
      <div className="ts-scrape-query">
        <span className="ts-muted ts-small ts-ellipsis" title={query ? [query.title, query.artist, query.album].filter(Boolean).join(' · ') : undefined}>
          {query ? `${sourceName} · ${[query.title, query.artist].filter(Boolean).join(' — ')}` : sourceName}
        </span>
        <Button size="small" variant="minimal" icon="refresh" text={t('重新搜索')} disabled={status === 'loading'} onClick={() => void scrape.lookup(resource)} />
      </div>
      <div className="ts-scrape-body">{body}</div>

      <Dialog isOpen={preview !== null} onClose={() => setPreview(null)} title={preview ? `${preview.name} · ${preview.album}` : ''} className="ts-scrape-preview">
        <DialogBody>{preview ? <img src={preview.album_img} alt={t('封面')} referrerPolicy="no-referrer" data-testid="scrape-cover-preview" /> : null}</DialogBody>
        <DialogFooter
          actions={
            <Button
              intent="primary"
              icon="import"
              text={t('复制封面')}
              onClick={() => {
                if (preview) scrape.copyCover(preview);
                setPreview(null);
              }}
            />
          }
        />
      </Dialog>

      <Dialog isOpen={lyric !== null} onClose={() => scrape.closeLyric()} title={lyric ? `${t('歌词')} · ${lyric.song.name}` : ''} className="ts-scrape-lyric">
        <DialogBody>
          <pre className="ts-mono ts-scrape-lyric-text" data-testid="scrape-lyric">
            {lyric?.text}
          </pre>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('关闭')} onClick={() => scrape.closeLyric()} />
              <Button
                intent="primary"
                icon="duplicate"
                text={t('复制到歌词')}
                loading={lyric ? busy[lyric.song.id] === true : false}
                onClick={() => lyric && void scrape.copyLyric(lyric.song, lyric.text)}
                data-testid="copy-lyric"
              />
            </>
          }
        />
      </Dialog>
    </div>
  );
}
