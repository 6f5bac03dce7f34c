/** Which errors mean the database is away (answered 503), and which are the sandbox's own (500). */
import { describe, expect, it } from "vitest";
import { ProblemError } from "workforce-scheduling-api/server";
import {
  guardOutage,
  isCommitInDoubt,
  isDatabaseBusy,
  isDatabaseOutage,
  outageProblem,
  RETRY_AFTER_SECONDS,
} from "../../../../sandbox/store/outage.js";

const withCode = (code: string, message = "failed"): Error => Object.assign(new Error(message), { code });

describe("isDatabaseOutage", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset connection", withCode("ECONNRESET")],
    [
      "a server shut down by its administrator (57P01)",
      withCode("57P01", "terminating connection due to administrator command"),
    ],
    ["a server starting up (57P03)", withCode("57P03", "the database system is starting up")],
    ["a connection exception (08006)", withCode("08006")],
    ["too many connections (53300)", withCode("53300")],
    ["pg's ended connection", new Error("Connection terminated unexpectedly")],
    ["pg's broken client", new Error("Client has encountered a connection error and is not queryable")],
    ["pg's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a cause that is one", new Error("query failed", { cause: withCode("ECONNREFUSED") })],
    ["every address refusing", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], "")],
    [
      "Citus's report of a worker lost under a statement (XX000)",
      Object.assign(
        withCode(
          "XX000",
          "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.",
        ),
        { where: "while executing command on 127.0.0.1:9701" },
      ),
    ],
    ["Citus's lost worker connection (XX000)", withCode("XX000", "connection not open")],
    [
      "Citus's worker that cannot be read from (XX000)",
      withCode("XX000", "cannot connect to 127.0.0.1:9702 to fetch intermediate results"),
    ],
    [
      "Citus's worker connection lost inside the transaction (XX000)",
      withCode("XX000", "failure on connection marked as essential: 127.0.0.1:9702"),
    ],
    [
      "Citus's commit a worker did not answer (XX000)",
      withCode("XX000", "could not commit transaction for shard 102008 on at least one active node"),
    ],
    [
      "Citus's task whose every placement failed (XX000)",
      withCode("XX000", "execution cannot recover from multiple connection failures. Last node failed 127.0.0.1:9702"),
    ],
    [
      "Citus's worker that refuses connections (08006)",
      withCode(
        "08006",
        "connection to the remote node postgres@127.0.0.1:9702 failed with the following error: Connection refused",
      ),
    ],
  ])("is true for %s", (_label, error) => {
    expect(isDatabaseOutage(error)).toBe(true);
  });

  it.each([
    ["a unique violation (23505)", withCode("23505", "duplicate key value")],
    ["a syntax error (42601)", withCode("42601")],
    ["a bug", new TypeError("cannot read properties of undefined")],
    ["another internal error (XX000)", withCode("XX000", "could not find shard placement")],
    [
      "a lock timeout (55P03), which is a wait, not an outage",
      withCode("55P03", "canceling statement due to lock timeout"),
    ],
    ["a string", "ECONNREFUSED"],
    ["undefined", undefined],
    [
      "some addresses refusing, one failing otherwise",
      new AggregateError([withCode("ECONNREFUSED"), new Error("bug")], ""),
    ],
  ])("is false for %s", (_label, error) => {
    expect(isDatabaseOutage(error)).toBe(false);
  });
});

describe("isDatabaseBusy", () => {
  it.each([
    ["a statement timeout (57014)", withCode("57014", "canceling statement due to statement timeout")],
    ["a lock timeout (55P03)", withCode("55P03", "canceling statement due to lock timeout")],
    [
      "a deadlock (40P01)",
      withCode("40P01", "canceling the transaction since it was involved in a distributed deadlock"),
    ],
    ["a cause that is one", new Error("query failed", { cause: withCode("57014") })],
  ])("is true for %s, answered 503 with Retry-After", (_label, error) => {
    expect(isDatabaseBusy(error)).toBe(true);
    expect(outageProblem(error)).toMatchObject({
      problem: { status: 503, type: "urn:problem-type:service-unavailable" },
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    });
  });

  it.each([
    ["a unique violation (23505)", withCode("23505")],
    ["a refused connection", withCode("ECONNREFUSED")],
    ["undefined", undefined],
  ])("is false for %s", (_label, error) => {
    expect(isDatabaseBusy(error)).toBe(false);
  });
});

describe("isCommitInDoubt", () => {
  it("is true of Citus's commit a worker did not answer: a 503 that says the write may have been kept", () => {
    const error = new Error("commit failed", {
      cause: withCode("XX000", "could not commit transaction for shard 102015 on at least one active node"),
    });
    expect(isCommitInDoubt(error)).toBe(true);
    expect(isDatabaseOutage(error)).toBe(true);
    expect(outageProblem(error)).toMatchObject({
      problem: { status: 503, detail: expect.stringContaining("may have been kept") },
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    });
  });

  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a connection lost under a statement", withCode("XX000", "server closed the connection unexpectedly")],
  ])("is false for %s, whose 503 says nothing was kept", (_label, error) => {
    expect(isCommitInDoubt(error)).toBe(false);
    expect(outageProblem(error)).toMatchObject({
      problem: { status: 503, detail: expect.stringContaining("Nothing of this request was kept") },
    });
  });

  it("is false for the same words under another SQLSTATE, which is no outage", () => {
    const error = withCode("23505", "could not commit transaction for shard 1 on at least one active node");
    expect(isCommitInDoubt(error)).toBe(false);
    expect(outageProblem(error)).toBe(error);
  });
});

describe("guardOutage", () => {
  it("turns an outage, thrown or rejected, into a 503 problem with Retry-After, and passes anything else on", async () => {
    const refused = guardOutage(async () => Promise.reject(withCode("ECONNREFUSED")));
    const error = await refused().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({
      problem: { status: 503, type: "urn:problem-type:service-unavailable" },
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    });
    expect(() =>
      guardOutage(() => {
        throw withCode("57P01");
      })(),
    ).toThrow(ProblemError);
    const bug = new TypeError("bug");
    await expect(guardOutage(async () => Promise.reject(bug))()).rejects.toBe(bug);
    expect(guardOutage((a: number, b: number) => a + b)(2, 3)).toBe(5);
  });
});
