import { describe, expect, it } from 'vitest';
import { jsonResponse, mockSignedInFetch } from '../test/fetch-mock';
import { LOGO_MAX_BYTES, logoProblem, saveLogo } from './logo-upload';

const png = (size = 4) => new File([new Uint8Array(size)], 'logo.png', { type: 'image/png' });
const project = (logoUrl: string | null) => ({ id: 'p/1', name: 'Runway', logoUrl });
const json = (body: unknown) => jsonResponse(200, body);

describe('logoProblem', () => {
  it('accepts what the server stores and refuses other types and sizes', () => {
    expect(logoProblem(png())).toBeUndefined();
    expect(logoProblem(new File(['x'], 'logo.svg', { type: 'image/svg+xml' }))).toBe('type');
    expect(logoProblem(png(LOGO_MAX_BYTES + 1))).toBe('size');
  });

  it('follows the limits it is given', () => {
    expect(logoProblem(png(), ['image/gif'])).toBe('type');
    expect(logoProblem(png(11), ['image/png'], 10)).toBe('size');
  });
});

describe('saveLogo', () => {
  const fetchMock = mockSignedInFetch();

  it("PUTs the raw image to the entity's logo route and answers the updated entity", async () => {
    const stored = project('/api/v1.0/files/f');
    fetchMock.mockResolvedValueOnce(json({ data: stored }));
    const file = png();
    await expect(saveLogo('projects', project(null), { kind: 'upload', file })).resolves.toEqual(
      stored,
    );
    const [path, init] = fetchMock.mock.calls[0]!;
    expect([path, init?.method, init?.body]).toEqual([
      '/api/v1.0/projects/p%2F1/logo',
      'PUT',
      file,
    ]);
  });

  it('DELETEs a logo the entity has, and sends nothing to keep one or remove none', async () => {
    fetchMock.mockResolvedValueOnce(json({ data: project(null) }));
    await saveLogo('tenants', project('/api/v1.0/files/f'), { kind: 'remove' });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/v1.0/tenants/p%2F1/logo');
    expect(fetchMock.mock.calls[0]![1]?.method).toBe('DELETE');

    const bare = project(null);
    await expect(saveLogo('tenants', bare, { kind: 'remove' })).resolves.toBe(bare);
    await expect(saveLogo('tenants', bare, { kind: 'keep' })).resolves.toBe(bare);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
