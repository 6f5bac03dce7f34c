/**
 * Every fenced code block of README.md and docs/*.md is exercised, so a sample that drifts from
 * the code fails the build. What a block is, and how it is exercised, is said by its info string
 * after the language (Markdown renderers show only the language):
 *
 *   ts                    typechecked, strict, against the package as the tests resolve it
 *   ts run                typechecked, then run as a process, which must exit 0 within 60 s
 *   ts not-run: <why>     typechecked; not run here, for the reason given
 *   yaml seed             read and checked as a sandbox seed
 *   sh run-by=<test file> run by that test file (which must exist); its npm scripts must exist
 *   sh not-run: <why>     not run here, for the reason given; its npm scripts must exist
 *   sql not-run: <why>    statements for a database server of the reader's, not run here
 *   text <what it is>     output or a diagnostic shown as it looks, not code
 *
 * A block with any other info string fails, so every new sample is classified when it is written.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkSeed } from "../../../sandbox/seed/load-seed.js";
import { bundled } from "../../support/bundle.js";
import { repoRoot } from "../../support/paths.js";
import { sharingHost } from "../../support/typecheck.js";

const run = promisify(execFile);

/** A fenced block: where it is, its language, the rest of its info string and its text. */
interface Block {
  readonly file: string;
  readonly line: number;
  readonly language: string;
  readonly info: string;
  readonly code: string;
}

/** The fenced blocks of a Markdown file (fences of three backticks at the start of a line). */
function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i] ?? "");
    if (open === null) continue;
    const end = lines.findIndex((line, j) => j > i && line === "```");
    if (end === -1) throw new Error(`${file}:${i + 1}: a fenced block that is never closed`);
    blocks.push({
      file,
      line: i + 1,
      language: open[1] ?? "",
      info: (open[2] ?? "").trim(),
      code: lines.slice(i + 1, end).join("\n"),
    });
    i = end;
  }
  return blocks;
}

const FILES = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const BLOCKS = FILES.flatMap(blocksOf);
const where = (block: Block): string => `${block.file}:${block.line}`;

const typescript = BLOCKS.filter((block) => block.language === "ts");
const runnable = typescript.filter((block) => block.info === "run");
const shell = BLOCKS.filter((block) => block.language === "sh");

/** What is wrong with a block's info string, or undefined when it says what the block is. */
function classification(block: Block): string | undefined {
  const { language, info } = block;
  if (language === "ts" && (info === "" || info === "run" || /^not-run: \S/.test(info))) return undefined;
  if (language === "yaml" && info === "seed") return undefined;
  if ((language === "sh" || language === "sql") && /^not-run: \S/.test(info)) return undefined;
  if (language === "sh" && /^run-by=\S+$/.test(info)) {
    const file = info.slice("run-by=".length);
    return existsSync(join(repoRoot, file)) ? undefined : `run-by names ${file}, which does not exist`;
  }
  if (language === "text" && info !== "") return undefined;
  return `the info string "${language}${info === "" ? "" : ` ${info}`}" does not say how the block is exercised (see test/architecture/docs/samples.test.ts)`;
}

/** The npm scripts a shell sample runs (`npm run x`, `npm start`, `npm test`). */
function scriptsOf(code: string): string[] {
  const scripts: string[] = [];
  for (const match of code.matchAll(/\bnpm (?:run(?:-script)? (?:-s )?([\w:.-]+)|(start|test)\b)/g))
    scripts.push(match[1] ?? match[2] ?? "");
  return scripts;
}

describe("the code samples of README.md and docs/*.md", () => {
  it("are all classified by their info string", () => {
    const problems = BLOCKS.flatMap((block) => {
      const problem = classification(block);
      return problem === undefined ? [] : [`${where(block)} ${problem}`];
    });
    expect(problems).toEqual([]);
    expect(typescript.length).toBeGreaterThanOrEqual(9);
    expect(runnable.length).toBeGreaterThanOrEqual(3);
  });

  it("name only npm scripts that exist", () => {
    const scripts = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: object }).scripts;
    const missing = shell.flatMap((block) =>
      scriptsOf(block.code)
        .filter((script) => !Object.hasOwn(scripts, script))
        .map((script) => `${where(block)} npm run ${script}`),
    );
    expect(shell.flatMap((block) => scriptsOf(block.code)).length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("give seeds the sandbox takes", () => {
    const seeds = BLOCKS.filter((block) => block.language === "yaml" && block.info === "seed");
    expect(seeds.length).toBeGreaterThan(0);
    for (const block of seeds) expect(() => checkSeed(parse(block.code), where(block)), where(block)).not.toThrow();
  });

  describe("in TypeScript", () => {
    let dir: string;
    beforeAll(async () => {
      dir = join(repoRoot, ".tmp", `doc-samples-${process.pid}`);
      await mkdir(dir, { recursive: true });
      for (const [i, block] of typescript.entries())
        await writeFile(join(dir, `sample-${i}.ts`), `${block.code}\nexport {};\n`);
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it("typecheck, strict, against the package", () => {
      const config = ts.getParsedCommandLineOfConfigFile(
        join(repoRoot, "tsconfig.json"),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
            throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
          },
        },
      );
      if (config === undefined) throw new Error("tsconfig.json could not be read");
      const options: ts.CompilerOptions = {
        ...config.options,
        noEmit: true,
        incremental: false,
        paths: { ...config.options.paths, "workforce-scheduling-api/sandbox": ["./sandbox/index.ts"] },
      };
      const files = typescript.map((_block, i) => join(dir, `sample-${i}.ts`));
      const program = ts.createProgram({ rootNames: files, options, host: sharingHost(options) });
      // only the samples are checked: the checker looks into the package as far as they reach
      const errors = files
        .map((file) => program.getSourceFile(file) as ts.SourceFile)
        .flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])
        .map((diagnostic) => {
          const file = diagnostic.file as ts.SourceFile;
          const block = typescript[files.indexOf(file.fileName)] as Block;
          const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
          return `${block.file}:${block.line + 1 + line}:${character + 1} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`;
        });
      expect(errors).toEqual([]);
    });

    it.each(runnable.map((block) => [where(block), block] as const))("%s runs as written", async (_where, block) => {
      const [bundle = ""] = await bundled([relative(repoRoot, join(dir, `sample-${typescript.indexOf(block)}.ts`))]);
      // the package's own names resolve in the bundle; the other packages from this repository
      const { stdout, stderr } = await run(process.execPath, ["--liftoff-only", bundle], {
        cwd: repoRoot,
        timeout: 60_000,
      });
      expect([stdout, stderr]).toEqual(["", ""]);
    });
  });
});
