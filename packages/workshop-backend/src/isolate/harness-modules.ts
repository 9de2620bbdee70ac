/**
 * The harness modules every gadget's isolate loads beside the gadget's own: their text is bundled from
 * `harness/` into `harness-text.generated.ts` (see `scripts/harness-text.ts`), since an isolate can
 * only load modules as strings.
 */

import { GADGET_ENTRY_SPECIFIER, HARNESS_CONSOLE_MODULE, HARNESS_MODULE } from "./harness/contract.ts";
import { CONSOLE_MODULE_TEXT, HARNESS_MODULE_TEXT } from "./harness-text.generated.ts";

export { HARNESS_DIGEST } from "./harness-text.generated.ts";

// The harness module names the gadget's entry exactly once (the bundle script checks it).
const ENTRY_IMPORT = JSON.stringify(GADGET_ENTRY_SPECIFIER);
const entryAt = HARNESS_MODULE_TEXT.indexOf(ENTRY_IMPORT);
const beforeEntry = HARNESS_MODULE_TEXT.slice(0, entryAt);
const afterEntry = HARNESS_MODULE_TEXT.slice(entryAt + ENTRY_IMPORT.length);

/** The harness's modules, by name, for a gadget whose entry module is `entryModule`. */
export function harnessModules(entryModule: string): Record<string, string> {
  return {
    [HARNESS_CONSOLE_MODULE]: CONSOLE_MODULE_TEXT,
    [HARNESS_MODULE]: beforeEntry + JSON.stringify(`./${entryModule}`) + afterEntry,
  };
}
