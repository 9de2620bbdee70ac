/**
 * The session's side of HTTP endpoints: a name a manifest picks (`triggers.http.name`) is unique across
 * the whole Workshop (the URL names no workspace), so it is claimed in the Directory before the publish
 * that takes it (and given back if that publish fails), and the endpoint a publish activates is
 * registered there; `listEndpoints` answers the
 * workspace's active endpoints with their URLs on the gadget origin.
 */

import type { AgentVersion, EndpointInfo } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import { checkManifest } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import { endpointUrl } from "../http/gadget-origin.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { claimEndpoint, endpointOwner, releaseEndpoint } from "./registry.ts";

type Store = DurableObjectStub<WorkspaceStore>;

const takenElsewhere = (name: string) =>
  `"triggers.http.name" ${JSON.stringify(name)} is taken: endpoint names are unique across the whole Workshop (the URL names no workspace). Pick another name, or leave "name" out for an unguessable endpoint.`;

/** The endpoint name the draft's saved manifest picks, if any. */
async function pickedName(store: Store, draftId: string): Promise<string | undefined> {
  const draft = await store.getDraft(draftId);
  const manifest = checkManifest(draft.files);
  return manifest.ok ? manifest.value.triggers?.http?.name : undefined;
}

/**
 * Before the tests of a publish run: refuses (NAME_TAKEN) a name another workspace holds, or another
 * agent of this one, without writing anything. Returns the name to claim once the tests pass.
 */
export async function checkEndpointName(
  env: Env,
  workspaceId: string,
  store: Store,
  draftId: string,
): Promise<string | undefined> {
  const name = await pickedName(store, draftId);
  if (name === undefined) return undefined;
  const owner = await endpointOwner(env, name);
  if (owner !== undefined && owner !== workspaceId) throw codedError("NAME_TAKEN", takenElsewhere(name));
  const problem = await store.endpointNameProblem(draftId, name);
  if (problem) throw codedError("NAME_TAKEN", problem);
  return name;
}

/**
 * Publishes with the draft's endpoint name claimed for this workspace: the name is taken right before
 * the publish (refused if another workspace took it meanwhile) and given back if the publish fails,
 * so a failed publish leaves no name taken. `name`: the tested version's, from `checkEndpointName`.
 */
export async function publishClaiming<T>(
  env: Env,
  workspaceId: string,
  store: Store,
  name: string | undefined,
  publish: () => Promise<T>,
): Promise<T> {
  if (name === undefined) return publish();
  const claimed = await claimEndpoint(env, name, workspaceId);
  if (claimed === "refused") throw codedError("NAME_TAKEN", takenElsewhere(name));
  try {
    return await publish();
  } catch (error) {
    // Only a name this publish took, and only while no agent of the workspace answers on it.
    if (claimed === "new" && !(await store.resolveEndpoint(name))) await releaseEndpoint(env, name, workspaceId);
    throw error;
  }
}

/** After the publish: its endpoint registered (an id is new at its first publish), its URL in the answer. */
export async function publishedEndpoint(
  env: Env,
  workspaceId: string,
  published: AgentVersion & { endpoint?: string },
): Promise<AgentVersion> {
  const { endpoint, ...version } = published;
  if (endpoint === undefined) return version;
  await claimEndpoint(env, endpoint, workspaceId);
  const url = endpointUrl(env, endpoint);
  return url ? { ...version, endpointUrl: url } : version;
}

/** The workspace's active endpoints; `url` is empty when this Workshop has no gadget origin. */
export async function listEndpoints(env: Env, store: Store): Promise<EndpointInfo[]> {
  const active = await store.listEndpoints();
  return active.map(({ agentId, agentName, endpoint, response }) => ({
    agentId,
    agentName,
    endpoint,
    url: endpointUrl(env, endpoint) ?? "",
    response,
  }));
}
