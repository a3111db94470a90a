import { readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ: 100 on Linux everywhere but exotic builds (`getconf CLK_TCK`)

/** CPU milliseconds (user + system) the process has used so far. */
export function cpuMs(pid: number): number {
  // Fields after the command name (which is in parentheses and may hold spaces): utime is the 14th field, stime the 15th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
