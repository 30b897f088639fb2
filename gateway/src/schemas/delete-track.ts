import { Type } from 'typebox';
import { Envelope } from './common.ts';

/** deleteTrack (spec doc 2 §7 "Entity edits"): a library song, and whether its file goes too. */
export const DeleteTrackRequest = Type.Object(
  {
    track_id: Type.String({ minLength: 1, maxLength: 64 }),
    mode: Type.Union([Type.Literal('delete_file'), Type.Literal('delete_track')]),
  },
  { additionalProperties: false },
);

export const DeleteTrackResponse = Envelope(Type.Object({
  track_id: Type.String(),
  path: Type.String(),
  mode: Type.String(),
  /** delete_file: the files.delete task moving the file into the trash (undo_task brings it back). */
  task_id: Type.Union([Type.String(), Type.Null()]),
  /** delete_track: the library scan that takes the song out. */
  scan_task_id: Type.Union([Type.String(), Type.Null()]),
}));
