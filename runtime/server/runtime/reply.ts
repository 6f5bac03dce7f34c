/**
 * Writing a decided answer (an `Outcome`) with Fastify's reply: the handler's headers, the
 * status, the Content-Type, then the body as it is (Fastify sets Content-Length).
 */
import type { FastifyReply } from "fastify";
import type { Outcome } from "./exchange.js";
import { type ProblemDetails, problemOutcome } from "./problems.js";

/** Writes the answer on the reply; `body` in place of the outcome's (a Node stream of a streamed one). */
export function writeOutcome(reply: FastifyReply, outcome: Outcome, body: unknown = outcome.body): void {
  if (outcome.headers !== undefined) reply.headers(outcome.headers);
  reply.code(outcome.status);
  if (outcome.contentType !== undefined) reply.header("content-type", outcome.contentType);
  reply.send(body);
}

/** Sends a problem: its status, the problem media type and the JSON body (and any `headers`). */
export function sendProblem(
  reply: FastifyReply,
  problem: ProblemDetails,
  headers?: Readonly<Record<string, string>>,
): void {
  writeOutcome(reply, problemOutcome(problem, headers));
}
