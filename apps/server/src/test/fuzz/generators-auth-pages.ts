import fc from 'fast-check';
import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import { HOSTED_SIGN_IN_PATH } from '@tc/contract/links';
import { emailAt, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { formBody, fuzzRequest, headers, query } from './http-parts';
import type { FuzzWorld } from './world';

const PAGE_PATHS = [...Object.values(AUTH_PAGE_PATHS), HOSTED_SIGN_IN_PATH];
/** The routes of the sign-in pages, which answer by making other routes' requests inside. */
export const AUTH_PAGE_ROUTE_KEYS: ReadonlySet<string> = new Set(
  PAGE_PATHS.flatMap((path) => [`GET ${path}`, `POST ${path}`]),
);

/**
 * The sign-in pages (rendered with their state) and their forms posted without script: the
 * console's sign-in, sign-up, forgot and new password, with the pages' own fields, near-valid
 * values and anything else.
 */
export function authPageGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { tenant, victim, formPass } = world;
  // Mostly a browser that opened the page (its form cookie), sometimes none or another's.
  const browser = fc.oneof(
    headers({ accept: 'text/html', 'accept-language': 'de-CH, fr;q=0.8', cookie: formPass.cookie }),
    headers({ cookie: `tc_lang=it; ${formPass.cookie}` }),
    headers({}),
  );
  // The page's form token, usually; or none, or anything else.
  const token = fc.oneof(
    { arbitrary: fc.constant(formPass.token), weight: 4 },
    { arbitrary: typedText(60), weight: 1 },
  );
  const email = fc.oneof(fc.constant(victim.email), emailAt(tenant.domain), typedText(30));
  const password = fc.oneof(fc.constant(victim.password), typedText(20));
  const onOrNot = fc.constantFrom('on', 'off', '');
  const pageQuery = query(['lang', 'token', 'email']);
  const post = (path: string, fields: fc.Arbitrary<Record<string, string>>) =>
    fuzzRequest({
      method: 'POST',
      path: fc.constant(path),
      headers: browser,
      body: formBody(
        fc
          .tuple(fields, fc.option(token, { freq: 5 }))
          .map(([form, sent]) => (sent === null ? form : { ...form, [formPass.field]: sent })),
      ),
    });
  const pages = Object.values(AUTH_PAGE_PATHS).map((path) => [
    `GET ${path}`,
    fuzzRequest({ method: 'GET', path: fc.constant(path), query: pageQuery, headers: browser }),
  ]);

  return {
    ...Object.fromEntries(pages),
    [`POST ${AUTH_PAGE_PATHS.signIn}`]: post(
      AUTH_PAGE_PATHS.signIn,
      fc.record(
        { username: email, password, remember: onOrNot, code: typedText(10) },
        { requiredKeys: [] },
      ),
    ),
    [`POST ${AUTH_PAGE_PATHS.signUp}`]: post(
      AUTH_PAGE_PATHS.signUp,
      fc.record(
        {
          fullName: typedText(40),
          email,
          password,
          repeat: password,
          terms: onOrNot,
        },
        { requiredKeys: [] },
      ),
    ),
    [`POST ${AUTH_PAGE_PATHS.forgotPassword}`]: post(
      AUTH_PAGE_PATHS.forgotPassword,
      fc.record({ email }, { requiredKeys: [] }),
    ),
    [`POST ${AUTH_PAGE_PATHS.newPassword}`]: post(
      AUTH_PAGE_PATHS.newPassword,
      fc.record(
        {
          token: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), typedText(50)),
          password,
          confirm: password,
        },
        { requiredKeys: [] },
      ),
    ),
  };
}
