/** The batch calls' wire shapes (spec doc 1 §7 "Task operations and payloads"). */

/** One ticked entry, as every batch call's `select_data` lists it. */
export interface SelectItem {
  icon: string;
  name: string;
  title: string;
}

/** What a batch call answers: the task created in the background. */
export interface TaskCreated {
  task_id?: string | number;
  /** Items the selection became. */
  total?: number;
  dry_run?: boolean;
}
