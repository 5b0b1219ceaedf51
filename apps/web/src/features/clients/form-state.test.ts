import { describe, expect, it } from 'vitest';
import { problem } from '../../test/problems';
import { clientRow } from '../../test/clients-harness';
import { ApiError } from '../../lib/api-client';
import {
  clientDefaults,
  clientFormSchema,
  foldItemProblems,
  listProblems,
  offeredGrants,
  toPayload,
  uriLines,
} from './form-state';

describe('client form state', () => {
  it('edits each address list as text, one address a line, blank lines skipped', () => {
    const row = clientRow(1, { redirectUris: ['https://a.example/cb', 'https://b.example/cb'] });
    expect(clientDefaults(row).redirectUris).toBe('https://a.example/cb\nhttps://b.example/cb');
    expect(uriLines(' https://a.example/cb \r\n\n  \nhttps://b.example/cb')).toEqual([
      { value: 'https://a.example/cb', line: 1 },
      { value: 'https://b.example/cb', line: 4 },
    ]);
  });

  it('sends no grant the type does not offer, and no service roles without client_credentials', () => {
    expect(offeredGrants('public')).not.toContain('client_credentials');
    const form = {
      ...clientDefaults(),
      type: 'public' as const,
      grantTypes: ['client_credentials' as const, 'authorization_code' as const],
      serviceRoleIds: ['00000000-0000-4000-8000-000000000009'],
    };
    expect(toPayload(form)).toMatchObject({
      grantTypes: ['authorization_code'],
      serviceRoleIds: [],
    });
    // Ticked in any order, sent in the contract's.
    const confidential = { ...form, type: 'confidential' as const };
    expect(toPayload(confidential).grantTypes).toEqual([
      'authorization_code',
      'client_credentials',
    ]);
    expect(toPayload(confidential).serviceRoleIds).toHaveLength(1);
  });

  it("validates with the contract: the item of a list is the address line's position", () => {
    const form = {
      ...clientDefaults(),
      name: 'Shop',
      clientId: 'shop',
      redirectUris: 'https://shop.example/cb\n\nhttps://shop.example/#x',
    };
    const result = clientFormSchema('add').safeParse(form);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path).toEqual(['redirectUris', 1]);
    const error = { type: 'custom', 1: { type: 'custom', message: issue.message } };
    expect(listProblems(error as never, form.redirectUris)).toEqual([
      { message: 'client.redirect_uri_fragment', line: 3 },
    ]);
  });

  it('folds a server problem with an item onto its list, keeping the refused address', () => {
    const body = problem(400, 'request.invalid', {
      fields: {
        'redirectUris.1': 'client.redirect_uri_scheme',
        'redirectUris.2': 'client.redirect_uri_scheme',
        'webOrigins.0': 'client.origin_scheme',
        clientId: 'client.id_pattern',
      },
    });
    const sent = {
      redirectUris: ['https://a.example/cb', 'ftp://b.example/cb', 'ftp://c.example'],
      webOrigins: ['http://shop.example'],
    };
    const folded = foldItemProblems(new ApiError(400, 'x', body), sent) as ApiError;
    expect(folded.problem?.fields).toEqual({
      redirectUris: { code: 'client.redirect_uri_scheme', params: { item: 'ftp://b.example/cb' } },
      webOrigins: { code: 'client.origin_scheme', params: { item: 'http://shop.example' } },
      clientId: { code: 'client.id_pattern' },
    });
    // The field finds the line again; an origin also when typed with a different case.
    const error = {
      type: 'server',
      message: 'client.origin_scheme {"item":"http://shop.example"}',
    };
    expect(listProblems(error, '\nHTTP://Shop.example')).toEqual([
      { message: error.message, line: 2 },
    ]);
    const other = new TypeError('offline');
    expect(foldItemProblems(other, sent)).toBe(other);
  });
});
