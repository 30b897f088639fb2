import { useEffect, useRef } from 'react';
import { Spinner } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { activeLineIndex, type Lyrics } from '../lib/lyrics.ts';

/**
 * Lyrics that follow the play time: the line being sung is highlighted and scrolled to the middle of the
 * panel (the panel scrolls, not the page). `timeMs` is null when the song shown is not the one playing.
 */
export function LyricsPanel({ lyrics, loading, timeMs }: { lyrics: Lyrics | null; loading: boolean; timeMs: number | null }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const active = timeMs === null ? -1 : activeLineIndex(lyrics, timeMs);

  useEffect(() => {
    const panel = box.current;
    const line = active >= 0 ? panel?.querySelector<HTMLElement>(`[data-line="${active}"]`) : null;
    if (!panel || !line) return;
    panel.scrollTo({ top: line.offsetTop - panel.clientHeight / 2 + line.offsetHeight / 2, behavior: 'smooth' });
  }, [active]);

  if (loading) return <div className="ts-lyrics ts-lyrics-empty"><Spinner size={24} /></div>;
  if (!lyrics || lyrics.lines.length === 0) return <div className="ts-lyrics ts-lyrics-empty" data-testid="lyrics-empty">{t('暂无歌词')}</div>;
  return (
    <div className="ts-lyrics" ref={box} data-testid="lyrics" data-synced={lyrics.synced ? 'true' : 'false'}>
      {lyrics.lines.map((line, i) => (
        <p key={i} data-line={i} className={i === active ? 'ts-lyrics-line ts-lyrics-active' : 'ts-lyrics-line'} aria-current={i === active ? 'true' : undefined}>
          {line.value || '\u00a0'}
        </p>
      ))}
    </div>
  );
}
