/**
 * Another local user, for the tests of what the sandbox does where other users can reach: scripts
 * run as `nobody`, started by this process when it runs as root (as CI runs the suite), through
 * Node's own `uid`/`gid` spawn options, so that each script is one process ended by its PID. Where
 * there is no such user to be, the tests that need one are skipped saying why (in CI they fail).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { linesOf } from "./lines.js";
import { requireInCi } from "./required.js";

/** nobody's user and group ids, when this process may act as nobody. */
export const NOBODY = idsOfNobody();

/** Why another user cannot be acted as here, or undefined when it can. */
export const otherUserMissing =
  NOBODY === undefined
    ? "this process is not root, or the system has no user nobody: nothing runs as another user"
    : undefined;

/** Says why the `tests` do not run here (and fails them in CI); answers whether they can run. */
export function otherUserAvailable(tests: string): boolean {
  requireInCi(tests, otherUserMissing);
  return otherUserMissing === undefined;
}

function idsOfNobody(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync("id", ["-u", "nobody"], { encoding: "utf8" }).stdout.trim());
  const gid = Number(spawnSync("id", ["-g", "nobody"], { encoding: "utf8" }).stdout.trim());
  return Number.isInteger(uid) && uid > 0 && Number.isInteger(gid) ? { uid, gid } : undefined;
}

/** A script running as nobody: its lines of output as they come, and how to end it. */
export interface OtherUserProcess {
  readonly child: ChildProcess;
  /** the next line it writes (rejects after `ms`) */
  line(ms?: number): Promise<string>;
  /** what it wrote so far, all of it */
  output(): string;
  /** ends it by its PID and waits for its exit */
  stop(): Promise<void>;
}

/** Every process started, ended by its PID when the test file ends. */
const started = new Set<ChildProcess>();

/** Starts `script` (JavaScript, for `node -e`) as nobody, with `args` as its `process.argv.slice(1)`. */
export function startAsNobody(script: string, args: readonly string[] = []): OtherUserProcess {
  const ids = NOBODY;
  if (ids === undefined) throw new Error(otherUserMissing);
  const child = spawn(process.execPath, ["-e", script, "--", ...args], {
    uid: ids.uid,
    gid: ids.gid,
    cwd: "/",
    stdio: ["pipe", "pipe", "pipe"],
  });
  started.add(child);
  let all = "";
  child.stdout?.on("data", (chunk: Buffer) => (all += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (all += chunk.toString()));
  const next = linesOf(child, "nobody's script");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    output: () => all,
    line: (ms = 10_000) => next(ms).catch((error: Error) => Promise.reject(new Error(`${error.message}:\n${all}`))),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      started.delete(child);
    },
  };
}

/** Ends every script still running (by PID): for `afterAll`. */
export async function stopAllAsNobody(): Promise<void> {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  started.clear();
}
