/**
 * Agent ids are 22 base64url characters (128 random bits), so one in 64 starts with "-" — and an
 * option parser takes `gadgets call -Xq…@2` for an unknown option. An argument of exactly that shape, in
 * a place where an option's value cannot be, is an id: the positionals are moved behind "--" (in their
 * order) so the parser takes them as such.
 */

import type { ParseArgsOptionsConfig } from "node:util";

const DASHED_ID = /^-[A-Za-z0-9_-]{21}(@\d+)?$/;

export function protectDashedIds(args: readonly string[], options: ParseArgsOptionsConfig): string[] {
  const end = args.indexOf("--");
  const head = end === -1 ? [...args] : args.slice(0, end);
  const tail = end === -1 ? [] : args.slice(end + 1);
  const takesValue = (arg: string | undefined) => {
    if (arg === undefined || !arg.startsWith("--") || arg.includes("=")) return false;
    return options[arg.slice(2)]?.type === "string";
  };
  const optionArgs: string[] = [];
  const positionals: string[] = [];
  let dashed = false;
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    if (takesValue(arg) && i + 1 < head.length) {
      optionArgs.push(arg, head[++i] as string);
    } else if (DASHED_ID.test(arg)) {
      dashed = true;
      positionals.push(arg);
    } else if (arg.startsWith("-")) optionArgs.push(arg);
    else positionals.push(arg);
  }
  if (!dashed) return [...args];
  return [...optionArgs, "--", ...positionals, ...tail];
}
