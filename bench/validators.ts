/**
 * Generated validators vs Ajv 2020 (and TypeBox's compiler, for reference) on the request
 * bodies of the contract, the upload's form fields and the event list response:
 * `npx tsx bench/validators.ts` (npm run bench:validators).
 * Schemas come from spec/openapi.yaml; each payload is checked for the expected verdict on
 * every side before timing. Tasks run batches of calls so the timer's resolution does not
 * dominate; the table shows the median over rounds of each round's median ops/s. Each payload
 * runs in a fresh process (see main).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FormatRegistry, type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { Bench } from "tinybench";
import YAML from "yaml";
import { compileValidatorModule } from "../src/compiler/index.js";

type Check = (value: unknown) => boolean;
type Json = Record<string, unknown>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;
const ROUNDS = 5;
const BATCH = 1000;

/** Component names, in the order tried (the first that exists is used). */
const SCHEMAS: Record<string, string[]> = {
  "venue create": ["VenueCreate"],
  "event create": ["EventCreate"],
  "client edit": ["ClientUpdate", "ClientEdit"],
  "credential create": ["WorkerCredentialCreate", "CredentialCreate"],
  "upload fields": ["WorkerDocumentUpload", "DocumentUpload"],
  "list response": ["EventList"],
};

const customFields = Array.from({ length: 5 }, (_, i) => ({ key: `field_${i}`, value: `value number ${i}` }));
const venue = {
  venue_id: "v_1042",
  name: "Riverside Hall",
  address: "12 Quay Street",
  city: "Bristol",
  zip: "BS1 4DJ",
  saved: "1",
};
const event = {
  name: "Spring Gala",
  date: "2024-05-17",
  venue,
  job_id: "JOB-77",
  client_id: "ACME42",
  admin_comments: "Load-in at 4pm.",
  comments: "Black tie.",
  custom_fields_text: customFields,
  custom_fields_id: customFields,
};
const client = {
  client_name: "Acme Events Ltd",
  client_contact_name: "Ada Lovelace",
  client_contact_email: "ada@example.com",
  client_invoice_customer_id: "CUST-9",
  client_address: "1 Main Street\nSuite 200",
  client_city: "Springfield",
  client_state: "IL",
  client_postal_code: "62701",
};
const credential = {
  credentials_id: "cred_17",
  p_id: "p_3",
  date_completed: "2024-01-15T10:00:00Z",
  date_expired: "2026-01-15T10:00:00+01:00",
  clients_id: null,
  locations_id: "loc_8",
  file_name: "cert.pdf",
  file_type: "application/pdf",
  file: null,
  name: "First aid",
};

const upload = {
  p_id: 1042,
  name: "Signed contract 2024",
  file: "%PDF-1.7 (binary file content)",
  type: "application/pdf",
  file_name: "contract-2024.pdf",
};
const listed = (id: number): Json => ({
  id,
  name: `Event ${id}`,
  date: "2024-04-20",
  event_id: `EV${id}`,
  client_id: "HARBOR42",
  created: "2024-02-11",
  location: { id: 318, name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: true },
  admin_origin: { personnel_id: 7, name: "Dana Ortiz" },
  reviewer: { personnel_id: 12, name: "Lee Chen" },
  time_tracking_manager: { personnel_id: 15, name: "Priya Nair" },
  custom_fields: [
    { id: "4", name: "Dress code", value: "Black tie" },
    { id: "5", name: "Parking", value: "On site" },
  ],
});
/** A page of ten events; in the invalid one the last event's `id` is not an integer (an `Event` allows any number). */
const page = Array.from({ length: 10 }, (_, i) => listed(9001 + i));
const eventList = { data: page, total_count: 42 };

/** Valid payloads and invalid ones (one error each), per schema. */
const PAYLOADS: Record<string, { valid: unknown; invalid: unknown }> = {
  "venue create": {
    valid: { name: "The Grand Hall", address: "1234 Main Street", city: "Springfield", zip: "62701", saved: 1 },
    invalid: {
      name: "The Grand Hall",
      address: "1234 Main Street",
      city: "Springfield",
      zip: "62701-0001-XX",
      saved: 1,
    },
  },
  "event create": { valid: event, invalid: { ...event, client_id: "-ACME42" } },
  "client edit": { valid: client, invalid: { ...client, client_name: "" } },
  "credential create": { valid: credential, invalid: { ...credential, date_expired: "2026-01-15 10:00" } },
  "upload fields": {
    valid: upload,
    invalid: { ...upload, type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  },
  "list response": {
    valid: eventList,
    invalid: { ...eventList, data: [...page.slice(0, -1), { ...listed(9010), id: 9010.5 }] },
  },
};

/**
 * Each payload is measured in a process of its own: measured one after another in one process,
 * the figures of a payload depend on which payloads ran before it (the generated client-edit
 * validator, unchanged, measured 35M ops/s after the event payloads and 57M without them), and
 * that says more about the order of the table than about the validator.
 */
async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const label of Object.keys(PAYLOADS)) rows.push(...(await inChild(label)));
  printTable(rows);
}

