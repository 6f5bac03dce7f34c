/**
 * What the release tests stand on: a real npm registry (Verdaccio, run as a process of its own on
 * 127.0.0.1, with a throwaway storage and user, no uplink, stopped by its PID), a scratch copy of
 * the repository to release from, and npm run with a configuration of the test's own (the
 * registry, its token, a cache in the test's folder), so that nothing reaches outside the machine
 * and nothing of the user's npm setup is read or written.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { repoRoot } from "../../support/paths.js";

/** A registry running for a test file. */
export interface Registry {
  /** "http://127.0.0.1:<port>/" */
  readonly url: string;
  /** the environment npm runs with against it: its own .npmrc (the registry and the user's token) and cache */
  readonly env: NodeJS.ProcessEnv;
  /** stops the process (SIGTERM, then SIGKILL after 5 s), by its PID */
  stop(): Promise<void>;
}

/**
 * Verdaccio's configuration: storage and users in `dir`, one user at most (the test's), every
 * package served from the storage only (no uplink: a package it does not hold is a 404), publishing
 * for that user, no web pages and no audit middleware (which would call npm's registry).
 */
function verdaccioConfig(dir: string): Record<string, unknown> {
  return {
    self_path: dir,
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
    web: { enable: false },
    middlewares: { audit: { enabled: false } },
    log: { type: "stdout", format: "json", level: "error" },
  };
}

/**
 * The registry process: Verdaccio's documented `runServer`, listening on a free port of 127.0.0.1,
 * which it prints. It exits when its parent goes (the IPC channel closes), so a test runner
 * stopped in the middle leaves no registry behind.
 */
const SERVE = [
  `process.on("disconnect", () => process.exit(0));`,
  `import { runServer } from "verdaccio";`,
  `const server = await runServer(JSON.parse(process.argv[1]));`,
  `server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port));`,
].join("\n");

/** Starts a registry in `dir` (its storage, users and npm settings), with a user of its own logged in. */
export async function startRegistry(dir: string): Promise<Registry> {
  await mkdir(join(dir, "storage"), { recursive: true });
  const child = spawn(process.execPath, ["--input-type=module", "-e", SERVE, JSON.stringify(verdaccioConfig(dir))], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const stop = (): Promise<void> => stopProcess(child);
  try {
    const port = await listeningPort(child, 60_000);
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url);
    const npmrc = join(dir, "npmrc");
    const host = url.replace(/^http:/, "");
    await writeFile(
      npmrc,
      [`registry=${url}`, `${host}:_authToken=${token}`, "update-notifier=false", "audit=false", "fund=false", ""].join(
        "\n",
      ),
    );
    return { url, env: npmEnvironment(npmrc, join(dir, "npm-cache")), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The process's environment without the npm settings it inherited, with the test's .npmrc and cache. */
function npmEnvironment(npmrc: string, cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, npm_config_userconfig: npmrc, npm_config_cache: cache, npm_config_loglevel: "warn" };
}

/** Waits for the registry's "listening <port>" line; fails with its output when it exits or takes longer than `ms`. */
function listeningPort(child: ChildProcess, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`Verdaccio did not listen within ${ms} ms:\n${output}`)), ms);
    const hear = (chunk: Buffer): void => {
      output += chunk.toString();
      const port = /^listening (\d+)$/m.exec(output)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      resolve(Number(port));
    };
    child.stdout?.on("data", hear);
    child.stderr?.on("data", hear);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Verdaccio exited (code ${code}) before listening:\n${output}`));
    });
  });
}

/** Adds the registry's one user, as `npm adduser` does; answers its token. */
async function addUser(url: string): Promise<string> {
  const name = "releaser";
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: `throwaway-${process.pid}-${Date.now()}` }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || body.token === undefined)
    throw new Error(`the registry refused the user: ${JSON.stringify(body)}`);
  return body.token;
}

/** Stops a child process by its PID: SIGTERM, then SIGKILL when it has not exited within 5 s. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGKILL");
  }, 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * A scratch copy of what a release reads in the repository: package.json and its lock, the spec,
 * generated/, the sandbox, the build's configurations and scripts, the docs the package carries;
 * node_modules is the repository's. The generator and the release are the repository's lib/,
 * run in the copy.
 */
export async function scratchRepository(dir: string): Promise<string> {
  const files = [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "tsconfig.build.json",
    "tsconfig.sandbox.json",
    "scripts/dist.mjs",
    "scripts/build-stamp.mjs",
    "scripts/spec-drift.mjs",
    "docs/package-readme.md",
    "docs/package.md",
    "docs/server.md",
    "docs/sandbox.md",
  ];
  for (const file of files) await cp(join(repoRoot, file), join(dir, file));
  for (const folder of ["spec", "generated", "sandbox"])
    await cp(join(repoRoot, folder), join(dir, folder), { recursive: true });
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The version of a package installed in a project. */
export async function installedVersion(project: string, name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(project, "node_modules", name, "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/** One error of a consumer's compile: its file (from the project), line and text. */
export interface CompileError {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/**
 * Compiles a consumer project as `tsc -p` does with its tsconfig.json, and answers every error,
 * in its files and in the declaration files of the packages it installed (skipLibCheck is off).
 */
export function compileProject(project: string): CompileError[] {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const parsed = ts.getParsedCommandLineOfConfigFile(join(project, "tsconfig.json"), {}, host);
  if (parsed === undefined) throw new Error(`${project}/tsconfig.json could not be read`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return { file: "", line: 0, text };
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return { file: diagnostic.file.fileName.slice(project.length + 1), line: line + 1, text };
  });
}
