/**
 * The package's runtime in a consumer project: a sandbox without pg installed, a sandbox in process
 * over MSW with only its own peers (and the message naming a missing one), and the front-end
 * entries keeping a QueryClient's list fresh. The package is packed and
 * installed once per run for the four files (../support/packed-package.ts), which run apart:
 * ./package.test.ts (what the tarball holds, the lints, loading its entries),
 * ./package-types.test.ts (typechecking), ./package-runtime.test.ts (sandboxes and the front-end
 * entries in Node) and ./package-pages.test.ts (pages bundled and run in a browser).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { packedPackage } from "../../support/packed-package.js";
import { NAME, projectWith, runWithSandbox } from "./consumer.js";

let consumer: string;

beforeAll(async () => {
  ({ consumer } = await packedPackage());
}, 300_000);

describe("the packed package", () => {
  it("runs a sandbox without pg installed: createSandbox, then a flow through the client (create a venue, an event there, list it)", async () => {
    const script = [
      `import { createSandbox } from "${NAME}/sandbox";`,
      `import { createClient } from "${NAME}";`,
      `const sandbox = await createSandbox();`,
      `try {`,
      `  const client = createClient({ baseUrl: sandbox.url, apiKey: "demo-key-harbor" });`,
      `  const venue = await client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Town", zip: "T1" } });`,
      `  const id = await client.createEvent({ body: { name: "Gala", date: "2024-04-20", venue: { venue_id: String(venue.venue_id) } } });`,
      `  const list = await client.listEvents();`,
      `  console.log(JSON.stringify([venue.venue_id, id, list.total_count, list.data?.[0]?.location?.name]));`,
      `} finally {`,
      `  await sandbox.close();`,
      `}`,
    ].join("\n");
    const server = ["fastify", "@fastify/multipart", "@fastify/swagger", "@fastify/swagger-ui"];
    const stdout = await runWithSandbox(
      script,
      await projectWith(consumer, ["@electric-sql/pglite", "kysely", ...server]),
    );
    // Harbor's next venue after its seeded 318, and its first event
    expect(JSON.parse(stdout)).toEqual([319, 1, 1, "Hall"]);
  });

  it("runs a sandbox in process over MSW with only @electric-sql/pglite, kysely and msw installed; names a missing peer in one line", async () => {
    const script = [
      `import { setupServer } from "msw/node";`,
      `import { createClient } from "${NAME}";`,
      `import { createMswHandlers } from "${NAME}/msw";`,
      `import { createSandbox, openSandbox } from "${NAME}/sandbox";`,
      `const out = {};`,
      `try {`,
      `  const sandbox = await openSandbox();`,
      `  const baseUrl = "http://sandbox.test/api/1_12";`,
      `  const server = setupServer(...createMswHandlers(sandbox, { baseUrl }));`,
      `  server.listen({ onUnhandledRequest: "error" });`,
      `  try {`,
      `    const client = createClient({ baseUrl, apiKey: "demo-key-harbor" });`,
      `    out.venue = (await client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Town", zip: "T1" } })).venue_id;`,
      `    out.events = (await client.listEvents()).total_count;`,
      `  } finally {`,
      `    server.close();`,
      `    await sandbox.close();`,
      `  }`,
      `} catch (error) {`,
      `  out.openSandbox = error.message;`,
      `}`,
      `out.createSandbox = await createSandbox().then((s) => s.close().then(() => "started"), (error) => error.message);`,
      `console.log(JSON.stringify(out));`,
    ].join("\n");
    const install = (name: string): string =>
      `the sandbox needs the package ${name}: install it (npm install --save-dev ${name})`;
    const inProcess = await projectWith(consumer, ["@electric-sql/pglite", "kysely", "msw"]);
    expect(JSON.parse(await runWithSandbox(script, inProcess))).toEqual({
      venue: 319,
      events: 0,
      createSandbox: install("fastify"),
    });
    const withoutEngine = await projectWith(consumer, ["kysely", "msw"]);
    expect(JSON.parse(await runWithSandbox(script, withoutEngine))).toEqual({
      openSandbox: install("@electric-sql/pglite"),
      createSandbox: install("@electric-sql/pglite"),
    });
  });
});

describe("the front-end entries in a consumer project", () => {
  it("keeps a QueryClient's list fresh: a created event shows in listEvents, refetched by the generated invalidation; an override's 404 narrows with isApiError", async () => {
    const script = [
      `import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";`,
      `import { setupServer } from "msw/node";`,
      `import { createClient, isApiError } from "${NAME}";`,
      `import { createMswHandlers } from "${NAME}/msw";`,
      `import { createEventMutationOptions, invalidates, listEventsQueryKey, listEventsQueryOptions, updateEventMutationOptions } from "${NAME}/query";`,
      `import { createSandbox } from "${NAME}/sandbox";`,
      `const sandbox = await createSandbox();`,
      `const baseUrl = "http://sandbox.test/api/1_12";`,
      `const missing = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };`,
      `const overrides = { updateEvent: async ({ params }) => ({ status: 404, body: { ...missing, detail: "No event " + params.id + "." } }) };`,
      `const server = setupServer(...createMswHandlers(sandbox.handlers, { baseUrl, authenticate: sandbox.authenticate, overrides }));`,
      `server.listen({ onUnhandledRequest: "error" });`,
      `const out = {};`,
      `try {`,
      `  const queryClient = new QueryClient();`,
      `  const client = createClient({ baseUrl, apiKey: "demo-key-harbor" });`,
      `  const lists = [];`,
      `  const observer = new QueryObserver(queryClient, listEventsQueryOptions(client));`,
      `  let last;`,
      `  const unsubscribe = observer.subscribe((result) => { if (result.isSuccess && result.data !== last) lists.push((last = result.data).data.map((event) => event.name)); });`,
      `  while (lists.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));`,
      `  const create = new MutationObserver(queryClient, createEventMutationOptions(client));`,
      `  out.id = await create.mutate({ body: { name: "Launch", date: "2027-05-01", venue: { name: "Pier 4" } } });`,
      `  out.lists = lists;`,
      `  out.cached = queryClient.getQueryData(listEventsQueryKey()).data.map((event) => event.name);`,
      `  out.invalidates = invalidates.createEvent;`,
      `  unsubscribe();`,
      `  try {`,
      `    await new MutationObserver(queryClient, updateEventMutationOptions(client)).mutate({ path: { id: String(out.id) }, body: { name: "Gala", date: "2027-05-02", venue: { name: "Hall" } } });`,
      `  } catch (error) {`,
      `    out.notFound = isApiError(error, "updateEvent") && error.status === 404 ? error.body.detail : String(error);`,
      `    out.otherOperation = isApiError(error, "createEvent");`,
      `  }`,
      `} finally {`,
      `  server.close();`,
      `  await sandbox.close();`,
      `}`,
      `console.log(JSON.stringify(out));`,
    ].join("\n");
    const stdout = await runWithSandbox(script, consumer);
    const out = JSON.parse(stdout) as {
      id: number;
      lists: string[][];
      cached: string[];
      invalidates: string[];
      notFound: string;
      otherOperation: boolean;
    };
    // the list was read once before the create and once again by the invalidation, which the mutation awaited
    expect(out.lists).toHaveLength(2);
    expect(out.lists[0]).not.toContain("Launch");
    expect(out.lists[1]).toContain("Launch");
    expect(out.cached).toEqual(out.lists[1]);
    expect(out).toMatchObject({ invalidates: ["listEvents"], notFound: `No event ${out.id}.`, otherOperation: false });
  });
});
