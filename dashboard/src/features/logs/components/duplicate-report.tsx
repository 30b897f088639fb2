import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { Button, ButtonGroup } from '../../../components/ui/button.tsx';
import { Callout, HTMLTable, Section, SectionCard, Spinner, Tag } from '../../../components/ui/display.tsx';
import { Alert, Dialog, DialogBody, DialogFooter } from '../../../components/ui/overlay.tsx';
import { useT } from '../../../lib/i18n.ts';
import { deleteFiles, previewDelete } from '../api/delete-files.ts';
import { getAuditLogDetail } from '../api/get-audit-log-detail.ts';
import type { DetailRow } from '../api/types.ts';
import { deleteAllPaths, DUPLICATE_TITLES, duplicateSections, rulesPayload, type DuplicateSection } from '../lib/duplicates.ts';
import { pagesOf, SECTION_PAGE_SIZE } from '../lib/report.ts';
import { DeleteRulesDialog } from './delete-rules-dialog.tsx';

/** Items fetched per request while gathering the check's results (each item is one set of candidates). */
const GATHER_PAGE = 1000;

const baseName = (p: string) => p.split('/').pop() || p;

/** Every row of one list of the check's report, page by page. */
async function gather(id: string, section: 'success' | 'delete', signal: AbortSignal): Promise<DetailRow[]> {
  const rows: DetailRow[] = [];
  for (let page = 1; ; page++) {
    const list = (await getAuditLogDetail(id, { section, page, pageSize: GATHER_PAGE, signal, quiet: true }))[section] ?? [];
    rows.push(...list);
    if (list.length < GATHER_PAGE) return rows;
  }
}

/** A delete waiting for its confirmation: files as listed (with the rules' delete mode when they came from the rules). */
type Target = { paths: string[]; rules?: Record<string, unknown> };
type Pending = { section: DuplicateSection; target: Target; navigate: boolean } | null;
/** What the rules would delete, shown before anything is: applying deletes exactly these files. */
type RulesPreview = { section: DuplicateSection; paths: string[]; targetDir: string | null; rules: Record<string, unknown> } | null;

/**
 * 重复检查's detail (spec doc 2 §2): file-hash, file-name and voiceprint duplicates, rows of name, file 1 and
 * file 2, 10 a page. Each section deletes by rule (a dialog of the duplicate-delete rules), all duplicates (the
 * first file of each set stays), or one file; each delete is a task of its own (undoable from its report).
 */
export function DuplicateReport({ id, version }: { id: string; version: number }) {
  // (id is the check's task id: delete_files takes it as log_id and only deletes files its report names.)
  const t = useT();
  const [, navigate] = useLocation();
  const [sections, setSections] = useState<DuplicateSection[] | null>(null);
  const [rulesFor, setRulesFor] = useState<DuplicateSection | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [preview, setPreview] = useState<RulesPreview>(null);
  const [submitted, setSubmitted] = useState<Set<string>>(new Set());
  const [deleted, setDeleted] = useState<Set<string>>(new Set());

  // The check's findings stay as they were; the files deleted from it since (its delete list) are marked.
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([gather(id, 'success', abort.signal), gather(id, 'delete', abort.signal)]).then(
      ([items, gone]) => {
        setSections(duplicateSections(items));
        setDeleted(new Set(gone.flatMap((r) => (r.path ? [r.path] : []))));
      },
      () => !abort.signal.aborted && setSections([]),
    );
    return () => abort.abort();
  }, [id, version]);

  const run = async (p: NonNullable<Pending>) => {
    try {
      const single = p.target.paths.length === 1 && !p.navigate;
      const task = await deleteFiles({ logId: id, mode: single ? 'single' : p.section.kind, ...p.target });
      if (p.navigate) navigate(`/log_detail/${encodeURIComponent(task.task_id)}/`);
      else setSubmitted((s) => new Set([...s, ...p.target.paths]));
    } catch {
      // The client said why.
    }
  };

  if (sections === null) return <Spinner />;
  if (sections.length === 0) {
    return (
      <Callout icon="tick-circle" intent="success" data-testid="no-duplicates">
        {t('没有发现重复的文件。')}
      </Callout>
    );
  }

  return (
    <div className="ts-report-sections" data-testid="duplicate-report">
      {sections.map((s) => (
        <DuplicateTable
          key={s.kind}
          section={s}
          submitted={submitted}
          deleted={deleted}
          onDeleteOne={(path) => setPending({ section: s, target: { paths: [path] }, navigate: false })}
          onDeleteAll={() => setPending({ section: s, target: { paths: deleteAllPaths(s) }, navigate: true })}
          onRuleDelete={() => setRulesFor(s)}
        />
      ))}
      <DeleteRulesDialog
        isOpen={rulesFor !== null}
        onClose={() => setRulesFor(null)}
        onSubmit={(form) => {
          const s = rulesFor!;
          const rules = rulesPayload(form);
          setRulesFor(null);
          previewDelete({ logId: id, mode: s.kind, rules }).then(
            (found) => setPreview({ section: s, paths: found.paths, targetDir: found.target_dir, rules }),
            () => undefined, // the client said why
          );
        }}
      />
      <Dialog isOpen={preview !== null} onClose={() => setPreview(null)} title={t('规则删除预览')} icon="eye-open" className="ts-rules-preview">
        <DialogBody>
          <p data-testid="rules-preview-count">
            {preview?.targetDir
              ? t('将把 {n} 个文件移动到 {dir}：', { n: preview.paths.length, dir: preview.targetDir })
              : t('将删除 {n} 个文件（放入回收站，可撤销）：', { n: preview?.paths.length ?? 0 })}
          </p>
          <div className="ts-rules-preview-list">
            <HTMLTable compact striped className="ts-rules-preview-table" data-testid="rules-preview-table">
              <tbody>
                {(preview?.paths ?? []).map((p) => (
                  <tr key={p} data-path={p}>
                    <td>
                      <div>{baseName(p)}</div>
                      <div className="ts-small ts-muted">{p}</div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('取消')} onClick={() => setPreview(null)} />
              <Button
                intent="danger"
                icon="trash"
                text={t('删除这些文件')}
                data-testid="rules-apply"
                onClick={() => {
                  const p = preview!;
                  setPreview(null);
                  void run({ section: p.section, target: { paths: p.paths, rules: p.rules }, navigate: true });
                }}
              />
            </>
          }
        />
      </Dialog>
      <Alert
        isOpen={pending !== null}
        intent="danger"
        icon="trash"
        confirmButtonText={t('删除')}
        cancelButtonText={t('取消')}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const p = pending!;
          setPending(null);
          void run(p);
        }}
      >
        <p data-testid="confirm-text">{t('确认要删除文件？')}</p>
        {pending ? (
          <p className="ts-small ts-muted">
            {pending.target.paths.length === 1 ? pending.target.paths[0] : t('{n} 个文件（每组保留第一个文件）', { n: pending.target.paths.length })}
          </p>
        ) : null}
      </Alert>
    </div>
  );
}

