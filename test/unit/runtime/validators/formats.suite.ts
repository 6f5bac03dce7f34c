import { describe, expect, it } from "vitest";
import { $fmtDate, $fmtDateTime, $fmtTime } from "../../../../runtime/validators/helpers/format-datetime.js";
import {
  $fmtEmail,
  $fmtHostname,
  $fmtIpv4,
  $fmtIpv6,
  $fmtUri,
  $fmtUuid,
} from "../../../../runtime/validators/helpers/format-network.js";

describe("format helpers", () => {
  it("dates and times of RFC 3339, leap years and leap seconds included", () => {
    expect($fmtDate("2024-02-29")).toBe(true);
    expect($fmtDate("2023-02-29")).toBe(false);
    expect($fmtDate("2024-2-29")).toBe(false);
    expect($fmtTime("23:59:60Z")).toBe(true);
    expect($fmtTime("22:59:60Z")).toBe(false);
    expect($fmtTime("23:59:60+01:00")).toBe(false);
    expect($fmtTime("12:00:00.5-05:30")).toBe(true);
    expect($fmtTime("12:00:00")).toBe(false);
    expect($fmtDateTime("2024-01-01t00:00:00z")).toBe(true);
    expect($fmtDateTime("2024-01-01 00:00:00Z")).toBe(false);
  });

  it("dates: months 1 to 12, days within their month, digits and dashes where RFC 3339 puts them", () => {
    const valid = ["2024-12-31", "2000-02-29", "0000-01-01", "2023-04-30"];
    const invalid = ["2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32", "2023-04-31", "1900-02-29"];
    const malformed = ["2024/01/01", "20a4-01-01", "2024-1a-01", "2024-01-0b", "2024-01-1", "", "2024-01-01x"];
    expect(valid.filter((s) => !$fmtDate(s))).toEqual([]);
    expect([...invalid, ...malformed].filter((s) => $fmtDate(s))).toEqual([]);
  });

  it("network formats", () => {
    expect($fmtEmail("a.b@example.com")).toBe(true);
    expect($fmtEmail('"quoted local"@[IPv6:::1]')).toBe(true);
    expect($fmtEmail("a@@b")).toBe(false);
    expect($fmtUuid("123e4567-e89b-12d3-a456-426614174000")).toBe(true);
    expect($fmtUri("https://[v1.x]/path?q#f")).toBe(true);
    expect($fmtUri("relative/path")).toBe(false);
    expect($fmtIpv4("192.168.0.1")).toBe(true);
    expect($fmtIpv4("192.168.0.01")).toBe(false);
    expect($fmtIpv6("::ffff:192.168.0.1")).toBe(true);
    expect($fmtIpv6("1::2::3")).toBe(false);
  });

  it("host names: LDH labels, and xn-- labels that decode to valid IDNA2008 A-labels", () => {
    expect($fmtHostname("example.com")).toBe(true);
    expect($fmtHostname("-bad.com")).toBe(false);
    expect($fmtHostname("xn--bcher-kva.example")).toBe(true);
    expect($fmtHostname("xn--abc.example")).toBe(false);
    expect($fmtHostname("a".repeat(254))).toBe(false);
  });
});
