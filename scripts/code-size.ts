/**
 * `npx tsx scripts/code-size.ts [DIR]`: the size of the code under DIR (default src/), as the
 * structure's figures are given: lines (every line of every `.ts` file, tests excluded) and the
 * lines of each function (declarations, methods, constructors, accessors, function expressions
 * and arrow functions with a block body; a nested function counts on its own and inside its
 * outer one), with their median, 90th percentile and maximum.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const dir = process.argv[2] ?? "src";
const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
  .map((entry) => join(entry.parentPath, entry.name))
  .sort();

let lines = 0;
const sizes: { lines: number; where: string }[] = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  lines += text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (isMeasured(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ lines: last - first + 1, where: `${relative(".", file)}:${first + 1}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function isMeasured(node: ts.Node): boolean {
  if (ts.isArrowFunction(node)) return ts.isBlock(node.body);
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isAccessor(node) ||
      ts.isFunctionExpression(node)) &&
    node.body !== undefined
  );
}

const sorted = sizes.map((size) => size.lines).sort((a, b) => a - b);
const at = (fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
const largest = sizes.reduce((max, size) => (size.lines > max.lines ? size : max), { lines: 0, where: "" });
console.log(
  `${dir}: ${files.length} files, ${lines} lines; ${sizes.length} functions: median ${at(0.5)}, p90 ${at(0.9)}, max ${largest.lines} (${largest.where}) lines`,
);
