/**
 * The embed's state, framework-free: the shared gadget, its files as edited here, the console of the
 * latest run, the outcome — and the host API over all of it.
 */

import { RpcTarget } from "capnweb";
import type {
  EmbedApi,
  GadgetFile,
  JsonValue,
  RunEvent,
  RunEventListener,
  RunOutcome,
  ShareSnapshot,
  WorkshopClient,
} from "@gadgets/workshop-shared";
import { type ConsoleTextLine, consoleLineText } from "../console/console-text.ts";
import { Subscribable } from "../subscribable.ts";

export interface EmbedLine extends ConsoleTextLine {
  id: number;
  t: number;
}

export interface EmbedState {
  snapshot?: ShareSnapshot;
  files: GadgetFile[];
  lines: EmbedLine[];
  running: boolean;
  outcome?: RunOutcome;
  error?: string;
}

/** Lines the embed's console keeps (it is a small window). */
const MAX_LINES = 1000;

/** Creates the embed's controller (and its server session) only when something first needs it. */
export class LazyEmbedController {
  #controller: EmbedController | undefined;

  constructor(private readonly create: () => EmbedController) {}

  get(): EmbedController {
    this.#controller ??= this.create();
    return this.#controller;
  }

  get started(): boolean {
    return this.#controller !== undefined;
  }

  dispose(): void {
    this.#controller?.dispose();
    this.#controller = undefined;
  }
}

export class EmbedController extends Subscribable {
  #state: EmbedState = { files: [], lines: [], running: false };
  readonly #hostListeners = new Set<RunEventListener>();
  #nextLine = 1;

  /** One server-side share object for the embed's whole life, released by dispose(). */
  readonly #share: ReturnType<WorkshopClient["api"]["openShare"]>;

  constructor(
    private readonly client: WorkshopClient,
    readonly shareId: string,
  ) {
    super();
    this.#share = client.api.openShare(shareId);
  }

  dispose(): void {
    this.#share[Symbol.dispose]();
    this.client[Symbol.dispose]();
  }

  get state(): EmbedState {
    return this.#state;
  }

  #loaded: Promise<void> | undefined;

  /** Loads the share once; every call waits for the same load. */
  load(): Promise<void> {
    this.#loaded ??= this.#load();
    return this.#loaded;
  }

  async #load(): Promise<void> {
    try {
      const snapshot = await this.#share.snapshot();
      this.#set({ snapshot, files: snapshot.files });
    } catch (error) {
      this.#set({ error: error instanceof Error ? error.message : String(error) });
    }
  }

  setFiles(files: GadgetFile[]): void {
    this.#set({ files });
  }

  addHostListener(listener: RunEventListener): number {
    this.#hostListeners.add(listener);
    return this.#hostListeners.size;
  }

  async run(payload: JsonValue): Promise<RunOutcome> {
    this.#set({ running: true, lines: [], outcome: undefined });
    const edited = this.#state.files !== this.#state.snapshot?.files;
    const onEvent = (event: RunEvent) => {
      this.#onEvent(event);
      for (const listener of this.#hostListeners)
        void Promise.resolve(listener(event)).catch(() => this.#hostListeners.delete(listener));
    };
    try {
      const outcome = await this.#share.run(payload, onEvent, edited ? this.#state.files : undefined);
      this.#set({ running: false, outcome });
      return outcome;
    } catch (error) {
      this.#set({ running: false, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  #onEvent(event: RunEvent): void {
    const line = consoleLineText(event);
    if (!line) return;
    const lines = [...this.#state.lines, { ...line, id: this.#nextLine++, t: event.t }].slice(-MAX_LINES);
    this.#set({ lines });
  }

  #set(patch: Partial<EmbedState>): void {
    this.#state = { ...this.#state, ...patch };
    this.notify();
  }
}

/**
 * The host API's checks, loaded on its first call: `validate` reaches the manifest's schemas (JSON Schema,
 * cron, semver), which the embed's first paint must not carry (under 100 KB compressed, `assets.spec.ts`).
 */
const validation = () => import("@gadgets/workshop-shared/validate");

/** The host API: validated like any RPC boundary, since the host page is someone else's code. */
export class EmbedApiTarget extends RpcTarget implements EmbedApi {
  /**
   * `controllerOf` is called on the host's first real call, not at the handshake: with click-to-load
   * the handshake is answered before the click, and only a host that asks for something loads it.
   */
  constructor(private readonly controllerOf: () => EmbedController) {
    super();
  }

  private get controller(): EmbedController {
    return this.controllerOf();
  }

  async run(payload: JsonValue): Promise<RunOutcome> {
    const checked = (await validation()).checkPayload(payload);
    if (!checked.ok) throw new TypeError(checked.error);
    await this.controller.load();
    return this.controller.run(checked.value);
  }

  async getFiles(): Promise<GadgetFile[]> {
    await this.controller.load();
    return this.controller.state.files;
  }

  async setFiles(files: GadgetFile[]): Promise<void> {
    const checked = (await validation()).checkFiles(files);
    if (!checked.ok) throw new TypeError(checked.error);
    await this.controller.load();
    this.controller.setFiles(checked.value);
  }

  async onRunEvent(listener: RunEventListener): Promise<number> {
    if (typeof listener !== "function") throw new TypeError("onRunEvent takes a function.");
    // The stub would be released when this call returns; keep a reference of our own.
    const kept = (listener as RunEventListener & { dup?: () => RunEventListener }).dup?.() ?? listener;
    return this.controller.addHostListener(kept);
  }
}