/** Runs this file for one payload in a fresh process and reads its rows. */
async function inChild(label: string): Promise<Row[]> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--payload", label], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`measuring ${label} failed (exit ${code})`);
  const rows = output.split("\n").find((line) => line.startsWith("rows "));
  if (rows === undefined) throw new Error(`measuring ${label} printed no figures`);
  console.log(`measured ${label}`);
  return JSON.parse(rows.slice("rows ".length)) as Row[];
}

/** In a child: the rows of one payload, printed as JSON. */
async function measurePayload(label: string): Promise<void> {
  const document = loadDocument();
  const pointers = Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, names]) => [name, pointerFor(document, names)]),
  );
  const ours = await compileOurs(document, pointers);
  const ajv = compileAjv(document, pointers);
  const typebox = compileTypeBox(document, pointers);
  const rows: Row[] = [];
  const payloads = PAYLOADS[label];
  if (payloads === undefined) throw new Error(`no payload named ${label}`);
  for (const kind of ["valid", "invalid"] as const) {
    const payload = payloads[kind];
    const sides = { ours: ours[label] as Check, ajv: ajv[label] as Check, typebox: typebox[label] as Check };
    for (const [side, check] of Object.entries(sides)) {
      if (side !== "typebox" && check(payload) !== (kind === "valid"))
        throw new Error(`${side} gives the wrong verdict for ${label} (${kind})`);
    }
    rows.push({ label: `${label} (${kind})`, kind, ...(await measure(sides, payload)) });
  }
  process.stdout.write(`rows ${JSON.stringify(rows)}\n`);
}

function loadDocument(): Json {
  const path = join(process.cwd(), "spec", "openapi.yaml");
  if (existsSync(path)) return YAML.parse(readFileSync(path, "utf8")) as Json;
  console.log("spec/openapi.yaml is missing: using inline copies of the schemas measured");
  return FALLBACK_DOCUMENT;
}

const text = (maxLength?: number): Json =>
  maxLength === undefined ? { type: "string" } : { type: "string", maxLength };

