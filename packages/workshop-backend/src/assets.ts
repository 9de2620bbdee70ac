/**
 * Serves the web app's files. On Cloudflare the ASSETS binding does the work; locally it is a plain
 * directory service, so types, the single-page fallback and the security headers are added here —
 * the same for both, so a page behaves alike wherever it is served.
 */

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  ttf: "font/ttf",
  woff: "font/woff",
  woff2: "font/woff2",
  wasm: "application/wasm",
  map: "application/json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  // The client libraries' tarballs, for `npm i <workshop>/packages/…tgz` (apps/workshop/pack-libraries.ts).
  tgz: "application/gzip",
};

/**
 * Nothing from another origin, ever. Monaco sets inline styles and starts its workers from this
 * origin; the API session is a same-origin WebSocket.
 */
const CSP_PARTS = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];
/** IDE pages may not be framed by anyone. */
export const APP_CSP = [...CSP_PARTS, "frame-ancestors 'none'"].join("; ");
/** Embeds are made to be framed, by any site. */
export const EMBED_CSP = [...CSP_PARTS, "frame-ancestors *"].join("; ");

function withHeaders(response: Response, pathname: string, frameable = false): Response {
  const headers = new Headers(response.headers);
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase();
  const type = extension ? TYPES[extension] : undefined;
  if (type && (!headers.get("content-type") || headers.get("content-type") === "application/octet-stream"))
    headers.set("content-type", type);
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "no-referrer");
  if (type?.startsWith("text/html")) {
    headers.set("content-security-policy", frameable ? EMBED_CSP : APP_CSP);
    if (!frameable) headers.set("x-frame-options", "DENY");
    headers.set("cache-control", "no-cache");
  } else if (pathname.startsWith("/assets/")) {
    // Vite names these by content hash: they never change.
    headers.set("cache-control", "public, max-age=31536000, immutable");
  }
  return new Response(response.body, {
    status: response.status,
    headers,
    ...(headers.has("content-encoding") ? { encodeBody: "manual" as const } : {}),
  });
}

/** Precompressed siblings written at build time (`x.js.br`, `x.js.gz`), best first. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/**
 * A hashed asset in the best encoding the client accepts. The bytes are already compressed, so the
 * runtime must pass them through as they are (`encodeBody: "manual"`).
 */
async function precompressed(assets: Fetcher, request: Request, url: URL): Promise<Response | undefined> {
  if (!url.pathname.startsWith("/assets/") || (request.method !== "GET" && request.method !== "HEAD")) return undefined;
  const accepted = (request.headers.get("accept-encoding") ?? "").toLowerCase();
  for (const encoding of ENCODINGS) {
    if (!accepted.split(",").some((part) => part.trim().split(";")[0] === encoding.name)) continue;
    const sibling = await assets.fetch(new Request(new URL(url.pathname + encoding.suffix, url), request));
    if (!sibling.ok) {
      await sibling.body?.cancel();
      continue;
    }
    const headers = new Headers(sibling.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    headers.set("content-encoding", encoding.name);
    headers.set("vary", "accept-encoding");
    return new Response(sibling.body, { status: 200, headers, encodeBody: "manual" });
  }
  return undefined;
}

/**
 * Whether a path could name one of the app's files: they all have a name with an extension
 * (`index.html`, `assets/app-1a2b.js`), and the build makes no folders but `assets/` and `packages/`. A folder is never
 * asked of the binding: locally workerd's disk service would answer it with a listing of its files.
 */
function namesAFile(pathname: string): boolean {
  return pathname.slice(pathname.lastIndexOf("/") + 1).lastIndexOf(".") > 0;
}

export async function serveAsset(assets: Fetcher, request: Request): Promise<Response> {
  const url = new URL(request.url);
  // The embed page is served only under /embed/<id>, where it may be framed.
  if (url.pathname === "/embed.html") url.pathname = "/index.html";
  if (url.pathname === "/") url.pathname = "/index.html";
  if (namesAFile(url.pathname)) {
    const compressed = await precompressed(assets, request, url);
    if (compressed) return withHeaders(compressed, url.pathname);
    const response = await assets.fetch(new Request(url, request));
    if (response.status !== 404) return withHeaders(response, url.pathname);
    await response.body?.cancel();
  }
  // Any other path is not a page or file of the app: its not-found page, with the status saying so too.
  url.pathname = "/index.html";
  const page = await assets.fetch(new Request(url, request));
  return withHeaders(new Response(page.body, { status: 404, headers: page.headers }), url.pathname);
}

/** The embed page, frameable by any site. */
export async function serveEmbedPage(assets: Fetcher, request: Request): Promise<Response> {
  const response = await assets.fetch(new Request(new URL("/embed.html", request.url), request));
  return withHeaders(response, "/embed.html", true);
}
