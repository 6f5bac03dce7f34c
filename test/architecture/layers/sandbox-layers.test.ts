/**
 * The sandbox is rules over repositories: `sandbox/service/` holds the operations' rules and
 * imports the store, `sandbox/store/` holds every SQL statement and the engine, and never imports
 * the service. Each relative import of a module of either folder is checked against what its folder
 * may import, and the modules outside the store (the service, the seed's reading, the sandbox's
 * start and server) are checked to build no SQL of their own (no query builder call, no `sql`
 * template, neither `sql` nor `expressionBuilder` imported from Kysely): a statement written
 * there would escape the one place the statements are reviewed (their texts, their plans on Citus).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importsIn } from "../../support/imports.js";

const SANDBOX = join(import.meta.dirname, "../../../sandbox");

/** Each layer, and the folders of `sandbox/` its modules may import from (its own among them). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  service: ["service", "store"],
  store: ["store", "seed"],
};

/** The TypeScript modules of a folder of the sandbox and of the folders in it, as paths relative to `sandbox/`. */
function modulesOf(folder: string, deep = true): string[] {
  return readdirSync(join(SANDBOX, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return deep ? modulesOf(path) : [];
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The folder of `sandbox/` a relative import of `module` lands in ("." for the sandbox's own top level). */
function folderOf(module: string, target: string): string {
  const landed = relative(SANDBOX, join(SANDBOX, dirname(module), target));
  return landed.includes("/") ? (landed.split("/")[0] ?? "") : ".";
}

describe("the sandbox's layers", () => {
  for (const [layer, allowed] of Object.entries(MAY_IMPORT)) {
    it(`${layer}/ imports only from ${allowed.join(", ")}`, () => {
      const modules = modulesOf(layer);
      expect(modules.length).toBeGreaterThan(5);
      const outside = modules.flatMap((module) =>
        importsIn(`sandbox/${module}`, readFileSync(join(SANDBOX, module), "utf8"))
          .map((line) => line.specifier)
          .filter((target) => !allowed.includes(folderOf(module, target)))
          .map((target) => `${module} → ${target}`),
      );
      expect(outside).toEqual([]);
    });
  }

  // the service, the seed's reading and the sandbox's own modules (its start, server, settings)
  for (const folder of ["service", "seed", "."]) {
    it(`${folder === "." ? "sandbox/'s own modules build" : `${folder}/ builds`} no SQL: every statement is the store's`, () => {
      const found = modulesOf(folder, folder !== ".").flatMap((module) =>
        sqlBuiltIn(readFileSync(join(SANDBOX, module), "utf8")).map((what) => `${module}: ${what}`),
      );
      expect(found).toEqual([]);
    });
  }

  it("sees the faults it looks for", () => {
    // the checks above, on text that breaks them: a pattern that matches nothing fails here
    expect(folderOf("store/records/events.ts", "../../service/events.js")).toBe("service");
    expect(folderOf("store/records/events.ts", "../engine/citus.js")).toBe("store");
    expect(folderOf("service/events.ts", "../sandbox.js")).toBe(".");
    const written =
      'import {\n  type Kysely,\n  sql,\n} from "kysely";\nawait db.selectFrom("venues");\nsql`select 1`;';
    expect(sqlBuiltIn(written)).toEqual([
      'import {\n  type Kysely,\n  sql,\n} from "kysely"',
      'db.selectFrom("venues")',
      "sql`select 1`",
    ]);
    expect(sqlBuiltIn('import type { Kysely } from "kysely";\nimport { Kysely, type SqlBool } from "kysely";')).toEqual(
      [],
    );
  });
});

/** What of the text builds SQL: a query builder's call, a `sql` template, a `statement(...)`, `sql` or `expressionBuilder` imported from Kysely. */
function sqlBuiltIn(text: string): string[] {
  const builders =
    /import\s*\{[^}]*(?<!type\s+)\b(?:sql|expressionBuilder)\b[^}]*\}\s*from\s*"kysely"|\w+\.(?:selectFrom|insertInto|updateTable|deleteFrom|with)\([^)]*\)|\bsql(?:<[^>]*>)?`[^`]*`|\bstatement\(/g;
  return [...text.matchAll(builders)].map((match) => match[0]);
}
