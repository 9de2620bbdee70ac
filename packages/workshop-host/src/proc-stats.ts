/**
 * A process's CPU time and resident memory, read from /proc. The pool reads them at every run's start
 * and every few milliseconds while runs are active, so the files are opened once and re-read in place
 * (one `pread` each, no open/close), and memory comes from the one-line `statm` rather than `status`.
 * Once the process is gone, reads answer undefined: an open /proc file never speaks for a later
 * process that reuses the id.
 */

import { closeSync, openSync, readFileSync, readSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat times: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

let pageBytes: number | undefined;
/**
 * The size of the pages `statm` counts in (4 KiB on x86-64; arm64 kernels may use 16 or 64 KiB): our
 * own VmRSS over our own resident pages, rounded to a power of two (both move a little between reads).
 */
function memoryPageBytes(): number {
  if (pageBytes !== undefined) return pageBytes;
  try {
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
    const pages = Number(readFileSync("/proc/self/statm", "utf8").split(" ")[1]);
    const ratio = (rssKb * 1024) / pages;
    pageBytes = Number.isFinite(ratio) && ratio > 0 ? 2 ** Math.round(Math.log2(ratio)) : 4096;
  } catch {
    pageBytes = 4096;
  }
  return pageBytes;
}

export class ProcStats {
  readonly #pid: number;
  readonly #buffer = Buffer.alloc(1024);
  #stat: number | undefined;
  #statm: number | undefined;
  #closed = false;

  constructor(pid: number) {
    this.#pid = pid;
  }

  /** CPU time used so far (user + system) in ms, or undefined once the process is gone. */
  cpuMs(): number | undefined {
    this.#stat ??= this.#open("stat");
    const stat = this.#read(this.#stat);
    if (stat === undefined) return undefined;
    // Fields after the command name (which may hold spaces), from field 3: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  }

  /** Resident memory in bytes (VmRSS), or undefined once the process is gone. */
  rssBytes(): number | undefined {
    this.#statm ??= this.#open("statm");
    const statm = this.#read(this.#statm);
    if (statm === undefined) return undefined;
    const pages = Number(statm.split(" ")[1]);
    return Number.isFinite(pages) ? pages * memoryPageBytes() : undefined;
  }

  close(): void {
    this.#closed = true;
    for (const fd of [this.#stat, this.#statm]) {
      if (fd === undefined) continue;
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
    this.#stat = this.#statm = undefined;
  }

  #open(file: "stat" | "statm"): number | undefined {
    if (this.#closed) return undefined;
    try {
      return openSync(`/proc/${this.#pid}/${file}`, "r");
    } catch {
      return undefined;
    }
  }

  #read(fd: number | undefined): string | undefined {
    if (fd === undefined) return undefined;
    try {
      const length = readSync(fd, this.#buffer, 0, this.#buffer.length, 0);
      return length > 0 ? this.#buffer.toString("latin1", 0, length) : undefined;
    } catch {
      return undefined;
    }
  }
}
