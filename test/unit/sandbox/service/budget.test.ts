/**
 * Each company's budget (sandbox/service/budget.ts), on its own: a company's requests work a few at
 * a time, wait their turn in order and within the bound, and are refused with 503 and Retry-After
 * past it, while another company works on; a company's bulk requests run one at a time and paced
 * while another company is served, and as they come when it is alone; a request's headers say
 * whether it is bulk work.
 */
import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { ProblemError } from "workforce-scheduling-api/handlers";
import { createSandbox } from "../../../../sandbox/index.js";
import { BULK, budgetFor, CompanyBudgets, isBulk, PACE } from "../../../../sandbox/service/budget.js";

/** Whether `promise` has settled once the tasks queued now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await delay(5);
  return done;
}

/** Work that runs until `finish` is called. */
function holding(): { work: () => Promise<void>; finish: () => void } {
  let finish = (): void => undefined;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => ended, finish: () => finish() };
}

describe("a company's concurrent work", () => {
  it("is 4 requests at once (of a PostgreSQL pool's 10 connections), 8 for a company alone, 256 more waiting at most the bound", () => {
    expect(budgetFor(3000)).toEqual({ slots: 4, aloneSlots: 8, wait: 3000, queue: 256 });
  });

  it("runs a company alone on its slots when alone, and starts no more than its shared slots once another is served", async () => {
    const budgets = new CompanyBudgets({ slots: 2, aloneSlots: 4, wait: 1000, queue: 8 });
    const held = Array.from({ length: 4 }, () => holding());
    let started = 0;
    const running = held.map((work) =>
      budgets.work(5, () => {
        started++;
        return work.work();
      }),
    );
    const fifth = budgets.work(5, async () => "fifth");
    expect(await settled(fifth)).toBe(false);
    expect(started).toBe(4);
    // another company comes: it is served at once, on the slots the company alone left free
    await expect(budgets.work(6, async () => "other")).resolves.toBe("other");
    // the company alone now starts its next only below its shared 2
    held[0]?.finish();
    held[1]?.finish();
    expect(await settled(fifth)).toBe(false);
    held[2]?.finish();
    await expect(fifth).resolves.toBe("fifth");
    held[3]?.finish();
    await Promise.all(running);
  });

  it("counts another company served while its request works, however long ago it came, and alone again once it ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const budgets = new CompanyBudgets({ slots: 1, aloneSlots: 2, wait: 60_000, queue: 8 });
      const other = holding();
      const working = budgets.work(6, other.work);
      vi.setSystemTime(Date.now() + 5000);
      const first = holding();
      const running = budgets.work(5, first.work);
      const second = budgets.work(5, async () => "second");
      expect(await settled(second)).toBe(false);
      other.finish();
      await working;
      // alone now: its next starts beside the first once a turn ends or comes
      await expect(budgets.work(5, async () => "third")).resolves.toBe("third");
      await expect(second).resolves.toBe("second");
      first.finish();
      await running;
    } finally {
      vi.useRealTimers();
    }
  });

  it("runs a company's requests on its slots, its next in turn, while another company works on", async () => {
    const budgets = new CompanyBudgets({ slots: 2, wait: 1000, queue: 4 });
    const first = holding();
    const running = [budgets.work(5, first.work), budgets.work(5, holding().work)];
    const third = budgets.work(5, async () => "third");
    expect(await settled(third)).toBe(false);
    await expect(budgets.work(6, async () => "other")).resolves.toBe("other");
    first.finish();
    await expect(third).resolves.toBe("third");
    expect(running).toHaveLength(2);
  });

  it("runs a handler on its input, answering a value, a promise or a throw as a promise, each ending its turn", async () => {
    const budgets = new CompanyBudgets({ slots: 1, wait: 1000, queue: 4 });
    const twice = (input: number): number => input * 2;
    const later = async (input: number): Promise<number> => input + 1;
    const failing = (input: number): number => {
      throw new Error(`refused ${input}`);
    };
    const answers = [budgets.work(5, twice, 3), budgets.work(5, later, 3), budgets.work(5, failing, 3)];
    expect(answers.every((answer) => answer instanceof Promise)).toBe(true);
    const settledAnswers = await Promise.allSettled(answers);
    expect(
      settledAnswers.map((answer) => (answer.status === "fulfilled" ? answer.value : String(answer.reason))),
    ).toEqual([6, 4, "Error: refused 3"]);
    // every turn ended: the one slot is free at once
    await expect(budgets.work(5, twice, 4)).resolves.toBe(8);
  });

  it("refuses a request whose turn does not come within the wait with 503 and Retry-After, and one beyond the queue at once", async () => {
    const budgets = new CompanyBudgets({ slots: 1, wait: 50, queue: 1 });
    const busy = holding();
    const running = budgets.work(5, busy.work);
    const waited = budgets.work(5, async () => undefined);
    const beyond = await budgets.work(5, async () => undefined).catch((error: unknown) => error);
    expect(beyond).toBeInstanceOf(ProblemError);
    const started = Date.now();
    const late = await waited.catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(late).toMatchObject({
      problem: { status: 503, type: "urn:problem-type:service-unavailable" },
      headers: { "retry-after": "1" },
    });
    busy.finish();
    await running;
    await expect(budgets.work(5, async () => 7)).resolves.toBe(7);
  });

  it("refuses each waiting request at its own deadline, and starts one whose turn came before it", async () => {
    const budgets = new CompanyBudgets({ slots: 1, wait: 80, queue: 4 });
    const busy = holding();
    const running = budgets.work(5, busy.work);
    const started = Date.now();
    const first = budgets.work(5, async () => "first").catch((error: unknown) => error);
    await delay(40);
    const second = budgets.work(5, async () => "second").catch((error: unknown) => error);
    expect(await first).toBeInstanceOf(ProblemError);
    const firstAt = Date.now() - started;
    expect(firstAt).toBeGreaterThanOrEqual(70);
    expect(await settled(second)).toBe(false);
    expect(await second).toBeInstanceOf(ProblemError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    const third = budgets.work(5, async () => "third");
    busy.finish();
    await running;
    await expect(third).resolves.toBe("third");
  });

  it("ends a request's turn when its work fails", async () => {
    const budgets = new CompanyBudgets({ slots: 1, wait: 1000, queue: 4 });
    await expect(budgets.work(5, async () => Promise.reject(new Error("failed")))).rejects.toThrow("failed");
    await expect(budgets.work(5, async () => 7)).resolves.toBe(7);
  });
});

