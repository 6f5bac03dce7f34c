/**
 * A request body's items judged as a whole: a `schema` beside the `itemSchema` (OpenAPI 3.2)
 * describes the complete content, the list of the items. Each item is handed over as it comes (and
 * kept: the list is held until the items end); once they end, the list is checked, and one that
 * breaks the schema ends the items with the `ProblemError` an item's own check gives (400), its
 * issues `in: "body"` at the list's own paths: "" for the whole list, `/<index>` for an item of it.
 */
import type { Validator } from "../../route-types.js";
import { ProblemError } from "./problems.js";
import { validationProblem } from "./request.js";

/** `items` as they come, then, once they end, their list checked by `validator`. */
export async function* checkedAsWhole(items: AsyncIterable<unknown>, validator: Validator): AsyncGenerator<unknown> {
  const list: unknown[] = [];
  for await (const item of items) {
    list.push(item);
    yield item;
  }
  const result = validator(list, { allErrors: true });
  if (!result.valid)
    throw new ProblemError(
      validationProblem(
        result.errors.map(({ instancePath, schemaPath, keyword, params, message }) => ({
          in: "body",
          instancePath,
          schemaPath,
          keyword,
          params,
          message,
        })),
      ),
    );
}
