/** Where a `tagsonic plugin` subcommand writes: the result on `out`, people's messages on `err` (tests pass their own). */
export interface Io {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}
