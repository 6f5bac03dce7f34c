/** Checkers for network formats: e-mail, uuid, uri, IP addresses, host names. */
import { $idnaLabel } from "./format-idna.js";

// RFC 5321 mailbox: dot-atom or quoted local part; host name or address literal domain.

const $EMAIL_LOCAL = /^(?:[A-Za-z0-9!#$%&'*+\/=?^_\x60{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+\/=?^_\x60{|}~-]+)*|"(?:[^"\\\r\n]|\\.)*")$/;
export function $fmtEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at < 1 || !$EMAIL_LOCAL.test(s.slice(0, at))) return false;
  const domain = s.slice(at + 1);
  if (domain.startsWith("[IPv6:") && domain.endsWith("]")) return $fmtIpv6(domain.slice(6, -1));
  if (domain.startsWith("[") && domain.endsWith("]")) return $fmtIpv4(domain.slice(1, -1));
  return $fmtHostname(domain);
}

// RFC 4122 textual UUID, any version, no `urn:uuid:` prefix.

const $UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
export function $fmtUuid(s: string): boolean {
  return $UUID.test(s);
}

// RFC 3986 absolute URI; IP literals are checked as IPv6 or IPvFuture.

const $URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/(?:(?:[A-Za-z0-9._~!$&'()*+,;=:-]|%[0-9A-Fa-f]{2})*@)?(?:\[([^\]\/?#@]*)\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?(?:\/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*|\/?(?:(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})*)*)?)(?:\?(?:[A-Za-z0-9._~!$&'()*+,;=:@\/?-]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9._~!$&'()*+,;=:@\/?-]|%[0-9A-Fa-f]{2})*)?$/;
const $IP_FUTURE = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+$/;
export function $fmtUri(s: string): boolean {
  const m = $URI.exec(s);
  if (m === null) return false;
  const literal = m[1];
  return literal === undefined || $fmtIpv6(literal) || $IP_FUTURE.test(literal);
}

// Dotted-quad IPv4 without leading zeros.

const $IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export function $fmtIpv4(s: string): boolean {
  return $IPV4.test(s);
}

// RFC 4291 IPv6 text forms, with an optional embedded IPv4 tail; no zone, no brackets.

const $HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
function $ipv6Groups(text: string): number {
  if (text === "") return 0;
  const groups = text.split(":");
  for (const g of groups) if (!$HEX_GROUP.test(g)) return -1;
  return groups.length;
}
export function $fmtIpv6(s: string): boolean {
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(s)) return false;
  let text = s;
  if (s.indexOf(".") >= 0) {
    const colon = s.lastIndexOf(":");
    if (colon < 0 || !$fmtIpv4(s.slice(colon + 1))) return false;
    text = s.slice(0, colon + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const head = $ipv6Groups(halves[0] ?? "");
  if (halves.length === 1) return head === 8;
  const tail = $ipv6Groups(halves[1] ?? "");
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

// RFC 1123 host name of LDH labels; `xn--` labels must be valid IDNA2008 A-labels.

const $LDH = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export function $fmtHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  for (const label of s.split(".")) {
    if (!$LDH.test(label)) return false;
    if (label.length >= 4 && label.charCodeAt(2) === 45 && label.charCodeAt(3) === 45) {
      if (label.slice(0, 2).toLowerCase() !== "xn" || !$idnaLabel(label.slice(4))) return false;
    }
  }
  return true;
}
