import { useCallback, useSyncExternalStore } from "react";
import { type Notice, pageToasts, type Toast } from "../toasts/toast-store.ts";
import { CopyButton } from "./CopyButton.tsx";

/**
 * What the page's parts call to tell the person something (`toasts/toast-store.ts`). A plain string is
 * an error (what most notices are: why something could not be done); `undefined` says nothing.
 */
export function useNotify(): (notice: Notice | string | undefined) => void {
  return useCallback((notice) => {
    if (notice === undefined) return;
    pageToasts.show(typeof notice === "string" ? { tone: "error", text: notice } : notice);
  }, []);
}

function ToastView({ toast }: { toast: Toast }) {
  const error = toast.tone === "error";
  return (
    <div
      className={`pointer-events-auto flex max-w-md items-start gap-2 rounded border px-3 py-2 text-sm shadow-lg ${
        error
          ? "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50"
          : "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50"
      }`}
      role={error ? "alert" : "status"}
      data-testid="notice"
      data-tone={toast.tone}
    >
      <span className="min-w-0 flex-1 break-words">
        {toast.text}
        {toast.link && (
          <>
            {" "}
            <a
              href={toast.link}
              target="_blank"
              rel="noopener"
              className="break-all underline"
              data-testid="notice-link"
            >
              {toast.link}
            </a>
          </>
        )}
      </span>
      {toast.link && <CopyButton text={toast.link} what="the link" />}
      <button
        type="button"
        className="-my-0.5 min-h-6 min-w-6 rounded hover:bg-black/10 dark:hover:bg-white/10"
        onClick={() => pageToasts.dismiss(toast.id)}
        aria-label="Dismiss"
      >
        ×
      </button>
    </div>
  );
}

/** The page's one toast region, in a corner: notices never push the work down. */
export function Toasts() {
  const toasts = useSyncExternalStore(pageToasts.subscribe, () => pageToasts.toasts);
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      className="pointer-events-none fixed right-3 bottom-8 z-40 flex flex-col items-end gap-2"
      data-testid="toasts"
    >
      {toasts.map((toast) => (
        <ToastView key={toast.id} toast={toast} />
      ))}
    </section>
  );
}
