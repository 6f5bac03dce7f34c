/**
 * The pages the front-end benchmark weighs, as a consumer writes them: the same page (list events
 * with `useQuery`, create one with `useMutation`, the list invalidated by the create) on our
 * generated options and on each peer's API layer; ours with more operations; and pages that
 * import validators from `./validators`.
 */
import { relative } from "node:path";
import type { PeerSources } from "./peers.js";

export const NAME = "workforce-scheduling-api";

const REACT = `import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createElement } from "react";`;

/** One operation of ours in the page: a hook whose options come from the generated entry. */
export interface Operation {
  readonly name: string;
  readonly kind: "query" | "mutation";
  /** the variables a mutation is called with */
  readonly input?: string;
}

const EVENT = `{ name: "Launch", date: "2027-05-01", venue: { name: "Pier 4" } }`;

/** The page's two operations. */
export const TWO: readonly Operation[] = [
  { name: "listEvents", kind: "query" },
  { name: "createEvent", kind: "mutation", input: `{ body: ${EVENT} }` },
];

/** Every other operation of the spec, so the page holds all nine. */
export const MORE: readonly Operation[] = [
  { name: "listWageRules", kind: "query" },
  {
    name: "updateEvent",
    kind: "mutation",
    input: `{ path: { id: "1" }, body: { name: "Gala", date: "2027-05-02", venue: { name: "Hall" } } }`,
  },
  {
    name: "createVenue",
    kind: "mutation",
    input: `{ body: { name: "Hall", address: "1 Road", city: "Bristol", zip: "BS1" } }`,
  },
  { name: "createPayrollGroup", kind: "mutation", input: `{ body: { name: "Crew", wage_rules_id: 1 } }` },
  { name: "updateClient", kind: "mutation", input: `{ path: { id: "1" }, body: { name: "Acme" } }` },
  { name: "addWorkerCredential", kind: "mutation", input: `{ path: { id: "1" }, body: { credentials_id: 1 } }` },
  { name: "addWorkerDocument", kind: "mutation", input: `{ path: { id: "1" }, body: { file: new Blob(["x"]) } }` },
];

/**
 * Our page: one client, one hook per operation, each from the generated options. The client is
 * `createBaseClient`'s, as the guide advises for a page (`createClient`'s methods name every
 * operation, so it bundles them all).
 */
export function ourPage(operations: readonly Operation[], factory = "createBaseClient"): string {
  const options = operations.map((op) => `${op.name}${op.kind === "query" ? "QueryOptions" : "MutationOptions"}`);
  const hooks = operations.map((op, i) =>
    op.kind === "query"
      ? `  const q${i} = useQuery(${options[i]}(client));`
      : `  const m${i} = useMutation(${options[i]}(client));`,
  );
  const shown = operations.map((op, i) => (op.kind === "query" ? `String(q${i}.data)` : `String(m${i}.status)`));
  const buttons = operations.flatMap((op, i) =>
    op.kind === "mutation" ? [`createElement("button", { onClick: () => m${i}.mutate(${op.input}) }, "go")`] : [],
  );
  return `${REACT}
import { ${factory} } from "${NAME}";
import { ${options.join(", ")} } from "${NAME}/query";

const client = ${factory}({ baseUrl: "/api/1_12", apiKey: "demo-key" });

export function Page() {
${hooks.join("\n")}
  return createElement("div", null, ${[...shown, ...buttons].join(", ")});
}
`;
}

/** The page's body on a peer: the list, the create, and the create's button. */
function peerBody(query: string, mutation: string, variables: string): string {
  return `export function Page() {
  const queryClient = useQueryClient();
  const q0 = ${query};
  const m1 = ${mutation};
  return createElement("div", null, String(q0.data), String(m1.status), createElement("button", { onClick: () => m1.mutate(${variables}) }, "go"));
}
`;
}

/** The page on openapi-fetch + openapi-react-query; its invalidation is written by hand. */
export const OPENAPI_REACT_QUERY_PAGE = `${REACT}
import createFetchClient from "openapi-fetch";
import createQueryHooks from "openapi-react-query";

const fetchClient = createFetchClient({ baseUrl: "/api/1_12", headers: { "X-API-KEY": "demo-key" } });
const $api = createQueryHooks(fetchClient);

${peerBody(
  `$api.useQuery("get", "/events")`,
  `$api.useMutation("post", "/events", {
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["get", "/events"] }),
  })`,
  `{ body: ${EVENT} }`,
)}`;

/** A module specifier of `target` from a page written in `dir`. */
function from(dir: string, target: string): string {
  const path = relative(dir, target).replace(/\.ts$/, "");
  return path.startsWith(".") ? path : `./${path}`;
}

/** The page on hey-api's fetch client and TanStack Query plugin; its invalidation is written by hand. */
export function heyApiPage(dir: string, peers: PeerSources): string {
  return `${REACT}
import { client } from "${from(dir, `${peers.heyApi}/client.gen`)}";
import { createEventMutation, listEventsOptions, listEventsQueryKey } from "${from(dir, `${peers.heyApi}/@tanstack/react-query.gen`)}";

client.setConfig({ baseUrl: "/api/1_12", auth: () => "demo-key" });

${peerBody(
  `useQuery(listEventsOptions())`,
  `useMutation({
    ...createEventMutation(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listEventsQueryKey() }),
  })`,
  `{ body: ${EVENT} }`,
)}`;
}

/** The page on orval's react-query hooks over fetch; its invalidation is written by hand. */
export function orvalPage(dir: string, peers: PeerSources): string {
  return `${REACT}
import { getListEventsQueryKey, useCreateEvent, useListEvents } from "${from(dir, peers.orval)}";

const fetch = { headers: { "X-API-KEY": "demo-key" } };

${peerBody(
  `useListEvents({ fetch })`,
  `useCreateEvent({
    fetch,
    mutation: { onSuccess: () => queryClient.invalidateQueries({ queryKey: getListEventsQueryKey() }) },
  })`,
  `{ data: ${EVENT} }`,
)}`;
}

/** A page that imports one validator from `./validators`. */
export function oneValidator(name: string): string {
  return `import { ${name} } from "${NAME}/validators";
export const check = (value: unknown) => ${name}(value);
`;
}

export const ALL_VALIDATORS = `import * as validators from "${NAME}/validators";
export const all = validators;
`;