describe("a company's bulk work", () => {
  it("runs one at a time while another company is served, and paces the next by PACE times the last one's length", async () => {
    const budgets = new CompanyBudgets({ slots: 4, wait: 5000, queue: 4 });
    await budgets.work(6, async () => undefined);
    const end = await budgets.bulk(5);
    const next = budgets.bulk(5);
    expect(await settled(next)).toBe(false);
    await delay(100);
    end();
    const ended = Date.now();
    (await next)();
    expect(Date.now() - ended).toBeGreaterThanOrEqual(100 * PACE - 20);
  });

  it("runs as it comes, unpaced, when no other company is served", async () => {
    const budgets = new CompanyBudgets({ slots: 4, wait: 5000, queue: 4 });
    const first = await budgets.bulk(5);
    const second = budgets.bulk(5);
    expect(await settled(second)).toBe(true);
    await delay(100);
    first();
    (await second)();
    const ended = Date.now();
    (await budgets.bulk(5))();
    expect(Date.now() - ended).toBeLessThan((100 * PACE) / 2);
  });

  it("ends a bulk request's turn over HTTP when its answer is sent, while another company is served", async () => {
    const sandbox = await createSandbox({ database: "memory" });
    try {
      const send = (key: string, body: string) =>
        fetch(`${sandbox.url}/events`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body,
        });
      // a body above BULK bytes: each takes its company's one bulk turn; a turn never ended would
      // hold the next one back until it is refused, 503
      const bulk = JSON.stringify({ name: "x".repeat(BULK + 1), date: "2024-04-20", venue: { venue_id: "318" } });
      const small = JSON.stringify({ name: "Small", date: "2024-04-20", venue: {} });
      expect((await send("demo-key-summit", small)).status).toBe(201);
      for (let i = 0; i < 3; i++) expect((await send("demo-key-harbor", bulk)).status).toBe(201);
      expect((await send("demo-key-harbor", small)).status).toBe(201);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it("is a body of more than 64 KiB as the headers declare it, or one whose length they do not say", () => {
    expect(isBulk({})).toBe(false);
    expect(isBulk({ "content-length": String(BULK) })).toBe(false);
    expect(isBulk({ "content-length": String(BULK + 1) })).toBe(true);
    expect(isBulk({ "content-length": "900048" })).toBe(true);
    expect(isBulk({ "transfer-encoding": "chunked" })).toBe(true);
  });
});
