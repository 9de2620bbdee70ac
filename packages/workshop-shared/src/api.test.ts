/** The contract's input types are inferred from the wire schemas: these pin what they came out as. */

import { describe, expectTypeOf, it } from "vitest";
import type {
  ApiKeyScope,
  CreateDraftInput,
  CreateKeyInput,
  GadgetFile,
  GadgetGrants,
  GadgetManifest,
  GadgetTriggers,
  JsonSchema,
  JsonValue,
  PublishOptions,
  RunOptions,
  SaveDraftInput,
  TestCase,
  TestExpectations,
  WorkspaceSettings,
  WorkspaceSettingsChanges,
} from "./api.ts";

describe("types inferred from the wire schemas", () => {
  it("describe a gadget as clients write it", () => {
    expectTypeOf<GadgetFile>().toEqualTypeOf<{ path: string; content: string }>();
    expectTypeOf<GadgetGrants>().toEqualTypeOf<{
      fetch?: { hosts: string[]; headers?: { [host: string]: { [header: string]: string } } | undefined } | undefined;
      kv?: boolean | undefined;
      catalog?: boolean | undefined;
      secrets?: string[] | undefined;
    }>();
    expectTypeOf<GadgetManifest>().toEqualTypeOf<{
      name: string;
      entry: string;
      description?: string | undefined;
      exampleInput?: JsonValue | undefined;
      grants: GadgetGrants;
      inputSchema?: JsonSchema | undefined;
      outputSchema?: JsonSchema | undefined;
      triggers?: GadgetTriggers | undefined;
      dependencies?: { [name: string]: string } | undefined;
    }>();
  });

  it("describe the arguments of the session's methods", () => {
    expectTypeOf<CreateDraftInput>().toEqualTypeOf<{ files: GadgetFile[] }>();
    expectTypeOf<SaveDraftInput>().toEqualTypeOf<{ baseVersion: number; files: GadgetFile[] }>();
    expectTypeOf<RunOptions>().toEqualTypeOf<{ timeoutMs?: number | undefined }>();
    expectTypeOf<PublishOptions>().toEqualTypeOf<{ overrideTests?: boolean | undefined }>();
    expectTypeOf<WorkspaceSettingsChanges>().toEqualTypeOf<{
      runTimeoutMs?: number | undefined;
      fetchHosts?: string[] | null | undefined;
    }>();
    expectTypeOf<WorkspaceSettings>().toEqualTypeOf<{ runTimeoutMs: number; fetchHosts: string[] | null }>();
    expectTypeOf<CreateKeyInput>().toEqualTypeOf<{
      name: string;
      scope: ApiKeyScope;
      agents?: string[] | null | undefined;
    }>();
  });

  it("describe a test case", () => {
    expectTypeOf<TestCase>().toEqualTypeOf<{ name: string; input: JsonValue; expect: TestExpectations }>();
    expectTypeOf<TestExpectations["outcome"]>().toEqualTypeOf<
      "ok" | "user" | "timeout" | "cpu" | "memory" | "invalid" | "cancelled" | "busy" | undefined
    >();
  });
});
