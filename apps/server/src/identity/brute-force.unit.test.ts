import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { nextLock } from './brute-force';

const keycloak = loadConfig({}).bruteForce;
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

describe('nextLock (Keycloak defaults)', () => {
  it('does not lock below 30 failures spaced more than a second apart', () => {
    const next = nextLock(keycloak, { numFailures: 28, lastFailure: at(0) }, at(5));
    expect(next).toEqual({ numFailures: 29, notBefore: null });
  });

  it('locks 60 s at the 30th failure and grows by 60 s per failure up to 15 minutes', () => {
    expect(nextLock(keycloak, { numFailures: 29, lastFailure: at(0) }, at(5)).notBefore).toEqual(
      at(65),
    );
    expect(nextLock(keycloak, { numFailures: 30, lastFailure: at(0) }, at(5)).notBefore).toEqual(
      at(125),
    );
    expect(nextLock(keycloak, { numFailures: 200, lastFailure: at(0) }, at(5)).notBefore).toEqual(
      at(905),
    );
  });

  it('locks a minute after two failures within one second (quick-login check)', () => {
    const next = nextLock(keycloak, { numFailures: 1, lastFailure: at(0) }, at(0.5));
    expect(next.notBefore).toEqual(at(60.5));
  });

  it('forgets failures older than 12 hours', () => {
    const next = nextLock(keycloak, { numFailures: 29, lastFailure: at(0) }, at(12 * 3600 + 1));
    expect(next).toEqual({ numFailures: 1, notBefore: null });
  });
});
