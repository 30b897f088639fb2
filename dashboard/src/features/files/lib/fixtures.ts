/** Tree nodes for the selection and row tests. */
import type { TreeNode } from '../api/types.ts';

export function node(name: string, options: { dir?: boolean; children?: TreeNode[]; parent?: string } = {}): TreeNode {
  const full = `${options.parent ?? '/music'}/${name}`;
  return {
    id: full,
    name,
    title: name,
    icon: options.dir ? 'icon-folder' : name.endsWith('.jpg') ? 'icon-image' : 'icon-file',
    state: null,
    children: options.children ?? [],
    selected: false,
    is_dir: options.dir ?? false,
    full_path: full,
    size: 0,
    update_time: '2026-01-01T00:00:00.000Z',
  };
}
