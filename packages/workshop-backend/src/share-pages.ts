/**
 * The HTML of `/s/<id>` and `/r/<id>`: the app's page with a title and link-preview tags naming the
 * gadget, so a pasted link unfurls as "echo — Gadget Workshop", from the preview kept beside each share
 * (`share-preview.ts`). Unknown and malformed ids get the same not-found response; misses are rate-limited.
 */

import { serveAsset, serveEmbedPage } from "./assets.ts";
import type { Env } from "./env.ts";
import { clientKey } from "./client-key.ts";
import { clientLinkMisses } from "./rpc/client-limits.ts";
import { countedMiss } from "./rpc/rate-limiter.ts";
import { readSharePreview } from "./rpc/share-links.ts";
import type { SharePreview } from "./share-preview.ts";
import type { ShareKind } from "./storage/share-store.ts";

// Misses are counted per client (see client-key.ts): one client's misses never refuse another's pages.
const tooManyMisses = () =>
  new Response("Too many requests for links that do not exist came from this client. Try again in a minute.", {
    status: 429,
  });

/** A link's preview, read with its miss counted before (a burst of guesses cannot pass an uncounted check). */
const countedPreview = (read: Promise<SharePreview | undefined>, client: string) =>
  countedMiss(
    read,
    (preview) => preview === undefined,
    () => clientLinkMisses.giveBack(client),
  );

export async function serveSharePage(env: Env, request: Request, kind: ShareKind, id: string): Promise<Response> {
  const assets = env.ASSETS;
  if (!assets) return new Response("Not found", { status: 404 });
  const client = clientKey(request, env);
  if (!clientLinkMisses.take(client)) return tooManyMisses();
  // Only the preview kept beside the share: a GET never reads or parses the share itself.
  const preview = await countedPreview(readSharePreview(env, kind, id), client);
  const page = await serveAsset(assets, new Request(new URL("/index.html", request.url), request));
  if (preview === undefined) {
    // The app shows its not-found page; the status tells crawlers the same.
    return new Response(page.body, { status: 404, headers: page.headers });
  }
  const { title, description } = preview;
  // Text and attribute values set through the rewriter are escaped: a gadget's name is never markup.
  return new HTMLRewriter()
    .on("title", { element: (element) => void element.setInnerContent(title) })
    .on('meta[name="description"]', { element: (element) => void element.setAttribute("content", description) })
    .on('meta[property="og:title"]', { element: (element) => void element.setAttribute("content", title) })
    .on('meta[property="og:description"]', { element: (element) => void element.setAttribute("content", description) })
    .transform(page);
}

/** `/embed/<id>`: the playground page; an unknown or malformed id is a 404 with the same page. */
export async function serveEmbed(env: Env, request: Request, id: string): Promise<Response> {
  const assets = env.ASSETS;
  if (!assets) return new Response("Not found", { status: 404 });
  const client = clientKey(request, env);
  if (!clientLinkMisses.take(client)) return tooManyMisses();
  const exists = (await countedPreview(readSharePreview(env, "snapshot", id), client)) !== undefined;
  const page = await serveEmbedPage(assets, request);
  if (exists) return page;
  return new Response(page.body, { status: 404, headers: page.headers });
}
