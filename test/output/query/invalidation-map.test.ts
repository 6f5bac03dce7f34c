/**
 * The invalidation map, for every mutation of this repository's spec and of two corpus
 * documents: the Swagger petstore (paths that are not collections: the schema rule does the work)
 * and Train Travel (a payment below a booking: the nested-path rule).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { invalidates } from "../../../generated/query/index.js";
import { buildInvalidationMap, type InvalidationMap } from "../../../src/emit/query/invalidation-map.js";
import { buildModel, loadSpec } from "../../../src/index.js";
import { corpusAvailable, corpusDir, repoRoot } from "../../support/paths.js";

async function mapOf(spec: string): Promise<InvalidationMap> {
  const loaded = await loadSpec(spec);
  return buildInvalidationMap(buildModel(loaded, spec).model, loaded.document);
}

describe("the invalidation map", () => {
  it("of this spec, with the reason of every entry; the generated `invalidates` holds the same", async () => {
    const map = await mapOf(join(repoRoot, "spec/openapi.yaml"));
    expect(map).toEqual({
      addWorkerCredential: [],
      addWorkerDocument: [],
      createEvent: [{ query: "listEvents", reasons: ["path"] }],
      createPayrollGroup: [],
      createVenue: [],
      updateClient: [],
      updateEvent: [{ query: "listEvents", reasons: ["collection", "schema"] }],
    });
    expect(invalidates).toEqual(
      Object.fromEntries(
        Object.entries(map).map(([mutation, entries]) => [mutation, entries.map((entry) => entry.query)]),
      ),
    );
  });

  const corpus = corpusAvailable("invalidation maps of corpus documents");

  it.runIf(corpus)("of the Swagger petstore (petstore3.yaml)", async () => {
    const pet = (...reasons: string[]) => [
      { query: "findPetsByStatus", reasons: ["schema"] },
      { query: "findPetsByTags", reasons: ["schema"] },
      { query: "getPetById", reasons },
    ];
    expect(await mapOf(join(corpusDir, "openapi", "petstore3.yaml"))).toEqual({
      addPet: pet("schema"),
      createUser: [{ query: "getUserByName", reasons: ["schema"] }],
      createUsersWithListInput: [{ query: "getUserByName", reasons: ["schema"] }],
      deleteOrder: [{ query: "getOrderById", reasons: ["path"] }],
      deletePet: [{ query: "getPetById", reasons: ["path"] }],
      deleteUser: [{ query: "getUserByName", reasons: ["path"] }],
      placeOrder: [{ query: "getOrderById", reasons: ["schema"] }],
      updatePet: pet("schema"),
      updatePetWithForm: pet("path", "schema"),
      updateUser: [{ query: "getUserByName", reasons: ["path", "schema"] }],
      uploadFile: [{ query: "getPetById", reasons: ["collection"] }],
    });
  });

  it.runIf(corpus)("of Train Travel (train-travel.yaml), whose payment is below a booking", async () => {
    expect(await mapOf(join(corpusDir, "openapi", "train-travel.yaml"))).toEqual({
      createBooking: [
        { query: "getBooking", reasons: ["schema"] },
        { query: "getBookings", reasons: ["path", "schema"] },
      ],
      createBookingPayment: [
        { query: "getBooking", reasons: ["collection"] },
        { query: "getBookings", reasons: ["collection"] },
      ],
      deleteBooking: [
        { query: "getBooking", reasons: ["path"] },
        { query: "getBookings", reasons: ["collection"] },
      ],
    });
  });
});