function DuplicateTable({
  section,
  submitted,
  deleted,
  onDeleteOne,
  onDeleteAll,
  onRuleDelete,
}: {
  section: DuplicateSection;
  submitted: Set<string>;
  deleted: Set<string>;
  onDeleteOne: (path: string) => void;
  onDeleteAll: () => void;
  onRuleDelete: () => void;
}) {
  const t = useT();
  const [page, setPage] = useState(1);
  const pages = pagesOf(section.rows.length);
  const rows = section.rows.slice((page - 1) * SECTION_PAGE_SIZE, page * SECTION_PAGE_SIZE);
  const file = (p: string) => (
    <div className="ts-dup-file" data-file={p}>
      <span className={submitted.has(p) || deleted.has(p) ? 'ts-report-before' : undefined} title={p}>
        {baseName(p)}
      </span>
      {deleted.has(p) ? (
        <Tag minimal intent="danger">
          {t('已删除')}
        </Tag>
      ) : submitted.has(p) ? (
        <Tag minimal>{t('已提交删除')}</Tag>
      ) : (
        <Button small minimal intent="danger" icon="trash" aria-label={t('删除')} data-testid="delete-file" onClick={() => onDeleteOne(p)} />
      )}
      <div className="ts-small ts-muted ts-report-path">{p}</div>
    </div>
  );
  return (
    <Section
      className="ts-report-section"
      data-section={`dup-${section.kind}`}
      compact
      title={
        <span className="ts-report-section-title">
          {t(DUPLICATE_TITLES[section.kind])}
          <Tag round minimal intent="warning" data-testid="section-count">
            {section.rows.length}
          </Tag>
        </span>
      }
      rightElement={
        <div className="ts-report-section-tools">
          <Button small icon="filter" text={t('规则删除')} data-testid="rule-delete" disabled={section.groups.length === 0} onClick={onRuleDelete} />
          <Button small intent="danger" icon="trash" text={t('全部删除')} data-testid="delete-all" onClick={onDeleteAll} />
        </div>
      }
    >
      <SectionCard padded={false}>
        <div className="ts-log-table-wrap">
          <HTMLTable compact striped className="ts-report-table">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('名称')}</th>
                <th>{t('文件 1')}</th>
                <th>{t('文件 2')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={`${r.file_1}\n${r.file_2}`}>
                  <td className="ts-small ts-muted">{(page - 1) * SECTION_PAGE_SIZE + i + 1}</td>
                  <td>{r.name}</td>
                  <td>{file(r.file_1)}</td>
                  <td>{file(r.file_2)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
        {pages > 1 ? (
          <div className="ts-report-pager">
            <ButtonGroup>
              <Button small icon="chevron-left" aria-label={t('上一页')} disabled={page <= 1} onClick={() => setPage(page - 1)} />
              <Button small icon="chevron-right" aria-label={t('下一页')} disabled={page >= pages} onClick={() => setPage(page + 1)} />
            </ButtonGroup>
            <span className="ts-small">{t('第 {page} / {pages} 页', { page, pages })}</span>
          </div>
        ) : null}
      </SectionCard>
    </Section>
  );
}
