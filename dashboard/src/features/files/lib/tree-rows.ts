/** The tree as the flat list of rows the virtual scroller draws: depth-first, expanded folders open. */
import type { TreeNode } from '../api/types.ts';

export interface TreeRow {
  node: TreeNode;
  depth: number;
  parentId: string | null;
}

export function flattenTree(nodes: readonly TreeNode[], expanded: ReadonlySet<string>, depth = 0, parentId: string | null = null, out: TreeRow[] = []): TreeRow[] {
  for (const node of nodes) {
    out.push({ node, depth, parentId });
    if (node.children.length > 0 && expanded.has(node.id)) flattenTree(node.children, expanded, depth + 1, node.id, out);
  }
  return out;
}

/** The node and everything loaded below it (checking a folder checks its children, §4). */
export function subtreeIds(node: TreeNode, out: string[] = []): string[] {
  out.push(node.id);
  for (const child of node.children) subtreeIds(child, out);
  return out;
}

/** The parent folder of a path, or null at a filesystem root. Paths are the server's (POSIX). */
export function parentPath(p: string): string | null {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = trimmed.lastIndexOf('/');
  if (i <= 0) return trimmed === '/' ? null : '/';
  return trimmed.slice(0, i);
}

export const isImage = (n: TreeNode) => n.icon === 'icon-image';
export const isAudio = (n: TreeNode) => n.icon === 'icon-file';
