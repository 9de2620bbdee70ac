/**
 * The IDE's icons: simple 16×16 stroke drawings in the text colour, so they follow the theme.
 * Decorative: the button or link around an icon carries the name.
 */

const PATHS = {
  play: "M5 3.5v9l7-4.5z",
  stop: "M4.5 4.5h7v7h-7z",
  share:
    "M11.5 5.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM4.5 9.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM11.5 13.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM5.8 7.3l4.4-2.1M5.8 8.7l4.4 2.1",
  publish: "M8 10.5V2.5M5 5.5l3-3 3 3M3 10.5v3h10v-3",
  palette: "M2.5 3.5h11v9h-11zM4.5 6l2 2-2 2M8 10h3.5",
  keyboard: "M1.5 4.5h13v7h-13zM4 7h1M7 7h1M10 7h1M5 9.5h6",
  book: "M3 3h4a1.5 1.5 0 0 1 1 1v9a1.5 1.5 0 0 0-1-1H3zM13 3H9a1.5 1.5 0 0 0-1 1v9a1.5 1.5 0 0 1 1-1h4z",
  catalog: "M2.5 2.5h4.5v4.5H2.5zM9 2.5h4.5v4.5H9zM2.5 9h4.5v4.5H2.5zM9 9h4.5v4.5H9z",
  sun: "M8 10.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1",
  moon: "M13 9.5A5.5 5.5 0 0 1 6.5 3a5.5 5.5 0 1 0 6.5 6.5z",
  problem: "M8 2l6.5 11.5h-13zM8 6.5v3M8 11.5v.5",
  terminal: "M2.5 3h11v10h-11zM5 6.5l2 1.5-2 1.5M8.5 10h2.5",
  clear: "M3 4.5h10M6 4.5V3h4v1.5M4.5 4.5l.7 9h5.6l.7-9",
  fork: "M5 2.5v6M5 8.5a3 3 0 0 0 3 3h0a3 3 0 0 0 3-3V5.5M11 5.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zM5 13.5v-2",
  replay: "M3 8a5 5 0 1 0 1.5-3.5M3 2.5v2.5h2.5",
  merge: "M4 2.5v11M4 6c0 3 8 2 8 5.5v2M12 2.5v3",
  format: "M2.5 3.5h11M2.5 6.5h7M2.5 9.5h11M2.5 12.5h7",
  plug: "M6 2.5v3M10 2.5v3M4.5 5.5h7v2a3.5 3.5 0 0 1-7 0zM8 11v2.5",
  history: "M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.5H5M8 5v3l2 1.5",
  trace: "M2.5 4h6M4.5 8h8M3.5 12h4",
  tests: "M3 8.5l3 3 7-7",
  menu: "M2.5 4h11M2.5 8h11M2.5 12h11",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = "h-4 w-4" }: { name: IconName; className?: string }) {
  const filled = name === "play" || name === "stop";
  return (
    <svg
      viewBox="0 0 16 16"
      className={`shrink-0 ${className}`}
      aria-hidden="true"
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={filled ? 1 : 1.3}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
