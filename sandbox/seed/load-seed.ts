/**
 * Reading and checking a seed. A seed file is YAML or JSON (JSON is read as YAML, which it is);
 * it is checked against the seed's JSON Schema (the compiled ./validate-seed.ts), then for what a
 * schema cannot say: ids unique where they name a record, and each key held by one of its company's
 * people. Every problem is reported, each with the file, line and column and the field's path, in
 * one error.
 */
import { readFile } from "node:fs/promises";
import { requirePeer } from "../store/engine/engine.js";
import type { Seed, SeedCompany } from "./seed.js";
import { validateSeed } from "./validate-seed.js";

/** A seed that cannot be used: every problem found, one per line. */
export class SeedError extends Error {
  readonly problems: readonly string[];
  constructor(source: string, problems: readonly string[]) {
    super(`${source} is not a usable seed:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
    this.name = "SeedError";
    this.problems = problems;
  }
}

/** Where a field of the seed stands in its source ("seed.yaml:7:9"), for messages. */
type Locate = (path: readonly (string | number)[]) => string;

/** Reads and checks a seed file (YAML or JSON). */
export async function readSeedFile(file: string): Promise<Seed> {
  const { LineCounter, parseDocument } = await requirePeer("yaml", () => import("yaml"));
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SeedError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  if (document.errors.length > 0)
    throw new SeedError(
      file,
      document.errors.map((error) => `${at(error.pos[0])} ${error.message.split("\n")[0]}`),
    );
  const locate: Locate = (path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range !== undefined) return at(node.range[0]);
    }
    return file;
  };
  return checkSeed(document.toJS({ maxAliasCount: 100 }), file, locate);
}

/**
 * Checks a seed given as a value (parsed, or written in code), and returns it typed. `source`
 * names it in messages; `locate` places a field in its text, when there is one.
 */
export function checkSeed(value: unknown, source = "the seed", locate: Locate = () => source): Seed {
  const result = validateSeed(value, { allErrors: true });
  if (!result.valid) {
    throw new SeedError(
      source,
      result.errors.map((error) => {
        const path = pathOf(error.instancePath);
        // a field that should not be there is placed where it is, not where its object starts
        const extra = error.params.additionalProperty ?? error.params.unevaluatedProperty;
        const at = typeof extra === "string" ? [...path, extra] : path;
        return `${locate(at)} ${describe(path)} ${error.message.slice(error.instancePath.length).trimStart()}`;
      }),
    );
  }
  const seed = value as Seed;
  const problems = seed.companies
    .flatMap((company, index) => companyProblems(company, index, seed))
    .map(([path, message]) => `${locate(path)} ${describe(path)} ${message}`);
  if (problems.length > 0) throw new SeedError(source, problems);
  return seed;
}

type Problem = [path: (string | number)[], message: string];

function companyProblems(company: SeedCompany, index: number, seed: Seed): Problem[] {
  const at = (...path: (string | number)[]): (string | number)[] => ["companies", index, ...path];
  const problems: Problem[] = [];
  const first = seed.companies.findIndex((other) => other.company_id === company.company_id);
  if (first !== index) problems.push([at("company_id"), `repeats the company_id of companies/${first}`]);
  const people = new Set(company.personnel.map((person) => person.personnel_id));
  company.api_keys.forEach((key, k) => {
    if (!people.has(key.personnel_id))
      problems.push([at("api_keys", k, "personnel_id"), `names no person of this company (${key.personnel_id})`]);
    const holder = seed.companies.findIndex((other) => other.api_keys.some((their) => their.key === key.key));
    const again = company.api_keys.findIndex((their) => their.key === key.key);
    if (holder !== index || again !== k)
      problems.push([at("api_keys", k, "key"), "repeats a key given before: a key identifies one caller"]);
  });
  problems.push(...repeated(company.personnel, (person) => person.personnel_id, at("personnel"), "personnel_id"));
  problems.push(...repeated(company.clients ?? [], (client) => client.id, at("clients"), "id"));
  problems.push(
    ...repeated(
      company.credential_types ?? [],
      (type) => type.credentials_id,
      at("credential_types"),
      "credentials_id",
    ),
  );
  problems.push(...repeated(company.wage_rules ?? [], (rule) => String(rule.id), at("wage_rules"), "id"));
  problems.push(...repeated(company.venues ?? [], (venue) => venue.venue_id, at("venues"), "venue_id"));
  return problems;
}

/** A problem for each record whose id an earlier record of the list already has. */
function repeated<T>(
  records: readonly T[],
  idOf: (record: T) => unknown,
  path: (string | number)[],
  field: string,
): Problem[] {
  const seen = new Map<unknown, number>();
  const problems: Problem[] = [];
  records.forEach((record, index) => {
    const id = idOf(record);
    if (id === undefined) return;
    const before = seen.get(id);
    if (before === undefined) seen.set(id, index);
    else
      problems.push([
        [...path, index, field],
        `repeats the ${field} of ${path.at(-1)}/${before} (${JSON.stringify(id)})`,
      ]);
  });
  return problems;
}

function pathOf(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

function describe(path: readonly (string | number)[]): string {
  return path.length === 0 ? "the seed" : path.join("/");
}
