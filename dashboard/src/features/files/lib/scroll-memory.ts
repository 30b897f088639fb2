/**
 * Each folder's tree scroll position, restored when the folder is shown again (§4). Kept outside the
 * store: it changes on every scroll frame and nothing renders from it.
 */
const tops = new Map<string, number>();

export const rememberScroll = (path: string, top: number): void => void tops.set(path, top);
export const scrollTopOf = (path: string): number => tops.get(path) ?? 0;
