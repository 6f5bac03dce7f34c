/** The mock server's entry point (generated/server/main.ts, `npm run mock`) run as a process, bundled (./bundle.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { bundled } from "./bundle.js";
import { repoRoot } from "./paths.js";

/** The running mock server: its origin (http://127.0.0.1:<port>) and everything it printed. */
export interface MockProcess {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly output: readonly string[];
}

/**
 * Starts the mock server on an ephemeral port of 127.0.0.1, with `env` added to this environment:
 * generated/'s, or the one of another output folder under the repository (`entry`, from its root),
 * failing when it does not listen within `timeoutMs`.
 */
export async function startMockProcess(
  env: Readonly<Record<string, string>>,
  entry = "generated/server/main.ts",
  timeoutMs = 30_000,
): Promise<MockProcess> {
  const [main = ""] = await bundled([entry]);
  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  // one that does not come up is not left behind
  const origin = await listening(child, output, timeoutMs).catch((error: unknown) => {
    child.kill("SIGKILL");
    throw error;
  });
  return { child, origin, output };
}

/** Resolves with the URL the server prints once it listens. */
function listening(child: ChildProcess, output: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line in:\n${output.join("")}`)), timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      output.push(chunk.toString("utf8"));
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(""));
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output.join("")}`)));
  });
}
