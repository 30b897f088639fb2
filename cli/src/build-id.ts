import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Names the code this process runs, for `/healthz` and the Subsonic `serverVersion`: the same for every start
 * of one build, so clients that cache by server version are not reset by a restart. `TAGSONIC_BUILD_ID` when an
 * image build stamps one; else the checkout's commit (`git-<12 hex>`, read from `.git` without running git);
 * else the package version (`v2.4.3`).
 */
export function buildId(env: Record<string, string | undefined> = process.env, root = ROOT): string {
  if (env.TAGSONIC_BUILD_ID) return env.TAGSONIC_BUILD_ID;
  const commit = gitCommit(path.join(root, '.git'));
  if (commit) return `git-${commit.slice(0, 12)}`;
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string };
  return `v${pkg.version ?? '0.0.0'}`;
}

/** HEAD's commit: a detached hash, or the branch's from its loose ref or packed-refs; null when none is found. */
function gitCommit(gitDir: string): string | null {
  const read = (file: string) => {
    try {
      return readFileSync(path.join(gitDir, file), 'utf8');
    } catch {
      return null;
    }
  };
  const head = read('HEAD')?.trim();
  if (!head) return null;
  if (/^[0-9a-f]{40,64}$/.test(head)) return head;
  const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
  if (!ref || ref.includes('..')) return null;
  const loose = read(ref)?.trim();
  if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  for (const line of (read('packed-refs') ?? '').split('\n')) {
    const [hash, name] = line.split(' ');
    if (name === ref && /^[0-9a-f]{40,64}$/.test(hash)) return hash;
  }
  return null;
}
