/**
 * Every size, count and time limit of the Workshop, in one place. Each is enforced at a boundary
 * (RPC argument validation, the isolate's console shim, storage) and tested at N and N+1.
 */

/** A run's payload, measured as JSON text. Generous for agent inputs, far below capnweb's 32 MiB message cap. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** A run's result, measured as JSON text; same reasoning as the payload. */
export const MAX_RESULT_BYTES = 1024 * 1024;
/**
 * How deep a payload or a result may nest: a value may sit inside at most this many arrays and objects.
 * Far deeper than data people send (a few levels), and well inside the 96 levels the Worker's links
 * accept (capnweb's own 256 on the pool's), with room for the message around it.
 */
export const MAX_JSON_DEPTH = 64;

/** Files in one gadget: small agents, not projects. */
export const MAX_FILES = 64;
/** One source file. */
export const MAX_FILE_BYTES = 256 * 1024;
/**
 * Code a Code Mode run takes: one gadget file less room for the function head and end it is put in
 * (`code-mode-gadget.ts`, 44 bytes), so code within it never makes a file past MAX_FILE_BYTES.
 */
export const MAX_CODE_MODE_BYTES = MAX_FILE_BYTES - 64;
/** All files of a gadget together; well below Cloudflare's 64 MiB Dynamic Worker code cap. */
export const MAX_GADGET_BYTES = 1024 * 1024;
/** A file path, including folders. */
export const MAX_PATH_LENGTH = 128;
/** Folder nesting inside a gadget. */
export const MAX_PATH_DEPTH = 4;
/** A gadget's name in its manifest. */
export const MAX_NAME_LENGTH = 64;
/** A manifest description. */
export const MAX_DESCRIPTION_LENGTH = 1000;
/** Hosts in a fetch grant. */
export const MAX_FETCH_HOSTS = 32;
/**
 * A manifest's `inputSchema` or `outputSchema`, as JSON text. Schemas people write for an agent's
 * input are a few KB; each is sent with every `describe()` and `listAgents()` and read by an LLM in
 * Code Mode's types, so a generated 1 MB schema is refused rather than carried everywhere.
 */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/**
 * How deep a schema document may nest: an object or array inside at most this many others. Half of
 * MAX_JSON_DEPTH: checking recurses through schema and value together, and hand-written schemas nest
 * a few levels per level of data.
 */
export const MAX_SCHEMA_DEPTH = 32;
/**
 * Work one check of a value against a schema may do: subschemas applied, their keywords and the
 * value's keys and items they loop over, pattern steps. It runs on the Worker's thread before and after
 * every run. An ordinary payload takes a few hundred steps; a 1 MiB payload of small objects about
 * 450,000. Measured at 0.05–0.35 µs a step, this bounds one check to about a third of a second.
 */
export const MAX_SCHEMA_CHECK_STEPS = 1_000_000;
/**
 * A string checked against a `format` (`uri`, `email`…): twice the longest URL browsers handle well, and
 * short enough that the slowest format check (`uri-reference` on a hostile string) takes under 20 ms.
 */
export const MAX_FORMAT_CHARS = 4096;
/** Problems listed when a value breaks a schema: the first few say what to fix; the rest would repeat them. */
export const MAX_SCHEMA_ERRORS = 5;

/** Ids we hand out are 22 characters (128 bits, base64url); anything longer is not ours. */
export const MAX_ID_LENGTH = 64;
/** An agent reference: an id or a name, `@`, and a version of up to 9 digits, with two characters to spare. */
export const MAX_AGENT_REF_LENGTH = Math.max(MAX_ID_LENGTH, MAX_NAME_LENGTH) + 12;
/** Workspace tokens are `gw_` + 43 characters (256 bits); API keys `gk_` + 65. */
export const MAX_TOKEN_LENGTH = 128;
/**
 * API keys per workspace: one per LLM client, backend or person it is handed to, with room to rotate.
 * Each is checked on every call of its sessions, so the list stays one a person can read and prune.
 */
