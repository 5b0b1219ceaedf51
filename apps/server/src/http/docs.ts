import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI generated from the contract's zod schemas, at /api/docs: one source for both. */
export async function registerDocs(app: FastifyInstance, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tenant Console API', version: '1.0' },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
