import { ComingLater } from '../../../features/shell/components/coming-later.tsx';

/** Issue 13 builds this page; until then it says so (the route is wired in app/routes.tsx). */
export function AlbumPage() {
  return <ComingLater title="专辑" />;
}