export const MAX_API_KEYS_PER_WORKSPACE = 100;
/** A key's name, for people (`claude-desktop`). */
export const MAX_API_KEY_NAME_LENGTH = 64;
/** Agents one key may be limited to: a key for a few agents names them; for more, leave it open to all. */
export const MAX_AGENTS_PER_API_KEY = 50;

/** Drafts kept per workspace. */
export const MAX_DRAFTS_PER_WORKSPACE = 500;
/** Run records kept per workspace; the oldest are pruned past this. */
export const MAX_RUN_RECORDS_PER_WORKSPACE = 1000;
/** Error groups kept per workspace; the least recently seen are pruned past this. */
export const MAX_ERROR_GROUPS_PER_WORKSPACE = 500;
/** Rows returned by one list call. */
export const MAX_LIST_LIMIT = 200;

/** Default wall-clock limit of a run. */
export const DEFAULT_RUN_TIMEOUT_MS = 2000;
/** The largest wall-clock limit a caller may ask for. */
export const MAX_RUN_TIMEOUT_MS = 30_000;
/** CPU limit given to the platform for each run (enforced on Cloudflare). */
export const RUN_CPU_MS = 1000;
/**
 * Runs in flight per session. Cloudflare allows 4 Dynamic Workers in flight per request, and a
 * WebSocket session is one request.
 */
export const MAX_CONCURRENT_RUNS_PER_SESSION = 4;

/** Console events streamed per run; past it the rest are counted as dropped. */
export const MAX_EVENTS_PER_RUN = 2000;

/**
 * Past the event cap, the isolate reports its running count of dropped console calls on the first drop
 * and every this many after, so a run stopped from outside (timeout, memory, cancel) still says how much
 * it dropped, to within this many, for one small line per this many calls.
 */
export const DROPPED_TALLY_EVERY = 100;
/** Console text per run, summed over encoded values. */
export const MAX_EVENT_BYTES_PER_RUN = 2 * 1024 * 1024;
/** Events stored in a run record (the stream itself may carry more). */
export const MAX_STORED_EVENTS_PER_RUN = 1000;

/** Caps for encoding one console call's values: enough to read, never enough to hurt. */
export const CONSOLE_CAPS = {
  /** Arguments of one console call. */
  maxArgs: 32,
  /** Nesting depth of objects and arrays. */
  maxDepth: 6,
  /** Keys shown per object, entries per Map/Set, items per array. */
  maxKeys: 100,
  /** Characters kept per string. */
  maxStringLength: 10_000,
  /** Nodes encoded per console call. */
  maxNodes: 2_000,
  /** Characters of string content per console call, summed over its strings: six full strings. */
  maxCharsPerCall: 60_000,
} as const;

export type ConsoleCaps = { readonly [K in keyof typeof CONSOLE_CAPS]: number };

/**
 * `console.group` nesting a line reports. Deeper groups still open and close in step, their lines stay
 * at this depth: past it an indent only pushes the text out of view (recursion that groups, say).
 */
export const MAX_CONSOLE_GROUP_DEPTH = 32;

/**
 * What a `console.table` shows in the IDE and the terminal; the rest is counted ("… 5 more rows"). The
 * rows travel capped anyway (`CONSOLE_CAPS.maxKeys`); past 20 columns a table no longer fits a screen.
 */
export const CONSOLE_TABLE_SHOWN = { rows: 100, columns: 20 } as const;

/** Memory a run may add to its runner, as on Cloudflare (128 MB per isolate). Enforced by the local pool. */
export const RUN_MEMORY_LIMIT_BYTES = 128 * 1024 * 1024;
/**
 * Runs one workspace may have running or waiting in the local runner pool, across all its connections
 * (nested catalog runs count toward the caller's workspace). Past it, its next run ends at once as
 * `busy`: a workspace flooding the pool is refused before it can take places others need.
 */
export const POOL_RUNS_PER_WORKSPACE = 64;
/**
 * Runs the local pool holds running or waiting in all; past it a run ends at once as `busy`, so a
 * flood from many workspaces cannot take the machine either.
 */
export const POOL_MAX_RUNS = 256;
/**
 * How long a run may wait for a runner before it ends as `busy`. Waiting never counts against the
 * run's own deadline, which starts when the run starts executing.
 */
