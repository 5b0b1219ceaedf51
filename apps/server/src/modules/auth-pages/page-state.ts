import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_PAGE_LANGUAGES,
  LANGUAGE_COOKIE,
  type AuthPageLanguage,
  type AuthPageName,
  type AuthPageState,
} from '@tc/contract/auth-page';
import type { TenantInfo } from '@tc/contract/identity';
import { CLIENT_ID } from '@tc/contract/permissions';
import { hostedSignInPath } from '@tc/contract/links';
import { SIGN_IN_STEP_PATHS } from '@tc/contract/sign-in-steps';
import type { AppContext } from '../../app-context';
import { AppError } from '../../http/problem';
import { identifyTenant } from '../tenants';
import { z } from 'zod';
import { formTokenOf } from './form-guard';
import { callInside } from './inside-call';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

const supported = (tag: unknown): AuthPageLanguage | undefined => {
  if (typeof tag !== 'string') return undefined;
  const primary = tag.trim().toLowerCase().split('-')[0];
  return AUTH_PAGE_LANGUAGES.find((language) => language === primary);
};

/**
 * The first supported language of an Accept-Language header, by its weights. Split, never
 * matched by a pattern: the header is the client's, of any length.
 */
export function preferredLanguage(header: string | undefined): AuthPageLanguage | undefined {
  const ranges = (header ?? '')
    .slice(0, 1000)
    .split(',')
    .map((range, index) => {
      const [tag, ...params] = range.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: supported(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((range) => range.language !== undefined && range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges[0]?.language;
}

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The language of a page: one chosen on the page (`?lang=`, then kept in a cookie the console
 * also writes), else the one an application asked for (`ui_locales`), else the browser's.
 */
export function pageLanguage(
  request: FastifyRequest,
  reply: FastifyReply,
  asked?: string | null,
): AuthPageLanguage {
  const chosen = supported(
    (request.query as Record<string, unknown> | undefined)?.['lang'] as string,
  );
  if (chosen) {
    reply.header(
      'set-cookie',
      `${LANGUAGE_COOKIE}=${chosen}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax`,
    );
    return chosen;
  }
  const fromApplication = asked?.split(' ').map(supported).find(Boolean);
  return (
    supported(cookieValue(request, LANGUAGE_COOKIE)) ??
    fromApplication ??
    preferredLanguage(request.headers['accept-language']) ??
    'en'
  );
}

/** The tenant served at this address; null where there is none (the page says so). */
export async function tenantOfAddress(
  ctx: AppContext,
  request: FastifyRequest,
  tenantId?: string,
): Promise<TenantInfo | null> {
  try {
    return await identifyTenant(ctx.db, {
      tenantIdHeader: tenantId,
      hostname: request.hostname,
      publicHost: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
      googleClientId: ctx.config.googleClientId,
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** The state every page starts from: its name, address, language and tenant. */
export async function basePageState(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  page: AuthPageName,
): Promise<AuthPageState> {
  return {
    page,
    url: request.url,
    language: pageLanguage(request, reply),
    tenant: await tenantOfAddress(ctx, request),
    formToken: formTokenOf(reply),
  };
}

/** A hosted page's address: a realm and the uid of an application's sign-in request. */
const pathPart = z
  .string()
  .min(1)
  .max(100)
  // The parts are put into the address of the steps' routes: a dot segment would lead elsewhere.
  .refine((part) => part !== '.' && part !== '..');
const hostedPageParams = z.object({ realm: pathPart, uid: pathPart });

/** The hosted sign-in page's route options (shown and posted). */
export const hostedPageRoute = {
  schema: { params: hostedPageParams, hide: true },
  config: { page: 'hostedSignIn' as const },
};

const hostedDetails = z.object({
  tenantId: z.string(),
  clientId: z.string().nullable(),
  loginHint: z.string().nullable(),
  uiLocales: z.string().nullable(),
  passkeys: z.boolean(),
});

/**
 * The page of an application's sign-in request: its details as the page's script would ask
 * for them (the request's tenant, language, login hint, passkeys), or the request expired. A
 * request the console made itself (a sign-in posted without script) shows the console's page.
 */
export async function hostedPageState(
  app: FastifyInstance,
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  realm: string,
  uid: string,
): Promise<AuthPageState> {
  const answer = await callInside(app, request, {
    method: 'GET',
    url: `${hostedSignInPath(realm, uid)}${SIGN_IN_STEP_PATHS.details}`,
  });
  const found = answer.status === 200 ? hostedDetails.safeParse(answer.body) : undefined;
  if (!found?.success) {
    return {
      page: 'hostedSignIn',
      url: request.url,
      language: pageLanguage(request, reply),
      tenant: null,
      hosted: { realm, uid, loginHint: null, passkeys: false, expired: true },
      formToken: formTokenOf(reply),
    };
  }
  const details = found.data;
  return {
    page: details.clientId === CLIENT_ID ? 'signIn' : 'hostedSignIn',
    url: request.url,
    language: pageLanguage(request, reply, details.uiLocales),
    tenant: await tenantOfAddress(ctx, request, details.tenantId),
    hosted: { realm, uid, loginHint: details.loginHint, passkeys: details.passkeys },
    formToken: formTokenOf(reply),
  };
}
