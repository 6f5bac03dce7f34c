/**
 * The mock and `discriminator.defaultMapping` (OpenAPI 3.2), over loopback and through the MSW
 * handlers in Node (test/fixtures/discriminator/default-mock.yaml): the answers built at generation
 * time and those `Prefer: dynamic=true` draws take the default's schema where it is the only way
 * (three distinct Signals, of which only two are tagged), build it without the tag its schema does
 * not allow, and tag the other schemas by the mapping's names; every answer is valid by the
 * generated validators, and the server, checking its answers, sends them.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { type FlightsHandler, type FlightsServer, withFlightsMsw } from "./flights.js";

type Validate = (value: unknown) => { valid: boolean };
type Stream = (args?: object, options?: { headers?: Record<string, string> }) => Promise<AsyncIterable<unknown>>;

const out = join(repoRoot, ".tmp", `mock-default-mapping-${process.pid}`);
let server: FlightsServer;
let document: unknown;
let validators: Record<string, Validate>;
let createClient: (options: { baseUrl: string; validateResponses?: boolean }) => { watchPets: Stream };
let app: FastifyInstance;
let base = "";

beforeAll(async () => {
  const result = await generate({ spec: join(repoRoot, "test/fixtures/discriminator/default-mock.yaml"), out });
  expect(result.diagnostics).toEqual([]);
  server = (await import(join(out, "server", "index.ts"))) as FlightsServer;
  validators = (await import(join(out, "validators", "index.ts"))) as Record<string, Validate>;
  ({ createClient } = (await import(join(out, "index.ts"))) as { createClient: typeof createClient });
  ({ default: document } = (await import(join(out, "openapi.json"), { with: { type: "json" } })) as {
    default: unknown;
  });
  app = await server.buildServer({
    handlers: server.answerPreferred(server.createMockHandlers(), document),
    authenticate: undefined,
    validateResponses: true,
  });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(out, { recursive: true, force: true });
});

/** GET `path` from `origin`: the status, Preference-Applied and the parsed body. */
async function get(origin: string, path: string, prefer?: string): Promise<[number, string | null, unknown]> {
  const response = await fetch(`${origin}${path}`, prefer === undefined ? {} : { headers: { prefer } });
  return [response.status, response.headers.get("preference-applied"), await response.json()];
}

/** What kind of Pet an answer is: its tag, or "other" for an OtherPet, which has none. */
const kindOf = (pet: unknown): string => String((pet as { petType?: unknown }).petType ?? "other");

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const got: unknown[] = [];
  for await (const item of items) got.push(item);
  return got;
}

/** The answers every test below checks, asked of `origin` (the Fastify server or MSW's). */
async function checkAnswers(origin: string): Promise<void> {
  const [status, , palette] = await get(origin, "/palette");
  expect(status).toBe(200);
  expect(validators["validateGetPaletteResponse200"]?.(palette).valid).toBe(true);
  // two Signals are tagged; the third distinct one is the default, without the tag it does not allow
  expect(palette).toEqual([{ color: "red" }, { color: "green" }, { label: expect.any(String) }]);
  const [petStatus, , pet] = await get(origin, "/pets/1");
  expect([petStatus, validators["validatePet"]?.(pet).valid]).toEqual([200, true]);
}

/** The kinds of Pet `Prefer: dynamic=true` draws for `count` seeds, each answer checked. */
async function dynamicKinds(origin: string, count: number): Promise<Set<string>> {
  const kinds = new Set<string>();
  for (let seed = 0; seed < count; seed++) {
    const [status, applied, pet] = await get(origin, "/pets/1", `dynamic=true; seed=${seed}`);
    expect([status, applied]).toEqual([200, `dynamic=true, seed=${seed}`]);
    expect(validators["validatePet"]?.(pet).valid).toBe(true);
    kinds.add(kindOf(pet));
  }
  return kinds;
}

describe("the mock with a defaultMapping, over loopback", () => {
  it("answers with the default's schema where it is the only way, valid", async () => {
    await checkAnswers(base);
  });

  it("draws each kind on Prefer: dynamic=true: mapped by name, and the default untagged", async () => {
    expect([...(await dynamicKinds(base, 30))].sort()).toEqual(["cat", "dog", "other"]);
    const [status, applied, palette] = await get(base, "/palette", "dynamic=true");
    expect([status, applied]).toEqual([200, "dynamic=true"]);
    expect(validators["validateGetPaletteResponse200"]?.(palette).valid).toBe(true);
  });

  it("streams Pets drawn with Prefer: dynamic=true, each read and checked by the client", async () => {
    const client = createClient({ baseUrl: base, validateResponses: true });
    const kinds = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      const pets = await collect(await client.watchPets({}, { headers: { prefer: `dynamic=true; seed=${seed}` } }));
      expect(pets).toHaveLength(3);
      for (const pet of pets) kinds.add(kindOf(pet));
    }
    expect([...kinds].sort()).toEqual(["cat", "dog", "other"]);
  });
});

describe("the mock with a defaultMapping, through the MSW handlers in Node", () => {
  it("answers and draws as the Fastify server does", async () => {
    const origin = "https://pets.mock";
    const handlers = server.answerPreferred(server.createMockHandlers(), document) as Record<string, FlightsHandler>;
    await withFlightsMsw(out, handlers, { baseUrl: origin, authenticate: undefined }, async () => {
      await checkAnswers(origin);
      expect([...(await dynamicKinds(origin, 30))].sort()).toEqual(["cat", "dog", "other"]);
    });
  });
});
