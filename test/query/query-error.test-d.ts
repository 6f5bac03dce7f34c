/**
 * A query's error type from its options (a type test: `npm run typecheck` checks it, vitest does
 * not run it): `useQuery` of the lowest and the latest @tanstack/react-query, and query-core's
 * QueryObserver, type `error` as the operation's declared error answers or an `UnexpectedError`,
 * so a check of `error.status` narrows `body` without a helper. query-error.test.ts shows the
 * same is true at run time.
 */
import { QueryClient, QueryObserver } from "@tanstack/query-core";
import { useQuery } from "@tanstack/react-query";
import { useQuery as useQueryLowest } from "@tanstack/react-query-lowest";
import { expectTypeOf, it } from "vitest";
import type { BaseClient, Problem, UnexpectedError, UnexpectedKind } from "../../generated/index.js";
import { listEventsQueryKey, listEventsQueryOptions, type QueryErrorOf } from "../../generated/query/index.js";

declare const client: BaseClient;

it("types useQuery's error as the declared answers or an UnexpectedError, on the lowest and the latest react-query", () => {
  const latest = useQuery(listEventsQueryOptions(client));
  const lowest = useQueryLowest(listEventsQueryOptions(client));
  expectTypeOf(latest.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
  expectTypeOf(lowest.error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
  const error = latest.error;
  if (error?.status === 401) {
    expectTypeOf(error.body).toEqualTypeOf<Problem>();
    expectTypeOf(error.status).toEqualTypeOf<401>();
  } else if (error instanceof Error && error.status === undefined) {
    expectTypeOf(error).toEqualTypeOf<UnexpectedError>();
    expectTypeOf(error.kind).toEqualTypeOf<UnexpectedKind>();
  }
  // @ts-expect-error listEvents declares no 404: the comparison cannot be true
  void (error?.status === 404);
});

it("types QueryObserver's error and the key's error tag the same way", () => {
  const observer = new QueryObserver(new QueryClient(), listEventsQueryOptions(client));
  expectTypeOf(observer.getCurrentResult().error).toEqualTypeOf<QueryErrorOf<"listEvents"> | null>();
  const key = listEventsQueryKey();
  expectTypeOf(new QueryClient().getQueryState(key)?.error).toEqualTypeOf<
    QueryErrorOf<"listEvents"> | null | undefined
  >();
});
