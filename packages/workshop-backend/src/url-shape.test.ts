import type { RunEvent, RunTrace } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { fetchLineShape, isReadableSegment, pathShape, shapeRecordedFetches, urlShape } from "./url-shape.ts";

describe("urlShape", () => {
  it("masks a Telegram bot token and keeps the method name after it", () => {
    expect(urlShape("https://api.telegram.org/bot123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11/sendMessage")).toBe(
      "https://api.telegram.org/{…}/sendMessage",
    );
  });

  it("masks every part of a Slack webhook after /services", () => {
    expect(urlShape("https://hooks.slack.com/services/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")).toBe(
      "https://hooks.slack.com/services/{…}/{…}/{…}",
    );
    expect(urlShape("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX")).toBe(
      "https://hooks.slack.com/services/{…}/{…}/{…}",
    );
  });

  it("masks a Discord webhook's id and token", () => {
    expect(
      urlShape(
        "https://discord.com/api/webhooks/123456789012345678/abcdefGHIJKL_mnopqrstu-VWXYZ0123456789abcdefGHIJKLmnopqrstuVWXYZ01234567",
      ),
    ).toBe("https://discord.com/api/webhooks/{…}/{…}");
  });

  it("keeps API paths made of names and small numbers readable", () => {
    expect(urlShape("https://api.github.com/repos/owner/name/issues")).toBe(
      "https://api.github.com/repos/owner/name/issues",
    );
    expect(urlShape("https://api.github.com/repos/octocat/Hello-World/issues/42/comments")).toBe(
      "https://api.github.com/repos/octocat/Hello-World/issues/42/comments",
    );
    expect(urlShape("https://api.openai.com/v1/chat/completions")).toBe("https://api.openai.com/v1/chat/completions");
    expect(urlShape("https://example.com/api/2024-06-01/getUpdates/README.md")).toBe(
      "https://example.com/api/2024-06-01/getUpdates/README.md",
    );
  });

  it("masks uuids, hex digests, long numbers and long tokens", () => {
    expect(pathShape("/items/550e8400-e29b-41d4-a716-446655440000")).toBe("/items/{…}");
    expect(pathShape("/blobs/d41d8cd98f00b204e9800998ecf8427e")).toBe("/blobs/{…}");
    expect(pathShape("/users/1234567")).toBe("/users/{…}");
    expect(pathShape("/key/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc")).toBe("/key/{…}");
    expect(pathShape("/t/abc%20def")).toBe("/t/{…}");
  });

  it("keeps a segment of 32 characters that reads as words and masks one of 33", () => {
    const at = "how-to-build-a-gadget-in-minutes";
    expect(at).toHaveLength(32);
    expect(isReadableSegment(at)).toBe(true);
    expect(isReadableSegment(`${at}s`)).toBe(false);
  });

  it("allows two digits in a lowercase word and masks a third", () => {
    expect(isReadableSegment("oauth2")).toBe(true);
    expect(isReadableSegment("v1beta1")).toBe(true);
    expect(isReadableSegment("abc123")).toBe(false);
    expect(isReadableSegment("123456")).toBe(true);
  });

  it("keeps the origin, drops credentials and the fragment, and marks a query without its values", () => {
    expect(urlShape("https://user:pw@api.example.com:8443/data?key=s3cret#frag")).toBe(
      "https://api.example.com:8443/data?…",
    );
    expect(urlShape("not a url")).toBeUndefined();
  });

  it("is idempotent: a shaped URL shapes to itself", () => {
    const once = urlShape("https://discord.com/api/webhooks/123456789012345678/tokenTOKEN_0123456789abcdefXYZ") ?? "";
    expect(urlShape(once)).toBe(once);
  });
});

describe("fetchLineShape", () => {
  it("shapes the URL of a trace line and keeps what follows it", () => {
    expect(fetchLineShape("POST https://api.telegram.org/bot1:AAHdqTcvCH1vGWJx/sendMessage → 200, 12 bytes")).toBe(
      "POST https://api.telegram.org/{…}/sendMessage → 200, 12 bytes",
    );
    expect(fetchLineShape("GET (invalid URL) — Invalid URL")).toBe("GET (invalid URL) — Invalid URL");
  });
});

describe("shapeRecordedFetches", () => {
  it("shapes the fetch lines and spans of a run recorded with whole paths, and leaves the rest", () => {
    const raw = "https://hooks.slack.com/services/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";
    const events: RunEvent[] = [
      {
        type: "trace",
        runId: "r",
        seq: 1,
        t: 0,
        capability: "fetch",
        summary: `POST ${raw} → 200, 2 bytes`,
        ok: true,
        ms: 3,
      },
      { type: "trace", runId: "r", seq: 2, t: 0, capability: "kv", summary: 'kv.get("a/b1234567")', ok: true, ms: 1 },
    ];
    const trace: RunTrace = {
      startedAt: 0,
      droppedSpans: 0,
      spans: [
        { spanId: "a", kind: "run", name: "run x", startMs: 0, durationMs: 1, ok: true, attributes: {} },
        {
          spanId: "b",
          parentId: "a",
          kind: "fetch",
          name: `POST ${raw} → 200, 2 bytes`,
          startMs: 0,
          durationMs: 1,
          ok: true,
          attributes: { "url.path": new URL(raw).pathname, "server.address": "hooks.slack.com" },
        },
      ],
    };
    const shaped = shapeRecordedFetches(events, trace);
    expect(JSON.stringify(shaped)).not.toContain("BvbWdtdl");
    expect(shaped.events[0]).toMatchObject({
      summary: "POST https://hooks.slack.com/services/{…}/{…}/{…} → 200, 2 bytes",
    });
    expect(shaped.events[1]).toEqual(events[1]);
    expect(shaped.trace?.spans[1]?.attributes).toEqual({
      "url.path": "/services/{…}/{…}/{…}",
      "server.address": "hooks.slack.com",
    });
    expect(shaped.trace?.spans[0]).toEqual(trace.spans[0]);
  });
});
