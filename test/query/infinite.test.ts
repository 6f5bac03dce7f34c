/**
 * Infinite query options of the operations that page, on a fixture whose collections page three
 * ways (offset and limit, page and per_page, a cursor): a consumer module that uses them is
 * typechecked with the output (the page parameter typed from the spec, `getNextPageParam` typed
 * from the answer), then run with TanStack's QueryClient, lowest and latest, fetching several
 * pages, each request with its page's parameter; a mutation's invalidation reaches the pages.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as latest from "@tanstack/query-core";
import * as lowest from "@tanstack/query-core-lowest";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../src/pipeline.js";
import { listTypeScript, typecheck } from "../support/typecheck.js";

const out = fileURLToPath(new URL("./__tmp__/pagination", import.meta.url));

/** What the consumer module gives the test: three collections fetched page by page, and an invalidation. */
interface Consumer {
  run(queryClient: latest.QueryClient, fetch: (url: string, init: RequestInit) => Promise<Response>): Promise<unknown>;
}

const CONSUMER = `import type { QueryClient } from "@tanstack/query-core";
import { createBaseClient } from "./index.js";
import { listItemsInfiniteQueryOptions, listShopPagesInfiniteQueryOptions, postToFeedMutationOptions, readFeedInfiniteQueryOptions } from "./query/index.js";

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
    keys: [items.queryKey, pages.queryKey, feed.queryKey],
    feedInvalidated: queryClient.getQueryState(feed.queryKey)?.isInvalidated,
  };
}

const client = createBaseClient({});
// @ts-expect-error an offset is a number
listItemsInfiniteQueryOptions(client, undefined, { initialPageParam: "0", getNextPageParam: () => undefined });
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
  if (pathname === "/shops/s1/pages") return Response.json([{ name: `page ${searchParams.get("page")}` }]);
  const cursor = searchParams.get("cursor");
  return Response.json({ entries: [{ name: `after ${cursor}` }], next_cursor: cursor === "" ? "c2" : null });
}

let consumer: Consumer;

beforeAll(async () => {
  await generate({ spec: fileURLToPath(new URL("../fixtures/pagination/openapi.yaml", import.meta.url)), out });
  await writeFile(join(out, "consumer.ts"), CONSUMER);
  consumer = (await import(pathToFileURL(join(out, "consumer.ts")).href)) as Consumer;
}, 60_000);

describe("infinite query options", () => {
  it("typecheck in a consumer: the page parameter typed from the spec, the next one from the answer", () => {
    expect(typecheck(listTypeScript(out))).toEqual([]);
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
        keys: [
          ["pagination", "items", { infinite: true, query: { limit: 2, colour: "red" } }],
          ["pagination", "shops", "s1", "pages", { infinite: true, query: { per_page: 1 } }],
          ["pagination", "feed", { infinite: true }],
        ],
        feedInvalidated: true,
      });
      expect(urls).toEqual([
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
