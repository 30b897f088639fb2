/**
 * The external tools Tagsonic runs (ffmpeg, ffprobe, fpcalc): `<data>/bin/<name>` when the administrator put an
 * executable there (the spec: "Conversion needs an ffmpeg binary in /app/data/bin/" — a static build newer than
 * the distribution's, say), else the one on PATH. Always spawned with an argument array, never through a shell.
 * Resolved once per process and tool: a binary added later is used after a restart.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export type ToolName = 'ffmpeg' | 'ffprobe' | 'fpcalc';

let binDir: string | null = null;
const resolved = new Map<ToolName, string>();

/** Where administrators' own binaries are looked for (`<data>/bin`); null: PATH only. The composition root sets it. */
export function useToolDir(dir: string | null): void {
  binDir = dir;
  resolved.clear();
  // Worker threads (the tag engine's) copy the environment when they start: they find the folder there.
  if (dir) process.env.TAGSONIC_TOOL_DIR = dir;
  else delete process.env.TAGSONIC_TOOL_DIR;
}

/** The command to spawn for `name`: the data folder's executable file of that name, else the bare name (PATH). */
export function toolPath(name: ToolName): string {
  const known = resolved.get(name);
  if (known) return known;
  let found: string = name;
  const dir = binDir ?? process.env.TAGSONIC_TOOL_DIR ?? null;
  if (dir) {
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        found = candidate;
      }
    } catch {
      // Not there, or not executable: PATH's.
    }
  }
  resolved.set(name, found);
  return found;
}
