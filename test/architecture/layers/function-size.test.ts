/**
 * The sandbox's service (sandbox/service/) is read rule by rule, so no function of it is longer
 * than 40 lines, from its first line to its last: a longer one is split where its steps are. A
 * failure names the file, the line and the function.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../support/paths.js";

const MAX_LINES = 40;
const SERVICE = join("sandbox", "service");

/** Each function of a module longer than MAX_LINES, as "file:line name (n lines)". */
function longFunctions(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const lines = file.getLineAndCharacterOfPosition(node.end).line - first + 1;
      const label = node.name?.getText(file) ?? "an anonymous function";
      if (lines > MAX_LINES) found.push(`${name}:${first + 1} ${label} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("the sandbox's service", () => {
  it(`has no function longer than ${MAX_LINES} lines`, () => {
    const modules = readdirSync(join(repoRoot, SERVICE)).filter((name) => name.endsWith(".ts"));
    expect(modules.length).toBeGreaterThan(5);
    const long = modules.flatMap((name) =>
      longFunctions(join(SERVICE, name), readFileSync(join(repoRoot, SERVICE, name), "utf8")),
    );
    expect(long).toEqual([]);
  });

  it("sees the faults it looks for", () => {
    const body = Array.from({ length: MAX_LINES - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    expect(longFunctions("long.ts", `export function long(): void {\n${body}\n}\n`)).toEqual([]);
    expect(longFunctions("long.ts", `export const long = (): void => {\n${body}\n  return;\n};\n`)).toEqual([
      `long.ts:1 an anonymous function (${MAX_LINES + 1} lines)`,
    ]);
  });
});
