/**
 * Talks to one npm registry: abbreviated packuments and tarballs, each request under its own time-out
 * and the resolution's deadline, each answer read under a byte cap counted while it streams. The token
 * (a private registry's) goes only to URLs on the registry's own origin, so a redirect elsewhere never
 * receives it. A tarball URL (a lock's `resolved`, which anyone can write by hand) is fetched only from
 * the registry's origin or the few origins the Workshop adds (its default registry): a lock never makes
 * the Workshop ask an address of its choosing. Every failure is a `PackageError` naming the package.
 */

import {
  MAX_PACKUMENT_BYTES_PER_RESOLUTION,
  MAX_REGISTRY_REDIRECTS,
  MAX_REGISTRY_RESPONSE_BYTES,
  MAX_TARBALL_BYTES,
  REGISTRY_REQUEST_TIMEOUT_MS,
} from "@gadgets/workshop-shared/limits";
import { readCappedBody } from "../capped-body.ts";
import { PackageError } from "./package-error.ts";
import { type Packument, parsePackument } from "./packument.ts";
import { packumentUrl, registryUrlProblem } from "./registry-url.ts";

/** How requests leave the Worker (locally a network service that allows loopback only when asked). */
export type RegistryFetch = (request: Request) => Promise<Response>;

export interface RegistryClientOptions {
  /** The registry's base URL, checked (`registryBase`). */
  base: string;
  /** A private registry's token, sent as `Authorization: Bearer` to the registry's origin only. */
  token?: string;
  /** Origins a tarball URL may be on besides the registry's own (the Workshop's default registry). */
  tarballOrigins?: readonly string[];
  fetch: RegistryFetch;
  /** Whether http to loopback is allowed (the Workshop's local-fetch setting). */
  allowLocal: boolean;
  /** The whole resolution's deadline: when it fires, every request in flight ends. */
  signal?: AbortSignal;
  /** One request's time-out (default REGISTRY_REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Bytes of all the packuments this client fetches (default MAX_PACKUMENT_BYTES_PER_RESOLUTION). */
  maxPackumentBytes?: number;
  maxTarballBytes?: number;
}

const ABBREVIATED = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8";

export class RegistryClient {
  readonly #options: RegistryClientOptions;
  readonly #origin: string;
  /** One resolution asks for each packument once. */
  readonly #packuments = new Map<string, Promise<Packument>>();
  #packumentBytes = 0;

  constructor(options: RegistryClientOptions) {
    this.#options = options;
    this.#origin = new URL(options.base).origin;
  }

  /** The registry's origin, as messages name it (never with the token). */
  get origin(): string {
    return this.#origin;
  }

  packument(name: string): Promise<Packument> {
    let found = this.#packuments.get(name);
    if (!found) {
      found = this.#fetchPackument(name);
      this.#packuments.set(name, found);
    }
    return found;
  }

  async #fetchPackument(name: string): Promise<Packument> {
    const url = packumentUrl(this.#options.base, name);
    const body = await this.#get(
      url,
      name,
      ABBREVIATED,
      this.#options.maxResponseBytes ?? MAX_REGISTRY_RESPONSE_BYTES,
      {
        notFound: `No package "${name}" in the registry ${this.#origin}. Check the name's spelling, or the workspace's registry setting for a private package.`,
        tooLarge: (max) => `The registry's answer for ${name} is over ${mib(max)}: it is refused.`,
      },
    );
    this.#packumentBytes += body.byteLength;
    const max = this.#options.maxPackumentBytes ?? MAX_PACKUMENT_BYTES_PER_RESOLUTION;
    if (this.#packumentBytes > max)
      throw new PackageError(
        "too-large",
        `The registry's answers for these packages come to over ${mib(max)} (the last was ${name}'s): fewer or smaller dependencies resolve.`,
        name,
      );
    return parsePackument(name, body);
  }

