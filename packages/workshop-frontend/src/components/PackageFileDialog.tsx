import { useEffect, useRef, useState } from "react";
import type { StackFrame } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";
import type { PackagesView } from "../hooks/use-packages.ts";
import { Dialog } from "./Dialog.tsx";

/**
 * A file of a locked package opened from a stack frame: read-only text at the frame's line. Plain text,
 * not a second Monaco: the IDE's one editor owns every model under file:///gadget/.
 */
export function PackageFileDialog({
  frame,
  packages,
  onClose,
}: {
  frame: StackFrame;
  packages: PackagesView;
  onClose(): void;
}) {
  const [file, setFile] = useState<{ path: string; content: string } | { error: string }>();
  const { openFile } = packages;
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    openFile(frame.file).then(
      (found) => live && setFile(found),
      (error: unknown) => live && setFile({ error: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [frame.file, openFile]);
  useEffect(() => {
    if (file && "content" in file) target.current?.scrollIntoView({ block: "center" });
  }, [file]);
  return (
    <Dialog title={`${frame.file} (read-only)`} onClose={onClose} size="wide" testId="package-file">
      {!file ? (
        <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">Opening {frame.file}…</p>
      ) : "error" in file ? (
        <p className="p-4 text-sm text-red-600" role="alert">
          {file.error}
        </p>
      ) : (
        <div className="min-h-0 flex-1 overflow-auto font-mono text-xs" data-testid="package-file-text">
          {file.content.split("\n").map((text, index) => {
            const line = index + 1;
            const here = line === frame.line;
            return (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: a file's lines are its order
                key={index}
                ref={here ? target : undefined}
                aria-current={here ? "location" : undefined}
                className={`flex whitespace-pre ${here ? "bg-amber-100 dark:bg-amber-900/40" : ""}`}
              >
                <span className="w-12 shrink-0 pr-2 text-right text-zinc-600 dark:text-zinc-400 select-none">
                  {line}
                </span>
                <span>{text}</span>
              </div>
            );
          })}
        </div>
      )}
    </Dialog>
  );
}
