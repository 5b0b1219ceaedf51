import { beforeAll, describe, expect, it } from 'vitest';
import { createRoleSchema } from '@tc/contract/roles';
import { problem } from '../test/problems';
import { ApiError } from './api-client';
import { contractResolver } from './form-resolver';
import i18n from './i18n';
import {
  describeFailure,
  encodeFieldProblem,
  placeFieldProblems,
  translateCode,
  translateFieldMessage,
} from './problem-text';

const failure = (status: number, body: ReturnType<typeof problem>) =>
  new ApiError(status, body.detail ?? '', body);

describe('problem texts', () => {
  beforeAll(() => i18n.loadLanguages(['de', 'fr', 'it']));
  beforeAll(() => i18n.loadNamespaces(['problems', 'lists']));

  it('translates a code with its parameters, plural forms included', async () => {
    await i18n.loadNamespaces('problems');
    const de = i18n.getFixedT('de');
    expect(translateCode(de, { code: 'role.built_in_deleted', params: { name: 'Admin' } })).toBe(
      'Die integrierte Rolle Admin kann nicht gelöscht werden.',
    );
    const it_ = i18n.getFixedT('it');
    expect(translateCode(it_, { code: 'request.too_many', params: { count: 1 } })).not.toBe(
      translateCode(it_, { code: 'request.too_many', params: { count: 42 } }).replace('42', '1'),
    );
    // A role named R&D is shown as typed: React escapes, the translation must not.
    expect(
      translateCode(de, {
        code: 'grant.role_not_held',
        params: { role: 'R&D', permissions: '"x"' },
      }),
    ).toContain('„R&D“');
  });

  it("keeps the bound a form field broke, so the console's own check reads like the server's", async () => {
    const resolve = contractResolver(createRoleSchema as never);
    const result = await resolve({ name: 'x'.repeat(101) } as never, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    } as never);
    const message = (result.errors as Record<string, { message: string }>).name!.message;
    expect(message).toBe(encodeFieldProblem({ code: 'text.too_long', params: { maximum: 100 } }));
    expect(translateFieldMessage(i18n.getFixedT('fr'), message)).toBe(
      'Utilisez au maximum 100 caractères.',
    );
    // A message that is no code (zod's own wording) is shown as it came.
    expect(translateFieldMessage(i18n.getFixedT('de'), 'Invalid input')).toBe('Invalid input');
  });

  it('puts field problems on the fields a form has and the rest above it', () => {
    const error = failure(
      409,
      problem(409, 'tenant.exists', {
        fields: { name: 'tenant.name_taken', domain: 'tenant.domain_taken' },
      }),
    );
    const placed: Record<string, string> = {};
    const result = placeFieldProblems(i18n.getFixedT('de'), error, new Set(['name']), (f, m) => {
      placed[f] = m;
    });
    expect(placed).toEqual({ name: 'tenant.name_taken' });
    expect(result).toEqual({
      placed: ['name'],
      failure: 'Ein Mandant mit dieser Domain existiert bereits.',
    });
  });

  it('describes a problem without fields by its code, and a network failure by its text', () => {
    const en = i18n.getFixedT('en');
    const de = i18n.getFixedT('de');
    const notFound = failure(404, problem(404, 'user.not_found'));
    expect(describeFailure(de, notFound)).toBe('Diesen Benutzer gibt es nicht.');
    expect(describeFailure(en, new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(placeFieldProblems(en, new TypeError('x'), new Set(), () => {}).failure).toBe(
      i18n.getFixedT('en')('lists:networkError'),
    );
  });
});
