// Every operation must be secured: its own `security`, or the document's, must hold at least one
// requirement, and no requirement may be the empty object (which makes authentication optional).
import { createRulesetFunction } from "@stoplight/spectral-core";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function requirementProblem(security) {
  if (!Array.isArray(security) || security.length === 0) return "has no security requirement";
  if (security.some((req) => req === null || typeof req !== "object" || Object.keys(req).length === 0)) {
    return "has an empty security requirement ({}), which makes authentication optional";
  }
  return undefined;
}

export default createRulesetFunction({ input: { type: "object" }, options: null }, (document) => {
  const results = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation === undefined) continue;
      const own = operation.security;
      const problem = requirementProblem(own ?? document.security);
      if (problem === undefined) continue;
      const where = own === undefined ? ["paths", path, method] : ["paths", path, method, "security"];
      results.push({
        message: `${method.toUpperCase()} ${path} ${problem}: add a security requirement (here or at the document root).`,
        path: where,
      });
    }
  }
  return results;
});
