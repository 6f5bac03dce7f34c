/**
 * What a benchmark started, stopped when the benchmark is: a run ended by Ctrl-C (SIGINT), SIGTERM
 * or SIGHUP stops the servers it spawned (by PID), its throwaway PostgreSQL and Citus clusters and
 * its temporary folders, as its own end does, instead of leaving them running with nobody to stop
 * them. Each resource registers how to stop it as it is made (`untilStopped`), and withdraws that
 * when it is stopped in the ordinary way. On a signal the registered stops run, the newest first,
 * each at most STOP_MS; then the process exits with 128 + the signal's number, as the shell's own
 * end of it would have. Signals that come meanwhile are let pass: Ctrl-C reaches a run started through
 * `npx tsx` twice, from the terminal and again from tsx, which hands its own on to the process.
 */

/** How long one registered stop may take on a signal before the next is run, in milliseconds. */
export const STOP_MS = 10_000;

type Stop = () => unknown;

const stops: Stop[] = [];
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
let installed = false;
let stopping = false;

/**
 * Registers `stop`, run if the process is signalled before the resource is stopped; answers the
 * function that withdraws it (call it once the resource is stopped the ordinary way).
 */
export function untilStopped(stop: Stop): () => void {
  install();
  stops.push(stop);
  return () => {
    const at = stops.lastIndexOf(stop);
    if (at !== -1) stops.splice(at, 1);
  };
}

/** A spawned process, killed with SIGKILL by its PID if the benchmark is signalled while it runs. */
export function killedWithRun(child: {
  readonly pid?: number | undefined;
  once(event: "exit", listener: () => void): unknown;
}): void {
  const pid = child.pid;
  if (pid === undefined) return;
  let exited = false;
  const withdraw = untilStopped(() => {
    if (exited) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  });
  child.once("exit", () => {
    exited = true;
    withdraw();
  });
}

/**
 * A process spawned `detached`, in a process group of its own (`npm start` and the node it runs),
 * which the terminal's Ctrl-C does not reach: if the benchmark is signalled while it runs, its
 * group is sent SIGINT, as the benchmark's own end stops it, and SIGKILL if it has not ended a
 * second before STOP_MS.
 */
export function groupStoppedWithRun(child: {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  once(event: "exit", listener: () => void): unknown;
}): void {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  let exited = false;
  const withdraw = untilStopped(async () => {
    if (exited) return;
    signalGroup(pid, "SIGINT");
    const late = setTimeout(() => signalGroup(pid, "SIGKILL"), STOP_MS - 1000);
    await ended;
    clearTimeout(late);
  });
  const ended = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      withdraw();
      resolve();
    }),
  );
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const [signal, number] of Object.entries(SIGNALS) as [keyof typeof SIGNALS, number][])
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`\n${signal}: stopping what the benchmark started...\n`);
      void stopAll().finally(() => process.exit(128 + number));
    });
}

async function stopAll(): Promise<void> {
  while (stops.length > 0) {
    const stop = stops.pop() as Stop;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_MS);
    });
    try {
      await Promise.race([Promise.resolve().then(stop), late]);
    } catch (error) {
      process.stderr.write(`a stop failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      clearTimeout(timer);
    }
  }
}
