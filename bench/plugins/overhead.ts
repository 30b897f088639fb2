/**
 * Invocation overhead of a trivial plugin through the real sandbox (fresh context per call, bootstrap,
 * plugin load, one JSON round trip), sequentially and with several calls in flight, plus the same with one
 * capability call inside. Target (issue 11): p50 ≤ 2 ms and ≥ 500 invocations/s per worker.
 *   node --no-node-snapshot bench/plugins/overhead.ts [--calls 2000] [--concurrency 8]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createSandbox } from '@tagsonic/workers/plugin-host';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' } },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);

const sandbox = createSandbox({
  id: 'bench-trivial',
  code: `exports.echo = async (o) => ({ n: o.n + 1 });
         exports.withHost = async (o, { util }) => util.add(o.n, 1);`,
  capabilities: { util: { add: async (args) => Number(args[0]) + Number(args[1]) } },
});

/** Runs `calls` invocations with `limit` in flight; returns latencies (ms) and invocations/s. */
async function measure(exportName: string, limit: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < calls) {
        const n = next++;
        const t = performance.now();
        await sandbox.invoke(exportName, { n });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { exportName, inFlight: limit, p50Ms: +at(0.5).toFixed(3), p99Ms: +at(0.99).toFixed(3), perSecond: Math.round(calls / seconds) };
}

for (let i = 0; i < 200; i++) await sandbox.invoke('echo', { n: i }); // isolate start, JIT warm-up
const rows = [await measure('echo', 1), await measure('echo', concurrency), await measure('withHost', 1), await measure('withHost', concurrency)];
sandbox.close();
console.table(rows);
console.log(JSON.stringify({ bench: 'plugins/overhead', calls, loadavg: loadavg()[0], rows }));