/** The same shapes as the contract's schemas, for when spec/openapi.yaml is absent. */
const FALLBACK_DOCUMENT: Json = {
  openapi: "3.1.0",
  components: {
    schemas: {
      VenueCreate: {
        type: "object",
        required: ["name", "address", "city", "zip"],
        additionalProperties: false,
        properties: {
          name: text(150),
          address: text(150),
          city: text(75),
          zip: text(10),
          saved: { type: "integer", minimum: 0, maximum: 1 },
        },
      },
      CustomFieldInput: { type: "object", required: ["key", "value"], properties: { key: text(), value: text() } },
      EventCreate: {
        type: "object",
        required: ["name", "date", "venue"],
        properties: {
          name: text(),
          date: { type: "string", format: "date" },
          venue: {
            type: "object",
            properties: Object.fromEntries(
              ["venue_id", "name", "address", "city", "zip", "saved"].map((key) => [key, text()]),
            ),
          },
          job_id: text(150),
          client_id: { type: "string", pattern: "^[A-Za-z0-9]+" },
          admin_comments: text(65535),
          comments: text(65535),
          custom_fields_text: { type: "array", items: { $ref: "#/components/schemas/CustomFieldInput" } },
          custom_fields_id: { type: "array", items: { $ref: "#/components/schemas/CustomFieldInput" } },
          event_id: false,
        },
      },
      ClientUpdate: {
        type: "object",
        required: ["client_name"],
        properties: {
          client_name: { type: "string", minLength: 1, maxLength: 255 },
          ...Object.fromEntries(
            [
              "client_contact_name",
              "client_contact_email",
              "client_invoice_customer_id",
              "client_city",
              "client_state",
              "client_postal_code",
            ].map((key) => [key, text(255)]),
          ),
          client_address: text(65535),
        },
      },
      WorkerCredentialCreate: {
        type: "object",
        properties: {
          ...Object.fromEntries(
            ["credentials_id", "p_id", "file_name", "file_type", "name"].map((key) => [key, text()]),
          ),
          date_completed: { type: "string", format: "date-time" },
          date_expired: { type: "string", format: "date-time" },
          ...Object.fromEntries(
            ["clients_id", "locations_id", "file"].map((key) => [key, { type: ["string", "null"] }]),
          ),
        },
      },
      WorkerDocumentUpload: {
        type: "object",
        properties: {
          p_id: { type: "integer" },
          name: { type: "string", minLength: 1, maxLength: 100 },
          file: { type: "string", format: "binary", contentMediaType: "application/octet-stream" },
          type: { type: "string", minLength: 1, maxLength: 20 },
          file_name: text(),
        },
      },
      Location: {
        type: "object",
        properties: {
          id: { type: "integer" },
          ...Object.fromEntries(["name", "address", "city", "zip"].map((key) => [key, text()])),
          saved: { type: "boolean" },
        },
      },
      EventPersonnel: { type: "object", properties: { personnel_id: { type: "integer" }, name: text() } },
      CustomField: { type: "object", properties: { id: text(), name: text(), value: text() } },
      Event: {
        type: "object",
        properties: {
          id: { type: "number" },
          name: text(),
          date: { type: "string", format: "date" },
          event_id: text(),
          client_id: text(),
          created: { type: "string", format: "date" },
          location: { $ref: "#/components/schemas/Location" },
          admin_origin: { $ref: "#/components/schemas/EventPersonnel" },
          reviewer: { $ref: "#/components/schemas/EventPersonnel" },
          time_tracking_manager: { $ref: "#/components/schemas/EventPersonnel" },
          custom_fields: { type: "array", items: { $ref: "#/components/schemas/CustomField" } },
        },
      },
      EventListItem: {
        allOf: [{ $ref: "#/components/schemas/Event" }, { type: "object", properties: { id: { type: "integer" } } }],
      },
      EventList: {
        type: "object",
        properties: {
          data: { type: "array", items: { $ref: "#/components/schemas/EventListItem" } },
          total_count: { type: "integer" },
        },
      },
    },
  },
};

function pointerFor(document: Json, names: readonly string[]): string {
  const schemas = (document["components"] as { schemas: Json }).schemas;
  const name = names.find((candidate) => candidate in schemas);
  if (name === undefined) throw new Error(`none of ${names.join(", ")} is in components.schemas`);
  return `#/components/schemas/${name}`;
}

async function compileOurs(document: Json, pointers: Record<string, string>): Promise<Record<string, Check>> {
  const labels = Object.keys(pointers);
  const entries = labels.map((label, index) => ({
    name: `validate${index}`,
    schema: { pointer: pointers[label] as string },
  }));
  const directory = mkdtempSync(join(tmpdir(), "bench-validators-"));
  const file = join(directory, "validators.ts");
  writeFileSync(file, compileValidatorModule({ document, entries }));
  const module = (await import(pathToFileURL(file).href)) as Record<string, (value: unknown) => { valid: boolean }>;
  rmSync(directory, { recursive: true, force: true });
  return Object.fromEntries(
    labels.map((label, index) => {
      const validate = module[`validate${index}`] as (value: unknown) => { valid: boolean };
      return [label, own(validate, "(value) => validate(value).valid", "validate")];
    }),
  );
}

function compileAjv(document: Json, pointers: Record<string, string>): Record<string, Check> {
  const ajv = new Ajv2020({ strict: false, unicodeRegExp: true });
  addFormats(ajv);
  ajv.addSchema(document, "doc");
  return Object.fromEntries(
    Object.entries(pointers).map(([label, pointer]) => [label, ajv.getSchema(`doc${pointer}`) as Check]),
  );
}

/** TypeBox types built from the same JSON Schemas (TypeBox counts UTF-16 units for lengths). */
function compileTypeBox(document: Json, pointers: Record<string, string>): Record<string, Check> {
  FormatRegistry.Set("date", (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));
  FormatRegistry.Set("date-time", (value) =>
    /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value),
  );
  // an annotation (the upload's file), as in Ajv and in ours
  FormatRegistry.Set("binary", () => true);
  return Object.fromEntries(
    Object.entries(pointers).map(([label, pointer]) => {
      const compiled = TypeCompiler.Compile(toTypeBox(resolve(document, { $ref: pointer }), document));
      return [label, (value: unknown) => compiled.Check(value)];
    }),
  );
}

function resolve(document: Json, schema: unknown): Json {
  let current = schema as Json;
  while (typeof current["$ref"] === "string") {
    current = (current["$ref"] as string)
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Json)[key], document) as Json;
  }
  return current;
}

