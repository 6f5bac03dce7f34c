/**
 * The kill test: rounds of `kill -9` of a sandbox process on a PGlite data directory (or a database
 * server: ./citus-faults.test.ts runs it on a Citus cluster) while it takes concurrent writes (creates and
 * edits of events), each round restarting it on the same directory (or database).
 * A round kills the process once 15 creates were acknowledged, at a random moment in the next 300 ms.
 * After every restart the directory must open, and every write answered 2xx must be there: each
 * acknowledged event, with its last acknowledged name (or a later one whose edit was in flight
 * when the process died, which may or may not have been applied).
 */
import { HARBOR } from "../../support/sandbox-calls.js";
import { type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";

/** What the rounds found. */
export interface KillFigures {
  readonly rounds: number;
  /** creates and edits answered 2xx, over all rounds */
  readonly acknowledgedCreates: number;
  readonly acknowledgedEdits: number;
  /** acknowledged events found after the last restart */
  readonly found: number;
  /** what was missing or wrong, one line each (empty when nothing was lost) */
  readonly lost: readonly string[];
  /** how many times the directory was opened (every start; a failed open throws) */
  readonly opens: number;
  /** the statuses of the answers that were not 2xx (a writer stops at the first) */
  readonly refusals: readonly number[];
}

interface Written {
  /** the last name answered 2xx */
  acked: string;
  /** a name sent after it, not answered (in flight when the process died) */
  pending: string | undefined;
}

const WRITERS = 4;

/** A round kills the process once this many creates were acknowledged in it, and up to 300 ms later. */
const CREATES_PER_ROUND = 15;

/**
 * Runs `rounds` rounds of writes and kills on `dataDir` (or, given an environment, on the database
 * it names: DATABASE_URL and SANDBOX_SCHEMA), then checks after a last start.
 */
export async function runKillRounds(
  rounds: number,
  dataDir: string | Readonly<Record<string, string>>,
  report: (line: string) => void = () => undefined,
): Promise<KillFigures> {
  const events = new Map<number, Written>();
  let creates = 0;
  let edits = 0;
  let opens = 0;
  const lost: string[] = [];
  const refusals: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const sandbox = await startSandboxProcess(typeof dataDir === "string" ? { DATA_DIR: dataDir } : dataDir);
    opens++;
    lost.push(...(await check(sandbox.url, events)).map((line) => `round ${round}: ${line}`));
    if (round === rounds) {
      await sandbox.stop("SIGTERM");
      break;
    }
    const before = [creates, edits];
    const stop = { now: false };
    const writers = Array.from({ length: WRITERS }, (_, writer) =>
      write(sandbox.url, `r${round}w${writer}`, events, stop, {
        created: () => creates++,
        edited: () => edits++,
        refused: (status) => refusals.push(status),
      }),
    );
    // a count, not a time, so that a slow machine writes as much before the kill as a fast one
    const deadline = Date.now() + 20_000;
    while (creates - (before[0] ?? 0) < CREATES_PER_ROUND && Date.now() < deadline) await delay(10);
    await delay(Math.floor(Math.random() * 300));
    await kill(sandbox);
    stop.now = true;
    await Promise.all(writers);
    report(
      `round ${round + 1}: killed after ${creates - (before[0] ?? 0)} creates and ${edits - (before[1] ?? 0)} edits were acknowledged`,
    );
  }
  return {
    rounds,
    acknowledgedCreates: creates,
    acknowledgedEdits: edits,
    found: events.size - lost.length,
    lost,
    opens,
    refusals,
  };
}

/** Creates events and edits its own, one request at a time, until the process is gone. */
async function write(
  url: string,
  tag: string,
  events: Map<number, Written>,
  stop: { now: boolean },
  count: { created: () => void; edited: () => void; refused: (status: number) => void },
): Promise<void> {
  const mine: number[] = [];
  for (let n = 0; !stop.now; n++) {
    try {
      const id = mine[n % 3 === 2 ? n % mine.length : -1];
      if (id !== undefined) {
        const record = events.get(id) as Written;
        const name = `${tag}-edit${n}`;
        record.pending = name;
        const response = await send(url, "PATCH", `/events/${id}`, {
          name,
          date: "2024-04-21",
          venue: { venue_id: "318" },
        });
        if (response.status !== 200) {
          count.refused(response.status);
          throw new Error(`edit answered ${response.status}`);
        }
        record.acked = name;
        record.pending = undefined;
        count.edited();
      } else {
        const name = `${tag}-${n}`;
        const response = await send(url, "POST", "/events", { name, date: "2024-04-20", venue: { venue_id: "318" } });
        if (response.status !== 201) {
          count.refused(response.status);
          throw new Error(`create answered ${response.status}`);
        }
        const created = (await response.json()) as number;
        events.set(created, { acked: name, pending: undefined });
        mine.push(created);
        count.created();
      }
    } catch {
      return;
    }
  }
}

function send(url: string, method: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { "x-api-key": HARBOR, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** What of the acknowledged writes is not in the sandbox's list. */
async function check(url: string, events: ReadonlyMap<number, Written>): Promise<string[]> {
  const response = await fetch(`${url}/events`, { headers: { "x-api-key": HARBOR } });
  const list = (await response.json()) as { data: { id: number; name: string }[]; total_count: number };
  const names = new Map(list.data.map((event) => [event.id, event.name]));
  const problems: string[] = [];
  if (list.total_count !== list.data.length)
    problems.push(`total_count ${list.total_count} for ${list.data.length} events`);
  for (const [id, written] of events) {
    const name = names.get(id);
    if (name === undefined) problems.push(`event ${id} (${written.acked}) is gone`);
    else if (name !== written.acked && name !== written.pending)
      problems.push(`event ${id} is named ${name}, not ${written.acked}`);
  }
  return problems;
}

async function kill(sandbox: SandboxProcess): Promise<void> {
  await sandbox.stop("SIGKILL");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
