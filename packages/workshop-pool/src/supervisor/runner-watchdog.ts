/**
 * Watches every runner's memory and CPU, busy or idle, read from the OS. A runner whose runs grew it
 * past the run memory limit is reported at once; a runner with no run that keeps spinning, or that grew
 * past the limit after its runs ended, is reported too: that is work a gadget left behind (`waitUntil`,
 * timers) after its outcome, and it is charged to the workspace the runner serves. A runner that only
 * holds what its runs left it — warm isolates of many versions of its workspace's gadgets, their
 * module state — past the limit over its fresh size is not anybody's fault: it is reported as full.
 * Framework-free: the pool calls `sample` on its own clock and acts on what it hears.
 */

import { isRetired, ownerOf, type Slot } from "./runner-slots.ts";

/** An idle runner over this share of a core for IDLE_SPIN_MS runs leftover work. */
const IDLE_CPU_SHARE = 0.25;
const IDLE_SPIN_MS = 500;

export interface WatchdogOptions {
  /** A run may grow its runner's resident memory by this much. */
  memoryLimitBytes: number;
  /** Runs on `slot` grew it past the limit. */
  onRunMemory(slot: Slot, grownBytes: number): void;
  /** `slot` has no run and keeps using CPU. */
  onIdleSpin(slot: Slot, cpuShare: number): void;
  /** `slot` has no run and grew by more than the run limit since its last run ended. */
  onIdleMemory(slot: Slot, grownBytes: number): void;
  /** `slot` has no run and holds more than the run limit above its fresh size, as its runs left it. */
  onIdleFull(slot: Slot, heldBytes: number): void;
}

interface Reading {
  at: number;
  cpuMs: number;
  /** Since when it has been spinning with no run, if it has. */
  spinningSince?: number;
}

export class RunnerWatchdog {
  readonly #options: WatchdogOptions;
  readonly #readings = new WeakMap<Slot, Reading>();

  constructor(options: WatchdogOptions) {
    this.#options = options;
  }

  /** Memory of runners with runs: cheap (one file read each), so it can run every few milliseconds. */
  sampleActive(slots: readonly Slot[]): void {
    for (const slot of slots) {
      if (isRetired(slot) || slot.runs.size === 0) continue;
      const rss = slot.runner.rss();
      if (rss !== undefined && rss - slot.baselineRss > this.#options.memoryLimitBytes)
        this.#options.onRunMemory(slot, rss - slot.baselineRss);
    }
  }

  /** CPU and memory of runners without runs (and CPU readings of all, so idle spells start right). */
  sampleIdle(slots: readonly Slot[], now: number): void {
    for (const slot of slots) {
      if (isRetired(slot)) continue;
      const cpuMs = slot.runner.cpuMs();
      if (cpuMs === undefined) continue;
      const last = this.#readings.get(slot);
      const reading: Reading = { at: now, cpuMs };
      this.#readings.set(slot, reading);
      // A fresh runner never ran gadget code: whatever it does is starting up.
      if (ownerOf(slot) === undefined || slot.runs.size > 0 || !last || now <= last.at) continue;
      const rss = slot.runner.rss();
      if (rss !== undefined && rss - slot.idleRss > this.#options.memoryLimitBytes) {
        this.#options.onIdleMemory(slot, rss - slot.idleRss);
        continue;
      }
      if (rss !== undefined && rss - slot.freshRss > this.#options.memoryLimitBytes) {
        this.#options.onIdleFull(slot, rss - slot.freshRss);
        continue;
      }
      const share = (cpuMs - last.cpuMs) / (now - last.at);
      // Idle spells start after the last run ended, so the end of a run is not counted as spinning.
      if (share < IDLE_CPU_SHARE || last.at < slot.idleSince) continue;
      reading.spinningSince = last.spinningSince ?? last.at;
      if (now - reading.spinningSince >= IDLE_SPIN_MS) this.#options.onIdleSpin(slot, share);
    }
  }
}
