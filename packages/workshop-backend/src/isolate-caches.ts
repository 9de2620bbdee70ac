/**
 * What the Worker isolate's caches may hold, in one place. A Workers isolate has 128 MB; together these
 * keep to half of it, leaving the rest to the requests in flight. Each value is held by one cache
 * only — a prepared run refers to its build by key, and the in-process executor keeps no code of its
 * own — so the shares add up to what the caches can hold at most.
 */

const MiB = 1024 * 1024;

/**
 * Bytes a parsed JSON value holds per character of its text, as counted: V8 keeps strings of other
 * than Latin-1 text at two bytes a character, and every object and array costs tens of bytes beside
 * its text (a payload like `[{},{},…]` holds far more than its characters).
 */
export const PARSED_PER_CHAR = 4;

/** Built gadgets (their modules, UTF-16): a few with large packages, or thousands of the usual. */
export const BUILD_CACHE_BYTES = 32 * MiB;
/** Checked manifests of prepared immutable code (counted as parsed JSON), beside their builds' keys. */
export const PREPARED_MANIFEST_BYTES = 4 * MiB;
/**
 * Published versions' files, read once per isolate (versions never change) for RPC calls and HTTP
 * endpoints alike: six of the largest gadgets (UTF-16), hundreds of the usual.
 */
export const AGENT_VERSION_CACHE_BYTES = 12 * MiB;
/**
 * Parsed shares and records (counted at four bytes per stored character), shared by every connection:
 * a link opened many times is held once. One of the largest records, hundreds of usual ones.
 */
export const LINK_CACHE_BYTES = 16 * MiB;
