import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";

/** Widths as whole class names, so the stylesheet build sees them. */
const SIZES = {
  narrow: "w-[36rem]",
  medium: "w-[56rem]",
  wide: "h-[80vh] w-[72rem]",
  // A drawer from the left edge (the IDE's sidebar on a phone).
  drawer: "mr-auto h-[90vh] w-80",
} as const;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first and Shift+Tab from the first to the last: a modal keeps focus. */
function keepFocusInside(event: ReactKeyboardEvent, panel: HTMLElement | null): void {
  if (event.key !== "Tab" || !panel) return;
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.offsetParent !== null,
  );
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  // Tab in a code editor indents.
  if (active instanceof HTMLElement && active.closest(".monaco-editor")) return;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Open dialogs, the newest last: only it answers Escape and holds focus (a dialog may open another). */
const openPanels: HTMLElement[] = [];

/** Focus that lands outside the newest dialog (a click on the backdrop, a script) goes back into it. */
function holdFocus(event: FocusEvent): void {
  const panel = openPanels.at(-1);
  if (panel && event.target instanceof Node && !panel.contains(event.target)) panel.focus();
}

/**
 * A modal dialog with a title and a close button; Escape closes it. Focus moves into it when it opens
 * (to an element marked `data-autofocus`, else the dialog itself), stays inside while it is open, and goes
 * back to what had it when it closes.
 */
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
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const own = panel.current;
    if (own) openPanels.push(own);
    if (openPanels.length === 1) document.addEventListener("focusin", holdFocus);
    (own?.querySelector<HTMLElement>("[data-autofocus]") ?? own)?.focus();
    return () => {
      if (own) openPanels.splice(openPanels.indexOf(own), 1);
      if (openPanels.length === 0) document.removeEventListener("focusin", holdFocus);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // An editor inside that used the key (closing its suggestions) has prevented its default.
      if (event.key === "Escape" && !event.defaultPrevented && openPanels.at(-1) === panel.current) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40"
      data-testid={testId}
      onKeyDown={(event) => keepFocusInside(event, panel.current)}
      // A press on the backdrop would move focus to the page under it.
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) event.preventDefault();
      }}
    >
      <div
        ref={panel}
        tabIndex={-1}
        className={`flex max-h-[90vh] ${SIZES[size]} max-w-[95vw] flex-col overflow-hidden rounded-lg bg-white shadow-xl outline-none dark:bg-zinc-900`}
      >
        <div className="flex items-center border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
          <h2 id={titleId} className="font-semibold">
            {title}
          </h2>
          <button
            type="button"
            className="ml-auto min-h-6 min-w-6 rounded px-2 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={onClose}
            aria-label="Close"
          >
            ×
          </button>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the body scrolls, so the keyboard must reach it even when nothing inside is focusable (WCAG 2.1.1). */}
        <div tabIndex={0} className="min-h-0 flex-1 overflow-auto p-4 outline-sky-600 focus-visible:outline-2">
          {children}
        </div>
      </div>
    </div>
  );
}
