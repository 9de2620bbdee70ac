/**
 * Limits keyed by client (see client-key.ts), shared by every connection of this Worker isolate. Each
 * counts one client's own traffic, so one client's misses or floods never refuse another client.
 */

import {
  ANONYMOUS_RUNS_PER_CLIENT_PER_MINUTE,
  MISSES_PER_CLIENT_PER_MINUTE,
  WORKSPACES_PER_CLIENT_PER_HOUR,
} from "@gadgets/workshop-shared/limits";
import { RateLimiter } from "./rate-limiter.ts";

/** Unknown workspace tokens and API keys. */
export const clientCredentialMisses = new RateLimiter(MISSES_PER_CLIENT_PER_MINUTE);
/**
 * Unknown share and record ids, and page loads of unknown links: a budget of their own, so a page that
 * makes a visitor's browser load unknown links never refuses that visitor's token or keys.
 */
export const clientLinkMisses = new RateLimiter(MISSES_PER_CLIENT_PER_MINUTE);
/**
 * Requests to endpoints that do not exist (or are turned off): a budget of their own, so a sender's
 * stale webhooks never refuse its tokens or links, nor theirs its endpoints.
 */
export const clientEndpointMisses = new RateLimiter(MISSES_PER_CLIENT_PER_MINUTE);
export const clientAnonymousRuns = new RateLimiter(ANONYMOUS_RUNS_PER_CLIENT_PER_MINUTE);
export const clientWorkspaces = new RateLimiter(WORKSPACES_PER_CLIENT_PER_HOUR, { windowMs: 3_600_000 });

export const TOO_MANY_MISSES =
  "Too many lookups of tokens or links that do not exist came from this client. Wait a minute, then check the token or link.";

export const TOO_MANY_ENDPOINT_MISSES =
  "Too many requests to endpoints that do not exist came from this client. Wait a minute, then check the address.";