function toTypeBox(schema: Json | boolean, document: Json): TSchema {
  if (schema === false) return Type.Never();
  if (schema === true) return Type.Unknown();
  const node = resolve(document, schema);
  if (Array.isArray(node["allOf"])) return Type.Intersect(node["allOf"].map((part: Json) => toTypeBox(part, document)));
  const types = Array.isArray(node["type"]) ? (node["type"] as string[]) : [node["type"] as string];
  const options = Object.fromEntries(
    ["maxLength", "minLength", "pattern", "format", "minimum", "maximum"]
      .filter((key) => key in node)
      .map((key) => [key, node[key]]),
  );
  const members = types.map((type) => scalarOrContainer(type, node, options, document));
  return members.length === 1 ? (members[0] as TSchema) : Type.Union(members);
}

function scalarOrContainer(type: string | undefined, node: Json, options: Json, document: Json): TSchema {
  switch (type) {
    case "string":
      return Type.String(options);
    case "integer":
      return Type.Integer(options);
    case "number":
      return Type.Number(options);
    case "boolean":
      return Type.Boolean();
    case "null":
      return Type.Null();
    case "array":
      return Type.Array(toTypeBox(node["items"] as Json, document));
    case "object": {
      const required = new Set((node["required"] as string[] | undefined) ?? []);
      const properties = Object.entries((node["properties"] as Json | undefined) ?? {}).map(([name, value]) => {
        const type = toTypeBox(value as Json, document);
        return [name, required.has(name) ? type : Type.Optional(type)];
      });
      return Type.Object(
        Object.fromEntries(properties),
        node["additionalProperties"] === false ? { additionalProperties: false } : {},
      );
    }
    default:
      return Type.Unknown();
  }
}

interface Row {
  label: string;
  kind: "valid" | "invalid";
  ours: number;
  ajv: number;
  typebox: number;
}

/** Median over rounds of ops/s for each side; each round measures every side once, in turn. */
async function measure(
  sides: Record<"ours" | "ajv" | "typebox", Check>,
  payload: unknown,
): Promise<Omit<Row, "label" | "kind">> {
  const samples: Record<string, number[]> = { ours: [], ajv: [], typebox: [] };
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: 200, warmupTime: 50 });
    for (const [side, check] of Object.entries(sides)) {
      const batch = own(
        check,
        `() => { let n = 0; for (let i = 0; i < ${BATCH}; i++) if (check(payload)) n++; return n; }`,
        "check",
        payload,
      ) as unknown as () => number;
      bench.add(side, () => {
        sink += batch();
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result as { throughput?: { p50: number } };
      samples[task.name]?.push((result.throughput?.p50 ?? 0) * BATCH);
    }
  }
  if (sink < 0) console.log(sink);
  return {
    ours: median(samples["ours"] ?? []),
    ajv: median(samples["ajv"] ?? []),
    typebox: median(samples["typebox"] ?? []),
  };
}

/**
 * A function compiled from its own source text, so it has feedback of its own: closures made at
 * one place in the code share one feedback vector, which would make every call site in them see
 * every validator measured and measure the mix instead of the validator.
 */
function own(target: unknown, source: string, name: string, payload?: unknown): Check {
  return new Function(name, "payload", `return ${source};`)(target, payload) as Check;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function printTable(rows: readonly Row[]): void {
  const format = (value: number): string => Math.round(value).toLocaleString("en-US").padStart(13);
  console.log(
    `${"payload".padEnd(28)}${"ours ops/s".padStart(13)}${"Ajv ops/s".padStart(13)}${"TypeBox ops/s".padStart(14)}${"ours/Ajv".padStart(10)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(28)}${format(row.ours)}${format(row.ajv)} ${format(row.typebox)}${(row.ours / row.ajv).toFixed(2).padStart(9)}x`,
    );
  }
  for (const kind of ["valid", "invalid"] as const) {
    const ratios = rows.filter((row) => row.kind === kind).map((row) => row.ours / row.ajv);
    console.log(
      `median ours/Ajv on ${kind} payloads${kind === "invalid" ? " (first error)" : ""}: ${median(ratios).toFixed(2)}x`,
    );
  }
  console.log("TypeBox is a reference: it counts string lengths in UTF-16 units and has no format checks of its own.");
}

const payloadAt = process.argv.indexOf("--payload");
if (payloadAt === -1) await main();
else await measurePayload(process.argv[payloadAt + 1] ?? "");
