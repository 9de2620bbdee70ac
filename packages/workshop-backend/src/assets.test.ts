import { describe, expect, it } from "vitest";
import { serveAsset } from "./assets.ts";

/** A directory of static files, as the ASSETS binding serves them. */
function assets(files: Record<string, string>): Fetcher {
  return {
    fetch: async (input: RequestInfo | URL) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      const body = files[path];
      // A plain directory service: no content types of its own.
      const headers = { "content-type": "application/octet-stream" };
      return body === undefined ? new Response("missing", { status: 404, headers }) : new Response(body, { headers });
    },
    connect: () => {
      throw new Error("not used");
    },
  } as unknown as Fetcher;
}

const get = (path: string, acceptEncoding?: string) =>
  new Request(`http://workshop.test${path}`, acceptEncoding ? { headers: { "accept-encoding": acceptEncoding } } : {});

describe("serveAsset", () => {
  const files = assets({
    "/index.html": "<!doctype html><div id=root></div>",
    "/assets/app-abc123.js": "plain",
    "/assets/app-abc123.js.br": "brotli bytes",
    "/assets/app-abc123.js.gz": "gzip bytes",
    "/assets/only-gz-1.js": "plain",
    "/assets/only-gz-1.js.gz": "gzip bytes",
  });

  it("sends the best precompressed copy the client accepts, typed as the original, cached for good", async () => {
    const br = await serveAsset(files, get("/assets/app-abc123.js", "gzip, deflate, br, zstd"));
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(await br.text()).toBe("brotli bytes");
    expect(br.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(br.headers.get("vary")).toBe("accept-encoding");

    const gz = await serveAsset(files, get("/assets/app-abc123.js", "gzip"));
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(await gz.text()).toBe("gzip bytes");
    // "brotli" is not "br": only exact tokens count.
    expect((await serveAsset(files, get("/assets/app-abc123.js", "brotli"))).headers.get("content-encoding")).toBe(
      null,
    );
    expect(await (await serveAsset(files, get("/assets/only-gz-1.js", "br, gzip"))).text()).toBe("gzip bytes");
    const plain = await serveAsset(files, get("/assets/app-abc123.js"));
    expect(plain.headers.get("content-encoding")).toBe(null);
    expect(await plain.text()).toBe("plain");
  });

  it("answers any path that is not a page with the app's not-found page and a 404", async () => {
    for (const path of ["/s/", "/r/", "/s/abc/extra", "/nope", "/nope.txt"]) {
      const response = await serveAsset(files, get(path));
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toContain("text/html");
      expect(await response.text(), path).toContain("id=root");
    }
    expect((await serveAsset(files, get("/"))).status).toBe(200);
  });

  it("answers a missing file or a folder under /assets/ with the not-found page, never a listing", async () => {
    // As workerd's disk service does locally: a folder answers 200 with a JSON listing of its files.
    const listing = '[{"name":"app-abc123.js","type":"file"}]';
    const disk: Fetcher = {
      fetch: async (input: RequestInfo | URL) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        if (path === "/assets" || path.endsWith("/"))
          return new Response(listing, { headers: { "content-type": "application/json" } });
        return files.fetch(input instanceof Request ? input : String(input));
      },
    } as unknown as Fetcher;
    for (const path of ["/assets/", "/assets", "/assets/sub/", "/assets/sub", "/assets/gone-1.js"]) {
      const response = await serveAsset(disk, get(path, "br, gzip"));
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toContain("text/html");
      expect(await response.text(), path).toContain("id=root");
    }
    expect(await (await serveAsset(disk, get("/assets/app-abc123.js"))).text()).toBe("plain");
  });
});
