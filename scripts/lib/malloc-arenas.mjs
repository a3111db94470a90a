// The server process's malloc arenas, capped at two, as `npm start` runs it.
//
// glibc's malloc gives each thread that allocates at once an arena of its own (up to eight per core)
// and keeps what is freed in it for later: V8's compiler and garbage-collector threads, libuv's
// pool and the main thread held about 86 MB of malloc between them after the benchmark's routes, in
// three arenas, where one held 65 MB. Two arenas took 7 to 22 MB off the peak RSS at the same CPU
// per request (side by side on one CPU: key GET 0.95 and 0.97, write 0.98 and 1.01 of the default).
// It is an environment variable, read when the process starts, so `npm start` re-executes itself
// with it set (same process id, same Node.js flags; signals still reach the server directly).
// Set MALLOC_ARENA_MAX yourself to choose another value; other C libraries (musl) and systems ignore it.

export const MALLOC_ARENA_MAX = "2";

/** Re-executes this process with MALLOC_ARENA_MAX set, on glibc, when it is unset and Node.js can (22.15 and later). */
export function execWithFewerMallocArenas() {
  if (process.env.MALLOC_ARENA_MAX || process.platform !== "linux" || typeof process.execve !== "function") return;
  if (!process.report?.getReport().header.glibcVersionRuntime) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX,
  });
}
