import { isRecord } from "../json-value.js";
import { stringAt } from "./document-nodes.js";
import type { ServerModel, ServerVariableModel } from "./types.js";

export function buildServers(document: Record<string, unknown>): ServerModel[] {
  const servers = Array.isArray(document.servers) ? document.servers.filter(isRecord) : [];
  return servers.map((server) => {
    const description = stringAt(server, "description");
    return {
      url: stringAt(server, "url") ?? "/",
      ...(description !== undefined ? { description } : {}),
      variables: buildVariables(server.variables),
    };
  });
}

function buildVariables(variables: unknown): ServerVariableModel[] {
  if (!isRecord(variables)) return [];
  return Object.entries(variables)
    .filter((entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]))
    .map(([name, variable]) => {
      const values = Array.isArray(variable.enum) ? variable.enum.map(String) : undefined;
      return { name, default: String(variable.default ?? ""), ...(values ? { enum: values } : {}) };
    });
}

/**
 * The path prefix of a server URL with its variables at their defaults:
 * "{base_url}/api/1_12" → "/api/1_12", "https://api.example.com/v1/" → "/v1", "/" → "".
 */
export function serverBasePath(server: ServerModel | undefined): string {
  if (server === undefined) return "";
  const filled = server.variables.reduce((url, v) => url.split(`{${v.name}}`).join(v.default), server.url);
  let pathname: string;
  try {
    pathname = new URL(filled, "http://placeholder.invalid").pathname;
  } catch {
    return "";
  }
  const trimmed = decodeURI(pathname).replace(/\/+$/, "");
  return trimmed === "/" ? "" : trimmed;
}
