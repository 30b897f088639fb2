import { createContext, useContext } from 'react';
import type { BatchSelection } from '../lib/payloads.ts';

export interface BatchContextValue {
  selection: BatchSelection;
  /** After a task is created: the file screen reloads its list (§4). */
  onCreated: () => void;
}

/** The ticked entries and the file screen's refresh, for every drawer and modal of the side bar. */
export const BatchContext = createContext<BatchContextValue>({ selection: { file_full_path: '', select_data: [] }, onCreated: () => undefined });

export const useBatchContext = () => useContext(BatchContext);
