import type { Tenant } from '@tc/contract/tenants';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { jsonResponse as json, mockSignedInFetch } from '../../../test/fetch-mock';
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
const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
/** The server's words for an image over its limit (files/service.ts). */
const TOO_LARGE = 'The image is larger than 2 MB.';
const values = { name: 'acme', domain: 'acme.example.com', allowSignup: false };

describe('saveTenant', () => {
  const fetchMock = mockSignedInFetch();
  const calls = () =>
    fetchMock.mock.calls.map(([path, init]) => ({
      path,
      method: init?.method,
      headers: init?.headers as Record<string, string>,
      body: init?.body,
    }));

  it('creates the tenant, then uploads the logo as raw bytes under the image type', async () => {
    const withLogo = tenant({ logoUrl: '/api/v1.0/files/f' });
    fetchMock
      .mockResolvedValueOnce(json(200, { data: tenant() }))
      .mockResolvedValueOnce(json(200, { data: withLogo }));
    const file = png();
    await expect(
      saveTenant({
        values: { ...values, adminEmail: 'boss@acme.example.com' },
        logo: { kind: 'upload', file },
      }),
    ).resolves.toEqual(withLogo);
    const [create, upload] = calls();
    expect(create).toMatchObject({ path: '/api/v1.0/tenants/create', method: 'POST' });
    expect(JSON.parse(create!.body as string)).toMatchObject({
      adminEmail: 'boss@acme.example.com',
    });
    expect(upload).toMatchObject({
      path: `/api/v1.0/tenants/${tenant().id}/logo`,
      method: 'PUT',
      body: file,
    });
    expect(upload!.headers).toMatchObject({
      'Content-Type': 'image/png',
      Authorization: 'Bearer access',
    });
  });

  it('reports a refused upload as LogoNotSaved, carrying the saved tenant and the problem', async () => {
    fetchMock
      .mockResolvedValueOnce(json(200, { data: tenant() }))
      .mockResolvedValueOnce(
        json(413, { status: 413, title: 'Payload Too Large', detail: TOO_LARGE }),
      );
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
    fetchMock
      .mockResolvedValueOnce(json(200, { data: tenant({ logoUrl: '/api/v1.0/files/f' }) }))
      .mockResolvedValueOnce(json(200, { data: tenant() }));
    await saveTenant({
      values: { ...values, adminEmail: 'boss@acme.example.com' },
      id: tenant().id,
      logo: { kind: 'remove' },
    });
    const [update, remove] = calls();
    expect(update).toMatchObject({ path: '/api/v1.0/tenants/update', method: 'PUT' });
    expect(JSON.parse(update!.body as string)).toEqual({ ...values, id: tenant().id });
    expect(remove).toMatchObject({
      path: `/api/v1.0/tenants/${tenant().id}/logo`,
      method: 'DELETE',
    });
  });

  it('keeps the logo: one call only', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { data: tenant() }));
    await saveTenant({ values, logo: { kind: 'keep' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
