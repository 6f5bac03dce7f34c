/**
 * The check of answers against the contract: a policy the engine is given (`checkingAnswers()`),
 * as retries and timeouts are, so a page whose client does not check answers bundles none of it.
 * A success body read as JSON is checked with the validator of its status (exact, its class,
 * default); a status the operation does not declare is refused.
 */
import type { CallRoute, ResponseValidators, RouteContent } from "../route-types.js";
import { ResponseValidationError } from "./errors.js";
import { ALL_ERRORS, byStatus, type ReadKind } from "./response.js";

/**
 * Checks a success answer once its body is read: `contents` are the route's declared contents for
 * its status (undefined when none is declared), `kind` how the body was read. Throws a
 * `ResponseValidationError` when the answer breaks the contract.
 */
export type AnswerCheck = (
  route: CallRoute,
  response: Response,
  contents: readonly RouteContent[] | undefined,
  kind: ReadKind,
  body: unknown,
) => void;

/**
 * The check of answers against their validators: a route's own (a route table's entry has them),
 * else those `validators` gives for its operation (`responseValidators`, for the call entries the
 * TanStack Query options name). An operation without validators has only its status checked;
 * one that declares no response, nothing.
 */
export function checkingAnswers(validators?: ResponseValidators): AnswerCheck {
  return (route, response, contents, kind, body) => {
    const id = route.operationId;
    // an operation that declares no response at all (OpenAPI 3.1 allows that) says nothing its
    // answers could break: they are read unchecked
    if (Object.keys(route.responses).length === 0) return;
    if (contents === undefined) {
      const status = response.status;
      const issue = {
        instancePath: "",
        schemaPath: "#/responses",
        keyword: "status",
        params: { status },
        message: `status ${status} is not declared`,
      };
      throw new ResponseValidationError(id, response, [issue], body);
    }
    const table = route.validators.responses ?? validators?.[id] ?? {};
    const result = kind === "json" ? byStatus(table, response.status)?.(body, ALL_ERRORS) : undefined;
    if (result !== undefined && !result.valid) throw new ResponseValidationError(id, response, result.errors, body);
  };
}
