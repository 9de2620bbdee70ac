/**
 * CORS for `/mcp`, for a browser MCP client on an origin the Workshop allows (its own, or one in
 * ALLOWED_ORIGINS; others are refused before this). The API key travels in Authorization, never in a
 * cookie, so the origin is named and credentials are never allowed.
 */

/** What a browser client sends besides the simple headers (Streamable HTTP's own included). */
const REQUEST_HEADERS = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID";
/** What its script may read of an answer: the refusal's reason and the SDK's headers. */
const EXPOSED_HEADERS = "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version";

/** The answer to a preflight from `origin`: POST is the endpoint's only method. */
export function preflightResponse(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers": REQUEST_HEADERS,
      "Access-Control-Max-Age": "600",
      Vary: "Origin",
    },
  });
}

/** `response` readable by a script on `origin` (a copy: a response's headers may be immutable). */
export function withCors(response: Response, origin: string): Response {
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  headers.append("Vary", "Origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
