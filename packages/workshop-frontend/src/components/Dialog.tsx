import { type ReactNode, useEffect } from "react";

/** Widths as whole class names, so the stylesheet build sees them. */
const SIZES = { narrow: "w-[36rem]", medium: "w-[56rem]", wide: "h-[80vh] w-[72rem]" } as const;

/** A modal dialog with a title and a close button; Escape closes it. */
export function Dialog({
  title,
  onClose,
  testId,
  size = "narrow",
  children,
}: {
  title: string;
  onClose(): void;
  testId?: string;
  size?: keyof typeof SIZES;
  children: ReactNode;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={title}
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40"
      data-testid={testId}
    >
      <div
        className={`flex max-h-[90vh] ${SIZES[size]} max-w-[95vw] flex-col overflow-hidden rounded-lg bg-white shadow-xl dark:bg-zinc-900`}
      >
        <div className="flex items-center border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
          <h2 className="font-semibold">{title}</h2>
          <button
            type="button"
            className="ml-auto rounded px-2 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={onClose}
            aria-label="Close"
          >
            ×
          </button>
        </div>
        <div className="min-h-0 flex-1 overflow-auto p-4">{children}</div>
      </div>
    </div>
  );
}
