import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not go unless WEBHOOK_ALLOW_PRIVATE: the machine itself, private and
 * shared networks, link-local (with the cloud metadata services) and addresses that are not a
 * single host. A tenant administrator must not make the server call its own neighbours.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 among them
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local, fd00:ec2::254 among them
  ['fe80::', 10],
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 onto IPv4, whose target cannot be vetted here
  ['2001:db8::', 32], // documentation
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address, if it is one. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:(?:0{1,4}:)?)?((?:\d{1,3}\.){3}\d{1,3})$/i.exec(address);
  if (match) return match[1];
  // ::ffff:7f00:1 — the mapped form written in hexadecimal.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a literal IP address is one a webhook must not reach (unless allowed). */
export function isRefusedAddress(address: string): boolean {
  const unbracketed = address.startsWith('[') ? address.slice(1, -1) : address;
  const zone = unbracketed.indexOf('%');
  const bare = zone === -1 ? unbracketed : unbracketed.slice(0, zone);
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(bare);
  if (inner !== undefined) return isIP(inner) !== 4 || refused.check(inner, 'ipv4');
  return refused.check(bare, 'ipv6');
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
