export type * from "./api.ts";
export { MANIFEST_PATH } from "./api.ts";
export * from "./client.ts";
export * from "./embed.ts";
export * from "./errors.ts";
export * from "./console-values.ts";
export * from "./limits.ts";
export * from "./validate.ts";
