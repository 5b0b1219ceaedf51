import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go unless WEBHOOK_ALLOW_PRIVATE: public unicast addresses only, as
 * ipaddr.js classifies them from the IANA special-purpose registries (RFC 6890): not the
 * machine itself, private and shared networks, link-local (with the cloud metadata services),
 * multicast, documentation or reserved ranges. A tenant administrator must not make the server
 * call its own neighbours.
 *
 * IPv6 carries IPv4 addresses in several ways; each is either unwrapped or refused whole:
 * - IPv4-mapped (`::ffff:a.b.c.d`) and the NAT64 well-known prefix (`64:ff9b::/96`, RFC 6052:
 *   what DNS64 answers on an IPv6-only network) reach the IPv4 address inside: it decides.
 * - IPv4-compatible (`::a.b.c.d`, deprecated by RFC 4291), SIIT's IPv4-translated
 *   (`::ffff:0:a.b.c.d`, RFC 7915), the NAT64 local-use prefix (`64:ff9b:1::/48`, RFC 8215: a
 *   network's own, and where in it the IPv4 sits depends on that network), 6to4 (`2002::/16`,
 *   deprecated by RFC 7526) and Teredo (`2001::/32`, its client address obfuscated) are
 *   refused whatever they carry: none is a public unicast address of its own.
 * - Any other IPv6 address must be global unicast (`2000::/3`, RFC 4291 §2.4) besides.
 */
const globalUnicast = ipaddr.parseCIDR('2000::/3');
const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');

/** The IPv4 address a host reaches through this IPv6 address, when that is what it does. */
function reachedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.range() === 'ipv4Mapped') return address.toIPv4Address();
  if (!address.match(nat64WellKnown)) return undefined;
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

/** Whether a parsed address is a public unicast one, looking through the IPv4 it reaches. */
function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const inner = reachedIpv4(v6);
  if (inner) return inner.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(globalUnicast);
}

/**
 * An IPv6 literal with a dotted IPv4 tail (`::a.b.c.d`) written with hexadecimal groups
 * instead: ipaddr.js reads every such tail as IPv4-mapped, `::8.8.8.8` as `::ffff:808:808`,
 * which would take a deprecated IPv4-compatible address for one that reaches IPv4.
 */
function withHexTail(address: string): string {
  const tail = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (!tail || !ipaddr.IPv4.isValidFourPartDecimal(tail[2]!)) return address;
  const [a, b, c, d] = ipaddr.IPv4.parse(tail[2]!).octets as [number, number, number, number];
  return `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * Whether a literal IP address (bracketed or not, with a zone or not) is one a webhook must not
 * reach (unless allowed). Anything that is not an address is refused.
 */
export function isRefusedAddress(address: string): boolean {
  const bracketed = address.startsWith('[') && address.endsWith(']');
  const literal = bracketed ? address.slice(1, -1) : address;
  // Only the four-part dotted form is an IPv4 literal here: URL parsing has already turned
  // `0x7f.1` or `2130706433` into it, and a resolver answers nothing else.
  if (ipaddr.IPv4.isValidFourPartDecimal(literal)) return !isPublic(ipaddr.IPv4.parse(literal));
  const v6 = withHexTail(literal.split('%')[0]!);
  if (!ipaddr.IPv6.isValid(v6)) return true;
  return !isPublic(ipaddr.IPv6.parse(v6));
}

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** A webhook's host that resolves to an address it may not reach. */
export class RefusedAddressError extends Error {
  constructor(readonly host: string) {
    super(`the webhook's host ${host} resolves to an address that is not allowed`);
  }
}

/** A host name that does not resolve. */
export class UnresolvedHostError extends Error {
  constructor(readonly host: string) {
    super(`the webhook's host ${host} does not resolve`);
  }
}

/** Whether a name is in a special-use domain (RFC 6761), or the domain itself. */
const inDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * The addresses of a host name. Names RFC 6761 reserves are answered without asking DNS:
 * `localhost` and its subdomains are loopback (whatever a resolver would say), `.invalid`
 * never resolves.
 */
async function resolve(host: string): Promise<{ address: string; family: number }[]> {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (inDomain(name, 'localhost')) return [{ address: '127.0.0.1', family: 4 }];
  if (inDomain(name, 'invalid')) throw new UnresolvedHostError(host);
  return lookup(name, { all: true, verbatim: true }).catch(() => {
    throw new UnresolvedHostError(host);
  });
}

/**
 * Resolves a URL's host and checks EVERY address it resolves to; answers the first, which the
 * connection must then use (so a second lookup cannot answer something else: no rebinding).
 */
export async function vetHost(hostname: string, allowPrivate: boolean): Promise<VettedAddress> {
  const host = (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname).toLowerCase();
  const literal = isIP(host);
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await resolve(host);
  if (addresses.length === 0) throw new UnresolvedHostError(host);
  if (!allowPrivate && addresses.some((a) => isRefusedAddress(a.address))) {
    throw new RefusedAddressError(host);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
