import { gadgetFiles, withWorkspace } from "./api-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.describe("compressed assets", () => {
  test("hashed files go out precompressed (brotli or gzip, as accepted) with long-lived cache headers", async ({
    request,
  }) => {
    const html = await (await request.get("/")).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const path = script ?? "";
    const identity = await request.get(path, { headers: { "accept-encoding": "identity" } });
    expect(identity.headers()["content-encoding"]).toBeUndefined();
    const plain = await identity.body();

    for (const encoding of ["br", "gzip"]) {
      const response = await request.get(path, { headers: { "accept-encoding": encoding } });
      expect(response.status()).toBe(200);
      expect(response.headers()["content-encoding"]).toBe(encoding);
      expect(response.headers()["content-type"]).toContain("text/javascript");
      expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.headers().vary).toContain("accept-encoding");
      // The client decodes it to the very same file.
      expect((await response.body()).equals(plain)).toBe(true);
    }
    // Pages are not cached: a new build must be picked up at once.
    expect((await request.get("/")).headers()["cache-control"]).toBe("no-cache");
  });

  test("a browser receives the embed's first paint compressed, under 100 KB", async ({ page }) => {
    const shareId = await withWorkspace(async (session) => {
      const draft = await session.createDraft({
        files: gadgetFiles("small", "export default { async run() { return 1; } };"),
      });
      return (await session.shareDraft(draft.id, null)).shareId;
    });
    const encodings: string[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") encodings.push(response.headers()["content-encoding"] ?? "");
    });
    await page.goto(`/embed/${shareId}?ctl=1`);
    await expect(page.getByRole("button", { name: /Click to load/ })).toBeVisible();
    await page.waitForLoadState("networkidle");
    // The embed is built apart from the IDE: its first paint is one script, and no editor.
    expect(encodings.length).toBe(1);
    expect(encodings.every((encoding) => encoding === "br")).toBe(true);
    const transferred = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter(
          (entry) => (entry as PerformanceResourceTiming).initiatorType === "script" || entry.name.endsWith(".js"),
        )
        .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
    );
    expect(transferred).toBeGreaterThan(0);
    expect(transferred).toBeLessThanOrEqual(100 * 1024);
  });
});
