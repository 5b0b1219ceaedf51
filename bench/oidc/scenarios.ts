/** The four measurements, each on the running server with the seeded tenants. */
import * as oidc from 'openid-client';
import { cpuBetween, cpuSample, type CpuSample, type Watched } from './cpu';
import {
  Browser,
  CODE_FLOW_STEPS,
  authorizationRequest,
  codeFlowSignIn,
  nextRefreshToken,
  passwordSignIn,
  refresh,
  signInForCode,
  type OnStep,
  type Step,
} from './flows';
import { figures, runAutocannon, runClients, type Segment } from './load';
import type { BenchUser, Seeded } from './seed';
import {
  CONNECTIONS,
  CONSOLE_CLIENT,
  DURATION,
  FORM,
  median,
  round,
  SPA_CLIENT,
  tokenPath,
  WARMUP,
} from './settings';

export interface Bench {
  url: string;
  watched: Watched;
  seeded: Seeded;
  /** Each realm's single-page application, as openid-client discovered it. */
  configs: Map<string, oidc.Configuration>;
}

const insecure = { execute: [oidc.allowInsecureRequests] };

export async function discoverApplications(url: string, realms: string[]) {
  const configs = new Map<string, oidc.Configuration>();
  for (const realm of realms) {
    const issuer = new URL(`${url}/realms/${realm}`);
    configs.set(realm, await oidc.discovery(issuer, SPA_CLIENT, undefined, oidc.None(), insecure));
  }
  return configs;
}

/** The users in turn, so that concurrent sign-ins are of different users and tenants. */
function roundRobin(users: BenchUser[]) {
  let next = 0;
  return () => users[next++ % users.length]!;
}

const payloadOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/**
 * Before the runs, one sign-in whose callback openid-client checks in full (issuer, state,
 * PKCE, the ID token's signature, audience and nonce), and one client credentials grant: the
 * runs then check status codes and the presence of the tokens only.
 */
export async function checkFlows(bench: Bench) {
  const user = bench.seeded.users[0]!;
  const config = bench.configs.get(user.realm)!;
  const request = await authorizationRequest(config);
  const callback = await signInForCode(new Browser(bench.url), request, user);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
  const claims = tokens.claims()!;
  if (claims.email !== user.email || !tokens.refresh_token) {
    throw new Error(`code flow check: unexpected ${JSON.stringify(claims)}`);
  }
  const { service } = bench.seeded;
  const serviceConfig = await oidc.discovery(
    new URL(`${bench.url}/realms/${service.realm}`),
    service.clientId,
    undefined,
    oidc.ClientSecretBasic(service.secret),
    insecure,
  );
  const granted = await oidc.clientCredentialsGrant(serviceConfig);
  const access = payloadOf(granted.access_token);
  if (access.client_id !== service.clientId) {
    throw new Error(`client credentials check: unexpected ${JSON.stringify(access)}`);
  }
  return {
    codeFlow: { sub: claims.sub, aud: claims.aud, idTokenChecked: true },
    clientCredentials: { sub: access.sub, roles: access.realm_access },
  };
}

const browsers = (url: string) => Array.from({ length: CONNECTIONS }, () => new Browser(url));
const closeAll = (list: Browser[]) => list.forEach((b) => b.connection.close());

/**
 * Code flow sign-ins and password grants, same users, same concurrency, in ABBA order (code,
 * password, password, code; half the duration each) so that a machine whose speed drifts
 * during the run weighs on both alike; their ratio is the comparison that matters, both
 * being bound by the same argon2id verification.
 */
export async function signIns(bench: Bench) {
  const next = roundRobin(bench.seeded.users);
  const clients = browsers(bench.url);
  const times = Object.fromEntries(CODE_FLOW_STEPS.map((step) => [step, [] as number[]]));
  // Each step's time, from the previous answer (or the start) to its own answer.
  const timer = (): OnStep => {
    let started = performance.now();
    return (step) => {
      const now = performance.now();
      times[step]!.push(now - started);
      started = now;
    };
  };
  const code = (timed: boolean) => (browser: Browser) => {
    const user = next();
    return codeFlowSignIn(
      browser,
      bench.configs.get(user.realm)!,
      user,
      timed ? timer() : undefined,
    );
  };
  const password = (browser: Browser) => passwordSignIn(browser, next());
  try {
    if (WARMUP > 0) {
      console.error(`  warm-up: code flow and password grants, ${WARMUP} s each`);
      await runClients(bench.watched, clients, code(false), WARMUP);
      await runClients(bench.watched, clients, password, WARMUP);
    }
    const half = DURATION / 2;
    const codeRuns: Segment[] = [];
    const passwordRuns: Segment[] = [];
    for (const which of ['code', 'password', 'password', 'code'] as const) {
      console.error(`  ${which === 'code' ? 'code flow sign-ins' : 'password grants'} ${half} s`);
      if (which === 'code') {
        codeRuns.push(await runClients(bench.watched, clients, code(true), half));
      } else passwordRuns.push(await runClients(bench.watched, clients, password, half));
    }
    const codeFlow = figures(codeRuns);
    const passwordGrants = figures(passwordRuns);
    return {
      codeFlow: {
        ...codeFlow,
        /** Four requests per sign-in. */
        requestsPerSecond: round(codeFlow.perSecond * 4, 1),
        stepMedianMs: Object.fromEntries(
          CODE_FLOW_STEPS.map((step) => [step, round(median(times[step]!), 2)]),
        ),
      },
      passwordGrants,
      codeFlowPctOfPassword: round((codeFlow.perSecond / passwordGrants.perSecond) * 100, 1),
    };
  } finally {
    closeAll(clients);
  }
}

