import { linkIdOf } from "../sharing/link-id.ts";
import { NotFound } from "./NotFound.tsx";
import { RecordPage } from "./RecordPage.tsx";
import { SharePage } from "./SharePage.tsx";
import { Workbench } from "./Workbench.tsx";

export type Route =
  | { page: "ide" }
  | { page: "share"; id: string }
  | { page: "record"; id: string }
  | { page: "not-found" };

/** Which page a path shows. Ids are checked by the server; any other path is not found. */
export function routeOf(pathname: string): Route {
  if (pathname === "/" || pathname === "/index.html") return { page: "ide" };
  const match = /^\/(s|r)\/([^/]+)\/?$/.exec(pathname);
  const id = match?.[2] === undefined ? undefined : linkIdOf(match[2]);
  if (id === undefined) return { page: "not-found" };
  return match?.[1] === "s" ? { page: "share", id } : { page: "record", id };
}

/** Whether the page needs the visitor's workspace at once (shared links do not). */
export function needsWorkspace(route: Route): boolean {
  return route.page === "ide";
}

export function AppRoutes({ route }: { route: Route }) {
  switch (route.page) {
    case "ide":
      return <Workbench />;
    case "share":
      return <SharePage shareId={route.id} />;
    case "record":
      return <RecordPage recordId={route.id} />;
    case "not-found":
      return <NotFound />;
  }
}
