/**
 * A gadget whose modules throw while they load never reaches `run()`: workerd fails the call with
 * "Failed to start Worker:" and the module's error, its frames written as `at file:line:col [in fn]`
 * inside the message. This reads that text back into an ordinary error with V8-style frames, and when
 * the throw came from a package, says so first: a package that reads its own files, or needs what an
 * isolate lacks, fails here, and the person needs its name rather than a stack from deep inside it.
 * Index scans only: the text comes from the gadget's realm.
 */

import type { RawError } from "../executors/executor.ts";

const STARTUP = "Failed to start Worker:\n";
const UNCAUGHT = "Uncaught ";

export interface StartupFailure {
  name: string;
  message: string;
  /** The frames as V8 writes them, for the stack mapper. */
  stack: string;
}

/** workerd's `at file:line:col in fn` as V8's `at fn (file:line:col)`. */
function v8Frame(line: string): string | undefined {
  const text = line.trim();
  if (!text.startsWith("at ")) return undefined;
  const rest = text.slice(3);
  const inAt = rest.indexOf(" in ");
  return inAt === -1 ? `    at ${rest}` : `    at ${rest.slice(inAt + 4)} (${rest.slice(0, inAt)})`;
}

/** The error a module threw while the isolate loaded, or undefined for any other failure. */
export function startupFailure(raw: RawError): StartupFailure | undefined {
  if (!raw.message.startsWith(STARTUP)) return undefined;
  const lines = raw.message.slice(STARTUP.length).split("\n");
  let first = lines[0] ?? "";
  if (first.startsWith(UNCAUGHT)) first = first.slice(UNCAUGHT.length);
  // `TypeError: …`: a name is one word; anything else is all message.
  const colon = first.indexOf(": ");
  const named = colon > 0 && colon < 64 && !first.slice(0, colon).includes(" ");
  const name = named ? first.slice(0, colon) : "Error";
  const message = named ? first.slice(colon + 2) : first;
  const frames: string[] = [];
  const text: string[] = [];
  for (const line of lines.slice(1)) {
    const frame = v8Frame(line);
    if (frame) frames.push(frame);
    else if (frames.length === 0) text.push(line);
  }
  const fullMessage = [message, ...text].join("\n");
  return { name, message: fullMessage, stack: [`${name}: ${fullMessage}`, ...frames].join("\n") };
}

/** The words for a package that threw while it loaded. */
export function packageStartupMessage(packageName: string, message: string): string {
  return `The package "${packageName}" threw while it loaded: ${message}. A package cannot read its own files, load native addons or reach the network when it is imported in a gadget; use one that works in Cloudflare Workers.`;
}
