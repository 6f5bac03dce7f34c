/**
 * What the package's test files share: the entries and the peers each needs, a consumer project's
 * typecheck, the consumers' samples of the docs, and projects with only some peers installed. The
 * package itself is packed and installed once per run (../support/packed-package.ts).
 */
import { execFile } from "node:child_process";
import { copyFile, link, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { expect } from "vitest";
import { makeTempDir, repoRoot } from "../../support/paths.js";
import { sharingHost } from "../../support/typecheck.js";

export const run = promisify(execFile);
export const NAME = "workforce-scheduling-api";

/**
 * Every entry, with the packages a consumer of it installs for its types (the optional peers its
 * declarations import): none for the client, the validators and the API without a server.
 */
export const ENTRY_PEERS: Readonly<Record<string, readonly string[]>> = {
  ".": [],
  "./validators": [],
  "./json-schemas": [],
  "./spec": [],
  "./handlers": [],
  "./query": ["@tanstack/query-core"],
  "./msw": ["msw"],
  "./sandbox/in-page": ["@electric-sql/pglite", "kysely"],
  "./server": ["fastify", "@types/node"],
  "./sandbox": ["@electric-sql/pglite", "kysely", "fastify", "@types/node"],
};
export const ENTRIES = Object.keys(ENTRY_PEERS);
/**
 * Compiles a consumer project as `tsc -p` does, with its own tsconfig.json (skipLibCheck off),
 * and reports every error in the consumer's file and in this package's declaration files, plus
 * the program-wide ones. The peers' own declaration files (fastify, @types/node) are left to
 * their packages. In this process, with the declaration files the other tests parsed.
 */
export function consumerCheck(tsconfig: string): { checked: string[]; errors: string[] } {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic: ts.Diagnostic) => expect.fail(render(diagnostic)),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, host);
  if (parsed === undefined) return expect.fail(`${tsconfig} could not be read`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: sharingHost(parsed.options),
    configFileParsingDiagnostics: parsed.errors,
  });
  const ours = program
    .getSourceFiles()
    .filter((file) => parsed.fileNames.includes(file.fileName) || file.fileName.includes(`/node_modules/${NAME}/`));
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return { checked: ours.map((file) => file.fileName), errors: diagnostics.map(render) };
}

function render(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${text}`;
}

/**
 * The TypeScript samples of the package's consumers: the README's section on using the package,
 * and docs/package.md's sections on the front-end entries (TanStack Query, MSW, typed errors).
 */
export async function consumerSamples(): Promise<string[]> {
  const readme = await sectionSamples("README.md", /^Using the package\n/);
  const guide = await sectionSamples(
    join("docs", "package.md"),
    /^(TanStack Query|MSW handlers|Errors typed by status)/,
  );
  return [...readme, ...guide];
}

/** The TypeScript samples of the `## ` sections of a Markdown file whose heading matches `heading`. */
async function sectionSamples(file: string, heading: RegExp): Promise<string[]> {
  const text = await readFile(join(repoRoot, file), "utf8");
  const sections = text.split(/^## /m).filter((section) => heading.test(section));
  return sections.flatMap((section) =>
    [...section.matchAll(/^```ts[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? ""),
  );
}

/**
 * Runs a module script that opens sandboxes in the consumer project; resolves with what it printed.
 * As the sandbox guide advises for test processes, on V8's baseline compiler (--liftoff-only);
 * the embedded database's prepared image is shared with this repository's runs.
 */
export async function runWithSandbox(script: string, cwd: string): Promise<string> {
  const env = {
    ...process.env,
    SANDBOX_CACHE_DIR: join(repoRoot, "node_modules", ".cache", "workforce-scheduling-api"),
  };
  const args = ["--liftoff-only", "--input-type=module", "-e", script];
  return (await run(process.execPath, args, { cwd, env })).stdout;
}

/** The projects made in this process, by their consumer and peers (`projectWith`). */
const projects = new Map<string, Promise<string>>();

/**
 * A project of its own with the package installed in `consumer` (its files hard-linked, so that
 * its imports resolve from this project only, as from a copy) and only the `peers` named, linked
 * from this repository's node_modules. Made once per process for each set of peers: the entries
 * with the same peers share it (./package-types.test.ts checks each in a folder of its own), and
 * so the package's declaration files parsed once (../../support/typecheck.ts keeps them by path).
 */
export function projectWith(consumer: string, peers: readonly string[]): Promise<string> {
  const key = JSON.stringify([consumer, [...peers].sort()]);
  let project = projects.get(key);
  if (project === undefined) {
    project = makeProject(consumer, peers);
    projects.set(key, project);
  }
  return project;
}

async function makeProject(consumer: string, peers: readonly string[]): Promise<string> {
  const dir = await makeTempDir("entry");
  await linkTree(join(consumer, "node_modules", NAME), join(dir, "node_modules", NAME));
  for (const peer of peers) {
    await mkdir(dirname(join(dir, "node_modules", peer)), { recursive: true });
    await symlink(join(repoRoot, "node_modules", peer), join(dir, "node_modules", peer), "dir");
  }
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "entry", private: true, type: "module" }));
  return dir;
}

/**
 * Every file under `from` hard-linked at the same path under `to`: a copy as Node and TypeScript
 * read it (each path its own, no symbolic link to follow back to the consumer's peers), made
 * without copying 3 MB each time; copied where the two folders are on different file systems.
 */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else
      await link(source, target).catch((error: NodeJS.ErrnoException) =>
        error.code === "EXDEV" ? copyFile(source, target) : Promise.reject(error),
      );
  }
}
