import { SCRAPE_SOURCES } from '../../../lib/constants.ts';
import type { SourceInfo } from '../api/types.ts';

/**
 * The 刮削配置 source select: the server's installed, enabled sources (get_sources, its order), or the
 * built-in list while that answer is pending (null). The saved source stays listed, marked, when it is no
 * longer enabled, so the select never shows a blank choice.
 */
export function sourceOptions(sources: SourceInfo[] | null, current: string, disabledMark: string): { value: string; label: string }[] {
  const options =
    sources === null
      ? SCRAPE_SOURCES.map((id) => ({ value: id, label: id }))
      : sources.filter((s) => s.enabled).map((s) => ({ value: s.id, label: s.name && s.name !== s.id ? `${s.name} (${s.id})` : s.id }));
  if (!options.some((o) => o.value === current)) options.push({ value: current, label: `${current} (${disabledMark})` });
  return options;
}
