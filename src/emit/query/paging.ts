/**
 * Which query parameter pages a GET operation, for its infinite query options: one named in
 * configuration (`--paging NAME` for every GET operation that has it, `--paging operationId=NAME`
 * for one), else the first of the common names found among its optional query parameters (a
 * cursor, an offset, a page number). A name in configuration that pages nothing is an error, so a
 * typo does not silently leave an operation without its infinite options.
 */
import { createDiagnostic, type Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ApiModel, OperationModel } from "../../model/types.js";

/** A query parameter named in configuration as the one that pages. */
export interface PagingRule {
  readonly parameter: string;
  /** the operationId it is for; absent: every GET operation with that optional query parameter */
  readonly operation?: string;
}

/** How an operation pages: the query parameter, and what kind of paging it is (said in its doc). */
export interface Paging {
  readonly parameter: string;
  readonly by: string;
}

/**
 * The query parameters that page a collection, by kind, in the order they are looked for: a
 * cursor (the token of the next page), an offset (with a limit), a page number (with a page size).
 */
const PAGING_PARAMETERS: readonly { readonly by: string; readonly names: readonly string[] }[] = [
  {
    by: "a cursor",
    names: ["cursor", "page_token", "pageToken", "next_token", "nextToken", "starting_after", "after"],
  },
  { by: "an offset", names: ["offset", "skip"] },
  { by: "a page number", names: ["page", "page_number", "pageNumber"] },
];

const CONFIGURED = "the parameter named by --paging";

/** How a GET operation pages, when a rule names one of its optional query parameters or one has a paging name. */
export function pagingOf(operation: OperationModel, rules: readonly PagingRule[] = []): Paging | undefined {
  if (operation.method !== "get") return undefined;
  const optional = new Set(operation.parameters.query.filter((p) => !p.required).map((p) => p.name));
  const own = rules.find((rule) => rule.operation === operation.id);
  if (own !== undefined) return optional.has(own.parameter) ? { parameter: own.parameter, by: CONFIGURED } : undefined;
  const named = rules.find((rule) => rule.operation === undefined && optional.has(rule.parameter));
  if (named !== undefined) return { parameter: named.parameter, by: CONFIGURED };
  for (const { by, names } of PAGING_PARAMETERS) {
    const parameter = names.find((name) => optional.has(name));
    if (parameter !== undefined) return { parameter, by };
  }
  return undefined;
}

/** The rules that page nothing: an unknown operation, one that is not GET, or a parameter it lacks. */
export function checkPagingRules(model: ApiModel, rules: readonly PagingRule[]): Diagnostic[] {
  return rules.flatMap((rule) => {
    const problem = rule.operation === undefined ? globalProblem(model, rule) : operationProblem(model, rule);
    return problem === undefined ? [] : [createDiagnostic("PAGING_OPTION_INVALID", `${ruleText(rule)}: ${problem}`)];
  });
}

function globalProblem(model: ApiModel, rule: PagingRule): string | undefined {
  const pages = model.operations.some((operation) => hasOptionalQuery(operation, rule.parameter));
  return pages ? undefined : `no GET operation has an optional query parameter "${rule.parameter}"`;
}

function operationProblem(model: ApiModel, rule: PagingRule): string | undefined {
  const operation = model.operations.find((candidate) => candidate.id === rule.operation);
  if (operation === undefined) return `the document has no operation "${rule.operation}"`;
  if (operation.method !== "get")
    return `${operation.id} is ${operation.httpMethod} ${operation.path}: only GET operations have query options`;
  if (!hasOptionalQuery(operation, rule.parameter))
    return `${operation.id} has no optional query parameter "${rule.parameter}"`;
  return undefined;
}

function hasOptionalQuery(operation: OperationModel, name: string): boolean {
  return operation.method === "get" && operation.parameters.query.some((p) => p.name === name && !p.required);
}

/** A rule as it is written on the command line. */
export function ruleText(rule: PagingRule): string {
  return `--paging ${rule.operation === undefined ? "" : `${rule.operation}=`}${rule.parameter}`;
}

/** Reads `--paging` values: `NAME` or `operationId=NAME`. */
export function parsePagingRules(values: readonly string[]): PagingRule[] {
  return values.map((value) => {
    const at = value.indexOf("=");
    const operation = at === -1 ? undefined : value.slice(0, at).trim();
    const parameter = (at === -1 ? value : value.slice(at + 1)).trim();
    if (parameter === "" || operation === "")
      throw new Error(`--paging "${value}": give a query parameter (--paging cursor) or operationId=parameter`);
    return operation === undefined ? { parameter } : { parameter, operation };
  });
}
