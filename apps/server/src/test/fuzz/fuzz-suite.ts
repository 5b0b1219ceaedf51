import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { ConsoleFiles } from '../helpers/console-files';
import { GOOGLE_CLIENT_ID, startTestIssuer } from '../helpers/google-test-issuer';
import { startTestServer, SUPER_ADMIN_PASSWORD } from '../harness';
import { startOpenAiMock } from '../openai-mock';
import { createSender, type FuzzRequest } from './fuzz-request';
import { fuzzRequest, headers } from './http-parts';
import { routeGenerators } from './generators';
import { AUTH_PAGE_ROUTE_KEYS } from './generators-auth-pages';
import { documentedRoutes, faultOf, serverRoutes } from './routes-under-test';
import { FUZZ_SERVER_ENV, googleCredentials } from './setup';
import { createFuzzAccounts, prepareFuzzWorld, type FuzzWorld } from './world';

/**
 * Requests per route, in two parts: a fixed set (a fixed seed, the same requests every run)
 * and fresh random ones (a new seed each run, printed by fast-check on a failure).
 *
 * Measured with V8's block coverage of apps/server/src on PostgreSQL: 60 requests a route
 * reached exactly the server code that 400 reached (3,135,497 bytes of it, the same bytes),
 * so more runs in `npm test` only repeat paths already taken: 400 a route cost 2.5 minutes of
 * one worker on PostgreSQL for nothing the 60 do not find. The fresh runs keep looking
 * elsewhere in every run; the deep search is bench/fuzz.ts (100,000 a route), and
 * `FUZZ_RUNS=1000` runs that many fresh requests a route here.
 */
const FIXED_SEED = 20_261_129;
const FIXED_RUNS = 60;
const FRESH_RUNS = Number(process.env.FUZZ_RUNS ?? 20);

/**
 * Routes whose work is other routes' that are fuzzed in full (the sign-in pages' forms make
 * the steps' and the account API's requests inside): a tenth of the runs tries their own part,
 * reading the form and showing the answer.
 */
const share = (key: string, runs: number) =>
  AUTH_PAGE_ROUTE_KEYS.has(key) ? Math.ceil(runs / 10) : runs;

/** The fixed requests, then the fresh ones: any fault fails with fast-check's shrunk request. */
async function fuzz(requests: fc.IAsyncProperty<[FuzzRequest]>, key: string) {
  await fc.assert(requests, { seed: FIXED_SEED, numRuns: share(key, FIXED_RUNS) });
  await fc.assert(requests, { numRuns: share(key, FRESH_RUNS) });
}

/**
 * Starts a server of its own with a Google stand-in and an assistant provider stand-in, and
 * declares one test per server route that `pick` has a generator for: any 5xx, or an error
 * in the wrong shape, fails that route's test with the shrunk request. With `checkCoverage`,
 * also the test that every route of the server has a generator.
 */
export async function defineRouteFuzzing(options: {
  pick: (world: FuzzWorld) => Record<string, fc.Arbitrary<FuzzRequest>>;
  checkCoverage?: boolean;
}) {
  const issuer = await startTestIssuer();
  const openAi = await startOpenAiMock();
  const consoleFiles = new ConsoleFiles();
  const server = await startTestServer(
    {
      ...FUZZ_SERVER_ENV,
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: issuer.jwksUrl,
      ASSISTANT_BASE_URL: openAi.url,
      ASSISTANT_API_KEY: 'fuzz-key',
    },
    { onRoute: consoleFiles.onRoute },
  );
  const world = await prepareFuzzWorld({
    url: server.url,
    accounts: await createFuzzAccounts(server.database.db),
    superAdmin: { email: server.config.bootstrapAdminEmail, password: SUPER_ADMIN_PASSWORD },
    googleCredentials: await googleCredentials(issuer),
  });
  const generators = options.pick(world);
  // The built console's files (one route each, while it is built) are fuzzed as one: the
  // same plugin serves them all, and the route inventory is the same either way.
  const routes = serverRoutes(server.app).filter((route) => !consoleFiles.has(route.key));
  const sender = createSender(server.url);
  afterAll(async () => {
    sender.close();
    await server.close();
    await openAi.close();
    await issuer.close();
  });

  if (options.checkCoverage) {
    test('every route has a generator, and every generator a route', async () => {
      const all = routeGenerators(world);
      const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
      const keys = routes.map((route) => route.key);
      // The route tree is read from text; the documented routes prove the reading is whole.
      expect(keys).toEqual(expect.arrayContaining(documentedRoutes(document).map((r) => r.key)));
      expect(keys.filter((key) => !all[key])).toEqual([]);
      expect(Object.keys(all).filter((key) => !keys.includes(key))).toEqual([]);
    });
  }

  if (options.checkCoverage && consoleFiles.built) {
    test("the built console's files", { timeout: 30 * 60_000 }, async () => {
      const files = fuzzRequest({
        method: 'GET',
        path: fc.constantFrom(...consoleFiles.paths),
        headers: headers({ accept: '*/*', 'accept-encoding': 'br, gzip;q=0.5' }),
      });
      const target = { method: 'GET', url: '/*', key: 'GET /*' };
      await fuzz(
        fc.asyncProperty(files, async (request) => {
          const fault = faultOf(target, await sender.send(request));
          if (fault) throw new Error(fault);
        }),
        target.key,
      );
    });
  }

  describe(`${FIXED_RUNS} fixed and ${FRESH_RUNS} fresh requests per route (a tenth for the sign-in pages)`, () => {
    for (const route of routes) {
      const generator = generators[route.key];
      if (!generator) continue;
      test(route.key, { timeout: 30 * 60_000 }, async () => {
        await fuzz(
          fc.asyncProperty(generator, async (request) => {
            const fault = faultOf(route, await sender.send(request));
            if (fault) throw new Error(fault);
          }),
          route.key,
        );
      });
    }
  });
}
