/**
 * String formats for mock data: a sample of each common format (the validator judges it), and
 * distinct ones for variants 1, 2, … (the items of a `uniqueItems` array).
 */

const SAMPLES: Readonly<Record<string, (n: number) => string>> = {
  date: (n) => `2024-01-${day(n)}`,
  time: (n) => `09:${minute(n)}:00Z`,
  "date-time": (n) => `2024-01-${day(n)}T09:${minute(n)}:00Z`,
  email: (n) => `user${suffix(n)}@example.com`,
  uuid: (n) => `3fa85f64-5717-4562-b3fc-${(0x2c963f66afa6 + n).toString(16).padStart(12, "0").slice(-12)}`,
  uri: (n) => `https://example.com/resource${suffix(n)}`,
  "uri-reference": (n) => `https://example.com/resource${suffix(n)}`,
  url: (n) => `https://example.com/resource${suffix(n)}`,
  ipv4: (n) => `192.0.2.${1 + (n % 254)}`,
  ipv6: (n) => `2001:db8:0:0:0:0:0:${(1 + n).toString(16)}`,
  hostname: (n) => `${n === 0 ? "" : `host${n}.`}example.com`,
};

const suffix = (n: number): string => (n === 0 ? "" : String(n));
/** 15, then the other days of January */
const day = (n: number): string => String(((14 + n) % 28) + 1).padStart(2, "0");
const minute = (n: number): string => String((30 + Math.floor(n / 28)) % 60).padStart(2, "0");

/** A sample string of a format (the `variant`-th), if it has one. */
export function formatSample(format: unknown, variant = 0): string | undefined {
  return typeof format === "string" && Object.hasOwn(SAMPLES, format) ? SAMPLES[format]?.(variant) : undefined;
}
