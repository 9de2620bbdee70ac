/**
 * Rewrites stacks from inside the isolate so they point at the gadget's own files. Frames of the
 * harness and the runtime are kept as `<runtime>` frames but left out of the text a user reads first.
 */

import type { RunErrorInfo, StackFrame } from "@gadgets/workshop-shared/api";
import type { RawError } from "../executors/executor.ts";
import { type GadgetBuild, mapPosition } from "./gadget-build.ts";
import { packageStartupMessage, startupFailure } from "./startup-error.ts";

const MAX_FRAMES = 50;
/** Longer lines are no frame V8 writes for a gadget's code: they are skipped unread. */
const MAX_FRAME_LINE_CHARS = 2000;

const isDigits = (text: string) => text.length > 0 && text.length <= 15 && /^[0-9]+$/.test(text);

/**
 * One V8 frame line, `at fn (location:line:column)` or `at location:line:column`. Parsed with index
 * scans, never a backtracking regex: stacks are gadget-controlled text, parsed on the Worker's thread.
 */
export function parseFrameLine(
  raw: string,
): { fn: string; location: string; line: number; column: number } | undefined {
  if (raw.length > MAX_FRAME_LINE_CHARS) return undefined;
  const text = raw.trimStart();
  if (!text.startsWith("at ")) return undefined;
  let rest = text.slice(3);
  let fn = "";
  if (rest.endsWith(")")) {
    const open = rest.indexOf(" (");
    if (open === -1) return undefined;
    fn = rest.slice(0, open);
    rest = rest.slice(open + 2, -1);
  }
  const columnAt = rest.lastIndexOf(":");
  const lineAt = columnAt > 0 ? rest.lastIndexOf(":", columnAt - 1) : -1;
  if (lineAt === -1) return undefined;
  const lineText = rest.slice(lineAt + 1, columnAt);
  const columnText = rest.slice(columnAt + 1);
  if (!isDigits(lineText) || !isDigits(columnText)) return undefined;
  return { fn, location: rest.slice(0, lineAt), line: Number(lineText), column: Number(columnText) };
}

/** The gadget module a stack location refers to, whatever prefix the runtime puts in front of it. */
function moduleOf(build: GadgetBuild, location: string): string | undefined {
  // An isolate names a module as the build did; a tree of packages holds thousands, so look it up first.
  if (build.sources.has(location)) return location;
  // The longest matching name wins: `lib/index.js` must not be taken for `index.js`.
  let best: string | undefined;
  for (const name of build.sources.keys()) {
    if ((location === name || location.endsWith(`/${name}`)) && (best === undefined || name.length > best.length))
      best = name;
  }
  return best;
}

export function parseFrames(stack: string, build: GadgetBuild | undefined): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split("\n")) {
    if (frames.length >= MAX_FRAMES) break;
    const frame = parseFrameLine(line);
    if (!frame) continue;
    const { fn, location } = frame;
    const moduleName = build ? moduleOf(build, location) : undefined;
    const mapped = build && moduleName ? mapPosition(build, moduleName, frame.line, frame.column) : undefined;
    if (mapped) frames.push({ fn, file: mapped.path, line: mapped.line, column: mapped.column });
    else frames.push({ fn, file: "<runtime>", line: frame.line, column: frame.column });
  }
  return frames;
}

/** Renders frames the way V8 does, so the text reads like any stack. */
export function formatStack(name: string, message: string, frames: readonly StackFrame[]): string {
  const head = message ? `${name}: ${message}` : name;
  const lines = frames
    .filter((frame) => frame.file !== "<runtime>")
    .map((frame) =>
      frame.fn
        ? `    at ${frame.fn} (${frame.file}:${frame.line}:${frame.column})`
        : `    at ${frame.file}:${frame.line}:${frame.column}`,
    );
  return [head, ...lines].join("\n");
}

/** The package whose file `frame` is in, by its name (`zod`, `@scope/pkg`). */
function packageOf(build: GadgetBuild, file: string): string | undefined {
  const at = file.lastIndexOf("node_modules/");
  if (at === -1) return undefined;
  const known = [...build.sources.values()].some(
    (source) => source.package && file.startsWith(`${source.package.installPath}/`),
  );
  if (!known) return undefined;
  const parts = file.slice(at + "node_modules/".length).split("/");
  return parts.slice(0, parts[0]?.startsWith("@") ? 2 : 1).join("/");
}

export function mapError(raw: RawError, build: GadgetBuild | undefined): RunErrorInfo {
  const startup = startupFailure(raw);
  if (startup) {
    const frames = parseFrames(startup.stack, build);
    const first = frames.find((frame) => frame.file !== "<runtime>");
    const packageName = build && first ? packageOf(build, first.file) : undefined;
    const message = packageName ? packageStartupMessage(packageName, startup.message) : startup.message;
    return { name: startup.name, message, stack: formatStack(startup.name, message, frames), frames };
  }
  const frames = parseFrames(raw.stack, build);
  return { name: raw.name, message: raw.message, stack: formatStack(raw.name, raw.message, frames), frames };
}
