import type { FastifyInstance } from 'fastify';

/** The largest image body a route accepts; storeImage holds the stored bytes to the same limit. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * Lets a route scope accept a raw image body (any image/* or octet-stream) as a Buffer; the
 * bytes are checked by storeImage, and a body over 2 MB is refused with 413 before parsing.
 */
export function acceptImageBodies(app: FastifyInstance): void {
  for (const type of [/^image\//, 'application/octet-stream']) {
    app.addContentTypeParser(
      type,
      { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES },
      (_request, body, done) => done(null, body),
    );
  }
}
