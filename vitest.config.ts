import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // isolated-vm needs --no-node-snapshot; it works only with the forks pool (see shared/NOTES.md).
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    include: ['{sdk,core,workers,gateway,cli,test,plugins,examples}/**/*.test.ts', 'dashboard/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition (a browser repaint, a task event). Its default of 1 s was
    // exceeded on a loaded 2-core run while the condition came true a moment later.
    expect: { poll: { timeout: 10_000 } },
    maxWorkers: 2,
  },
});
