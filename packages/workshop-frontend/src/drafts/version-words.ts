/**
 * One meaning of "version": an agent's published versions are `v1`, `v2` (and `name@2` where it is
 * called); a draft's saved revisions are `saved #7`, never `v7`, so a draft's number is not read as a
 * version that callers can pin.
 */

/** A draft's saved revision: `saved #7`. */
export const savedRevisionText = (revision: number): string => `saved #${revision}`;

/** A published version: `v3`. */
export const agentVersionText = (version: number): string => `v${version}`;

/** How callers pin a published version: `echo@3`. */
export const pinnedAgentText = (name: string, version: number): string => `${name}@${version}`;
