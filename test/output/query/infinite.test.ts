/**
 * Infinite query options of the operations that page, on a fixture whose collections page four
 * ways (offset and limit, page and per_page, a cursor, and `since`, a parameter named by the
 * generator's `paging` option): a consumer module that uses them is typechecked with the query
 * module and what they import (the rest of the output, the same as without the option, is checked
 * with the goldens), the page parameter typed from the spec, `getNextPageParam` typed from the
 * answer; then run with TanStack's QueryClient, lowest and latest, fetching several pages, each
 * request with its page's parameter; a mutation's invalidation reaches the pages. The infinite
 * hooks of the lowest and the latest @tanstack/react-query type their error as the operation's
 * declared answers or an `UnexpectedError`, narrowed by status (typechecked). A `paging` option
 * that pages nothing fails the generation, saying what it names.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as latest from "@tanstack/query-core";
import * as lowest from "@tanstack/query-core-lowest";
import { beforeAll, describe, expect, it } from "vitest";
import { GenerationFailed } from "../../../src/diagnostics/diagnostic.js";
import { parsePagingRules } from "../../../src/emit/query/paging.js";
import { generate } from "../../../src/pipeline.js";
import { typecheck } from "../../support/typecheck.js";

const SPEC = fileURLToPath(new URL("../../fixtures/pagination/openapi.yaml", import.meta.url));
const out = fileURLToPath(new URL("./__tmp__/pagination", import.meta.url));

/** What the consumer module gives the test: three collections fetched page by page, and an invalidation. */
interface Consumer {
  run(queryClient: latest.QueryClient, fetch: (url: string, init: RequestInit) => Promise<Response>): Promise<unknown>;
}

const CONSUMER = `import type { QueryClient } from "@tanstack/query-core";
import { type BaseClient, createBaseClient, type Problem } from "./index.js";
import { listChangesInfiniteQueryOptions, listItemsInfiniteQueryOptions, listShopPagesInfiniteQueryOptions, postToFeedMutationOptions, type QueryErrorOf, readFeedInfiniteQueryOptions } from "./query/index.js";

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export async function run(queryClient: QueryClient, fetch: Fetch) {
  const client = createBaseClient({ baseUrl: "http://api.test", fetch });
  const items = listItemsInfiniteQueryOptions(client, { query: { limit: 2, colour: "red" } }, {
    initialPageParam: 0,
    getNextPageParam: (last, _all, offset) => (offset + last.items.length < last.total ? offset + last.items.length : undefined),
  });
  const pages = listShopPagesInfiniteQueryOptions(client, { path: { shopId: "s1" }, query: { per_page: 1 } }, {
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.length === 0 ? undefined : page + 1),
  });
  const feed = readFeedInfiniteQueryOptions(client, undefined, {
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor,
  });
  const changes = listChangesInfiniteQueryOptions(client, undefined, {
    initialPageParam: 0,
    getNextPageParam: (last) => (last.length === 0 ? undefined : last[last.length - 1]?.at),
  });
  const changePages = await queryClient.fetchInfiniteQuery({ ...changes, pages: 3 });
  const itemPages = await queryClient.fetchInfiniteQuery({ ...items, pages: 3 });
  const shopPages = await queryClient.fetchInfiniteQuery({ ...pages, pages: 2 });
  const feedPages = await queryClient.fetchInfiniteQuery({ ...feed, pages: 2 });
  const names: string[] = itemPages.pages.flatMap((page) => page.items.map((item) => item.name));
  const cursors: (string | undefined)[] = feedPages.pageParams;
  await postToFeedMutationOptions(client, { queryClient }).onSuccess({ name: "new" }, { body: { name: "new" } });
  return {
    names,
    itemParams: itemPages.pageParams,
    shopPages: shopPages.pages,
    cursors,
    since: changePages.pageParams,
    keys: [items.queryKey, pages.queryKey, feed.queryKey, changes.queryKey],
    feedInvalidated: queryClient.getQueryState(feed.queryKey)?.isInvalidated,
  };
}

const client = createBaseClient({});
// @ts-expect-error an offset is a number
listItemsInfiniteQueryOptions(client, undefined, { initialPageParam: "0", getNextPageParam: () => undefined });
// @ts-expect-error \`since\` is a number
listChangesInfiniteQueryOptions(client, undefined, { initialPageParam: "0", getNextPageParam: () => undefined });

// the hooks, typechecked here and never called (a hook runs in a React component)
declare const latest: typeof import("@tanstack/react-query");
declare const lowest: typeof import("@tanstack/react-query-lowest");
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function infiniteHookErrors(client: BaseClient): void {
  const options = listShopPagesInfiniteQueryOptions(client, { path: { shopId: "s1" } }, {
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.length === 0 ? undefined : page + 1),
  });
  const errors = [
    latest.useInfiniteQuery(options).error,
    latest.useSuspenseInfiniteQuery(options).error,
    lowest.useInfiniteQuery(options).error,
    lowest.useSuspenseInfiniteQuery(options).error,
  ] as const;
  const typed: Same<(typeof errors)[number], QueryErrorOf<"listShopPages"> | null> = true;
  for (const error of errors) {
    if (error?.status === 404) {
      const body: Problem = error.body;
      const same: Same<typeof error.body, Problem> = true;
      void [body, same];
    }
    // @ts-expect-error listShopPages declares no 401
    void (error?.status === 401);
  }
  void typed;
}
// @ts-expect-error a feed page has no items
readFeedInfiniteQueryOptions(client, undefined, { initialPageParam: "", getNextPageParam: (last) => last.items });
`;

