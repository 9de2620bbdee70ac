/**
 * The callback arguments of the RPC methods. Apart from `calls.ts` because their types come from the
 * contract (`api.ts`), which infers its own types from the other schemas.
 */

import type { RunEventListener, TestResultListener } from "../api.ts";
import { callbackSchema } from "./calls.ts";

export const RunEventListenerSchema = callbackSchema<RunEventListener>("onEvent");
export const TestResultListenerSchema = callbackSchema<TestResultListener>("onResult");
