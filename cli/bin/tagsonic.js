#!/usr/bin/env node
// npm bin entry: re-runs the TypeScript entry with the flags isolated-vm needs (--no-node-snapshot).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
// glibc malloc settings read at process start (core/src/memory/malloc-env.ts says why); the user's own win.
const MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const child = spawn(process.execPath, ['--no-node-snapshot', '--max-semi-space-size=8', entry, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...MALLOC_ENV, ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
