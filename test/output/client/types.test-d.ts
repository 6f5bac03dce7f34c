/**
 * Compile-time checks of the generated client's signatures (a type test: `npm run typecheck`
 * checks it, vitest does not run it): `tsc --noEmit -p .` fails when an `expectTypeOf` does not
 * hold or a `@ts-expect-error` line compiles.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { FileInput } from "../../../generated/client/index.js";
import {
  type Client,
  type ClientOptions,
  createClient,
  type Event,
  type EventList,
  type PayrollGroup,
  type Venue,
  type WageRules,
  type WorkerCredential,
  type WorkerDocument,
} from "../../../generated/index.js";

declare const client: Client;
const venue = { name: "Hall", address: "1 Road", city: "Bristol", zip: "BS1" };
const eventBody = { name: "Gala", date: "2024-04-20", venue: {} };

/** Wrapped so the calls are type-checked but never made. */
function compileOnly(check: () => unknown): void {
  void check;
}

describe("generated client types", () => {
  it("returns the success body types", () => {
    compileOnly(() => {
      expectTypeOf(client.createVenue({ body: venue })).resolves.toEqualTypeOf<Venue>();
      expectTypeOf(client.createEvent({ body: eventBody })).resolves.toEqualTypeOf<number>();
      expectTypeOf(
        client.updateClient({ path: { id: "c" }, body: { client_name: "n" } }),
      ).resolves.toEqualTypeOf<boolean>();
      expectTypeOf(client.updateEvent({ path: { id: "e" }, body: eventBody })).resolves.toEqualTypeOf<Event>();
      expectTypeOf(client.listEvents()).resolves.toEqualTypeOf<EventList>();
      expectTypeOf(client.listWageRules()).resolves.toEqualTypeOf<WageRules>();
      expectTypeOf(client.createPayrollGroup({ body: {} })).resolves.toEqualTypeOf<PayrollGroup>();
      expectTypeOf(
        client.addWorkerCredential({ path: { id: 1 }, body: {} }),
      ).resolves.toEqualTypeOf<WorkerCredential>();
      expectTypeOf(client.addWorkerDocument({ path: { id: 1 }, body: {} })).resolves.toEqualTypeOf<WorkerDocument>();
    });
  });

  it("types parameters and bodies from the contract", () => {
    expectTypeOf<Parameters<Client["updateEvent"]>[0]["path"]>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<Parameters<Client["addWorkerCredential"]>[0]["path"]>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<NonNullable<Parameters<Client["addWorkerDocument"]>[0]["body"]["file"]>>().toEqualTypeOf<FileInput>();
    expectTypeOf<Parameters<Client["listEvents"]>[0]>().toEqualTypeOf<{ readonly [key: string]: never } | undefined>();
    expectTypeOf<Parameters<Client["createVenue"]>[1]>().toEqualTypeOf<
      | {
          readonly signal?: AbortSignal;
          readonly timeoutMs?: number;
          readonly headers?: Readonly<Record<string, string>>;
        }
      | undefined
    >();
  });

  it("rejects what the contract does not allow", () => {
    compileOnly(() => [
      // @ts-expect-error a body field of the wrong type
      client.createVenue({ body: { ...venue, saved: "yes" } }),
      // @ts-expect-error a body field the schema does not have
      client.createVenue({ body: { ...venue, capacity: 300 } }),
      // @ts-expect-error a required body field missing
      client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Bristol" } }),
      // @ts-expect-error the path parameter missing
      client.updateEvent({ body: eventBody }),
      // @ts-expect-error a path parameter of the wrong type
      client.addWorkerCredential({ path: { id: "1042" }, body: {} }),
      // @ts-expect-error the body missing
      client.createVenue({}),
      // @ts-expect-error a file field given as text
      client.addWorkerDocument({ path: { id: 1 }, body: { file: "bytes" } }),
      // @ts-expect-error an operation without parameters takes none
      client.listEvents({ query: { page: 1 } }),
      // @ts-expect-error an unknown call option
      client.listEvents(undefined, { retries: 2 }),
    ]);
  });

  it("accepts every kind of file input and the call options", () => {
    compileOnly(() => [
      client.addWorkerDocument({ path: { id: 1 }, body: { file: new Blob([]) } }),
      client.addWorkerDocument({ path: { id: 1 }, body: { file: Buffer.from("x") } }),
      client.addWorkerDocument({ path: { id: 1 }, body: { file: new Uint8Array(1), name: "n" } }),
      client.addWorkerDocument({
        path: { id: 1 },
        body: { file: { data: new Blob([]), filename: "a.pdf", contentType: "application/pdf" } },
      }),
      client.listEvents({}, { signal: AbortSignal.timeout(10), timeoutMs: 5, headers: { "x-trace": "1" } }),
    ]);
  });

  it("requires the API key, and types the server variables", () => {
    expectTypeOf<ClientOptions["apiKey"]>().toEqualTypeOf<string>();
    expectTypeOf(createClient).parameter(0).toEqualTypeOf<ClientOptions>();
    compileOnly(() => [
      createClient({ apiKey: "k", serverVariables: { base_url: "http://127.0.0.1:1234" } }),
      createClient({ apiKey: "k", retry: { retries: 2, minDelayMs: 10 }, timeoutMs: 1000, validateResponses: true }),
      // @ts-expect-error the API key is required
      createClient({ baseUrl: "http://127.0.0.1:1234" }),
      // @ts-expect-error an unknown server variable
      createClient({ apiKey: "k", serverVariables: { region: "eu" } }),
    ]);
  });
});
