import type { Finding } from "../findings/finding.js";
import type { DiffSides } from "../operations/operation-context.js";
import { rules } from "../report/rules.js";

/**
 * The package ships both sides of the API: the client sends request types and reads response
 * types, the server's `Handlers` read request types and return response types. So a change that
 * HTTP clients do not notice can still stop code from compiling: a response property made
 * required breaks handlers that leave it out; a request enum value added breaks an exhaustive
 * `switch` in a handler. Each such finding that is not breaking already gets a package finding.
 */
export function typeChangesOf(findings: readonly Finding[], sides: DiffSides): Finding[] {
  return findings.flatMap((finding) => {
    if (finding.typeBreak === undefined || rules[finding.rule].severity === "breaking") return [];
    const { typeBreak: _typeBreak, direction: _direction, ...rest } = finding;
    const who = finding.typeBreak === "handlers" ? "server `Handlers` code" : "client code";
    if (finding.owner !== undefined && finding.ownerDetail !== undefined) {
      return [
        {
          ...rest,
          rule: "package-type-changed" as const,
          message: `type ${finding.owner}, ${finding.ownerDetail}; ${who} written against the old type may no longer compile`,
        },
      ];
    }
    const method = sides.head.model.operations.find((operation) => operation.id === finding.operation)?.names.method;
    const member =
      method === undefined ? "" : ` (\`${finding.typeBreak === "handlers" ? "Handlers" : "client"}.${method}\`)`;
    return [
      {
        ...rest,
        rule: "package-type-changed" as const,
        message: `${finding.message}; ${who}${member} written against the old types may no longer compile`,
      },
    ];
  });
}
