import { createRpcClient, type WorkshopClient } from "@gadgets/workshop-shared";
import { useEffect, useRef, useState } from "react";

/** A session without a workspace, for shared links: nothing is created for a visitor who only looks. */
export function usePublicClient(): WorkshopClient | undefined {
  const [client, setClient] = useState<WorkshopClient>();
  useEffect(() => {
    const next = createRpcClient();
    setClient(next);
    return () => next[Symbol.dispose]();
  }, []);
  return client;
}

export interface PublicLink<L, V> {
  /** The server-side object behind the link (a share or a record), released when the page goes. */
  link?: L;
  /** What the link holds, once read. */
  value?: V;
  /** Why it could not be opened: the same message for unknown and malformed ids. */
  missing?: string;
}

/**
 * Opens one public link (share or run record) by its id for the page's life and reads it once; a new
 * id opens a new link. `open` and `read` are taken from the render in which the id last changed.
 */
export function usePublicLink<L extends Disposable, V>(
  id: string,
  open: (client: WorkshopClient, id: string) => L,
  read: (link: L) => Promise<V>,
): PublicLink<L, V> {
  const client = usePublicClient();
  const [state, setState] = useState<PublicLink<L, V>>({});
  const opener = useRef({ open, read });
  opener.current = { open, read };
  useEffect(() => {
    if (!client) return;
    const link = opener.current.open(client, id);
    let live = true;
    setState({ link });
    opener.current
      .read(link)
      .then((value) => live && setState({ link, value }))
      .catch(
        (error: unknown) => live && setState({ link, missing: error instanceof Error ? error.message : String(error) }),
      );
    return () => {
      live = false;
      link[Symbol.dispose]();
    };
  }, [client, id]);
  return state;
}
