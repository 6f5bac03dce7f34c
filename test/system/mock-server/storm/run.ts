/** Runs storm cases against a server, a few connections at a time, and checks every answer. */
import { validateProblem } from "../../../../generated/validators/index.js";
import { type RawAnswer, type RawExchange, rawExchange } from "../../../support/raw-http.js";
import type { StormCase } from "./model.js";

/** The outcome of one case: the statuses answered, and what broke the contract, if anything. */
export interface StormResult {
  readonly case: StormCase;
  readonly statuses: readonly number[];
  readonly violations: readonly string[];
}

/** Sends every case (`concurrency` at a time) and checks the answers. */
export async function runStorm(
  port: number,
  cases: readonly StormCase[],
  { concurrency = 12, handlersTell = true } = {},
): Promise<StormResult[]> {
  const results: StormResult[] = new Array(cases.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < cases.length; i = next++) {
      const stormCase = cases[i] as StormCase;
      const exchange = await rawExchange(port, stormCase.chunks, {
        gapMs: stormCase.gapMs ?? 0,
        end: stormCase.cutOff !== true,
        cutOff: stormCase.cutOff === true,
        idleMs: 5000,
      });
      const checked = handlersTell ? stormCase : { ...stormCase, received: undefined };
      results[i] = {
        case: stormCase,
        statuses: exchange.answers.map((answer) => answer.status),
        violations: check(checked, exchange),
      };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** What in an exchange breaks the contract. */
export function check(stormCase: StormCase, exchange: RawExchange): string[] {
  if (stormCase.cutOff === true) return [];
  const violations: string[] = [];
  const { answers } = exchange;
  if (answers.length === 0 && stormCase.answerOptional !== true)
    violations.push(exchange.closed ? "closed without an answer" : "no answer in 5 s");
  if (exchange.rest !== "") violations.push(`an answer cut short: ${JSON.stringify(exchange.rest.slice(0, 80))}`);
  if (stormCase.status !== undefined && answers[0] !== undefined && answers[0].status !== stormCase.status)
    violations.push(`status ${answers[0].status}, expected ${stormCase.status}`);
  for (const [index, answer] of answers.entries()) violations.push(...checkAnswer(stormCase, answer, index));
  return violations;
}

function checkAnswer(stormCase: StormCase, answer: RawAnswer, index: number): string[] {
  if (answer.status >= 500) return [`answer ${index}: ${answer.status} ${answer.body.slice(0, 200)}`];
  if (answer.status >= 400) return checkProblem(answer, index);
  if (answer.status < 200 || answer.status > 299) return [`answer ${index}: unexpected status ${answer.status}`];
  if (stormCase.mustFail) return [`answer ${index}: ${answer.status} for a request that must fail`];
  if (index > 0 || stormCase.received === undefined) return [];
  return checkReceived(stormCase.received, answer);
}

function checkProblem(answer: RawAnswer, index: number): string[] {
  if (!/^application\/problem\+json\b/.test(answer.headers["content-type"] ?? ""))
    return [`answer ${index}: ${answer.status} as ${answer.headers["content-type"]}: ${answer.body.slice(0, 120)}`];
  let problem: unknown;
  try {
    problem = JSON.parse(answer.body);
  } catch {
    return [`answer ${index}: a problem that is not JSON: ${answer.body.slice(0, 120)}`];
  }
  const verdict = validateProblem(problem);
  if (!verdict.valid) return [`answer ${index}: not a Problem: ${verdict.errors[0]?.message}`];
  return verdict.value.status === answer.status
    ? []
    : [`answer ${index}: problem status ${verdict.value.status} on an HTTP ${answer.status}`];
}

function checkReceived(received: NonNullable<StormCase["received"]>, answer: RawAnswer): string[] {
  const violations: string[] = [];
  const id = answer.headers["x-received-id"];
  if (received.id !== undefined && (id === undefined || decodeURIComponent(id) !== received.id))
    violations.push(
      `the handler received the ID ${JSON.stringify(id === undefined ? id : decodeURIComponent(id))}, not ${JSON.stringify(received.id)}`,
    );
  if (received.body !== undefined && answer.headers["x-received-body"] !== received.body)
    violations.push("the handler received another body than was sent");
  return violations;
}