export const RUN_QUEUE_WAIT_MS = 10_000;
/**
 * Runs of one workspace a local runner executes at once. Gadgets mostly wait (fetch, kv, catalog), so
 * a few share a runner well; a spinning one stops only its own workspace's runs beside it.
 */
export const RUNS_PER_RUNNER = 4;
/** Runner processes one workspace may hold at once, so a single workspace cannot occupy the whole pool. */
export const POOL_RUNNERS_PER_WORKSPACE = 2;
/** Runs a local runner serves before it is replaced (workerd keeps 4–10 KB per request it served). */
export const RUNNER_RECYCLE_AFTER_RUNS = 5000;

/** Anonymous runs of shared gadgets per connection per minute: enough to try a link, not to farm it. */
export const ANONYMOUS_RUNS_PER_MINUTE = 20;
/**
 * Anonymous runs per minute across the whole server (per Worker isolate), so a flood from many
 * connections cannot take the machine; it counts only runs past each connection's guaranteed first
 * few (ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE), so it sheds the heaviest connections first.
 */
export const ANONYMOUS_RUNS_PER_MINUTE_GLOBAL = 300;
/** Wall-clock limit of an anonymous run; not configurable. */
export const ANONYMOUS_RUN_TIMEOUT_MS = 2000;
/** Lookups of unknown share or record ids one connection may make before it is refused further lookups. */
export const MAX_SHARE_MISSES_PER_CONNECTION = 20;
/** Shares made per connection per minute. */
export const SHARES_PER_MINUTE = 30;

/** A kv key, in bytes. */
export const KV_MAX_KEY_BYTES = 512;
/** A kv value, in bytes. */
export const KV_MAX_VALUE_BYTES = 64 * 1024;
/** Everything one gadget keeps in kv (keys, values and the per-entry overhead), in bytes. */
export const KV_MAX_TOTAL_BYTES = 1024 * 1024;
/** What each kv entry costs on top of its key and value: storage is not free per row. */
export const KV_ENTRY_OVERHEAD_BYTES = 64;
/** Keys returned by one kv.list call. */
export const KV_MAX_LIST = 1000;
/** A response body a gadget may read through fetch. */
export const MAX_FETCH_RESPONSE_BYTES = 1024 * 1024;
/** A request body a gadget may send through fetch. */
export const MAX_FETCH_REQUEST_BYTES = 1024 * 1024;
/** Redirects followed by a gadget's fetch (each hop is checked against the grant). */
export const MAX_FETCH_REDIRECTS = 5;
/** Fetches per run. */
export const MAX_FETCHES_PER_RUN = 50;
/**
 * Nested catalog calls: a run and three levels below it. Cloudflare allows 4 Dynamic Workers in flight
 * per request, and a whole call chain runs inside one.
 */
export const MAX_CATALOG_DEPTH = 3;

/** Cases in one `gadget.tests.json`: a suite a person reads in one screen, run on every publish. */
export const MAX_TEST_CASES = 50;
/** A test case's name. */
export const MAX_TEST_NAME_LENGTH = 100;
/** A `matches` pattern, in characters (the compiler refuses longer ones too: it recurses once per nesting). */
export const MAX_TEST_PATTERN_LENGTH = 200;
/** States a compiled `matches` pattern may have (repeats like `{100}` copy states); bounds match time. */
export const MAX_PATTERN_STATES = 2000;
/**
 * Work one `matches` pattern may take to compile: nodes parsed, class ranges kept, nodes emitted and
 * states added. The state cap alone misses work that adds no state (groups visited in every copy of a
 * repeat). Ordinary patterns take far less (`a{1000}b{999}`, the most states: 4,006; ten nested groups
 * repeated {1000}: 12,025); at ≈ 0.2 µs a step this bounds a compile, which runs on the Worker's thread
 * for each case and in every visitor's browser, to about 10 ms.
 */
export const MAX_PATTERN_COMPILE_STEPS = 50_000;
/**
 * Characters of a result a `matches` pattern is run on. Matching is linear (states × characters),
 * so this with MAX_PATTERN_STATES bounds one check to a few million steps.
 */
