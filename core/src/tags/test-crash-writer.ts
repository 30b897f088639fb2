/**
 * Test-only child process for crash.test.ts: rewrites one file's tags forever, alternating between
 * CRASH_STATES, until the test kills it with SIGKILL. Usage: node test-crash-writer.ts <file> <data dir>
 */
import { safeWriteTags } from './safe-write.ts';
import { CRASH_STATES, openJournal } from './test-fixtures.ts';

const [file, dataDir] = process.argv.slice(2);
if (!file || !dataDir) throw new Error('usage: test-crash-writer.ts <file> <data dir>');
const { journal } = await openJournal(dataDir);
for (let i = 0; ; i++) {
  await safeWriteTags(file, { fields: { ...CRASH_STATES[i % 2]! } }, { journal, actor: 'crash-writer', taskId: 'crash' });
  process.stdout.write(`wrote ${i}\n`);
}
