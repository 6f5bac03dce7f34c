/** Checkers for the date and time formats of RFC 3339. */

// RFC 3339 date parts with leap years. The date and time parsers work on character codes:
// no regex match arrays, no substrings.

const $DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function $digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}
// one expression: a month out of range has no days ($DAYS[0], or none), so no day fits it
function $dateAt(s: string, at: number): boolean {
  const y = $digits(s, at, 4);
  const m = $digits(s, at + 5, 2);
  const d = $digits(s, at + 8, 2);
  return (
    s.charCodeAt(at + 4) === 45 &&
    s.charCodeAt(at + 7) === 45 &&
    y >= 0 &&
    d > 0 &&
    d <= (m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : ($DAYS[m] ?? 0))
  );
}

// RFC 3339 time with a required offset; a leap second only at 23:59 UTC.

function $timeAt(s: string, at: number): boolean {
  const h = $digits(s, at, 2);
  const mi = $digits(s, at + 3, 2);
  const sec = $digits(s, at + 6, 2);
  let i = at + 8;
  if (s.charCodeAt(i) === 46) {
    const start = ++i;
    while ($digits(s, i, 1) >= 0) i++;
    if (i === start) return false;
  }
  // the offset: Z (z) at the end, or +hh:mm or -hh:mm at the end
  const z = s.charCodeAt(i);
  const zulu = z === 90 || z === 122;
  const oh = zulu ? 0 : $digits(s, i + 1, 2);
  const om = zulu ? 0 : $digits(s, i + 4, 2);
  return (
    s.charCodeAt(at + 2) === 58 &&
    s.charCodeAt(at + 5) === 58 &&
    // digits that are not there read as -1
    Math.min(h, mi, sec, oh, om) >= 0 &&
    h <= 23 &&
    mi <= 59 &&
    sec <= 60 &&
    (zulu ? i + 1 === s.length : (z === 43 || z === 45) && i + 6 === s.length && s.charCodeAt(i + 3) === 58) &&
    oh <= 23 &&
    om <= 59 &&
    (sec < 60 || (((h * 60 + mi - (z === 45 ? -1 : 1) * (oh * 60 + om)) % 1440) + 1440) % 1440 === 1439)
  );
}

// RFC 3339 full-date.

export function $fmtDate(s: string): boolean {
  return s.length === 10 && $dateAt(s, 0);
}

// RFC 3339 full-time.

export function $fmtTime(s: string): boolean {
  return $timeAt(s, 0);
}

// RFC 3339 date-time (T or t between date and time).

export function $fmtDateTime(s: string): boolean {
  const t = s.charCodeAt(10);
  return (t === 84 || t === 116) && $dateAt(s, 0) && $timeAt(s, 11);
}
