import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { scrollParent } from '../lib/scroll-parent.ts';

/** The spec's threshold (§9 "Scrolling"). */
export const BACK_TO_TOP_AFTER_PX = 700;

/**
 * A floating button that scrolls the page's scrolling area back to the top; it shows once the list has
 * been scrolled more than 700 px. Render it anywhere inside the page.
 */
export function BackToTop() {
  const t = useT();
  const anchor = useRef<HTMLSpanElement>(null);
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const [shown, setShown] = useState(false);

  useEffect(() => {
    const el = scrollParent(anchor.current);
    setRoot(el);
    const target: HTMLElement | Window = el ?? window;
    const read = () => setShown((el ? el.scrollTop : window.scrollY) > BACK_TO_TOP_AFTER_PX);
    read();
    target.addEventListener('scroll', read, { passive: true });
    return () => target.removeEventListener('scroll', read);
  }, []);

  const top = () => (root ?? window).scrollTo({ top: 0, behavior: 'smooth' });
  return (
    <span ref={anchor} className="ts-back-to-top-anchor">
      {shown ? <Button className="ts-back-to-top" icon="arrow-up" intent="primary" size="large" aria-label={t('回到顶部')} title={t('回到顶部')} onClick={top} data-testid="back-to-top" /> : null}
    </span>
  );
}