export const MAX_MATCH_SUBJECT_CHARS = 16_384;
/**
 * Work one `matches` check may do: the pattern's states times the result's characters (plus one).
 * Measured at 40–190 ns a step, this bounds a check to under ≈ 100 ms of the server's time.
 */
export const MAX_MATCH_STEPS = 500_000;
/** Differences listed per failing case; past it the case says there are more. */
export const MAX_TEST_FAILURES_PER_CASE = 20;
/**
 * Words (and the spaces and marks between them) of each side a test diff compares word by word. The
 * comparison takes their product in steps: 400 × 400 is 160,000, instant in a browser; a diff's values
 * are cut at 500 characters, so this is rarely reached. Past it the whole value is marked changed.
 */
export const MAX_WORD_DIFF_TOKENS = 400;

/**
 * Toasts the IDE shows at once. Information replaces information, so this caps the errors that wait to
 * be read: three stay readable in a corner without covering the work; a fourth pushes out the oldest.
 */
export const MAX_TOASTS = 3;
/** How long an information toast stays: long enough to read two lines and reach its copy button. */
export const TOAST_INFO_MS = 8_000;
/**
 * How long the imports must stay unchanged before the IDE asks the registry about a package they name:
 * typing `"lodash"` names "l", "lo", … on the way, and each would be a registry request (and a marker
 * offering some other package). A pause between words is longer; the quick fix is still ready by the
 * time someone reaches for Ctrl+.
 */
export const PACKAGE_LOOKUP_SETTLE_MS = 400;
/**
 * Cases of one test run in flight at once. A session has MAX_CONCURRENT_RUNS_PER_SESSION run slots;
 * this leaves the others for catalog calls the cases make and for the person's own runs.
 */
export const TEST_CONCURRENCY = 2;
/**
 * A case's result as JSON, carried in its streamed test result; a larger one is replaced by a note
 * (the case's run record keeps it whole). Keeps 50 results far below capnweb's 32 MiB message cap.
 */
export const MAX_TEST_RESULT_BYTES = 64 * 1024;
/** Test runs (runTests or a publish) in flight per session: one suite at a time per client. */
export const MAX_TEST_RUNS_PER_SESSION = 1;

/** Spans kept in one run's trace, nested agents' spans included; past it they are counted as dropped. */
export const MAX_SPANS_PER_RUN = 200;
/** A trace's size as JSON: small beside the record's events, whatever the gadget does. */
export const MAX_TRACE_BYTES = 128 * 1024;
/** Characters of one span attribute or name. */
export const MAX_SPAN_TEXT = 200;

/**
 * Folder entries the `gadgets` command line looks at while collecting a gadget's files (ignored folders
 * such as node_modules are not entered): a gadget has at most MAX_FILES files, so a folder this full is
 * the wrong folder, and stopping early beats walking a home directory.
 */
export const CLI_MAX_SCANNED_ENTRIES = 2000;
/** How long the command line waits for a Workshop to answer its first call before saying it is unreachable. */
export const CLI_CONNECT_TIMEOUT_MS = 10_000;
/** `gadgets dev` waits this long after the last file change before re-running, so one save is one run. */
export const CLI_WATCH_SETTLE_MS = 150;

// ----- Abuse limits. "Client" means the address a request came from: CF-Connecting-IP on Cloudflare; locally
// (where every client is 127.0.0.1) the address and port workerd reports, i.e. one TCP connection.

/** Lookups of unknown workspace tokens per connection; past it the connection gets no more lookups. */
export const MAX_FAILED_SESSIONS_PER_CONNECTION = 20;
/** Misses per client per minute: of unknown tokens and keys, and apart from those, of unknown share or record ids and page loads. */
export const MISSES_PER_CLIENT_PER_MINUTE = 120;
/** Anonymous runs per client per minute, whatever the number of connections it opens. */
export const ANONYMOUS_RUNS_PER_CLIENT_PER_MINUTE = 60;
/**
 * Anonymous runs of a connection that the server-wide budget never refuses: a visitor trying a link
 * always gets its first runs, and a flood is shed from the connections that already ran the most.
 */
