import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { seenRequests, server } from '../test/server';
import { signedInEachTest } from '../test/session';
import { LOGO_MAX_BYTES, logoProblem, saveLogo } from './logo-upload';

/** A PNG signature padded to `size` bytes: what the server must receive, byte for byte. */
const pngBytes = (size = 4) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47].slice(0, size));
  return bytes;
};
const png = (size = 4) => new File([pngBytes(size)], 'logo.png', { type: 'image/png' });
const project = (logoUrl: string | null) => ({ id: 'p/1', name: 'Runway', logoUrl });

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
  signedInEachTest();

  it("PUTs the raw image to the entity's logo route and answers the updated entity", async () => {
    const stored = project('/api/v1.0/files/f');
    server.use(http.put('/api/v1.0/projects/:id/logo', () => HttpResponse.json({ data: stored })));
    const file = png();
    await expect(saveLogo('projects', project(null), { kind: 'upload', file })).resolves.toEqual(
      stored,
    );
    const [sent] = seenRequests();
    expect([sent?.path, sent?.method]).toEqual(['/api/v1.0/projects/p%2F1/logo', 'PUT']);
    expect(sent?.headers.get('Content-Type')).toBe('image/png');
    expect(new Uint8Array(await sent!.request.arrayBuffer())).toEqual(pngBytes());
  });

  it('DELETEs a logo the entity has, and sends nothing to keep one or remove none', async () => {
    server.use(
      http.delete('/api/v1.0/tenants/:id/logo', () => HttpResponse.json({ data: project(null) })),
    );
    await saveLogo('tenants', project('/api/v1.0/files/f'), { kind: 'remove' });
    expect(seenRequests().map(({ method, path }) => [method, path])).toEqual([
      ['DELETE', '/api/v1.0/tenants/p%2F1/logo'],
    ]);

    const bare = project(null);
    await expect(saveLogo('tenants', bare, { kind: 'remove' })).resolves.toBe(bare);
    await expect(saveLogo('tenants', bare, { kind: 'keep' })).resolves.toBe(bare);
    expect(seenRequests()).toHaveLength(1);
  });
});
