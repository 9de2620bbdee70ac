/** What the pool needs of a runner process: the host starts real ones (workerd), the unit tests fakes. */
export interface RunnerHandle {
  readonly pid: number;
  /** Resolves with the exit code or signal once the process is gone. */
  readonly exited: Promise<number | string>;
  /** Resolves once the process is gone and every line it wrote has been read: none can come after. */
  readonly closed: Promise<void>;
  alive(): boolean;
  /** Answers unless the process is blocked (a run on it spins). */
  ping(): Promise<unknown>;
  /** Its lane (see RunnerLaneApi), opened by `assign`. */
  readonly laneUrl: string;
  /** What proves its control lines are its own. */
  readonly controlNonce: string;
  /** Opens its lane to one workspace's runs, at most `maxRuns` at once in all. */
  assign(workspaceId: string, maxRuns: number): Promise<void>;
  /** Closes its lane; resolves once the runs already taken have ended. */
  close(): Promise<void>;
  /** Resident memory of the process in bytes, or undefined once it is gone. */
  rss(): number | undefined;
  /** CPU time the process has used so far (user + system), or undefined once it is gone. */
  cpuMs(): number | undefined;
  /** Sets its scheduling priority; false when the system refuses. */
  setNiceness(niceness: number): boolean;
  kill(): void;
}

/** Starts one runner; its stdout and stderr lines go to `onLine`. */
export type StartRunner = (onLine: (line: string) => void) => Promise<RunnerHandle>;
