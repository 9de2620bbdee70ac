/**
 * The embeddable playground's host API: a page that frames `/embed/<shareId>` drives it over Cap'n Web
 * on a MessagePort. The handshake is one `postMessage` with an explicit target origin; the embed only
 * answers its parent window (and, when the iframe URL names one with `host=`, only that origin).
 *
 * @example
 * ```ts
 * const embed = await connectEmbed(iframe, { origin: "https://workshop.example.com" });
 * await embed.onRunEvent((event) => console.log(event));
 * const outcome = await embed.run({ input: "hi" });
 * ```
 */

import { newMessagePortRpcSession, type RpcStub } from "capnweb";
import type { GadgetFile, JsonValue, RunEventListener, RunOutcome } from "./api.ts";

/** What a host page can do with an embed. */
export interface EmbedApi {
  /** Runs the embedded gadget (anonymous and rate-limited, like any shared link). */
  run(payload: JsonValue): Promise<RunOutcome>;
  getFiles(): Promise<GadgetFile[]>;
  /** Replaces the embed's files (in the embed only; the share itself never changes). */
  setFiles(files: GadgetFile[]): Promise<void>;
  /** Every event of every later run goes to `listener`; returns a count of subscribers. */
  onRunEvent(listener: RunEventListener): Promise<number>;
}

/** The handshake message the host sends, with a MessagePort in its transfer list. */
export const EMBED_CONNECT = "gadget-workshop:connect";
/** What the embed posts to its parent once it is ready for a handshake, and whenever the host asks. */
export const EMBED_READY = "gadget-workshop:ready";
/** What a host posts to ask whether the embed is ready: answered at any time, so a host may connect late. */
export const EMBED_HELLO = "gadget-workshop:hello";

/** Options of an embed, as query parameters of its URL. */
export interface EmbedOptions {
  theme: "light" | "dark";
  /** The file shown first. */
  file?: string;
  readonly: boolean;
  autorun: boolean;
  /** Click to load: nothing heavy loads and nothing runs until the reader clicks. */
  ctl: boolean;
  console: "show" | "hide";
  view: "editor" | "console" | "both";
  /** The only origin whose handshake is accepted (else: the parent window's, whatever it is). */
  host?: string;
}

/** Reads options from a query string; anything unknown or malformed falls back to the default. */
export function parseEmbedOptions(search: string): EmbedOptions {
  const params = new URLSearchParams(search);
  const flag = (name: string) => params.has(name) && params.get(name) !== "0" && params.get(name) !== "false";
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = params.get(name);
    return allowed.includes(value as T) ? (value as T) : fallback;
  };
  const file = params.get("file");
  const host = params.get("host");
  let hostOrigin: string | undefined;
  if (host) {
    try {
      hostOrigin = new URL(host).origin;
    } catch {
      hostOrigin = undefined;
    }
  }
  return {
    theme: pick("theme", ["light", "dark"] as const, "light"),
    ...(file && file.length <= 128 ? { file } : {}),
    readonly: flag("readonly"),
    autorun: flag("autorun"),
    ctl: flag("ctl"),
    console: pick("console", ["show", "hide"] as const, "show"),
    view: pick("view", ["editor", "console", "both"] as const, "both"),
    ...(hostOrigin && hostOrigin !== "null" ? { host: hostOrigin } : {}),
  };
}

/** Builds the iframe URL for a share with the given options (defaults left out). */
export function embedUrl(origin: string, shareId: string, options: Partial<EmbedOptions>): string {
  const url = new URL(`/embed/${encodeURIComponent(shareId)}`, origin);
  if (options.theme && options.theme !== "light") url.searchParams.set("theme", options.theme);
  if (options.file) url.searchParams.set("file", options.file);
  for (const flag of ["readonly", "autorun", "ctl"] as const) if (options[flag]) url.searchParams.set(flag, "1");
  if (options.console === "hide") url.searchParams.set("console", "hide");
  if (options.view && options.view !== "both") url.searchParams.set("view", options.view);
  if (options.host) url.searchParams.set("host", options.host);
  return url.toString();
}

/**
 * Connects to an embed from the host page: asks it whether it is ready (again until it answers, since
 * it may still be loading), then hands it one end of a MessageChannel — posted to the embed's exact
 * origin, never to "*". Each call is a connection of its own (a page may connect again, or late).
 */
const HELLO_INTERVAL_MS = 250;

export function connectEmbed(
  iframe: HTMLIFrameElement,
  options: { origin: string; timeoutMs?: number },
): Promise<RpcStub<EmbedApi>> {
  const origin = new URL(options.origin).origin;
  return new Promise((resolve, reject) => {
    const ask = () => iframe.contentWindow?.postMessage({ type: EMBED_HELLO }, origin);
    const asking = setInterval(ask, HELLO_INTERVAL_MS);
    const timer = setTimeout(() => {
      clearInterval(asking);
      window.removeEventListener("message", onMessage);
      reject(
        new Error(
          `The embed at ${origin} did not answer within ${options.timeoutMs ?? 15_000} ms. Check the iframe's URL and origin.`,
        ),
      );
    }, options.timeoutMs ?? 15_000);
    const handshake = () => {
      const channel = new MessageChannel();
      iframe.contentWindow?.postMessage({ type: EMBED_CONNECT }, origin, [channel.port2]);
      resolve(newMessagePortRpcSession<EmbedApi>(channel.port1));
    };
    function onMessage(event: MessageEvent) {
      if (event.source !== iframe.contentWindow || event.origin !== origin) return;
      if ((event.data as { type?: unknown } | null)?.type !== EMBED_READY) return;
      clearTimeout(timer);
      clearInterval(asking);
      window.removeEventListener("message", onMessage);
      handshake();
    }
    window.addEventListener("message", onMessage);
    ask();
  });
}
