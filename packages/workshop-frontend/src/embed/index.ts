/** The embeddable playground: its own entry, so the IDE's weight never reaches an embed's first paint. */
export { EmbedPage } from "./EmbedPage.tsx";
export { linkIdOf } from "../sharing/link-id.ts";
