/** The part of workerd's `cloudflare:workers` module the floor uses (the bench is typed for Node). */
declare module "cloudflare:workers" {
  export interface SqlStorage {
    exec(query: string, ...bindings: (string | number | null)[]): { toArray(): Record<string, unknown>[] };
  }
  export interface DurableObjectState {
    readonly storage: { readonly sql: SqlStorage };
  }
  export class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState;
    protected readonly env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}
