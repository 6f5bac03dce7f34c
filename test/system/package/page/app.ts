/**
 * A small React page over the package's front-end entries, bundled from a consumer project that
 * installed the tarball: the sandbox's handlers on PGlite in the page, served by MSW's service
 * worker (`setupWorker`), the list of events with `useQuery` and a create with `useMutation`, both
 * from the generated options. No request leaves the page's origin.
 */
import { PGlite } from "@electric-sql/pglite";
import { QueryClient, QueryClientProvider, useMutation, useQuery } from "@tanstack/react-query";
import { setupWorker } from "msw/browser";
import { type FormEvent, createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import { createBaseClient } from "workforce-scheduling-api";
import { createMswHandlers } from "workforce-scheduling-api/msw";
import { createEventMutationOptions, listEventsQueryOptions } from "workforce-scheduling-api/query";
import { openInPageSandbox } from "workforce-scheduling-api/sandbox/in-page";

const baseUrl = `${location.origin}/api/1_12`;
const client = createBaseClient({ baseUrl, apiKey: "demo-key-harbor" });

function Events() {
  const events = useQuery(listEventsQueryOptions(client));
  const create = useMutation(createEventMutationOptions(client));
  const [name, setName] = useState("");
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    create.mutate({ body: { name, date: "2027-05-01", venue: { name: "Pier 4" } } });
  };
  return h(
    "main",
    null,
    h(
      "form",
      { onSubmit: submit },
      h("input", {
        "aria-label": "Event name",
        value: name,
        onChange: (event: { target: { value: string } }) => setName(event.target.value),
      }),
      h("button", { type: "submit" }, "Create event"),
    ),
    h(
      "p",
      { id: "status" },
      events.isSuccess
        ? `${events.data.total_count ?? 0} events`
        : events.isError
          ? `error: ${String(events.error)}`
          : "loading",
    ),
    h("ul", { id: "events" }, ...(events.data?.data ?? []).map((event) => h("li", { key: event.id }, event.name))),
    create.isSuccess ? h("p", { id: "created" }, `created event ${create.data}`) : null,
  );
}

async function start(): Promise<void> {
  const pglite = await PGlite.create();
  const sandbox = await openInPageSandbox(pglite);
  const worker = setupWorker(...createMswHandlers(sandbox.handlers, { baseUrl, authenticate: sandbox.authenticate }));
  await worker.start({ onUnhandledRequest: "bypass", quiet: true });
  const root = document.getElementById("root");
  if (root === null) throw new Error("the page has no #root");
  createRoot(root).render(h(QueryClientProvider, { client: new QueryClient() }, h(Events)));
}

start().catch((error: unknown) => {
  document.body.textContent = `the page failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
});
