import { describe, expect, it } from 'vitest';
import {
  isRefusedAddress,
  RefusedAddressError,
  UnresolvedHostError,
  vetHost,
} from './address-guard';
import { DEFAULT_RETRY_POLICY, retryDelayMs } from './delivery';

describe('the webhook address guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '::127.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])(
    'lets %s through',
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );

  // Every way IPv6 carries an IPv4 address, each with a loopback, a private and a link-local
  // address inside: whatever the wrapping, what is inside decides, or the wrapping is refused.
  describe.each([
    ['IPv4-mapped', (v4: string) => `::ffff:${v4}`],
    ['IPv4-mapped, in hexadecimal', (v4: string) => `::ffff:${hex(v4)}`],
    ['IPv4-compatible', (v4: string) => `::${v4}`],
    ['IPv4-compatible, in hexadecimal', (v4: string) => `::${hex(v4)}`],
    ['SIIT (IPv4-translated)', (v4: string) => `::ffff:0:${v4}`],
    ['SIIT, in hexadecimal', (v4: string) => `::ffff:0:${hex(v4)}`],
    ['NAT64 well-known prefix', (v4: string) => `64:ff9b::${v4}`],
    ['NAT64 local-use prefix (/48)', (v4: string) => `64:ff9b:1:${hex(v4)}::`],
    ['NAT64 local-use prefix (/96)', (v4: string) => `64:ff9b:1::${v4}`],
    ['6to4', (v4: string) => `2002:${hex(v4)}::1`],
    ['Teredo (client obfuscated)', (v4: string) => `2001:0:4136:e378:8000:63bf:${hex(v4, 0xffff)}`],
  ])('in the %s form', (_form, wrap) => {
    it.each(['127.0.0.1', '10.0.0.1', '192.168.1.1', '169.254.169.254'])('refuses %s', (v4) => {
      expect(isRefusedAddress(wrap(v4))).toBe(true);
    });
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '[64:ff9b::808:808]'])(
    'lets the public %s through (mapped and NAT64 reach the IPv4 inside)',
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );

  // Deprecated (RFC 4291, RFC 7526), translator-only or local-use: not a public unicast address,
  // whatever they carry.
  it.each([
    '::8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b:1::8.8.8.8',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    '100::1',
    '2001:db8::1',
    '1::1',
  ])('refuses %s, which is no public unicast address whatever it carries', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it('checks what a name resolves to, and allows it only when told to', async () => {
    await expect(vetHost('localhost', false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(vetHost('localhost', true)).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    await expect(vetHost('[::1]', false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(vetHost('hooks.localhost', false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(vetHost('LOCALHOST.', false)).rejects.toBeInstanceOf(RefusedAddressError);
    await expect(vetHost('hooks.invalid', true)).rejects.toBeInstanceOf(UnresolvedHostError);
  });
});

/** An IPv4 address as the two hexadecimal groups of IPv6, each XORed with `mask` (Teredo). */
function hex(v4: string, mask = 0): string {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d].map((group) => (group ^ mask).toString(16)).join(':');
}

describe('the retry delay', () => {
  it('doubles, is capped, and keeps at least half of the doubled delay', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 8000 };
    const low = { ...policy, random: () => 0 };
    const high = { ...policy, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, low))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, high))).toEqual([
      1000, 2000, 4000, 8000, 8000,
    ]);
  });
});
