/**
 * Stoplight Prism's validation proxy (`prism proxy`, the npm package @stoplight/prism-cli) as a
 * process: it takes each request, checks it against the document, forwards it to the server
 * under test, checks the answer against the document, and reports every violation of either in
 * the answer's `sl-violations` header. The one outside judge of requests and answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./paths.js";

/** A running proxy: its origin, what it printed, and how to stop it. */
export interface PrismProxy {
  readonly origin: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Why Prism did not start (it cannot read the document, say), with what it printed. */
export class PrismStartFailed extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = "PrismStartFailed";
  }
}

/** How much of what the proxy prints is kept: its start-up and its last complaints. */
const KEPT = 64 * 1024;

/**
 * Starts `prism proxy` for `document` in front of `upstream` on 127.0.0.1, on a port the system
 * gives it as it binds (`--port 0`): its origin is read from the line saying where it listens, so
 * no other process can take the port between its choice and its use.
 */
export async function startPrismProxy(document: string, upstream: string, timeoutMs = 180_000): Promise<PrismProxy> {
  const cli = join(repoRoot, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const child = spawn(
    process.execPath,
    [cli, "proxy", document, upstream, "--host", "127.0.0.1", "--port", "0", "--errors=false"],
    { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
  );
  let output = "";
  const keep = (chunk: Buffer): void => {
    output += chunk.toString("utf8");
    if (output.length > 2 * KEPT) output = `${output.slice(0, KEPT / 2)}\n…\n${output.slice(-KEPT)}`;
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  // a test run stopped midway (a timeout) leaves no proxy behind
  const orphaned = (): void => void child.kill("SIGKILL");
  process.once("exit", orphaned);
  child.once("exit", () => process.off("exit", orphaned));
  const origin = await listening(child, () => output, timeoutMs);
  return { origin, output: () => output, stop: () => stopProcess(child) };
}

/** Where the proxy listens, once it says so: its origin (`http://127.0.0.1:<port>`). */
function listening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (message: string): void => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new PrismStartFailed(message, output()));
    };
    const timer = setTimeout(() => fail(`prism proxy did not start within ${timeoutMs / 1000} s`), timeoutMs);
    const onExit = (code: number | null): void => fail(`prism proxy exited with ${code} before it listened`);
    const onData = (): void => {
      const origin = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
      if (origin === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      resolve(origin);
    };
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

/** Stops a process: SIGTERM, then SIGKILL if it is still there 5 s later; resolves once it exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