  /** A tarball's bytes, not yet verified (the caller checks the integrity before using any of it). */
  async tarball(url: string, name: string, version: string): Promise<Uint8Array> {
    const problem = registryUrlProblem(url, this.#options.allowLocal) ?? this.#offRegistry(url);
    if (problem) throw new PackageError("bad-package", `${name}@${version}'s tarball URL is refused: ${problem}`, name);
    return this.#get(url, name, "application/octet-stream", this.#options.maxTarballBytes ?? MAX_TARBALL_BYTES, {
      notFound: `The tarball of ${name}@${version} is gone from ${new URL(url).origin} (404).`,
      tooLarge: (max) => `The tarball of ${name}@${version} is over ${mib(max)}, the limit for one package.`,
    });
  }

  /** Why a tarball URL is not on an origin this client fetches tarballs from, or undefined when it is. */
  #offRegistry(url: string): string | undefined {
    const { origin } = new URL(url);
    if (origin === this.#origin || this.#options.tarballOrigins?.includes(origin)) return undefined;
    return `${origin} is not the workspace's registry (${this.#origin}), and tarballs are fetched only from there. Update the package to lock it again from this registry.`;
  }

  async #get(
    url: string,
    name: string,
    accept: string,
    maxBytes: number,
    words: { notFound: string; tooLarge: (max: number) => string },
  ): Promise<Uint8Array> {
    const timeoutMs = this.#options.timeoutMs ?? REGISTRY_REQUEST_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = this.#options.signal ? AbortSignal.any([this.#options.signal, timeout]) : timeout;
    const where = new URL(url).origin;
    const failed = (error: unknown): PackageError => {
      if (error instanceof PackageError) return error;
      if (this.#options.signal?.aborted)
        return new PackageError(
          "registry-timeout",
          `Fetching packages took too long: it was stopped while fetching ${name} from ${where}.`,
          name,
        );
      if (timeout.aborted)
        return new PackageError(
          "registry-timeout",
          `The registry ${where} did not answer for ${name} within ${timeoutMs / 1000} s. Try again later.`,
          name,
        );
      return new PackageError(
        "registry-unreachable",
        `The registry ${where} could not be reached for ${name}. Packages already locked keep working; try again later.`,
        name,
      );
    };
    let response: Response;
    try {
      response = await untilAborted(this.#follow(url, accept, signal, name), signal);
    } catch (error) {
      throw failed(error);
    }
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      throw new PackageError("unknown-package", words.notFound, name);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const hint =
        response.status === 401 || response.status === 403
          ? " Set the workspace's registry token (setRegistry) if this is a private registry."
          : "";
      throw new PackageError(
        "registry-unreachable",
        `The registry ${where} answered ${response.status} for ${name}.${hint}`,
        name,
      );
    }
    let body: Uint8Array | undefined;
    try {
      body = await untilAborted(readCappedBody(response, maxBytes, signal), signal);
    } catch (error) {
      throw failed(error);
    }
    if (!body) throw new PackageError("too-large", words.tooLarge(maxBytes), name);
    return body;
  }

  /**
   * Follows redirects itself (a registry may send tarballs to a file host): each hop is checked by the
   * same URL rule, and the token goes only to the registry's origin.
   */
  async #follow(url: string, accept: string, signal: AbortSignal, name: string): Promise<Response> {
    let at = url;
    for (let hop = 0; ; hop++) {
      const headers = new Headers({ accept });
      if (this.#options.token && new URL(at).origin === this.#origin)
        headers.set("authorization", `Bearer ${this.#options.token}`);
      const response = await this.#options.fetch(new Request(at, { headers, signal, redirect: "manual" }));
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return response;
      await response.body?.cancel().catch(() => {});
      const next = new URL(location, at).href;
      const problem = registryUrlProblem(next, this.#options.allowLocal);
      if (problem || hop >= MAX_REGISTRY_REDIRECTS)
        throw new PackageError(
          "registry-unreachable",
          `The registry sent the request for ${name} on to a URL the Workshop does not follow: ${problem ?? `more than ${MAX_REGISTRY_REDIRECTS} redirects`}`,
          name,
        );
      at = next;
    }
  }
}

/**
 * `work`, or a rejection as soon as `signal` aborts: the time-out holds whether or not the fetcher and the
 * body stream honour the signal themselves.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
