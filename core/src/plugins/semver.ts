/**
 * Semantic-version order (semver.org §11) for the registry: kept versions are listed newest first and a shipped
 * built-in only replaces an uploaded version that is older. Only the `major.minor.patch[-pre][+build]` form the
 * manifest schema accepts is handled; build metadata does not count.
 */

const parse = (version: string): { core: number[]; pre: string[] } => {
  const [main = '', ...rest] = version.split('+')[0]!.split('-');
  return { core: main.split('.').map((part) => Number(part)), pre: rest.length > 0 ? rest.join('-').split('.') : [] };
};

const comparePre = (a: string, b: string): number => {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(a) - Number(b));
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

/** Negative when `a` is older than `b`, positive when newer, 0 when equal in precedence. */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < 3; i++) {
    const diff = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  // A pre-release sorts before its release: 1.0.0-beta < 1.0.0.
  if (pa.pre.length === 0 || pb.pre.length === 0) return pa.pre.length === pb.pre.length ? 0 : pa.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(pa.pre.length, pb.pre.length); i++) {
    const diff = comparePre(pa.pre[i]!, pb.pre[i]!);
    if (diff !== 0) return diff;
  }
  return Math.sign(pa.pre.length - pb.pre.length);
}