export const ANONYMOUS_RUNS_GUARANTEED_PER_MINUTE = 5;
/** Workspaces one connection may create: enough for tests and tabs, not for a flood. */
export const MAX_WORKSPACES_PER_CONNECTION = 20;
/** Workspaces created per client per hour (a workspace costs a storage object for good). */
export const WORKSPACES_PER_CLIENT_PER_HOUR = 200;

/** Live sessions (getSession results not yet disposed) per connection: a tab needs one or two. */
export const MAX_LIVE_SESSIONS_PER_CONNECTION = 32;
/** Live agent stubs (getAgent results not yet disposed) per connection; each holds server memory. */
export const MAX_LIVE_AGENTS_PER_CONNECTION = 1000;
/**
 * Entries of one connection's Cap'n Web import and export tables: call results not yet released, calls
 * in flight, stubs either side passed (see rpc-holdings.ts). Room for the live sessions and agent stubs
 * above, open links and a few thousand calls in flight; a peer that pushes calls and never releases
 * them is refused past it, and the connection closed.
 */
export const MAX_RPC_HELD_PER_CONNECTION = 4096;
/**
 * Messages one connection sent that the server has not read yet. The server reads as fast as frames
 * arrive, so only one frame's worth waits: our own clients' frames hold at most 256 KiB, some 16,000 of
 * the smallest messages (releases).
 */
export const MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION = 20_000;
/** Share and record targets one connection holds open (`openShare`, `openRecord`): a page needs one. */
export const MAX_OPEN_LINKS_PER_CONNECTION = 64;
/** Live sessions of one workspace across all connections (per Worker isolate). */
export const MAX_LIVE_SESSIONS_PER_WORKSPACE = 128;
/**
 * Of those, the most that API keys hold together (an MCP request holds one while its run goes): the
 * rest are kept for the workspace's token, so a key's flood — a leaked key's too — never locks its
 * owner out of the IDE.
 */
export const MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE = 96;
/** Of the keys' share, the most one API key holds: a runaway client on one key leaves room for the others. */
export const MAX_LIVE_SESSIONS_PER_KEY = 64;
/** Live agent stubs of one workspace across all connections (per Worker isolate). */
export const MAX_LIVE_AGENTS_PER_WORKSPACE = 4000;

/** Catalog calls one run may make, summed over its whole call tree: each starts an isolate. */
export const MAX_CATALOG_CALLS_PER_RUN = 16;
/** Catalog calls in flight at once below one run; more are refused, not queued. */
export const MAX_CONCURRENT_CATALOG_CALLS_PER_RUN = 2;
/**
 * How long a run's end waits for its caller to take the end event (the reply of its listener). The run's
 * slot and record wait for that — a caller reading slowly is not outrun — but a listener that never
 * answers would hold them for ever.
 */
export const RUN_END_DELIVERY_MS = 5_000;
/** Runs in flight per workspace across all its connections (nested catalog runs included). */
export const MAX_CONCURRENT_RUNS_PER_WORKSPACE = 16;
/**
 * Of those, the most that API keys' sessions (MCP clients, backends) have in flight together: the rest
 * are kept for the workspace's token, so a key — a leaked one too — can never busy its owner out.
 */
export const MAX_CONCURRENT_KEY_RUNS_PER_WORKSPACE = 12;
/** Of the keys' share, the most one API key's sessions have in flight: the others keep room. */
export const MAX_CONCURRENT_RUNS_PER_KEY = 8;

/**
 * Everything one workspace stores: drafts, published versions, run records, kv, error groups and the
 * shares it made. 64 drafts of the largest gadget, or far more of the usual few-KB ones.
 */
export const WORKSPACE_QUOTA_BYTES = 64 * 1024 * 1024;
/** Run records of a workspace, in bytes: the oldest are pruned past this (records are history, not data). */
export const MAX_RUN_RECORD_BYTES_PER_WORKSPACE = 16 * 1024 * 1024;
/**
 * Of those, the records of runs anyone may start (HTTP endpoints, and the runs they call), by count and
 * by bytes: half of each. Past it their own oldest are pruned, so strangers' requests never push the
 * workspace's own runs out of its history.
 */
