import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.ts';

export interface NatsServerHandle {
  url: string;
  /** Kills the server and removes its store. */
  stop(): Promise<void>;
  /** Stops the server gracefully and starts it again on the same port with the same store. */
  restart(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 5_000;

/** Debian installs nats-server in /usr/sbin, which is not on every user's PATH. */
function findBinary(): string {
  const fromEnv = process.env.TAGSONIC_NATS_SERVER_BIN;
  if (fromEnv) return fromEnv;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'nats-server');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error('nats-server is not installed (apt-get install nats-server) and TAGSONIC_NATS_SERVER_BIN is not set; the NATS tests cannot run without it.');
}


function launch(binary: string, port: number, storeDir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`nats-server did not become ready within ${READY_TIMEOUT_MS} ms:\n${log}`)), READY_TIMEOUT_MS);
    child.once('error', (error) => fail(new Error(`could not start nats-server (${binary}): ${error.message}`)));
    child.once('exit', (code, signal) => fail(new Error(`nats-server exited early (code ${code}, signal ${signal}):\n${log}`)));
    // "Server is ready" is logged after JetStream has recovered its store and the client port listens.
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (settled) return;
      log += chunk;
      if (log.includes('Server is ready')) {
        settled = true;
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}

function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** Starts a private JetStream-enabled nats-server on a free port with a temporary store. */
export async function startNatsServer(): Promise<NatsServerHandle> {
  const binary = findBinary();
  const storeDir = await mkdtemp(join(tmpdir(), 'tagsonic-nats-'));
  const port = await freePort();
  let child = await launch(binary, port, storeDir);
  // Output after readiness is not read; drain it so the pipe never fills and blocks the server.
  child.stderr!.resume();

  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      await terminate(child, 'SIGKILL');
      await rm(storeDir, { recursive: true, force: true });
    },
    async restart() {
      // Graceful, so the file store is flushed as in an orderly `docker restart`.
      await terminate(child, 'SIGTERM');
      child = await launch(binary, port, storeDir);
      child.stderr!.resume();
    },
  };
}
