/**
 * The names a schema's type cannot take at the package root: every name the root exports beside the
 * schemas' types (the route table's, the client's) is reserved, the route types' read from the
 * runtime's own file, so an export added there is reserved without a list to update.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { RESERVED_TYPE_NAMES } from "../../../../src/model/names.js";
import { exportedDeclarations, ROUTE_TYPES_FILE } from "../../../../src/model/route-table-names.js";
import { repoRoot } from "../../../support/paths.js";

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  allowImportingTsExtensions: true,
  // the exports are all the test reads: no library's declarations need parsing
  noLib: true,
  types: [],
};

/** What the TypeScript compiler sees a module export, each name with the file that declares it. */
function compilerExports(file: string): { name: string; from: string }[] {
  const program = ts.createProgram([file], OPTIONS);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${file} is not a module`);
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, from: target.declarations?.[0]?.getSourceFile().fileName ?? "" };
  });
}

describe("the reserved type names", () => {
  it("are every name the route types export, as the TypeScript compiler sees them", () => {
    const seen = compilerExports(ROUTE_TYPES_FILE).map(({ name }) => name);
    expect(exportedDeclarations(readFileSync(ROUTE_TYPES_FILE, "utf8")).sort()).toEqual(seen.sort());
    expect(seen.filter((name) => !RESERVED_TYPE_NAMES.has(name))).toEqual([]);
  });

  it("cover every export of the package root but the schemas' types and each operation's routes", () => {
    const root = join(repoRoot, "generated", "index.ts");
    const operations = readFileSync(join(repoRoot, "generated", "routes.ts"), "utf8");
    const perOperation = new Set(
      [...operations.matchAll(/^export const (\w+) = \{[\s\S]*?\} as const satisfies (?:Call)?Route;$/gm)].map(
        (match) => match[1],
      ),
    );
    const exported = compilerExports(root).filter(
      ({ name, from }) => !from.endsWith("/generated/types.ts") && !perOperation.has(name),
    );
    expect(exported.length).toBeGreaterThan(40);
    expect(exported.filter(({ name }) => !RESERVED_TYPE_NAMES.has(name))).toEqual([]);
  });

  it("finds exports declared each way a module declares them", () => {
    const text = [
      "export interface A {}",
      "export type B<T> = T;",
      "export const c = 1;",
      "export function d() {}",
      "export class E {}",
      "export declare const f: number;",
      "const g = 1; // export const h",
      "  export const i = 1;",
    ].join("\n");
    expect(exportedDeclarations(text)).toEqual(["A", "B", "c", "d", "E", "f"]);
  });
});