export const MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE = MAX_RUN_RECORDS_PER_WORKSPACE / 2;
export const MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE = MAX_RUN_RECORD_BYTES_PER_WORKSPACE / 2;
/** Free disk below which the local Workshop refuses new writes (reads keep working). */
export const MIN_FREE_DISK_BYTES = 512 * 1024 * 1024;

/**
 * The declaration of `agents` a Code Mode tool's description carries: an LLM reads it with every
 * request, so it stays a few thousand tokens; agents past it are named, untyped.
 */
export const MAX_CODE_MODE_TYPES_CHARS = 32 * 1024;
/**
 * The typed agents in a gadget's `env.catalog` declaration (the IDE's editor types, the CLI's
 * `gadget-env.d.ts`): the editor's TypeScript worker checks it again with every change to it, so it
 * stays well under the size of the lib files it already reads; 64 large schemas (4 KiB of type text
 * each) or hundreds of usual ones fit, and agents past it are named, typed loosely.
 */
export const MAX_CATALOG_TYPES_CHARS = 256 * 1024;
/**
 * How long a request body (an endpoint's, an MCP message) may take to arrive once its headers have: a
 * sender that trickles it would hold the Worker's memory for it. A webhook's 512 KiB body at 64 KiB/s fits.
 */
export const REQUEST_BODY_READ_MS = 10_000;
/** An MCP request body: a 1 MiB payload (`MAX_PAYLOAD_BYTES`) as JSON-RPC, escaped, with room to spare. */
export const MAX_MCP_BODY_BYTES = 2 * 1024 * 1024 + 64 * 1024;
/**
 * JSON-RPC messages in one MCP batch (the current MCP revision sends none; older clients may). Each
 * `tools/call` in it is a run, held to the workspace's run caps anyway.
 */
export const MAX_MCP_BATCH_MESSAGES = 16;
/** Console lines a `tools/call` answer summarises in its text (all of them were streamed as they came). */
export const MAX_MCP_SUMMARY_LINES = 50;
/** Characters of console text in that summary. */
export const MAX_MCP_SUMMARY_CHARS = 8 * 1024;

/** Secrets of one workspace: API keys and tokens for the services its agents call, not a database. */
export const MAX_SECRETS_PER_WORKSPACE = 100;
/** One secret's value: a token, a PEM private key or a service account's JSON fit. */
export const MAX_SECRET_BYTES = 8 * 1024;
/**
 * The shortest value a secret may have. Every secret is redacted from run output wherever it (or an
 * encoding of it) appears: a shorter value would blank ordinary text that happens to hold those few
 * characters, and could be guessed anyway. Real tokens are far longer.
 */
export const MIN_SECRET_BYTES = 8;
/** Secret names a manifest may grant (as `env.secrets`, or in fetch headers). */
export const MAX_SECRET_GRANTS = 32;
/** Headers a fetch grant may add to requests for one host. */
export const MAX_INJECTED_HEADERS_PER_HOST = 8;
/** Schedules one agent may declare. */
export const MAX_SCHEDULES_PER_AGENT = 8;
/**
 * The shortest `every` interval: cron's own grain. A schedule is for periodic work (a digest, a sync, a
 * check), not a loop; a gadget that must react faster wants an HTTP endpoint. A test server lowers it
 * (`MIN_SCHEDULE_INTERVAL_MS` Worker var), never below `MIN_SCHEDULE_INTERVAL_FLOOR_MS`.
 */
export const MIN_SCHEDULE_INTERVAL_MS = 60_000;
/** The least a test server may lower the minimum interval to: one alarm a second per workspace is already busy. */
export const MIN_SCHEDULE_INTERVAL_FLOOR_MS = 1000;
/** The longest `every` interval: a year. Anything rarer is a date, better written as a cron expression. */
export const MAX_SCHEDULE_INTERVAL_MS = 366 * 24 * 60 * 60 * 1000;
/** A cron expression's length: five fields with lists fit easily; the bound keeps parsing cheap. */
export const MAX_CRON_EXPRESSION_LENGTH = 200;
/**
 * Firings of one workspace's schedules running at once. Thousands due in the same minute go through a
 * few at a time, so one workspace's burst keeps no runner slot of others (the pool gives turns) and
 * leaves most of the workspace's own run cap (MAX_CONCURRENT_RUNS_PER_WORKSPACE) to its sessions.
 */
