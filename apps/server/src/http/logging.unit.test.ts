import { describe, expect, it } from 'vitest';
import { loggableError, redactUrl, safeText } from './logging';

describe('redactUrl', () => {
  it('masks secret parameters however their names are spelled or encoded', () => {
    for (const name of [
      'access_token',
      'access%5Ftoken',
      'access%5ftoken',
      '%61ccess_token',
      'ACCESS_TOKEN',
      'access%255Ftoken',
      'refresh_token',
      'token',
      'code',
      'id_token_hint',
      'password',
      'client_secret',
      'new+password',
    ]) {
      const url = redactUrl(`/api/v1.0/events?lastEventId=7&${name}=s3cr3t-value&x=1`);
      expect(url, name).not.toContain('s3cr3t');
      expect(url, name).toContain('lastEventId=7');
      expect(url, name).toContain('x=1');
    }
  });

  it('leaves a URL without secrets as it was', () => {
    for (const url of ['/healthz', '/api/v1.0/users/page?x=%41&y', '/?', '/a?%E0%A4%A=1']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('masks the queries inside free text', () => {
    expect(safeText('Route GET:/newpassword?token=abc123 not found')).toBe(
      'Route GET:/newpassword?token=*** not found',
    );
  });
});

describe('loggableError', () => {
  it("drops a failed query's parameters from its message, stack and cause", () => {
    const cause = Object.assign(new Error('value "$argon2id$v=19$hash" is wrong'), {
      code: '22P02',
      detail: 'Failing row contains ($argon2id$v=19$hash)',
    });
    const failed = Object.assign(
      new Error('Failed query: update users set password_hash = $1\nparams: $argon2id$v=19$hash'),
      { query: 'update users set password_hash = $1', params: ['$argon2id$v=19$hash'], cause },
    );
    const logged = JSON.stringify(loggableError(failed));
    expect(logged).not.toContain('argon2');
    expect(logged).toContain('Failed query: update users set password_hash = $1');
    expect(logged).toContain('22P02');
  });
});
