import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { createDiagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";
import type { SpecSource } from "./load-side.js";

/** The spec a bare `git:<ref>` names. */
export const DEFAULT_SPEC = "spec/openapi.yaml";

/** A side as the command line names it: a file, or a file at a git ref. */
export type SourceArgument =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "git"; readonly ref: string; readonly path: string };

/** "spec/a.yaml" → a file; "git:main" → spec/openapi.yaml at main; "git:v1.2:api/spec.yaml" → that path at v1.2. */
export function parseSourceArgument(argument: string): SourceArgument {
  if (!argument.startsWith("git:")) return { kind: "file", path: argument };
  const rest = argument.slice("git:".length);
  const colon = rest.indexOf(":");
  return colon < 0
    ? { kind: "git", ref: rest, path: DEFAULT_SPEC }
    : { kind: "git", ref: rest.slice(0, colon), path: rest.slice(colon + 1) };
}

/** How the report names a side: a path relative to `cwd`, or "git:<ref>:<path>". */
export function sourceName(source: SourceArgument, cwd: string): string {
  if (source.kind === "git") return `git:${source.ref}:${source.path}`;
  return relative(cwd, resolve(cwd, source.path)).split(sep).join("/") || source.path;
}

/**
 * Reads a side's text. Throws GenerationFailed (DIFF_SOURCE_NOT_FOUND) when it cannot be read. A
 * side from git reads the other files its $refs reach at the same ref.
 */
export async function readSource(source: SourceArgument, cwd: string): Promise<SpecSource> {
  const name = sourceName(source, cwd);
  if (source.kind === "git")
    return { name, text: await readGitFile(source.ref, source.path, cwd), read: gitReader(source.ref, name, cwd) };
  try {
    const path = resolve(cwd, source.path);
    return { name, path, text: await readFile(path, "utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
    throw notFound(`the spec file ${name} ${reason}`, name);
  }
}

/** A file's text at a git ref (path relative to `cwd`). Throws GenerationFailed when the ref or path is unknown. */
export async function readGitFile(ref: string, path: string, cwd: string): Promise<string> {
  const name = `git:${ref}:${path}`;
  if (ref === "" || ref.startsWith("-")) throw notFound(`"${ref}" is not a git ref`, name);
  const commit = await runGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  if (!commit.ok) throw notFound(`git ref "${ref}" is not known in this repository`, name);
  const blob = await runGit(["show", `${commit.stdout.trim()}:./${path}`], cwd);
  if (!blob.ok) throw notFound(`${path} does not exist at git ref "${ref}"`, name);
  return blob.stdout;
}

/**
 * Reads, at `ref`, the files a spec read from git references. The loader names the spec
 * `<cwd>/git:<ref>:<path>`, so a file it reaches is `<cwd>/git:<ref>:<its path in the repository>`.
 */
function gitReader(ref: string, name: string, cwd: string): (file: string) => Promise<string> {
  const prefix = resolve(`git:${ref}:`);
  return async (file) => {
    if (!file.startsWith(prefix))
      throw new Error(`${file} is outside the repository at git ref "${ref}" (referenced from ${name})`);
    return readGitFile(ref, file.slice(prefix.length), cwd).catch((error: unknown) => {
      throw new Error(
        error instanceof GenerationFailed ? (error.diagnostics[0]?.message ?? String(error)) : String(error),
      );
    });
  };
}

function notFound(message: string, file: string): GenerationFailed {
  return new GenerationFailed([createDiagnostic("DIFF_SOURCE_NOT_FOUND", message, { file, pointer: "" })]);
}

function runGit(args: readonly string[], cwd: string): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((done) => {
    execFile("git", [...args], { cwd, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" }, (error, stdout) =>
      done({ ok: error === null, stdout }),
    );
  });
}
