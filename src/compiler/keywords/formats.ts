import type { HelperName } from "../code/helpers.js";

/** String formats that are asserted, and the helper checking each. */
export const STRING_FORMATS: Readonly<Record<string, HelperName>> = {
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
