/**
 * The query options' types with TanStack's QueryClient (a type test: `npm run typecheck` checks
 * it, vitest does not run it): data typed from the client's method, keys tagged with it, mutation
 * variables as the client's method takes them.
 */
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { expectTypeOf, it } from "vitest";
import type { Client, Event, EventList } from "../../../generated/index.js";
import {
  createEventMutationOptions,
  listEventsQueryKey,
  listEventsQueryOptions,
  updateEventMutationOptions,
} from "../../../generated/query/index.js";

declare const client: Client;
const queryClient = new QueryClient();

it("types a query's data from the client's method, through its options and its key", async () => {
  expectTypeOf(await queryClient.fetchQuery(listEventsQueryOptions(client))).toEqualTypeOf<EventList>();
  expectTypeOf(queryClient.getQueryData(listEventsQueryKey())).toEqualTypeOf<EventList | undefined>();
});

it("types a mutation's variables and data as the client's method", async () => {
  const observer = new MutationObserver(queryClient, updateEventMutationOptions(client, { queryClient }));
  expectTypeOf(
    await observer.mutate({ path: { id: "7" }, body: { name: "Gala", date: "2026-12-02", venue: {} } }),
  ).toEqualTypeOf<Event>();
  // @ts-expect-error updateEvent needs its path
  void observer.mutate({ body: { name: "Gala", date: "2026-12-02", venue: {} } });
  expectTypeOf(createEventMutationOptions(client).mutationFn)
    .parameter(0)
    .toEqualTypeOf<Parameters<Client["createEvent"]>[0]>();
});
