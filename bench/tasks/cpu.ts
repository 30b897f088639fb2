/**
 * CPU seconds of this process and of its reaped children (ffmpeg, ffprobe, shnsplit, flac, xargs: /proc/self/stat
 * utime+stime and cutime+cstime). With the machine shared, a side's wall time moves with the load; its CPU
 * seconds do not, so the media benches print both.
 */
import { readFileSync } from 'node:fs';

export interface CpuSeconds {
  self: number;
  children: number;
}

export function cpuNow(): CpuSeconds {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const ticks = (i: number) => Number(fields[i]) / 100;
  return { self: ticks(11) + ticks(12), children: ticks(13) + ticks(14) };
}

/** The CPU seconds `work` used, in this process and in the children it waited for. */
export async function cpuOf<T>(work: () => Promise<T>): Promise<{ result: T; self: number; children: number }> {
  const before = cpuNow();
  const result = await work();
  const after = cpuNow();
  const r = (n: number) => Math.round(n * 100) / 100;
  return { result, self: r(after.self - before.self), children: r(after.children - before.children) };
}
