/**
 * The sandbox as `npm start` runs it (sandbox/main.ts), in a process of its own on 127.0.0.1,
 * with the environment given, for the tests that restart, kill or lock it.
 *
 * The processes run the sandbox's entry points bundled once per test worker (./bundle.ts):
 * a process then starts without a TypeScript loader, which the tests that start many save.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { bundled } from "./bundle.js";
import { repoRoot } from "./paths.js";

/** The bundles of sandbox/main.ts and sandbox/reset.ts. */
async function scripts(): Promise<Record<"main" | "reset", string>> {
  const [main = "", reset = ""] = await bundled(["sandbox/main.ts", "sandbox/reset.ts"]);
  return { main, reset };
}

/** A running sandbox process. */
export interface SandboxProcess {
  readonly child: ChildProcess;
  /** the API's base URL it printed */
  readonly url: string;
  readonly output: () => string;
  /** sends the signal and resolves with the exit code once it has exited */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs sandbox/main.ts (or reset.ts) with `env` added; resolves with its exit and output when it ends. */
export async function runSandboxScript(
  file: "main" | "reset",
  env: Readonly<Record<string, string>>,
): Promise<{ code: number | null; output: string }> {
  const child = spawnScript((await scripts())[file], env);
  return new Promise((resolve) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/**
 * Spawns sandbox/main.ts (or reset.ts) with `env` added, on a free port, and returns at once (for
 * the tests that stop it at a given moment of its start).
 */
export async function spawnSandboxScript(
  file: "main" | "reset",
  env: Readonly<Record<string, string>>,
): Promise<ChildProcess> {
  return spawnScript((await scripts())[file], { PORT: "0", HOST: "127.0.0.1", ...env });
}

/** Starts sandbox/main.ts on a free port and resolves once it listens. */
export async function startSandboxProcess(env: Readonly<Record<string, string>>): Promise<SandboxProcess> {
  return listening(spawnScript((await scripts()).main, { PORT: "0", HOST: "127.0.0.1", ...env }));
}

/**
 * Starts the sandbox as `npm start -- <args>` does, without npm: `npm start`'s own command (its node
 * options, scripts/run-bundled.mjs, which bundles sandbox/main.ts when it changed), in this
 * process's environment with `env` added; resolves once it listens.
 */
export async function startSandboxCommand(
  env: Readonly<Record<string, string>>,
  args: readonly string[],
): Promise<SandboxProcess> {
  const { scripts: defined } = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const [, ...command] = defined.start.split(" ");
  return listening(
    spawn(process.execPath, [...command, ...args], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: "development", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
    // a first run bundles sandbox/main.ts before it starts
    110_000,
  );
}

/** `child`, a sandbox starting, once it says where it listens (within `timeout` ms). */
function listening(child: ChildProcess, timeout = 30_000): Promise<SandboxProcess> {
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the sandbox did not start in ${timeout / 1000} s:\n${output}`));
    }, timeout);
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Sandbox listening at (http:\/\/\S+\/api\/1_12)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1],
        output: () => output,
        stop: async (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.on("data", listen);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with ${code} before listening:\n${output}`));
    });
  });
}

function spawnScript(script: string, env: Readonly<Record<string, string>>): ChildProcess {
  // the engine on V8's baseline compiler, as in the test workers (vitest.config.ts): a process
  // that lives seconds spends less CPU without optimising PGlite's WebAssembly
  return spawn(process.execPath, ["--liftoff-only", script], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
