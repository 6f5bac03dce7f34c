/**
 * npm, run as a process: the release reads and writes the registry through npm's own client, so
 * the user's npm configuration (the registry, its credentials in .npmrc, a proxy, the cache)
 * applies exactly as it does to `npm publish`.
 */
import { spawn } from "node:child_process";

/** Where a release's npm commands run, and with which environment. */
export interface NpmPlace {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** What an npm command printed, and how it ended. */
export interface NpmResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `npm <args>` in `cwd`; never rejects for a non-zero exit (the caller reads `code`). */
export function runNpm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<NpmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? (signal === null ? 0 : 1), stdout, stderr }));
  });
}

/** npm's own error code from its output (`npm error code E404`), if it printed one. */
export function npmErrorCode(result: NpmResult): string | undefined {
  return /^npm (?:error|ERR!) code (\S+)/m.exec(result.stderr)?.[1] ?? jsonError(result)?.code;
}

/**
 * The error a command run with `--json` printed on its standard output (`{"error": {"code",
 * "summary", "detail"}}`). npm prints it whatever its log level, where its `npm error` lines are
 * left out at the level `silent`, which `npm run -s` hands down to every npm the script runs.
 */
function jsonError(result: NpmResult): { code?: string; summary?: string } | undefined {
  const text = result.stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error !== "object" || error === null) return undefined;
    const { code, summary } = error as { code?: unknown; summary?: unknown };
    return {
      ...(typeof code === "string" ? { code } : {}),
      ...(typeof summary === "string" ? { summary: summary.trim() } : {}),
    };
  } catch {
    return undefined;
  }
}

/** npm's lines that carry no message: its fields, a stack, an object dumped, the log file's line, proxy advice. */
const NOISE = [
  /^(?:code|syscall|errno|path|dest) \S+$/,
  /^at /,
  /^[{}]/,
  /^\w+: (?:'[^']*'|\d+|true|false),?$/,
  /^A complete log of this run/,
  /^If you are behind a proxy/,
];

/** npm's error message: its first two lines of text, without its prefix, fields and stacks. */
export function npmErrorText(result: NpmResult): string {
  const lines = result.stderr
    .split("\n")
    .filter((line) => /^npm (?:error|ERR!)/.test(line))
    .map((line) =>
      line
        .replace(/^npm (?:error|ERR!) ?/, "")
        .replace(/ at \S+ \(.*$/, "")
        .trim(),
    )
    .filter((line) => line !== "" && !NOISE.some((noise) => noise.test(line)));
  return lines.slice(0, 2).join(" ").trim() || jsonError(result)?.summary || `npm exited with code ${result.code}`;
}
