import { useLocation } from 'wouter';
import { NonIdealState } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';

/** Where a navigation entry of the spec leads to a page a later version builds: said plainly, nothing faked. */
export function ComingLater({ title }: { title: string }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <div className="ts-coming-later">
      <NonIdealState icon="build" title={t(title)} description={t('此页面将在后续版本中提供。')} />
      <p className="ts-muted ts-center">
        <code>{location}</code>
      </p>
    </div>
  );
}
