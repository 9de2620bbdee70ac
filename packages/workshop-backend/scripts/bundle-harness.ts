/** Writes the harness text module (see harness-text.ts). Run after changing anything in `src/isolate/harness/`. */

import { writeFile } from "node:fs/promises";
import { generateHarnessText, HARNESS_TEXT_PATH } from "./harness-text.ts";

await writeFile(HARNESS_TEXT_PATH, await generateHarnessText());
