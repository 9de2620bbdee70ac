/**
 * Keeps a draft's gadget.lock.json in step with gadget.json's `dependencies`: the draft editor hands it
 * the files before each save (and so before each run, which saves first), and it answers them with the
 * lock the Workshop resolved when the dependencies changed (the rule is `refreshLock`, shared with the
 * CLI). A resolution that fails leaves the files as they are — the draft stays editable and savable —
 * and keeps the message, naming the package, for the IDE to show. Framework-free; React subscribes.
 */

import type { GadgetFile } from "@gadgets/workshop-shared";
import { lockErrorText, lockState, type Resolve, refreshLock } from "@gadgets/workshop-shared/dependency-lock";
import { errorMessage } from "../error-message.ts";
import { Subscribable } from "../subscribable.ts";

export class LockKeeper extends Subscribable {
  #problem: string | undefined;
  #resolving = false;

  constructor(private readonly resolve: Resolve) {
    super();
  }

  /** Why the last resolution failed (names the package), until one succeeds. */
  get problem(): string | undefined {
    return this.#problem;
  }

  /** A resolution is on its way. */
  get resolving(): boolean {
    return this.#resolving;
  }

  /** The files to save: with a fresh lock when their dependencies changed and could be resolved. */
  async prepare(files: GadgetFile[]): Promise<GadgetFile[]> {
    const state = lockState(files);
    if (state.status !== "stale") {
      if (state.status === "fresh") this.#set(undefined);
      return files;
    }
    return this.#refresh(files);
  }

  /** The files with the named packages (all direct ones for `true`) moved to the newest their ranges allow. */
  update(files: GadgetFile[], names: true | string[]): Promise<GadgetFile[]> {
    return this.#refresh(files, names);
  }

  async #refresh(files: GadgetFile[], update?: true | string[]): Promise<GadgetFile[]> {
    this.#resolving = true;
    this.notify();
    try {
      const refreshed = await refreshLock(files, this.resolve, update);
      if (refreshed.status === "error") {
        this.#set(`Could not lock the dependencies: ${lockErrorText(refreshed)}`);
        return files;
      }
      this.#set(undefined);
      return refreshed.files;
    } catch (error) {
      this.#set(`Could not lock the dependencies: ${errorMessage(error)}`);
      return files;
    } finally {
      this.#resolving = false;
      this.notify();
    }
  }

  #set(problem: string | undefined): void {
    if (this.#problem === problem) return;
    this.#problem = problem;
    this.notify();
  }
}
