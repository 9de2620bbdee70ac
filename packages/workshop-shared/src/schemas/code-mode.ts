/** The code a Code Mode run is given (`Session.runCode`, the MCP `run_code` tool). */

import * as v from "valibot";
import { MAX_CODE_MODE_BYTES } from "../limits.ts";
import { byteLength } from "./json.ts";

const NOT_CODE =
  "Code Mode takes the body of an async function as a string, like 'const r = await agents.echo({ input: \"hi\" }); return r;'.";

/** The body of an async function: one gadget file's worth of text, with room for the function around it. */
export const CodeModeCodeSchema = v.pipe(
  v.string(NOT_CODE),
  v.check((code) => code.trim() !== "", NOT_CODE),
  v.check(
    (code) => byteLength(code) <= MAX_CODE_MODE_BYTES,
    (issue) =>
      `The code is ${byteLength(issue.input as string)} bytes; Code Mode takes at most ${MAX_CODE_MODE_BYTES} bytes (one gadget file, less the function it is put in).`,
  ),
);
