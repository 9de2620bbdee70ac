/**
 * The IDE's notices as toasts in one region: information goes by itself after a while (unless it offers
 * a link to copy) and a newer one replaces it; errors stay until dismissed (the same error again is not shown twice), at most
 * MAX_TOASTS at once, the oldest going first. So notices never pile up above the work.
 */

import { MAX_TOASTS, TOAST_INFO_MS } from "@gadgets/workshop-shared/limits";
import { Subscribable } from "../subscribable.ts";

export interface Notice {
  tone: "info" | "error";
  text: string;
  /** A link the notice offers (a share), shown as a link with a copy button. */
  link?: string;
}

export interface Toast extends Notice {
  id: number;
}

/** The clock the store dismisses with: the page's timers, or a test's. */
export interface ToastTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const pageTimers: ToastTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ToastStore extends Subscribable {
  #toasts: readonly Toast[] = [];
  #next = 1;
  readonly #timers = new Map<number, unknown>();

  constructor(private readonly timers: ToastTimers = pageTimers) {
    super();
  }

  /** The toasts to show, oldest first; a new array on each change (a React snapshot). */
  get toasts(): readonly Toast[] {
    return this.#toasts;
  }

  show(notice: Notice): number {
    const replaced = this.#toasts.filter((toast) =>
      toast.tone === "info" ? notice.tone === "info" : toast.text === notice.text,
    );
    for (const toast of replaced) this.#forget(toast.id);
    const toast: Toast = { ...notice, id: this.#next++ };
    const kept = this.#toasts.filter((existing) => !replaced.includes(existing));
    const over = kept.length + 1 - MAX_TOASTS;
    for (const old of kept.slice(0, Math.max(0, over))) this.#forget(old.id);
    this.#toasts = [...kept.slice(Math.max(0, over)), toast];
    if (toast.tone === "info" && toast.link === undefined)
      this.#timers.set(
        toast.id,
        this.timers.set(() => this.dismiss(toast.id), TOAST_INFO_MS),
      );
    this.notify();
    return toast.id;
  }

  dismiss(id: number): void {
    if (!this.#toasts.some((toast) => toast.id === id)) return;
    this.#forget(id);
    this.#toasts = this.#toasts.filter((toast) => toast.id !== id);
    this.notify();
  }

  #forget(id: number): void {
    const handle = this.#timers.get(id);
    if (handle !== undefined) this.timers.clear(handle);
    this.#timers.delete(id);
  }
}

/** The page's toasts: one region per page. */
export const pageToasts = new ToastStore();
