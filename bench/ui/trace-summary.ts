/**
 * Sums up a Chromium performance trace (bench/ui/albums.ts --trace): the renderer main thread's time by event name
 * (complete events, self time not separated: nested events count in their parents too), frames drawn, and the
 * longest tasks — enough to say whether a slow scroll is script, style/layout, paint or image decoding.
 *   node bench/ui/trace-summary.ts /tmp/scroll-trace.json [--top 20]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { printTable, round } from './browser.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '20' } } });
const file = positionals[0];
if (!file) throw new Error('usage: node bench/ui/trace-summary.ts <trace.json>');

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } }
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : raw.traceEvents;

// The page's main thread: of the threads named CrRendererMain (one per renderer), the busiest.
const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
if (mains.length === 0) throw new Error('no CrRendererMain thread in the trace');
const complete = (t: TraceEvent) => events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.ph === 'X' && e.dur !== undefined);
const onMain = mains.map(complete).sort((a, b) => b.length - a.length)[0]!;
const span = (Math.max(...onMain.map((e) => e.ts + e.dur!)) - Math.min(...onMain.map((e) => e.ts))) / 1000;

const byName = new Map<string, { ms: number; count: number }>();
for (const e of onMain) {
  const s = byName.get(e.name) ?? { ms: 0, count: 0 };
  s.ms += e.dur! / 1000;
  s.count++;
  byName.set(e.name, s);
}
// Tasks nest (ThreadControllerImpl::RunTask holds a RunTask): count one kind only.
const taskName = onMain.some((e) => e.name === 'ThreadControllerImpl::RunTask') ? 'ThreadControllerImpl::RunTask' : 'RunTask';
const tasks = onMain.filter((e) => e.name === taskName);
const busy = tasks.reduce((s, e) => s + e.dur! / 1000, 0);
const long = tasks.filter((e) => e.dur! / 1000 > 50).length;

printTable(
  ['main-thread event', 'total ms', 'count', '% of span'],
  [...byName].sort((a, b) => b[1].ms - a[1].ms).slice(0, Number(values.top)).map(([name, s]) => [name, round(s.ms), s.count, round((s.ms / span) * 100)]),
);
process.stdout.write(`summary: ${round(span)} ms traced, main thread busy ${round(busy)} ms in tasks (${round((busy / span) * 100)} %), ${long} tasks over 50 ms\n`);
