/**
 * `Prefer: code=NNN` and `Prefer: example=name` on the mock server (`npm run mock`, as a process,
 * over loopback): docs/server.md's curl session runs as shown, and the header's forms (several
 * preferences, quoted values, the header sent twice, a status range) are read as RFC 7240 writes
 * them. The sandbox's answers are checked in test/system/sandbox/process.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCurlFlow, shellBlock } from "../../support/curl-flow.js";
import { type MockProcess, startMockProcess } from "../../support/mock-process.js";

let mock: MockProcess;
beforeAll(async () => {
  mock = await startMockProcess({});
}, 60_000);
afterAll(() => {
  mock?.child.kill("SIGKILL");
});

/** A call to the mock with a key and the headers given: status and parsed body. */
async function send(path: string, headers: HeadersInit, init: RequestInit = {}): Promise<[number, unknown]> {
  const all = new Headers(headers);
  all.set("x-api-key", "k");
  const response = await fetch(`${mock.origin}/api/1_12${path}`, { ...init, headers: all });
  return [response.status, await response.json()];
}

const EVENT = JSON.stringify({ name: "Gala", date: "2027-04-20", venue: { name: "Hall" } });
const PATCH = { method: "PATCH", body: EVENT };

describe("Prefer on the mock server", () => {
  it("runs docs/server.md's session as shown", async () => {
    expect(await runCurlFlow(shellBlock("docs/server.md", "Prefer:"), mock.origin)).toBe(4);
  });

  it("takes the code and example together, quoted, among other preferences, in one header or two", async () => {
    const tooDeep = [
      400,
      {
        type: "urn:problem-type:malformed-body",
        title: "Malformed request body",
        status: 400,
        detail: "The request body is nested more than 1000 levels deep.",
      },
    ];
    const json = { "content-type": "application/json" };
    expect(await send("/events/7", { ...json, prefer: 'code=400; example="tooDeep"' }, PATCH)).toEqual(tooDeep);
    const twice = new Headers(json);
    twice.append("prefer", "respond-async, code=400");
    twice.append("prefer", "example=tooDeep");
    expect(await send("/events/7", twice, PATCH)).toEqual(tooDeep);
  });

  it("answers without a preference, or with others only, as before", async () => {
    const [status] = await send("/wage-rules", { prefer: "return=minimal" });
    expect(status).toBe(200);
    expect((await send("/wage-rules", {}))[0]).toBe(200);
  });

  it("refuses an undeclared status or example, or a code that is no status, listing what is declared", async () => {
    for (const prefer of ["code=418", "example=nothing", "code=40x", "code=401, example=moved"]) {
      const [status, problem] = await send("/events/7", { "content-type": "application/json", prefer }, PATCH);
      expect([status, problem]).toMatchObject([
        400,
        {
          type: "urn:problem-type:unsatisfiable-preference",
          detail: expect.stringContaining(
            "It declares the statuses 200, 400, 401, 403, 404, 413, 414, 415, 422, 500, and the examples moved (200)",
          ),
        },
      ]);
    }
  });

  it("checks the key and the request before it answers a preference", async () => {
    const [status, problem] = await send(
      "/events/7",
      { "content-type": "application/json", prefer: "code=200" },
      { method: "PATCH", body: "{" },
    );
    expect([status, (problem as { type: string }).type]).toEqual([400, "urn:problem-type:malformed-body"]);
    const response = await fetch(`${mock.origin}/api/1_12/wage-rules`, { headers: { prefer: "code=200" } });
    expect(response.status).toBe(401);
  });
});
