/**
 * How the sandbox writes dates, where the contract gives only "a string": times as
 * `YYYY-MM-DD HH:MM:SS` in UTC (the form of the spec's examples), dates as `YYYY-MM-DD`, and the
 * human-readable `*_nice` and `date_added` dates as `Mar 1, 2024`, in English, in UTC.
 */

/** `2024-03-01 09:00:00` (UTC). */
export function timestampText(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** The day (since 1970, UTC) `dateText` last wrote, and its text: every time of a day has the day's. */
let lastDay = Number.NaN;
let lastDayText = "";

/** `2024-03-01` (UTC). */
export function dateText(date: Date): string {
  const day = Math.floor(date.getTime() / 86_400_000);
  if (day !== lastDay) {
    lastDayText = date.toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDayText;
}

const NICE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** `Mar 1, 2024`, from a stored `YYYY-MM-DD HH:MM:SS` time or `YYYY-MM-DD` date. */
export function niceDate(stored: string): string {
  return NICE.format(new Date(`${stored.slice(0, 10)}T00:00:00Z`));
}

/**
 * An RFC 3339 date-time, as the contract's `date-time` format takes it, in UTC as stored. A leap
 * second (`:60`, which the format allows and JavaScript dates do not) is kept as the second before.
 */
export function storedTimestamp(dateTime: string): string {
  const date = new Date(dateTime.toUpperCase().replace(/:60(?=(\.\d+)?(Z|[+-]\d\d:\d\d)$)/i, ":59"));
  return timestampText(date);
}
