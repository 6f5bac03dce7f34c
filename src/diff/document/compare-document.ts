import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { Finding } from "../findings/finding.js";
import { compareResidual, rawPair } from "../findings/residual.js";
import { sameJson } from "../findings/stable-json.js";
import type { DiffSides } from "../operations/operation-context.js";

const TOP_HANDLED: ReadonlySet<string> = new Set([
  "openapi",
  "info",
  "servers",
  "paths",
  "webhooks",
  "components",
  "security",
]);

/**
 * The document around the operations: the OpenAPI version, `info` (documentation, its version
 * included), the servers and base path, and the other top-level keys (tags and external docs
 * document; anything else is left to a human as unclassified). The document's `security` is
 * compared where it applies, in each operation; the webhooks are compared on their own.
 */
export function compareDocument(sides: DiffSides): Finding[] {
  const [base, head] = [sides.base.loaded.document, sides.head.loaded.document];
  // a Swagger 2.0 side is read upgraded to 3.0: its version is the one it was written in
  const [before, after] = [sides.base.loaded, sides.head.loaded].map((side) =>
    side.upgradedFrom === undefined ? String(side.document.openapi) : `Swagger ${side.upgradedFrom}`,
  );
  return [
    ...(before === after
      ? []
      : [
          {
            rule: "openapi-version-changed" as const,
            pointer: "#/openapi",
            before,
            after,
            message: `OpenAPI version changed from ${before} to ${after}`,
          },
        ]),
    ...compareInfo(base.info, head.info),
    ...compareServers(sides),
    ...compareResidual(rawPair(base, head, { base: "#", head: "#" }, "document"), TOP_HANDLED),
  ];
}

/** Every field of `info` documents the API; the version included (it is the service's, not the package's). */
function compareInfo(base: unknown, head: unknown): Finding[] {
  const before = isRecord(base) ? base : {};
  const after = isRecord(head) ? head : {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((key) => !sameJson(before[key], after[key]))
    .map(
      (key): Finding => ({
        rule: "documentation-changed",
        pointer: appendPointer("#/info", key),
        ...(before[key] !== undefined ? { before: before[key] } : {}),
        ...(after[key] !== undefined ? { after: after[key] } : {}),
        message: `info.${key} changed`,
      }),
    );
}

/** The base path moves every route; other server changes move the client's default URL. */
function compareServers(sides: DiffSides): Finding[] {
  const [before, after] = [sides.base.model, sides.head.model];
  const urls = (servers: typeof before.servers): unknown =>
    servers.map((server) => ({ url: server.url, variables: server.variables }));
  const descriptions = (servers: typeof before.servers): unknown => servers.map((server) => server.description ?? null);
  const findings: Finding[] = [];
  if (before.basePath !== after.basePath) {
    findings.push({
      rule: "api-base-path-changed",
      pointer: "#/servers",
      before: before.basePath || "/",
      after: after.basePath || "/",
      message: `base path changed from "${before.basePath || "/"}" to "${after.basePath || "/"}": every route moves`,
    });
  } else if (!sameJson(urls(before.servers), urls(after.servers))) {
    findings.push({
      rule: "api-server-changed",
      pointer: "#/servers",
      before: urls(before.servers),
      after: urls(after.servers),
      message:
        "servers changed (URL or variables): clients relying on the default server or its variables are affected",
    });
  }
  if (!sameJson(descriptions(before.servers), descriptions(after.servers)))
    findings.push({ rule: "documentation-changed", pointer: "#/servers", message: "server descriptions changed" });
  return findings;
}
