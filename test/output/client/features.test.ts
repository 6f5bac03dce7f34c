/**
 * The client of a spec built to exercise what the workforce contract does not: security schemes
 * (bearer, basic, oauth2, apiKey in query and cookie, optional), query styles, header parameters,
 * 204, text and raw-byte bodies, URL-encoded forms, several request media types, a derived id.
 */
import { rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/pipeline.js";
import { type ReceivedRequest, sendJson, startTestServer, type TestServer } from "./http-harness.js";

type Method = (args?: object, options?: object) => Promise<unknown>;
type FeatureClient = Record<
  "search" | "deleteItem" | "getItemsByItemId" | "putImage" | "submitForm" | "addNote",
  Method
>;
interface FeatureModule {
  createClient(options?: object): FeatureClient;
  ApiError: new (...args: never[]) => Error & { status: number; body: unknown };
  RequestValidationError: new (...args: never[]) => Error;
}

const out = fileURLToPath(new URL("./__tmp__/features", import.meta.url));
const BYTES = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
let server: TestServer;
let features: FeatureModule;

beforeAll(async () => {
  await generate({ spec: fileURLToPath(new URL("./fixtures/features.yaml", import.meta.url)), out });
  features = (await import(pathToFileURL(`${out}/client/index.ts`).href)) as FeatureModule;
  server = await startTestServer((request, response) => {
    if (request.url.startsWith("/v2/images/"))
      return void response.writeHead(200, { "content-type": "image/png" }).end(request.body);
    if (request.method === "DELETE") return void response.writeHead(204).end();
    if (request.url.startsWith("/v2/items/missing")) return sendJson(response, 404, { reason: "gone" });
    if (request.method === "GET" && request.url.startsWith("/v2/items/"))
      return void response.writeHead(200, { "content-type": "text/plain" }).end("item text");
    if (request.url.startsWith("/v2/notes"))
      return void response.writeHead(201, { "content-type": "text/plain" }).end("n-1");
    if (request.url.startsWith("/v2/forms")) return sendJson(response, 200, { title: "stored" });
    sendJson(response, 200, ["hit"]);
  });
});
afterAll(async () => {
  await server.close();
  rmSync(out, { recursive: true, force: true });
});

function clientWith(options: object = {}): FeatureClient {
  const [scheme, host] = server.origin.split("://");
  return features.createClient({ serverVariables: { scheme, host }, ...options });
}

const last = (): ReceivedRequest => server.requests.at(-1) as ReceivedRequest;

describe("a client for another spec", () => {
  it("fills the server URL from its variables' defaults", async () => {
    let seen = "";
    const capture = async (input: string): Promise<Response> => {
      seen = input;
      return new Response("[]", { headers: { "content-type": "application/json" } });
    };
    await features.createClient({ fetch: capture }).search({ query: { q: "x" }, headers: { "X-Request-Id": "r" } });
    expect(seen).toBe("https://api.example.com/v2/search?q=x");
  });

  it("serialises query parameters per style and explode, header parameters, and a query API key", async () => {
    const query = {
      q: "a b",
      tags: ["x", "y"],
      ids: [1, 2],
      pipes: ["a", "b"],
      point: { x: 1, y: 2 },
      filter: { status: "open", range: { min: 3 } },
    };
    await expect(
      clientWith({ apiKey: "K&1" }).search({ query, headers: { "X-Request-Id": "r-1", "X-Flags": ["a", "b"] } }),
    ).resolves.toEqual(["hit"]);
    expect(last().url).toBe(
      "/v2/search?filter[status]=open&filter[range][min]=3&ids=1,2&pipes=a|b&point=x,1,y,2&q=a%20b&tags=x&tags=y&api_key=K%261",
    );
    expect([last().headers["x-request-id"], last().headers["x-flags"]]).toEqual(["r-1", "a,b"]);
  });

  it("checks query and header parameters before sending", async () => {
    const error = await clientWith()
      .search({ query: {}, headers: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(features.RequestValidationError);
    expect((error as Error).message).toBe(
      "search: invalid request: query must have required property 'q' (and 1 more)",
    );
  });

  it("sends a bearer token, else basic credentials, and returns undefined for a 204", async () => {
    await expect(clientWith({ bearerToken: "t0k" }).deleteItem({ path: { itemId: "a/b" } })).resolves.toBeUndefined();
    expect([last().url, last().headers.authorization]).toEqual(["/v2/items/a%2Fb", "Bearer t0k"]);
    await clientWith({ basic: { username: "zoë", password: "p:w" } }).deleteItem({ path: { itemId: "1" } });
    expect(last().headers.authorization).toBe(`Basic ${Buffer.from("zoë:p:w").toString("base64")}`);
    await clientWith({ credentials: { basicAuth: "ZW5jb2RlZA==" } }).deleteItem({ path: { itemId: "1" } });
    expect(last().headers.authorization).toBe("Basic ZW5jb2RlZA==");
  });

  it("sends a cookie API key, reads a text answer, and reads a default JSON error", async () => {
    await expect(clientWith({ apiKey: "s 1" }).getItemsByItemId({ path: { itemId: "7" } })).resolves.toBe("item text");
    expect(last().headers.cookie).toBe("session=s%201");
    const error = await clientWith()
      .getItemsByItemId({ path: { itemId: "missing" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(features.ApiError);
    expect((error as { body: unknown }).body).toEqual({ reason: "gone" });
  });

  it("sends raw bytes and returns raw bytes as a Blob; optional authentication sends what it has", async () => {
    const blob = (await clientWith().putImage({ path: { name: "a.png" }, body: BYTES })) as Blob;
    expect(blob).toBeInstanceOf(Blob);
    expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(BYTES))).toBe(true);
    expect([last().headers["content-type"], last().headers.authorization]).toEqual(["image/png", undefined]);
    await clientWith({ bearerToken: "t" }).putImage({ path: { name: "a.png" }, body: new Blob([BYTES]) });
    expect(last().headers.authorization).toBe("Bearer t");
  });

  it("sends JSON by default, a URL-encoded form when asked, bytes as bytes, with an oauth2 token", async () => {
    const body = { title: "t", count: 2, tags: ["a", "b"], meta: { k: "v w" } };
    await expect(clientWith({ bearerToken: "oauth-token" }).submitForm({ body })).resolves.toEqual({ title: "stored" });
    expect([last().headers["content-type"], last().body.toString(), last().headers.authorization]).toEqual([
      "application/json",
      JSON.stringify(body),
      "Bearer oauth-token",
    ]);
    await clientWith().submitForm({ body, contentType: "application/x-www-form-urlencoded" });
    expect(last().headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(last().body.toString()).toBe("title=t&count=2&tags=a&tags=b&meta%5Bk%5D=v+w");
    await clientWith().submitForm({ body: BYTES });
    expect([last().headers["content-type"], Buffer.compare(last().body, Buffer.from(BYTES))]).toEqual([
      "application/octet-stream",
      0,
    ]);
    await expect(clientWith().submitForm({ body: { title: "x".repeat(21) } })).rejects.toBeInstanceOf(
      features.RequestValidationError,
    );
  });

  it("sends a text body, an optional query, and no body when none is given", async () => {
    await expect(clientWith().addNote({ query: { draft: true }, body: "hello" })).resolves.toBe("n-1");
    expect([last().url, last().headers["content-type"], last().body.toString()]).toEqual([
      "/v2/notes?draft=true",
      "text/plain",
      "hello",
    ]);
    await expect(clientWith().addNote()).resolves.toBe("n-1");
    expect([last().body.length, last().headers["content-type"]]).toEqual([0, undefined]);
  });
});
