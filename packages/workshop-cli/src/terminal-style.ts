/**
 * Colours for a terminal, only where they help: on when the stream is a TTY, off with NO_COLOR or
 * --no-color, forced with FORCE_COLOR or --color (for CI logs that render ANSI).
 */

import { styleText } from "node:util";

type Style = Parameters<typeof styleText>[0];

export interface Painter {
  readonly enabled: boolean;
  paint(style: Style, text: string): string;
}

export function colorsWanted(stream: { isTTY?: boolean }, flag: boolean | undefined, env = process.env): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

export function painter(enabled: boolean): Painter {
  return {
    enabled,
    paint: (style, text) => (enabled ? styleText(style, text, { validateStream: false }) : text),
  };
}
