/**
 * The /progress sections' paging (spec doc 2 §2 "Progress"): a page change outside 1..pages is ignored, a new page
 * size starts again at page 1.
 */
export interface PagerState {
  page: number;
  pageSize: number;
}

/** The page to show after asking for `wanted`: unchanged when `wanted` is outside 1..pages. */
export function turnPage(state: PagerState, wanted: number, pages: number): PagerState {
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > Math.max(1, pages) || wanted === state.page) return state;
  return { ...state, page: wanted };
}

export function resize(state: PagerState, pageSize: number): PagerState {
  if (pageSize === state.pageSize) return state;
  return { page: 1, pageSize };
}
