/**
 * A PostgreSQL server for the suites that need one: DATABASE_URL when it is set (each sandbox then
 * works in a schema of its own), otherwise a throwaway cluster started from Debian's binaries
 * (/usr/lib/postgresql/<version>/bin) in a temporary folder, on a free port of 127.0.0.1, and
 * removed again. `initdb` refuses to run as root, so as root the cluster belongs to the `postgres`
 * user and its programs run as that user. Without binaries (or a `postgres` user, as root) the
 * suites are skipped with a message; in CI they fail instead (`.ci/run` installs PostgreSQL).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, chown, mkdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { makeTempDir } from "./paths.js";
import { requireInCi } from "./required.js";

/** A running server: its URL, and how to stop it (a no-op for DATABASE_URL's). */
export interface PostgresServer {
  readonly url: string;
  /** "DATABASE_URL" or "a throwaway PostgreSQL 15 cluster" */
  readonly description: string;
  /** the server process, when the harness started it (for the tests that stop and start it) */
  readonly process?: ChildProcess;
  /**
   * For a cluster the harness started: stops the server (fast shutdown: clients are disconnected)
   * and starts it again on the same port and data, for the tests of a database that goes away.
   */
  readonly outage?: { halt(): Promise<void>; resume(): Promise<void> };
  /**
   * For a cluster the harness made: the cluster `initdb` made for it, which no server ever ran on,
   * for other clusters of the run to be copies of (`startNode`'s `template`), until it is stopped
   */
  readonly template?: string;
  stop(): Promise<void>;
}

/** Debian's PostgreSQL binaries, the newest version installed. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

/** Why there is no server here, or undefined when there can be one. */
export function postgresMissing(): string | undefined {
  if (process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== "") return undefined;
  if (postgresBinaries() === undefined)
    return "no DATABASE_URL and no PostgreSQL binaries in /usr/lib/postgresql/*/bin: install Debian's postgresql package (apt-get install -y postgresql) or set DATABASE_URL";
  if (process.getuid?.() === 0 && runAs() === undefined)
    return "running as root, and there is no postgres user to run initdb as (Debian's postgresql package creates it)";
  return undefined;
}

/** Reports a missing server (fails in CI) and answers whether the `tests` can run. */
export function postgresAvailable(tests: string): boolean {
  const missing = postgresMissing();
  requireInCi(tests, missing);
  return missing === undefined;
}

/**
 * Starts (or names) the server. Call `postgresAvailable` first. With `throwaway`, a cluster is
 * started even when DATABASE_URL is set (the tests that stop the server need one of their own);
 * call `throwawayAvailable` first then.
 */
