/**
 * The error type of each hook from the generated options (a type test: `npm run typecheck` checks
 * it, vitest does not run it): `useQuery`, `useSuspenseQuery` and `useMutation` of the lowest and
 * the latest @tanstack/react-query, and query-core's observers and QueryClient, type `error` as
 * the operation's declared error answers or an `UnexpectedError`, so a check of `error.status`
 * narrows `body` without a helper (the infinite hooks' are checked on a paged fixture, in
 * infinite.test.ts). query-error.test.ts shows the same is true at run time.
 */
import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { useMutation, useQuery, useSuspenseQuery } from "@tanstack/react-query";
import {
  useMutation as useMutationLowest,
  useQuery as useQueryLowest,
  useSuspenseQuery as useSuspenseQueryLowest,
} from "@tanstack/react-query-lowest";
import { describe, expectTypeOf, it } from "vitest";
import type {
  BaseClient,
  CreateEventResponse422,
  Problem,
  UnexpectedError,
  UnexpectedKind,
  UpdateEventResponse404,
} from "../../../generated/index.js";
import {
  createEventMutationOptions,
  listEventsQueryKey,
  listEventsQueryOptions,
  type MutationErrorOf,
  type QueryErrorOf,
  updateEventMutationOptions,
} from "../../../generated/query/index.js";

declare const client: BaseClient;

/** What a query's error narrows to: the declared 401's body, or the `UnexpectedError`. */
function narrowsListEvents(error: QueryErrorOf<"listEvents"> | null): void {
  if (error?.status === 401) {
    expectTypeOf(error.body).toEqualTypeOf<Problem>();
    expectTypeOf(error.status).toEqualTypeOf<401>();
  } else if (error instanceof Error && error.status === undefined) {
    expectTypeOf(error).toEqualTypeOf<UnexpectedError>();
    expectTypeOf(error.kind).toEqualTypeOf<UnexpectedKind>();
  }
  // @ts-expect-error listEvents declares no 404: the comparison cannot be true
  void (error?.status === 404);
}

describe("useQuery and useSuspenseQuery", () => {
  it("type error as the declared answers or an UnexpectedError, on the latest react-query", () => {
    const query = useQuery(listEventsQueryOptions(client));
    const suspense = useSuspenseQuery(listEventsQueryOptions(client));
    expectTypeOf(query.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
    expectTypeOf(suspense.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
    narrowsListEvents(query.error);
    narrowsListEvents(suspense.error);
  });

  it("type error the same way on the lowest react-query (5.89)", () => {
    const query = useQueryLowest(listEventsQueryOptions(client));
    const suspense = useSuspenseQueryLowest(listEventsQueryOptions(client));
    expectTypeOf(query.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
    expectTypeOf(suspense.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
    narrowsListEvents(suspense.error);
  });

  it("type a retry given beside the options by the same error", () => {
    useQuery({ ...listEventsQueryOptions(client), retry: (count, error) => count < 2 && error.status !== 401 });
    useSuspenseQueryLowest({ ...listEventsQueryOptions(client), retry: 3 });
  });
});

describe("useMutation", () => {
  it("types error as the declared answers or an UnexpectedError, and `status === 422` narrows the body", () => {
    const latest = useMutation(createEventMutationOptions(client));
    const lowest = useMutationLowest(createEventMutationOptions(client));
    expectTypeOf(latest.error).toEqualTypeOf<MutationErrorOf<"createEvent"> | null>();
    expectTypeOf(lowest.error).toEqualTypeOf<MutationErrorOf<"createEvent"> | null>();
    for (const error of [latest.error, lowest.error]) {
      if (error?.status === 422) {
        expectTypeOf(error.body).toEqualTypeOf<CreateEventResponse422>();
        expectTypeOf(error.status).toEqualTypeOf<422>();
      } else if (error?.status === undefined && error !== null) {
        expectTypeOf(error).toEqualTypeOf<UnexpectedError>();
      }
      // @ts-expect-error createEvent declares no 404
      void (error?.status === 404);
    }
  });

  it("types each mutation by its own operation's answers", () => {
    const update = useMutation(updateEventMutationOptions(client));
    if (update.error?.status === 404) expectTypeOf(update.error.body).toEqualTypeOf<UpdateEventResponse404>();
    const updateLowest = useMutationLowest(updateEventMutationOptions(client));
    expectTypeOf(updateLowest.error).toEqualTypeOf<MutationErrorOf<"updateEvent"> | null>();
  });

  it("types the callbacks given beside the options by the same error", () => {
    useMutation({
      ...createEventMutationOptions(client),
      onError: (error) => expectTypeOf(error).toEqualTypeOf<MutationErrorOf<"createEvent">>(),
    });
  });
});

describe("query-core", () => {
  it("types QueryObserver's error and the key's error tag the same way", () => {
    const observer = new QueryObserver(new QueryClient(), listEventsQueryOptions(client));
    expectTypeOf(observer.getCurrentResult().error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
    const key = listEventsQueryKey();
    expectTypeOf(new QueryClient().getQueryState(key)?.error).toEqualTypeOf<
      QueryErrorOf<"listEvents"> | null | undefined
    >();
  });

  it("types MutationObserver's error as the mutation's answers", () => {
    const observer = new MutationObserver(new QueryClient(), createEventMutationOptions(client));
    expectTypeOf(observer.getCurrentResult().error).toEqualTypeOf<MutationErrorOf<"createEvent"> | null>();
  });
});