export const MAX_CONCURRENT_SCHEDULE_RUNS_PER_WORKSPACE = 8;
/**
 * Runs (catalog calls included) that a workspace's schedule firings have in flight together. They start
 * in the workspace's storage object, and Cloudflare allows 10 Dynamic Workers in flight per object.
 */
export const MAX_SCHEDULE_RUNS_IN_FLIGHT_PER_WORKSPACE = 10;

// ----- HTTP endpoints of published agents (`triggers.http`): `/h/<endpoint>/…` on the gadget origin.

/**
 * Runs of one workspace's endpoints at once: anyone may call an endpoint, so their runs get half of the
 * workspace's run cap (MAX_CONCURRENT_RUNS_PER_WORKSPACE), the rest kept for its own sessions and schedules.
 */
export const MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE = 8;

/**
 * A request body an endpoint accepts. The run's payload (MAX_PAYLOAD_BYTES as JSON) must hold the body
 * with its method, path, query and headers, and JSON escapes can nearly double a text body: half leaves
 * that room. Webhook deliveries (GitHub caps theirs at 25 MB, most send a few KB) and form posts fit.
 */
export const MAX_ENDPOINT_BODY_BYTES = 512 * 1024;
/**
 * Requests one endpoint takes per minute (per Worker isolate), from all clients together: each is a run
 * charged to its owner, and a flood of them must not take the owner's whole run cap for long.
 */
export const ENDPOINT_REQUESTS_PER_MINUTE = 300;
/**
 * Requests one client sends one endpoint per minute: a webhook sender or a polling script stays far
 * below it, and one noisy client leaves the endpoint's own budget to the others.
 */
export const ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE = 60;
/** Headers a "full" response may set: what an API answers with, not a way to ship data. */
export const MAX_ENDPOINT_RESPONSE_HEADERS = 32;
/** One response header value of a "full" response (a long CSP or Link header fits). */
export const MAX_ENDPOINT_HEADER_VALUE_CHARS = 8 * 1024;
/**
 * Endpoint names one workspace holds. A name is unique across the whole Workshop and stays with the
 * workspace that first published it, so a workspace cannot squat on many.
 */
export const MAX_ENDPOINT_NAMES_PER_WORKSPACE = 32;

// ----- npm packages (`dependencies` in gadget.json, locked in gadget.lock.json).

/** Packages `dependencies` may name directly: a gadget is small; a real one uses a handful. */
export const MAX_DIRECT_DEPENDENCIES = 32;
/**
 * Packages in one locked tree, transitive ones included. Most libraries a Worker uses bring 0–30; 200
 * leaves room for an SDK with a wide tree while keeping one resolution's registry calls bounded.
 */
export const MAX_LOCKED_PACKAGES = 200;
/**
 * Characters of one semver range, gadget.json's or one a package's manifest declares. Real ones are tens
 * of characters; matching costs a range's comparators times the versions it is checked against, and a
 * registry's `a || b || …` of thousands would hold the Worker's CPU for seconds (semver caps a version
 * at 256 too).
 */
export const MAX_VERSION_RANGE_CHARS = 256;
/** How deep a dependency chain may go (gadget → a → b → …): deeper trees are a sign of a loop or a mistake. */
export const MAX_DEPENDENCY_DEPTH = 16;
/**
 * Bytes of one package once unpacked. The largest libraries a gadget would use (typescript aside) stay
 * below 8 MiB unpacked; 16 MiB keeps a tarball bomb from filling the store.
 */
export const MAX_PACKAGE_UNPACKED_BYTES = 16 * 1024 * 1024;
/** Bytes of a whole locked tree unpacked: within what one Dynamic Worker may load (64 MiB), with room. */
export const MAX_TREE_UNPACKED_BYTES = 48 * 1024 * 1024;
/** Files in one package (zod ships ~700, date-fns ~2,000 per format; 4,000 leaves room). */
export const MAX_PACKAGE_FILES = 4000;
/**
 * Characters of one path inside a package: a PAX header may carry megabytes, and each path is a stored
 * row's key (rows hold 2 MB). Real packages stay under 200; 1,024 is far past any of them.
 */
