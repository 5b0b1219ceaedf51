import type { Tenant } from '@tc/contract/tenants';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { problemResponse } from '../../../test/problems';
import { seenRequests, server } from '../../../test/server';
import { signedInEachTest } from '../../../test/session';
import { LogoNotSaved, saveTenant } from './save-tenant';

const tenant = (patch: Partial<Tenant> = {}): Tenant => ({
  id: '00000000-0000-4000-8000-00000000000a',
  name: 'acme',
  domain: 'acme.example.com',
  logoUrl: null,
  allowSignup: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...patch,
});
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
const png = () => new File([PNG_BYTES], 'logo.png', { type: 'image/png' });
/** The server's words for an image over its limit (files/service.ts). */
const TOO_LARGE = 'The image is larger than 2 MB.';
const values = { name: 'acme', domain: 'acme.example.com', allowSignup: false };

/** The tenant routes answering, in order, the given responses to create/update and logo. */
function answer(save: () => Response, logo?: () => Response) {
  server.use(
    http.post('/api/v1.0/tenants/create', save),
    http.put('/api/v1.0/tenants/update', save),
    ...(logo ? [http.all('/api/v1.0/tenants/:id/logo', logo)] : []),
  );
}
const data = (body: Tenant) => () => HttpResponse.json({ data: body });

describe('saveTenant', () => {
  signedInEachTest();

  it('creates the tenant, then uploads the logo as raw bytes under the image type', async () => {
    const withLogo = tenant({ logoUrl: '/api/v1.0/files/f' });
    answer(data(tenant()), data(withLogo));
    await expect(
      saveTenant({
        values: { ...values, adminEmail: 'boss@acme.example.com' },
        logo: { kind: 'upload', file: png() },
      }),
    ).resolves.toEqual(withLogo);
    const [create, upload] = seenRequests();
    expect([create?.method, create?.path]).toEqual(['POST', '/api/v1.0/tenants/create']);
    expect(await create!.request.json()).toMatchObject({ adminEmail: 'boss@acme.example.com' });
    expect([upload?.method, upload?.path]).toEqual([
      'PUT',
      `/api/v1.0/tenants/${tenant().id}/logo`,
    ]);
    expect(new Uint8Array(await upload!.request.arrayBuffer())).toEqual(PNG_BYTES);
    expect(upload!.headers.get('Content-Type')).toBe('image/png');
    expect(upload!.headers.get('Authorization')).toBe('Bearer access');
  });

  it('reports a refused upload as LogoNotSaved, carrying the saved tenant and the problem', async () => {
    answer(data(tenant()), () => problemResponse(413, 'image.too_large'));
    const failure = await saveTenant({ values, logo: { kind: 'upload', file: png() } }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LogoNotSaved);
    expect((failure as LogoNotSaved).tenant.id).toBe(tenant().id);
    const reason = (failure as LogoNotSaved).reason as ApiError;
    expect(reason).toBeInstanceOf(ApiError);
    expect([reason.status, reason.message]).toEqual([413, TOO_LARGE]);
  });

  it('updates a tenant by id, without adminEmail, and removes a logo it has', async () => {
    answer(data(tenant({ logoUrl: '/api/v1.0/files/f' })), data(tenant()));
    await saveTenant({
      values: { ...values, adminEmail: 'boss@acme.example.com' },
      id: tenant().id,
      logo: { kind: 'remove' },
    });
    const [update, remove] = seenRequests();
    expect([update?.method, update?.path]).toEqual(['PUT', '/api/v1.0/tenants/update']);
    expect(await update!.request.json()).toEqual({ ...values, id: tenant().id });
    expect([remove?.method, remove?.path]).toEqual([
      'DELETE',
      `/api/v1.0/tenants/${tenant().id}/logo`,
    ]);
  });

  it('keeps the logo: one call only', async () => {
    answer(data(tenant()));
    await saveTenant({ values, logo: { kind: 'keep' } });
    expect(seenRequests()).toHaveLength(1);
  });
});
