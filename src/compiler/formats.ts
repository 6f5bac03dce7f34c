import { DATE, DATE_TIME, FMT_DATE, FMT_TIME, TIME } from "./format-datetime.js";
import { IDNA } from "./format-idna.js";
import { EMAIL, HOSTNAME, IPV4, IPV6, URI, UUID } from "./format-network.js";
import type { HelperDefinition, HelperName } from "./runtime.js";

/** Names of the format checker helpers. */
export type FormatHelperName = "fmtDate" | "fmtTime" | "fmtDateTime" | "fmtEmail" | "fmtUuid" | "fmtUri" | "fmtIpv4" | "fmtIpv6" | "fmtHostname" | "idna" | "dateParts" | "timeParts";

/** String formats that are asserted, and the helper checking each. */
export const STRING_FORMATS: Readonly<Record<string, FormatHelperName>> = {
  date: "fmtDate",
  time: "fmtTime",
  "date-time": "fmtDateTime",
  email: "fmtEmail",
  uuid: "fmtUuid",
  uri: "fmtUri",
  ipv4: "fmtIpv4",
  ipv6: "fmtIpv6",
  hostname: "fmtHostname",
};

/** Numeric formats with a range check (inclusive bounds, as powers of two). */
export const NUMBER_FORMATS: Readonly<Record<string, { readonly bits: number }>> = {
  int32: { bits: 31 },
  int64: { bits: 63 },
};

/** The helper for a string format, or undefined for formats that are only annotations. */
export function stringFormatHelper(format: string): HelperName | undefined {
  return Object.hasOwn(STRING_FORMATS, format) ? STRING_FORMATS[format] : undefined;
}

/** Format helper definitions, keyed by helper name. */
export const FORMAT_HELPERS: Record<FormatHelperName, HelperDefinition> = {
  dateParts: { deps: [], source: DATE },
  timeParts: { deps: ["dateParts"], source: TIME },
  fmtDate: { deps: ["dateParts"], source: FMT_DATE },
  fmtTime: { deps: ["timeParts"], source: FMT_TIME },
  fmtDateTime: { deps: ["dateParts", "timeParts"], source: DATE_TIME },
  fmtEmail: { deps: ["fmtIpv4", "fmtIpv6", "fmtHostname"], source: EMAIL },
  fmtUuid: { deps: [], source: UUID },
  fmtUri: { deps: ["fmtIpv6"], source: URI },
  fmtIpv4: { deps: [], source: IPV4 },
  fmtIpv6: { deps: ["fmtIpv4"], source: IPV6 },
  fmtHostname: { deps: ["idna"], source: HOSTNAME },
  idna: { deps: [], source: IDNA },
};
