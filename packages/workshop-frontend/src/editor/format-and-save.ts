import type { DraftEditor } from "../drafts/draft-editor.ts";
import { formatSource } from "./format.ts";

/**
 * Ctrl+S: formats the file at `path` and saves the draft. Code Prettier cannot parse is saved as it is;
 * the returned notice says why it was not formatted.
 */
export async function formatAndSave(
  editor: Pick<DraftEditor, "file" | "update" | "saveNow">,
  path: string,
  format: (path: string, content: string) => Promise<string> = formatSource,
): Promise<string | undefined> {
  let notice: string | undefined;
  const file = editor.file(path);
  if (file) {
    try {
      editor.update(file.path, await format(file.path, file.content));
    } catch (error) {
      notice = `Not formatted: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }
  }
  await editor.saveNow();
  return notice;
}
