import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
// Not the package's index: it re-exports modules the first paint must not bundle (see embed-controller.ts).
import { createRpcClient } from "@gadgets/workshop-shared/client";
import { EmbedApiTarget, EmbedController, LazyEmbedController } from "./embed-controller.ts";
import { serveHostApi } from "./embed-host-channel.ts";

/**
 * The embed's controller, made (with its session) only once the reader clicks or the host page first
 * calls the API; the API's handshake is answered from the start.
 */
export function useLazyEmbed(shareId: string, host: string | undefined, clickToLoad: boolean) {
  const [clicked, setClicked] = useState(!clickToLoad);
  const lazy = useMemo(() => new LazyEmbedController(() => new EmbedController(createRpcClient(), shareId)), [shareId]);
  useEffect(() => {
    const stop = serveHostApi(
      new EmbedApiTarget(() => {
        setClicked(true);
        return lazy.get();
      }),
      host,
    );
    return () => {
      stop();
      lazy.dispose();
    };
  }, [lazy, host]);
  return { controller: clicked ? lazy.get() : undefined, load: () => setClicked(true) };
}

/** The loaded embed's state: the share is read at once, and run at once with `autorun`. */
export function useEmbedState(controller: EmbedController, autorun: boolean) {
  const state = useSyncExternalStore(controller.subscribe, () => controller.state);
  useEffect(() => {
    void controller.load();
  }, [controller]);
  const snapshot = state.snapshot;
  useEffect(() => {
    if (snapshot && autorun) void controller.run(snapshot.payload).catch(() => undefined);
  }, [snapshot, autorun, controller]);
  return state;
}
