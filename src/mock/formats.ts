/** String formats for mock data: a sample of each common format (the validator judges it). */

const SAMPLES: Readonly<Record<string, string>> = {
  date: "2024-01-15",
  time: "09:30:00Z",
  "date-time": "2024-01-15T09:30:00Z",
  email: "user@example.com",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  uri: "https://example.com/resource",
  "uri-reference": "https://example.com/resource",
  url: "https://example.com/resource",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8:0:0:0:0:0:1",
  hostname: "example.com",
};

/** A sample string of a format, if it has one. */
export function formatSample(format: unknown): string | undefined {
  return typeof format === "string" && Object.hasOwn(SAMPLES, format) ? SAMPLES[format] : undefined;
}
