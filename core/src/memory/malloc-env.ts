/**
 * glibc malloc settings for the server process. glibc reads them from the environment when the process
 * starts, so they are set by the launchers — `./run start`, `cli/bin/tagsonic.js`, the Dockerfile — not
 * from here; this is the list they copy, and what bench/scan/idle-memory.ts starts the server with.
 *
 * What they cut (10k library, idle after the scan; bench/README.md "Idle memory"): every thread that
 * mallocs (reader threads of a scan, V8's compiler and GC threads, libuv's pool) got an arena of its own,
 * up to 8 per core, and freed memory stays resident in each one: ~55 MB in 8 arenas where ~13 MB was in
 * use. `MALLOC_ARENA_MAX=2` shares two. Fixed mmap/trim thresholds (glibc's defaults, 128 KiB) stop glibc
 * from raising them after a large buffer is freed (up to 32 MiB / 64 MiB): large buffers stay mapped of
 * their own and go back to the system when freed, and free space at a heap's top is trimmed.
 * Idle RSS ~190 → ~160 MB, the Subsonic bench's req/s unchanged. A user's own values win.
 */
export const MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