export async function startPostgres(
  options: { throwaway?: boolean; template?: string | undefined } = {},
): Promise<PostgresServer> {
  const url = process.env.DATABASE_URL;
  if (options.throwaway !== true && url !== undefined && url !== "")
    return { url, description: "DATABASE_URL", stop: async () => undefined };
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error(postgresMissing());
  const dir = await makeTempDir("postgres");
  await giveFolder(dir);
  // a copy of the `template` given; or of one made here, kept beside the server for the run's other clusters
  const template =
    options.template ?? (await mkdir(join(dir, "template")).then(() => initCluster(bin, join(dir, "template"))));
  await mkdir(join(dir, "server"));
  const node = await startNode(bin, join(dir, "server"), [], template);
  const version = bin.split("/").at(-2);
  return {
    url: node.url,
    description: `a throwaway PostgreSQL ${version} cluster`,
    get process() {
      return node.process;
    },
    outage: node.outage,
    ...(options.template === undefined ? { template } : {}),
    stop: async () => {
      await node.outage.halt();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One server the harness started: its URL and process, and how to stop and start it again. */
export interface PostgresNode {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  readonly outage: {
    halt(): Promise<void>;
    resume(): Promise<void>;
    /** kills the server and every process of it with SIGKILL, by PID, as a crash of its machine would end them */
    crash(): Promise<void>;
  };
}

/**
 * Makes a cluster in `dir` (a fresh folder, given to the postgres user when running as root) with
 * `initdb`, or as a copy of `template` (a cluster `initCluster` made and no server ever ran on),
 * and starts its server on a free port of 127.0.0.1, with `settings` (`-c` values) beside the
 * harness's own. Stopping it (`outage.halt`) signals its process, by PID; the folder is the
 * caller's to remove.
 */
export async function startNode(
  bin: string,
  dir: string,
  settings: readonly string[],
  template?: string,
): Promise<PostgresNode> {
  const user = await giveFolder(dir);
  const data = join(dir, "data");
  // copied as the postgres user, whose files these are: a fraction of initdb's CPU, and the same
  // cluster but for the system identifier pg_control holds (which no test reads)
  if (template === undefined) await initCluster(bin, dir);
  else await run("cp", ["-a", template, data], user);
  const port = await freePort();
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "max_connections=200",
        ...settings.flatMap((setting) => ["-c", setting]),
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
      },
    );
    const log: string[] = [];
    child.stdout?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => log.push(chunk.toString()));
    await ready(child, log);
    return child;
  };
  let server = await launch();
  const halt = async (): Promise<void> => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGINT");
    await exited;
  };
  /** The server's processes: the postmaster and its children, by PID. */
  const processes = (): number[] => {
    const postmaster = server.pid ?? 0;
    return [postmaster, ...childrenOf(postmaster)];
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    get process() {
      return server;
    },
    outage: {
      halt,
      resume: async () => {
        await halt();
        server = await launch();
      },
      crash: async () => {
        if (server.exitCode !== null || server.signalCode !== null) return;
        const exited = new Promise((resolve) => server.once("exit", resolve));
        for (const pid of processes()) signal(pid, "SIGKILL");
        await exited;
      },
    },
  };
}

/**
 * Makes a cluster with `initdb` in `<dir>/data` (`dir` a fresh folder, given to the postgres user
 * when running as root); answers its path.
 */
export async function initCluster(bin: string, dir: string): Promise<string> {
  const user = await giveFolder(dir);
  const data = join(dir, "data");
  await run(
    join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    user,
  );
  return data;
}

/** Gives `dir` to the postgres user (0700) when running as root; answers the user the cluster's programs run as. */
async function giveFolder(dir: string): Promise<{ uid: number; gid: number } | undefined> {
  const user = process.getuid?.() === 0 ? runAs() : undefined;
  if (user !== undefined) {
    await chown(dir, user.uid, user.gid);
    await chmod(dir, 0o700);
  }
  return user;
}

/** The PIDs of the processes whose parent is `parent`, from /proc. */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) children.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return children;
}

/** Sends `name` to `pid`, which may have ended meanwhile. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ended meanwhile
  }
}

/** Reports whether a cluster of the tests' own can be started (fails in CI when not), for `tests`. */
export function throwawayAvailable(tests: string): boolean {
  const missing =
    postgresBinaries() === undefined
      ? "no PostgreSQL binaries in /usr/lib/postgresql/*/bin (these tests stop and start the server, so DATABASE_URL's will not do): apt-get install -y postgresql"
      : process.getuid?.() === 0 && runAs() === undefined
        ? "running as root, and there is no postgres user to run initdb as (Debian's postgresql package creates it)"
        : undefined;
  requireInCi(tests, missing);
  return missing === undefined;
}

/** The postgres user's ids, from /etc/passwd. */
export function runAs(): { uid: number; gid: number } | undefined {
  try {
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((entry) => entry.startsWith("postgres:"));
    const [, , uid, gid] = line?.split(":") ?? [];
    return uid === undefined || gid === undefined ? undefined : { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

function run(command: string, args: readonly string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      ...(user === undefined ? {} : { uid: user.uid, gid: user.gid }),
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output}`)),
    );
  });
}

/** A port of 127.0.0.1 nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** Resolves once the server accepts connections (it says so in its log), or fails with the log. */
function ready(server: ChildProcess, log: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start in 30 s:\n${log.join("")}`)), 30_000);
    const check = (): void => {
      if (!log.join("").includes("database system is ready to accept connections")) return;
      clearTimeout(timer);
      resolve();
    };
    server.stdout?.on("data", check);
    server.stderr?.on("data", check);
    server.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited with ${code}:\n${log.join("")}`));
    });
  });
}