export const MAX_PACKAGE_PATH_CHARS = 1024;
/** Characters of the names of one package's binary files, kept together in its summary row (rows hold 2 MB). */
export const MAX_PACKAGE_BINARY_NAME_CHARS = 256 * 1024;
/** Compressed bytes of one tarball, checked while it downloads. */
export const MAX_TARBALL_BYTES = 8 * 1024 * 1024;
/**
 * Bytes of one registry answer (a packument). Abbreviated packuments of popular packages are 0.1–3 MiB;
 * a full one can be tens of MiB, so the abbreviated form is asked for and anything larger is refused.
 */
export const MAX_REGISTRY_RESPONSE_BYTES = 8 * 1024 * 1024;
/**
 * Bytes of all the packuments one resolution fetches: a registry answering every one of a lock's
 * packages near the cap above would otherwise hold gigabytes; real resolutions of 200 packages use a
 * fraction of this.
 */
export const MAX_PACKUMENT_BYTES_PER_RESOLUTION = 64 * 1024 * 1024;
/** One registry request (packument or tarball) before it counts as unreachable. */
export const REGISTRY_REQUEST_TIMEOUT_MS = 10_000;
/** A whole resolution of a tree, every request included: a save never waits longer than this. */
export const RESOLVE_TIMEOUT_MS = 30_000;
/** Resolutions one workspace may run at once: a huge tree of one workspace never queues another's. */
export const MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE = 2;
/**
 * Reads of one package a workspace may run at once (a version lookup, a file for the editor): each may
 * fetch up to 8 MiB; 8 serve an editor opening files while keeping one client from holding the isolate's memory.
 */
export const MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE = 8;
/**
 * Characters of a package's source map the stack mapper parses. Decoded mappings take about 20 times
 * their text in memory (a 16 MiB map ~360 MB), past a Worker's 128 MB; real maps of a module are well
 * under 1 MiB. A larger one is left unread: frames keep the package file's own line and column.
 */
export const MAX_PACKAGE_SOURCE_MAP_CHARS = 1024 * 1024;
/**
 * Unpacked bytes of packages the store keeps in each of its 16 shared shards (the Workshop's default
 * registry, stored once for every workspace): 2 GiB in all. A commit past it drops the shard's least
 * recently used packages, fetched again (and verified again) when a run next needs them, so workspaces
 * resolving ever more packages cannot fill the disk that every workspace writes to. Holds 8 of the
 * largest packages (MAX_PACKAGE_UNPACKED_BYTES); a workspace's own-registry packages count in its quota.
 */
export const SHARED_PACKAGE_SHARD_BYTES = 128 * 1024 * 1024;
/**
 * Free disk the shared package store leaves above the disk guard's floor: packages no workspace is
 * charged for stop being written while this much is still free for workspaces' own data, so one
 * workspace resolving package after package can never bring everyone's writes to the floor.
 */
export const SHARED_PACKAGE_DISK_HEADROOM_BYTES = 1024 * 1024 * 1024;
/** Declaration bytes `packageTypes` sends the editor for one tree. */
export const MAX_PACKAGE_TYPES_BYTES = 8 * 1024 * 1024;
/** Redirects one registry request may follow: a registry that hands tarballs to a file host takes one. */
export const MAX_REGISTRY_REDIRECTS = 3;
/**
 * Tarballs one resolution fetches at once: enough to overlap round trips to the registry, few enough
 * that a wide tree never holds many 8 MiB downloads in the Worker's memory together.
 */
export const MAX_CONCURRENT_TARBALL_FETCHES = 6;

/**
 * Packuments one resolution fetches at once: a level of a wide tree asks for dozens together, and each
 * answer may be up to 8 MiB; 8 overlap round trips without holding many of those in memory at once.
 */
export const MAX_CONCURRENT_PACKUMENT_FETCHES = 8;
