import { useMemo } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../../../components/ui/display.tsx';
import { useT } from '../../../../lib/i18n.ts';
import { useSession } from '../../../../stores/session-store.ts';
import { greetingFor, welcomeMessage } from '../../lib/greeting.ts';
import { NowPlayingLink } from './now-playing-link.tsx';

/** The home dashboard's banner: greeting by the local hour, a random welcome message, what is playing (→ /playing). */
export function WelcomeBanner() {
  const t = useT();
  const name = useSession((s) => s.user?.username ?? '');
  // Picked once per visit, not on every render.
  const [greeting, message] = useMemo(() => [greetingFor(new Date().getHours()), welcomeMessage()], []);
  return (
    <section className="ts-stats-banner" data-testid="welcome-banner">
      <div className="ts-stats-banner-text">
        <h2 data-testid="greeting">
          {name ? t('{greeting}，{name}', { greeting: t(greeting), name }) : t(greeting)}
        </h2>
        <p className="ts-muted" data-testid="welcome-message">
          {t(message)}
        </p>
      </div>
      <NowPlayingLink />
      <Link href="/discover" className="ts-stats-banner-discover">
        <Icon icon="compass" /> {t('发现音乐')}
      </Link>
    </section>
  );
}
