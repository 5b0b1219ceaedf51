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
