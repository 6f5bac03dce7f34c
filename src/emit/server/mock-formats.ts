/**
 * String formats for mock data: a sample of each asserted format, and a check that is never
 * looser than the generated validators' (when unsure it answers false). Formats the validators
 * treat as annotations pass.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|[+-](\d{2}):(\d{2}))$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})";
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/${PCHAR}*)*(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?$`);
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

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

/** Whether a string certainly satisfies a format as the generated validators assert it. */
export function checkFormat(format: string, value: string): boolean {
  switch (format) {
    case "date": return isDate(value);
    case "time": return isTime(value);
    case "date-time": return (value.charAt(10) === "T" || value.charAt(10) === "t") && isDate(value.slice(0, 10)) && isTime(value.slice(11));
    case "email": return isEmail(value);
    case "uuid": return UUID.test(value);
    case "uri": return URI.test(value);
    case "ipv4": return IPV4.test(value);
    case "ipv6": return /^[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){7}$/.test(value);
    case "hostname": return isHostname(value);
    default: return true;
  }
}

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : (DAYS[month] ?? 0));
}

function isTime(value: string): boolean {
  const match = TIME.exec(value);
  if (match === null) return false;
  return Number(match[1]) <= 23 && Number(match[2]) <= 59 && Number(match[3]) <= 59 && Number(match[4] ?? 0) <= 23 && Number(match[5] ?? 0) <= 59;
}

function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  return at > 0 && EMAIL_LOCAL.test(value.slice(0, at)) && isHostname(value.slice(at + 1));
}

function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value.split(".").every((label) => LABEL.test(label) && label.slice(2, 4) !== "--");
}
