import { useState } from 'react';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { useT } from '../../../lib/i18n.ts';
import { loadSetting, saveSetting } from '../../../lib/local-settings.ts';
import type { CoverGridMode } from './cover-grid.tsx';

/** The lists whose grid/list look is remembered, each under its own local setting. */
export type ViewModeKey = 'albumView' | 'artistView';

/** A list's grid or list look, remembered across visits (spec §2: the albums and artists lists' toggle). */
export function useViewMode(key: ViewModeKey): [CoverGridMode, (mode: CoverGridMode) => void] {
  const [mode, setMode] = useState<CoverGridMode>(() => (loadSetting(key, 'grid') === 'list' ? 'list' : 'grid'));
  const choose = (next: CoverGridMode) => {
    setMode(next);
    saveSetting(key, next);
  };
  return [mode, choose];
}

/** The grid/list buttons (test ids view-grid / view-list). */
export function ViewModeToggle({ mode, onChange }: { mode: CoverGridMode; onChange: (mode: CoverGridMode) => void }) {
  const t = useT();
  return (
    <ButtonGroup>
      <Button icon="grid-view" active={mode === 'grid'} aria-pressed={mode === 'grid'} title={t('网格视图')} aria-label={t('网格视图')} onClick={() => onChange('grid')} data-testid="view-grid" />
      <Button icon="list" active={mode === 'list'} aria-pressed={mode === 'list'} title={t('列表视图')} aria-label={t('列表视图')} onClick={() => onChange('list')} data-testid="view-list" />
    </ButtonGroup>
  );
}
