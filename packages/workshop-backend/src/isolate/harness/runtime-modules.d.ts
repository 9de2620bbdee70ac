/** Modules the isolate's runtime provides to the harness, as far as it uses them. */

/** workerd's AsyncLocalStorage (the `nodejs_als` compatibility flag). */
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}

/** The gadget's entry module: the Worker writes its real name in when it assembles the isolate's modules. */
declare module "gadget:entry" {
  const gadget: unknown;
  export default gadget;
}
