/**
 * Every path of this repository the docs name is there: a file moved or removed fails here, not
 * in a reader's hands. The docs are the Markdown files (README.md, CONTRIBUTING.md, docs/*.md),
 * whose spans in backticks outside code blocks are read, and biome.jsonc, whose file patterns and
 * comments are. A span counts as a path when it has no spaces and holds a `/` or ends in a file
 * extension, and is none of: a URL, a package or a package's subpath (`@tanstack/query-core`,
 * `workforce-scheduling-api/handlers`), a media type, a JSON pointer (`#/...`), a path of the API
 * (`/events`), a path outside the repository (`../shared/corpus`, `~/.cache`), a selector
 * (`path:/pet/*`), or code. A path
 * whose first folder is one of the repository's (`src/...`, `sandbox/...`, `generated/...`) must
 * exist as written; a shorter one (`server/app.ts`, named inside a section about
 * `runtime/`), must end a path of the repository. A placeholder or glob (`<target>`, `**`)
 * ends what is checked. Folders git ignores (`lib/`, `dist/`, `node_modules/`) are build output,
 * not the repository's, and are not checked.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

/** Sections whose paths are another repository's: the corpus's sources, by their own layout. */
const OTHER_REPOSITORIES: Readonly<Record<string, readonly string[]>> = {
  "CONTRIBUTING.md": ["### The third-party corpus"],
};

/** Paths the docs name that are not this repository's, and whose they are. */
const NOT_OURS: Readonly<Record<string, string>> = {
  openapi: "the third-party corpus's folder (CORPUS_DIR)",
  "json-schema-test-suite": "the third-party corpus's folder (CORPUS_DIR)",
  "oasdiff-checker": "the third-party corpus's folder (CORPUS_DIR)",
  data: "oasdiff's fixtures, in its repository",
  "db.json": "json-server's data file, in the benchmark's comparison",
};

