/**
 * Seeds: a YAML or JSON file (or an object) is checked against the seed schema and for what a
 * schema cannot say, with every problem reported at once at its file, line and field; a good one is
 * what a sandbox starts from. And the compiled seed validator is what the compiler makes of the
 * schema today.
 */
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSeed, createSandbox, DEMO_SEED, readSeedFile, SeedError } from "../../../../sandbox/index.js";
import { SEED_VALIDATOR_FILE, seedValidatorSource } from "../../../../scripts/compile-seed-schema.js";
import { makeTempDir } from "../../../support/paths.js";
import { call } from "../../../support/sandbox-calls.js";

async function seedFile(name: string, text: string): Promise<string> {
  const file = join(await makeTempDir("seed"), name);
  await writeFile(file, text);
  return file;
}

/** The problems a seed file is refused with, its folder left out. */
async function problems(name: string, text: string): Promise<readonly string[]> {
  const file = await seedFile(name, text);
  const error = await readSeedFile(file).then(
    () => expect.fail("the seed was accepted"),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SeedError);
  expect((error as Error).message.split("\n")[0]).toBe(`${file} is not a usable seed:`);
  return (error as SeedError).problems.map((problem) => problem.replace(file, name));
}

const GOOD = `companies:
  - company_id: 1
    name: Harbor Events
    api_keys: [{ key: key-one, personnel_id: 7 }]
    personnel: [{ personnel_id: 7, name: Dana Ortiz }, { personnel_id: 1042, name: Sam Lee }]
    clients: [{ id: HARBOR42, client_name: Harbor Events Ltd }]
    credential_types:
      - { credentials_id: "3", name: First aid, description: Basic first aid, type: certificate, expiration_months: 24 }
    wage_rules: [{ id: "1", name: Standard }]
    venues: []
`;

describe("seed files", () => {
  it("starts a sandbox from a YAML seed, whose keys are then the only ones", async () => {
    const sandbox = await createSandbox({ seed: await seedFile("seed.yaml", GOOD) });
    try {
      expect((await call(sandbox.url, "listWageRules", { key: "key-one" })).body).toEqual({
        data: [{ id: "1", name: "Standard" }],
      });
      expect((await call(sandbox.url, "listWageRules", { key: "demo-key-harbor" })).status).toBe(401);
      const credential = await call(sandbox.url, "addWorkerCredential", {
        key: "key-one",
        path: { id: 1042 },
        json: { credentials_id: "3", clients_id: "HARBOR42" },
      });
      expect(credential.body).toMatchObject({
        company_id: 1,
        name: "First aid",
        client_name: "Harbor Events Ltd",
        submitter_name: "Dana Ortiz",
      });
    } finally {
      await sandbox.close();
    }
  });

  it("loads a seed larger than one statement's parameters, and resets to it", async () => {
    // 22,000 people and 11,000 venues: 66,000 and 66,000 values, past PostgreSQL's 65,535 a statement
    const personnel = Array.from({ length: 22_000 }, (_, i) => ({ personnel_id: i + 1, name: `Person ${i + 1}` }));
    const venues = Array.from({ length: 11_000 }, (_, i) => ({
      name: `V${i}`,
      address: "1 Road",
      city: "Town",
      zip: "Z",
    }));
    const seed = checkSeed({
      companies: [
        { company_id: 9, name: "Large", api_keys: [{ key: "key-large", personnel_id: 22_000 }], personnel, venues },
      ],
    });
    const sandbox = await createSandbox({ seed });
    try {
      await sandbox.reset();
      const venue = await call(sandbox.url, "createVenue", {
        key: "key-large",
        json: { name: "Next", address: "2 Road", city: "Town", zip: "Z" },
      });
      // the key's holder is the last person, in the seed's last statement of people
      expect(venue.body).toMatchObject({ venue_id: 11_001 });
    } finally {
      await sandbox.close();
    }
  });

  it("reads JSON as well", async () => {
    const json = JSON.stringify({
      companies: [
        {
          company_id: 2,
          name: "Co",
          api_keys: [{ key: "k", personnel_id: 1 }],
          personnel: [{ personnel_id: 1, name: "Ann" }],
        },
      ],
    });
    expect((await readSeedFile(await seedFile("seed.json", json))).companies[0]?.name).toBe("Co");
  });

  it("reports every problem of the schema and beyond it, each at its line and field", async () => {
    const text = GOOD.replace("personnel_id: 7 }]", "personnel_id: 8 }]").replace(
      "client_name: Harbor Events Ltd",
      `client_name: ${"x".repeat(256)}`,
    );
    expect(await problems("seed.yaml", text)).toEqual([
      "seed.yaml:6:44 companies/0/clients/0/client_name must be at most 255 characters",
    ]);
    expect(await problems("seed.yaml", GOOD.replace("personnel_id: 7 }]", "personnel_id: 8 }]"))).toEqual([
      "seed.yaml:4:46 companies/0/api_keys/0/personnel_id names no person of this company (8)",
    ]);
    const twice = `${GOOD}${GOOD.replace("companies:\n", "").replace("Harbor Events\n", "Harbor Again\n")}`;
    expect(await problems("seed.yaml", twice)).toEqual([
      "seed.yaml:11:17 companies/1/company_id repeats the company_id of companies/0",
      "seed.yaml:13:23 companies/1/api_keys/0/key repeats a key given before: a key identifies one caller",
    ]);
  });

  it("names unknown fields, wrong types and missing ones", async () => {
    const text = GOOD.replace("name: Harbor Events\n", "nme: Harbor Events\n")
      .replace("company_id: 1", "company_id: one")
      .replace("venues: []", "venues: [{ name: Hall, address: 1 Road, city: Town, zip: T1, floor: 2 }]");
    expect(await problems("seed.yaml", text)).toEqual([
      "seed.yaml:2:17 companies/0/company_id must be integer",
      "seed.yaml:3:10 companies/0 must not have additional property 'nme'",
      "seed.yaml:10:73 companies/0/venues/0 must not have unevaluated property 'floor'",
      "seed.yaml:2:5 companies/0 must have required property 'name'",
    ]);
  });

  it("reports a file that is not YAML or JSON, or not there, without a stack", async () => {
    expect((await problems("seed.json", '{"companies": [}'))[0]).toMatch(
      /^seed\.json:1:16 Flow sequence .* must .* end with a \]/,
    );
    expect(await problems("seed.yaml", "companies:\n  - company_id: 1\n    company_id: 2\n")).toEqual([
      expect.stringMatching(/^seed\.yaml:3:5 Map keys must be unique/),
    ]);
    await expect(readSeedFile("/nonexistent/seed.yaml")).rejects.toThrow(
      /^\/nonexistent\/seed\.yaml is not a usable seed:\n {2}cannot be read: ENOENT/,
    );
  });

  it("checks a seed given in code the same way", () => {
    expect(checkSeed(DEMO_SEED)).toBe(DEMO_SEED);
    expect(() => checkSeed({ companies: [] })).toThrow(
      "the seed is not a usable seed:\n  the seed companies must have at least 1 item",
    );
  });
});

describe("the compiled seed validator", () => {
  it("is what `npm run sandbox:schema` makes of seed.schema.json and the contract today", () => {
    expect(
      readFileSync(SEED_VALIDATOR_FILE, "utf8"),
      "run npm run sandbox:schema and commit sandbox/seed/validate-seed.ts",
    ).toBe(seedValidatorSource());
  });
});
