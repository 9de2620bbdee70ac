/**
 * Rewrites stacks from inside the isolate so they point at the gadget's own files. Frames of the
 * harness and the runtime are kept as `<runtime>` frames but left out of the text a user reads first.
 */

import type { RunErrorInfo, StackFrame } from "@gadgets/workshop-shared/api";
import type { RawError } from "../executors/executor.ts";
import { type GadgetBuild, mapPosition } from "./gadget-build.ts";

const FRAME_WITH_FN = /^\s*at (.*?) \((.*):(\d+):(\d+)\)$/;
const FRAME_BARE = /^\s*at (.*):(\d+):(\d+)$/;
const MAX_FRAMES = 50;

/** The gadget module a stack location refers to, whatever prefix the runtime puts in front of it. */
function moduleOf(build: GadgetBuild, location: string): string | undefined {
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
    const withFn = FRAME_WITH_FN.exec(line);
    const bare = withFn ? undefined : FRAME_BARE.exec(line);
    const fn = withFn ? (withFn[1] ?? "") : "";
    const location = withFn ? withFn[2] : bare?.[1];
    const lineText = withFn ? withFn[3] : bare?.[2];
    const columnText = withFn ? withFn[4] : bare?.[3];
    if (location === undefined || lineText === undefined || columnText === undefined) continue;
    const moduleName = build ? moduleOf(build, location) : undefined;
    const mapped =
      build && moduleName ? mapPosition(build, moduleName, Number(lineText), Number(columnText)) : undefined;
    if (mapped) frames.push({ fn, file: mapped.path, line: mapped.line, column: mapped.column });
    else frames.push({ fn, file: "<runtime>", line: Number(lineText), column: Number(columnText) });
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

export function mapError(raw: RawError, build: GadgetBuild | undefined): RunErrorInfo {
  const frames = parseFrames(raw.stack, build);
  return { name: raw.name, message: raw.message, stack: formatStack(raw.name, raw.message, frames), frames };
}