/**
 * What each request of a sign-in costs the server and PostgreSQL in CPU, one sign-in at a
 * time so that all the CPU between a request and its answer is that request's: the code
 * flow's four steps and a password grant, `count` of each, medians in ms. This, unlike
 * requests per second, holds still when other jobs share the machine.
 */
export async function stepCosts(bench: Bench, count: number) {
  const next = roundRobin(bench.seeded.users);
  const browser = new Browser(bench.url);
  const samples = new Map<Step | 'code flow' | 'password grant', CpuSample[]>();
  const keep = (what: Step | 'code flow' | 'password grant', used: CpuSample) =>
    samples.set(what, [...(samples.get(what) ?? []), used]);
  try {
    for (let i = 0; i < count; i += 1) {
      const user = next();
      const start = cpuSample(bench.watched);
      let before = start;
      await codeFlowSignIn(browser, bench.configs.get(user.realm)!, user, (step) => {
        const now = cpuSample(bench.watched);
        keep(step, cpuBetween(before, now));
        before = now;
      });
      keep('code flow', cpuBetween(start, before));
      const password = cpuSample(bench.watched);
      await passwordSignIn(browser, next());
      keep('password grant', cpuBetween(password, cpuSample(bench.watched)));
    }
  } finally {
    browser.connection.close();
  }
  const ms = (list: CpuSample[], pick: (s: CpuSample) => number) =>
    round(median(list.map((s) => pick(s) / 1e6)), 2);
  return Object.fromEntries(
    [...samples].map(([what, list]) => [
      what,
      {
        serverMs: ms(list, (s) => s.server),
        serverLoopMs: ms(list, (s) => s.serverLoop),
        postgresMs: ms(list, (s) => s.postgres),
      },
    ]),
  );
}

/** client_credentials with client_secret_basic, by autocannon (no state to carry). */
export async function clientCredentials(bench: Bench) {
  const { service } = bench.seeded;
  const basic = Buffer.from(
    `${encodeURIComponent(service.clientId)}:${encodeURIComponent(service.secret)}`,
  ).toString('base64');
  const request = {
    method: 'POST',
    path: tokenPath(service.realm),
    headers: { ...FORM, authorization: `Basic ${basic}` },
    body: 'grant_type=client_credentials',
  };
  const hasToken = (body: string) => body.includes('"access_token"');
  if (WARMUP > 0) {
    console.error(`  warm-up ${WARMUP} s`);
    await runAutocannon(bench.watched, bench.url, request, CONNECTIONS, WARMUP, hasToken);
  }
  console.error(`  client credentials ${DURATION} s, ${CONNECTIONS} connections`);
  const run = await runAutocannon(
    bench.watched,
    bench.url,
    request,
    CONNECTIONS,
    DURATION,
    hasToken,
  );
  return figures([run]);
}

interface Chain {
  browser: Browser;
  user: BenchUser;
  /** The latest refresh token; undefined once the chain broke (it starts again). */
  token: string | undefined;
}

/**
 * Refresh grants, one chain per connection: every request presents the refresh token the
 * previous answer of its own chain gave (each token is good once, rotation), so each chain is
 * strictly sequential, as one application is. `provider`: tokens of the code flow (the
 * OpenID provider's); `password`: the password grant's (ours).
 */
export async function refreshGrants(bench: Bench, kind: 'provider' | 'password') {
  const next = roundRobin(bench.seeded.users);
  const clientId = kind === 'provider' ? SPA_CLIENT : CONSOLE_CLIENT;
  const signIn = async (chain: Chain) => {
    const tokens =
      kind === 'provider'
        ? await codeFlowSignIn(chain.browser, bench.configs.get(chain.user.realm)!, chain.user)
        : await passwordSignIn(chain.browser, chain.user);
    chain.token = tokens.refresh_token;
  };
  const chains: Chain[] = browsers(bench.url).map((browser) => ({
    browser,
    user: next(),
    token: undefined,
  }));
  const step = async (chain: Chain) => {
    if (chain.token === undefined) await signIn(chain);
    const token = chain.token!;
    chain.token = undefined;
    const answer = await refresh(chain.browser.connection, chain.user.realm, clientId, token);
    chain.token = nextRefreshToken(answer);
  };
  try {
    await Promise.all(chains.map(signIn));
    if (WARMUP > 0) {
      console.error(`  warm-up ${WARMUP} s`);
      await runClients(bench.watched, chains, step, WARMUP);
    }
    console.error(`  refresh (${kind}) ${DURATION} s, ${CONNECTIONS} chains`);
    const run = figures([await runClients(bench.watched, chains, step, DURATION)]);
    // Rotation is real: the latest token works once, and presenting it again is refused.
    const chain = chains.find((c) => c.token !== undefined)!;
    const first = await refresh(chain.browser.connection, chain.user.realm, clientId, chain.token!);
    const reuse = await refresh(chain.browser.connection, chain.user.realm, clientId, chain.token!);
    const rotationCheck = {
      firstUse: first.status,
      reuse: reuse.status,
      reuseError: (JSON.parse(reuse.body) as { error?: string }).error ?? '',
      ok: first.status === 200 && reuse.status === 400,
    };
    return { ...run, rotationCheck };
  } finally {
    closeAll(chains.map((c) => c.browser));
  }
}
