/**
 * `Prefer: dynamic=true`, `Preference-Applied` and ignored preferences on the generated server
 * with the mock's handlers, over loopback: a body built from the schema, checked against the
 * contract by the server itself (a body it did not accept would be a 500), the same for the same
 * request, another with `seed=N`; the preferences honoured named in `Preference-Applied`; the
 * others ignored and listed in the request's log line. And `GET /`, pointing to the reference and
 * the base path.
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import document from "../../../generated/openapi.json" with { type: "json" };
import { answerPreferred, buildServer, createMockHandlers, registerDocs } from "../../../generated/server/index.js";
import { runCurlFlow, shellBlock } from "../../support/curl-flow.js";

let app: FastifyInstance;
let origin = "";
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  app = await buildServer({
    handlers: answerPreferred(createMockHandlers(), document),
    authenticate: () => true,
    logger: { stream },
    validateResponses: true,
  });
  await registerDocs(app, document);
  origin = await app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => app?.close());

/** GET `path` of the API with a key and `prefer`: status, Preference-Applied and the body's text. */
async function get(path: string, prefer?: string): Promise<[number, string | null, string]> {
  const headers: Record<string, string> = { "x-api-key": "k", ...(prefer === undefined ? {} : { prefer }) };
  const response = await fetch(`${origin}/api/1_12${path}`, { headers });
  return [response.status, response.headers.get("preference-applied"), await response.text()];
}

describe("Prefer: dynamic=true", () => {
  it("runs docs/server.md's session as shown", async () => {
    expect(await runCurlFlow(shellBlock("docs/server.md", "dynamic=true"), origin)).toBe(3);
  });

  it("answers a body built from the schema, valid, the same for the same request and seed", async () => {
    const [status, applied, body] = await get("/events", "dynamic=true");
    expect([status, applied]).toEqual([200, "dynamic=true"]);
    const example = await get("/events");
    expect(body).not.toBe(example[2]);
    expect(JSON.parse(body)).toMatchObject({ data: expect.any(Array), total_count: expect.any(Number) });
    expect((await get("/events", "dynamic=true"))[2]).toBe(body);
    const seeded = await get("/events", 'dynamic=true; seed="7"');
    expect(seeded[1]).toBe("dynamic=true, seed=7");
    expect(seeded[2]).not.toBe(body);
    expect((await get("/events", "seed=7, dynamic=true"))[2]).toBe(seeded[2]);
  });

  it("builds the body of the status a code names, and leaves it to a named example", async () => {
    const [status, applied, body] = await get("/wage-rules", "code=403, dynamic=true");
    expect([status, applied]).toEqual([403, "code=403, dynamic=true"]);
    expect(JSON.parse(body)).toMatchObject({ type: expect.any(String), title: expect.any(String) });
    const named = await get("/wage-rules", "example=invalidKey, dynamic=true");
    expect(named[0]).toBe(401);
    expect(named[1]).toBe("example=invalidKey");
    expect(JSON.parse(named[2])).toMatchObject({ type: "urn:problem-type:invalid-api-key" });
  });
});

describe("preferences honoured and ignored", () => {
  it("names what it honoured, nothing when it honoured nothing, and logs what it ignored", async () => {
    expect((await get("/wage-rules", "code=401"))[1]).toBe("code=401");
    const plain = await get("/wage-rules", "respond-async, wait=10, dynamic=false");
    expect(plain.slice(0, 2)).toEqual([200, null]);
    await get("/events", "dynamic=true, handling=lenient");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const messages = lines.map((line) => line["msg"]).filter((msg) => typeof msg === "string");
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^GET \/api\/1_12\/wage-rules 200 [\d.]+ ms \(Prefer ignored: respond-async, wait=10, dynamic=false\)$/,
      ),
    );
    expect(lines.find((line) => String(line["msg"]).includes("handling=lenient"))).toMatchObject({
      prefer: { ignored: ["handling=lenient"] },
    });
    expect(messages).toContainEqual(
      expect.stringMatching(/^GET \/api\/1_12\/wage-rules 401 [\d.]+ ms: urn:problem-type/),
    );
  });
});

describe("GET /", () => {
  it("points to the reference and the base path, and sends a browser to the reference", async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("link")).toBe('</docs>; rel="service-doc", </openapi.json>; rel="service-desc"');
    expect(await response.json()).toEqual({
      title: "Workforce Scheduling Service API",
      reference: "/docs",
      api: "/api/1_12",
      spec: "/openapi.json",
    });
    const browser = await fetch(`${origin}/`, { headers: { accept: "text/html" }, redirect: "manual" });
    expect([browser.status, browser.headers.get("location")]).toEqual([302, "/docs"]);
  });
});
