/** `npm start`'s entry point, run as a process: it serves the mock API and honours API_KEYS. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectProblem, venue } from "../../support/contract-bodies.js";
import { type MockProcess, startMockProcess } from "../../support/mock-process.js";

let server: MockProcess;
let base = "";

beforeAll(async () => {
  server = await startMockProcess({ API_KEYS: "first-key, second-key", NODE_ENV: "development" });
  base = `${server.origin}/api/1_12`;
});

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

describe("the mock server process", () => {
  it("serves the mock answers to a listed key", async () => {
    const response = await fetch(`${base}/venues`, {
      method: "POST",
      headers: { "x-api-key": "second-key", "content-type": "application/json" },
      body: JSON.stringify(venue()),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ venue_id: 318 });
    expect((await fetch(`${base}/events`, { headers: { "x-api-key": "first-key" } })).status).toBe(200);
  });

  it("refuses a key that API_KEYS does not list", async () => {
    await expectProblem(
      await fetch(`${base}/events`, { headers: { "x-api-key": "someone-else" } }),
      401,
      "urn:problem-type:invalid-api-key",
    );
  });

  it("logs one line per request, without the key, a refusal's with its problem", async () => {
    await fetch(`${base}/wage-rules`, { headers: { "x-api-key": "first-key" } });
    // the line is written as the answer is sent, and read from the process's output once it comes
    await expect
      .poll(() => server.output.join(""), { timeout: 10_000 })
      .toMatch(/GET \/api\/1_12\/wage-rules 200 [\d.]+ ms/);
    const log = server.output.join("");
    // the refusal of the test before says why, in its text and as a field
    const refusal = log.split("\n").find((line) => line.includes("GET /api/1_12/events 401"));
    expect(JSON.parse(refusal ?? "{}")).toMatchObject({
      msg: expect.stringMatching(
        /^GET \/api\/1_12\/events 401 [\d.]+ ms: urn:problem-type:invalid-api-key \(The API key is not valid\.\)$/,
      ),
      problem: { type: "urn:problem-type:invalid-api-key" },
    });
    // what the client sent is written once in its line: a preference no response meets, quoted by its detail
    await fetch(`${base}/wage-rules`, {
      headers: { "x-api-key": "first-key", prefer: "example=marker-of-the-client" },
    });
    const preferred = await vi.waitUntil(
      () =>
        server.output
          .join("")
          .split("\n")
          // whole lines only: the last piece may be a line still coming
          .slice(0, -1)
          .find((line) => line.includes("marker-of-the-client")),
      { timeout: 10_000 },
    );
    expect(preferred.split("marker-of-the-client")).toHaveLength(2);
    expect(log).not.toContain("first-key");
    expect(log).not.toContain("second-key");
  });

  it("stops gracefully on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