const EXTENSION = /\.(ts|mts|cts|js|mjs|cjs|json|jsonc|md|yaml|yml|hbs|sh|txt|html|css)$/;
const MEDIA_TYPE = /^(application|text|multipart|image|audio|video|font)\//;
const PLACEHOLDER = /[<{*[$]/;

/** The names at the top of the repository that git ignores (build output, dependencies, data). */
const IGNORED = new Set(
  readFileSync(join(ROOT, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim().replace(/\/$/, ""))
    .filter((line) => line !== "" && !/[*/]/.test(line)),
);

/** The folders and files at the top of the repository that git does not ignore. */
function topLevel(): Set<string> {
  return new Set(readdirSync(ROOT).filter((name) => name !== ".git" && !IGNORED.has(name)));
}

/** Every file and folder of the repository's own folders, as paths from its root. */
function repositoryPaths(tops: ReadonlySet<string>): string[] {
  const paths: string[] = [];
  const walk = (path: string): void => {
    paths.push(path);
    const entries = readdirSync(join(ROOT, path), { withFileTypes: true });
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${path}/${entry.name}`);
      else paths.push(`${path}/${entry.name}`);
    }
  };
  for (const top of tops) {
    if (
      readdirSync(ROOT, { withFileTypes: true })
        .find((entry) => entry.name === top)
        ?.isDirectory()
    )
      walk(top);
    else paths.push(top);
  }
  return paths;
}

/** The names a span may start with that are packages: this one and its dependencies. */
function packageNames(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return [
    manifest.name,
    ...Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies }),
  ];
}

/** The spans in backticks of a Markdown text, outside fenced code blocks and the sections `skipped`. */
function backtickSpans(markdown: string, skipped: readonly string[] = []): string[] {
  const spans: string[] = [];
  let fenced = false;
  let skipping = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    if (/^#{1,6} /.test(line)) skipping = skipped.includes(line.trim());
    if (skipping) continue;
    for (const match of line.matchAll(/`([^`]+)`/g)) spans.push(match[1] ?? "");
  }
  return spans;
}

/** The part of a span to check as a path of the repository, or undefined when it names none. */
function pathIn(span: string, packages: readonly string[]): string | undefined {
  const text = span.trim();
  if (/\s|#/.test(text) || text.includes("://") || /^[@/~$]|^\.{1,2}\//.test(text) || MEDIA_TYPE.test(text)) return;
  if (/[=(),;:"'`|]/.test(text) || packages.some((name) => text === name || text.startsWith(`${name}/`))) return;
  if (!text.includes("/") && !EXTENSION.test(text)) return;
  const cut = text.search(PLACEHOLDER);
  const path = cut === -1 ? text : text.slice(0, text.lastIndexOf("/", cut) + 1);
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" || trimmed in NOT_OURS ? undefined : trimmed;
}

/** The paths biome.jsonc names: its file patterns (without a leading `!`) and the paths in its comments. */
function biomePaths(text: string): string[] {
  const quoted = [...text.matchAll(/^\s*"!?([^"]+)",?$/gm)].map((match) => match[1] ?? "");
  const listed = [...text.matchAll(/"includes":\s*\[([^\]]*)\]/g)].flatMap((match) =>
    [...(match[1] ?? "").matchAll(/"!?([^"]+)"/g)].map((item) => item[1] ?? ""),
  );
  const commented = [...text.matchAll(/\/\/.*$/gm)].flatMap((match) =>
    [...match[0].matchAll(/\(?([\w.-]+(?:\/[\w.*-]+)+)\)?/g)].map((item) => item[1] ?? ""),
  );
  return [...quoted, ...listed, ...commented];
}

describe("the paths the docs name", () => {
  const tops = topLevel();
  const all = repositoryPaths(tops);
  const packages = packageNames();
  const exists = (path: string): boolean =>
    tops.has(path.split("/")[0] ?? "")
      ? existsSync(join(ROOT, path))
      : all.some((known) => known.endsWith(`/${path}`) || known.endsWith(`/${path}.hbs`));
  const ignoredTop = (path: string): boolean => IGNORED.has(path.split("/")[0] ?? "");

  const markdown = [
    "README.md",
    "CONTRIBUTING.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];

  it.each(markdown)("%s names only paths that exist", (file) => {
    const spans = backtickSpans(readFileSync(join(ROOT, file), "utf8"), OTHER_REPOSITORIES[file]);
    const paths = spans.flatMap((span) => pathIn(span, packages) ?? []).filter((path) => !ignoredTop(path));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });

  it("tells the repository's paths from other spans", () => {
    const read = (span: string) => pathIn(span, packages);
    expect(read("src/compiler/code/helpers.ts")).toBe("src/compiler/code/helpers.ts");
    expect(read("templates/<target>/")).toBe("templates");
    expect(read("runtime/validators/helpers/**")).toBe("runtime/validators/helpers");
    expect(read("names.ts")).toBe("names.ts");
    for (const other of [
      "npm run generate",
      "application/problem+json",
      "@tanstack/query-core",
      "workforce-scheduling-api/handlers",
      "./msw",
      "#/components/schemas/Event",
      "/events",
      "../shared/corpus",
      "https://example.com/a.json",
      "money.yaml#/Currency",
      "db.json",
      "Retry-After",
    ])
      expect(read(other), other).toBeUndefined();
    expect(
      backtickSpans("`a/b.ts`\n```sh\n`c/d.ts`\n```\n## Skipped\n`e/f.ts`\n## Next\n`g.ts`", ["## Skipped"]),
    ).toEqual(["a/b.ts", "g.ts"]);
  });

  it("biome.jsonc names only paths that exist", () => {
    const paths = biomePaths(readFileSync(join(ROOT, "biome.jsonc"), "utf8"))
      .flatMap((path) => pathIn(path, packages) ?? [])
      .filter((path) => !ignoredTop(path));
    expect(paths).toContain("src/compiler/code/helpers.ts");
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });
});
