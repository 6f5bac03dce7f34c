/**
 * The repository's own import graph, read from its TypeScript modules by TypeScript's scanner
 * (`ts.preProcessFile`, so the text of generated code inside a template string is not an import):
 * every relative import (`import … from "./x.js"`, `export … from`, `import("./x.js")`, type-only
 * ones too, since a type names the module it comes from as much as a value does) resolved to the
 * module it names.
 * The layer tests judge it: which folder a module may import from, and whether modules import
 * one another in a circle. Package imports (`fastify`, `node:fs`, `workforce-scheduling-api/…`)
 * are not edges here; they are the bundles' and the package's business.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { repoRoot } from "./paths.js";

/** A relative import of a module: where it stands and what it names. */
export interface Import {
  /** the importing module, relative to the repository root ("src/compiler/keywords/node.ts") */
  readonly from: string;
  /** the specifier as written ("./compose.js") */
  readonly specifier: string;
  /** the module it resolves to, relative to the root; undefined when none is there */
  readonly to: string | undefined;
}

/** The `.ts` modules under `folder` (relative to the root), generated snapshots and scratch folders left out. */
export function modulesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((path) => !/(^|\/)(__tmp__|__snapshots__|node_modules)\//.test(path))
    .sort();
}

/** The relative imports written in `text`, the text of the module at `from`. */
export function importsIn(from: string, text: string): Import[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((file) => file.fileName)
    .filter((specifier) => specifier.startsWith("./") || specifier.startsWith("../"))
    .map((specifier) => ({ from, specifier, to: resolveImport(from, specifier) }));
}

/** The relative imports of every module given. */
export function importsOf(modules: readonly string[]): Import[] {
  return modules.flatMap((module) => importsIn(module, readFileSync(join(repoRoot, module), "utf8")));
}

/** The module a relative specifier names: `x.js` is `x.ts` in source, a folder its `index.ts`, `x.json` a JSON module. */
function resolveImport(from: string, specifier: string): string | undefined {
  const target = join(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, ".ts"), target, join(target, "index.ts")];
  const found = candidates.find((path) => existsSync(join(repoRoot, path)) && /\.(ts|json)$/.test(path));
  return found?.split(sep).join("/");
}

/**
 * The circles of a graph: each strongly connected set of more than one node (or a node that
 * names itself), its nodes sorted. Tarjan's algorithm, iterative so a long chain cannot overflow.
 */
export function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; targets: string[] }[] = [];
    const enter = (node: string): void => {
      index.set(node, next);
      low.set(node, next);
      next++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(edges.get(node) ?? [])] });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; targets: string[] };
      const target = top.targets.pop();
      if (target !== undefined) {
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(top.node, Math.min(low.get(top.node) ?? 0, index.get(target) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(top.node) ?? 0));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const members: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        members.push(member);
      } while (member !== top.node);
      if (members.length > 1 || edges.get(top.node)?.has(top.node)) found.push(members.sort());
    }
  }
  return found.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

/** The graph of the imports given, with `group` naming each module's node (its own path, or its folder). */
export function graphOf(imports: readonly Import[], group: (module: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const source = group(from);
    const targets = edges.get(source) ?? new Set<string>();
    edges.set(source, targets);
    if (to === undefined) continue;
    const target = group(to);
    if (target !== source) targets.add(target);
    if (!edges.has(target)) edges.set(target, new Set());
  }
  return edges;
}
