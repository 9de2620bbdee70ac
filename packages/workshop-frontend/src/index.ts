/**
 * The IDE's React components and hooks. Logic lives in framework-free modules (connection, console
 * store, draft editor); the components are thin views over them.
 */
export { AppRoutes, needsWorkspace, routeOf, type Route } from "./components/AppRoutes.tsx";
export { Workbench } from "./components/Workbench.tsx";
export { WorkshopProvider, useWorkshop, useConnectionState } from "./hooks/workshop-context.tsx";
export { ConsoleStore, MAX_CONSOLE_ENTRIES } from "./console/console-store.ts";
export { decodeValue } from "./console/decode-value.ts";
export { DraftEditor } from "./drafts/draft-editor.ts";
export { WorkshopConnection } from "./connection/workshop-connection.ts";
