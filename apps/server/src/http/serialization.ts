import { createRequire } from 'node:module';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

// Fastify's own serializer for JSON Schemas (fast-json-stringify), loaded through Fastify,
// whose dependency it is: what Fastify would compile a JSON Schema response with.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fastJsonStringify = fromFastify('fast-json-stringify') as (schema: object) => Serialize;

/** One compiled serializer per schema, however many routes answer with it. */
const compiled = new WeakMap<object, Serialize>();

function compile(schema: object, route: { method: string; url: string }): Serialize {
  if (!(schema instanceof z.ZodType)) return fastJsonStringify(schema);
  try {
    return fastJsonStringify(
      z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' }),
    );
  } catch {
    // A shape JSON Schema cannot state (a transform, a custom check): zod writes it.
    return zodSerializerCompiler({ schema, ...route });
  }
}

/**
 * Responses are written by code generated from their contract schema (fast-json-stringify,
 * from the zod schema's JSON Schema), instead of zod checking every answer and JSON.stringify
 * writing it: only the schema's properties are written, so no column a schema leaves out
 * (a password hash) can leak, and an answer without a required property fails as before.
 * Compiled at a route's first answer, so starting the server compiles nothing it never sends.
 */
export const serializerFromSchema: FastifySerializerCompiler<unknown> = ({
  schema,
  method,
  url,
}) => {
  let serialize: Serialize | undefined;
  return (data) => {
    if (!serialize) {
      serialize = compiled.get(schema as object);
      if (!serialize)
        compiled.set(schema as object, (serialize = compile(schema as object, { method, url })));
    }
    return serialize(data);
  };
};