/** The answers of the fake API: 5 items by offset, shop pages while page < 3, a feed of two pages. */
async function answer(url: string): Promise<Response> {
  const { pathname, searchParams } = new URL(url);
  if (pathname === "/items") {
    const offset = Number(searchParams.get("offset"));
    const limit = Number(searchParams.get("limit"));
    const items = ["a", "b", "c", "d", "e"].slice(offset, offset + limit).map((name) => ({ name }));
    return Response.json({ items, total: 5 });
  }
  if (pathname === "/changes") {
    const since = Number(searchParams.get("since"));
    return Response.json(since >= 20 ? [] : [{ at: since + 5 }, { at: since + 10 }]);
  }
  if (pathname === "/shops/s1/pages") return Response.json([{ name: `page ${searchParams.get("page")}` }]);
  const cursor = searchParams.get("cursor");
  return Response.json({ entries: [{ name: `after ${cursor}` }], next_cursor: cursor === "" ? "c2" : null });
}

let consumer: Consumer;

beforeAll(async () => {
  await generate({ spec: SPEC, out, paging: [{ parameter: "since" }] });
  await writeFile(join(out, "consumer.ts"), CONSUMER);
  consumer = (await import(pathToFileURL(join(out, "consumer.ts")).href)) as Consumer;
}, 60_000);

describe("infinite query options", () => {
  it("typecheck in a consumer: the page parameter typed from the spec, the next one from the answer", async () => {
    // the paging option shapes the query module alone: every other file is the one generated without
    // it, which test/output/golden/golden.test.ts typechecks; here the consumer and the query module
    // are, with everything they import
    const drift = (await generate({ spec: SPEC, out, check: true })).drift;
    expect(drift).toEqual({ changed: ["query/index.ts"], missing: [], stale: ["consumer.ts"] });
    expect(typecheck([join(out, "consumer.ts"), join(out, "query", "index.ts")])).toEqual([]);
  }, 120_000);

  it.each([
    { version: "lowest", core: lowest as unknown as typeof latest },
    { version: "latest", core: latest },
  ])(
    "fetch page after page with @tanstack/query-core $version, each request with its page's parameter",
    async ({ core }) => {
      const urls: string[] = [];
      const fetch = async (url: string): Promise<Response> => {
        urls.push(url.replace("http://api.test", ""));
        return answer(url);
      };
      const result = await consumer.run(new core.QueryClient(), fetch);
      expect(result).toEqual({
        names: ["a", "b", "c", "d", "e"],
        itemParams: [0, 2, 4],
        shopPages: [[{ name: "page 1" }], [{ name: "page 2" }]],
        cursors: ["", "c2"],
        since: [0, 10, 20],
        keys: [
          ["pagination", "items", { infinite: true, query: { limit: 2, colour: "red" } }],
          ["pagination", "shops", "s1", "pages", { infinite: true, query: { per_page: 1 } }],
          ["pagination", "feed", { infinite: true }],
          ["pagination", "changes", { infinite: true }],
        ],
        feedInvalidated: true,
      });
      expect(urls).toEqual([
        "/changes?since=0",
        "/changes?since=10",
        "/changes?since=20",
        "/items?colour=red&limit=2&offset=0",
        "/items?colour=red&limit=2&offset=2",
        "/items?colour=red&limit=2&offset=4",
        "/shops/s1/pages?page=1&per_page=1",
        "/shops/s1/pages?page=2&per_page=1",
        "/feed?cursor=",
        "/feed?cursor=c2",
      ]);
    },
  );
});

describe("the paging option", () => {
  it("fails the generation when it pages nothing, naming the option, and writes nothing", async () => {
    const failures = await Promise.all(
      [
        { parameter: "snice" },
        { operation: "listItems", parameter: "colour_code" },
        { operation: "postToFeed", parameter: "cursor" },
        { operation: "listThings", parameter: "since" },
      ].map((rule) =>
        generate({ spec: SPEC, out: join(out, "never"), paging: [rule] }).then(
          () => "generated",
          (error: unknown) =>
            error instanceof GenerationFailed ? error.diagnostics.map((d) => `${d.code} ${d.message}`) : error,
        ),
      ),
    );
    expect(failures).toEqual([
      ['PAGING_OPTION_INVALID --paging snice: no GET operation has an optional query parameter "snice"'],
      ['PAGING_OPTION_INVALID --paging listItems=colour_code: listItems has no optional query parameter "colour_code"'],
      [
        "PAGING_OPTION_INVALID --paging postToFeed=cursor: postToFeed is POST /feed: only GET operations have query options",
      ],
      ['PAGING_OPTION_INVALID --paging listThings=since: the document has no operation "listThings"'],
    ]);
    expect(existsSync(join(out, "never"))).toBe(false);
  });

  it("reads NAME and operationId=NAME, and refuses an empty side", () => {
    expect(parsePagingRules(["since", "listItems = offset"])).toEqual([
      { parameter: "since" },
      { operation: "listItems", parameter: "offset" },
    ]);
    expect(() => parsePagingRules(["listItems="])).toThrow(
      '--paging "listItems=": give a query parameter (--paging cursor) or operationId=parameter',
    );
  });
});
