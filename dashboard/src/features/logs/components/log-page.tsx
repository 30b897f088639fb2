import { useLocation, useSearch } from 'wouter';
import { Tab, Tabs } from '../../../components/ui/display.tsx';
import { useT } from '../../../lib/i18n.ts';
import { OperationLog } from './operation-log.tsx';
import { RuntimeLog } from './runtime-log.tsx';
import './logs.css';

/**
 * /log (spec doc 2 §2 "Log page"): 操作日志 (the audit log) and 运行日志 (the processes' own logs). The tab is
 * in the address (`?tab=runtime`), so a reload or a shared link keeps it.
 */
export function LogPage() {
  const t = useT();
  const [, navigate] = useLocation();
  const tab = new URLSearchParams(useSearch()).get('tab') === 'runtime' ? 'runtime' : 'operation';
  return (
    <div className="ts-logs" data-testid="log-page">
      <div className="ts-page-head">
        <h2>{t('操作记录')}</h2>
      </div>
      <Tabs id="ts-log-tabs" selectedTabId={tab} onChange={(id) => navigate(id === 'runtime' ? '/log?tab=runtime' : '/log', { replace: true })} large renderActiveTabPanelOnly>
        <Tab id="operation" title={t('操作日志')} panel={<OperationLog />} />
        <Tab id="runtime" title={t('运行日志')} panel={<RuntimeLog />} />
      </Tabs>
    </div>
  );
}
