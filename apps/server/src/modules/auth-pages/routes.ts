import type { FastifyInstance } from 'fastify';
import { AUTH_PAGE_PATHS, type AuthPageName } from '@tc/contract/auth-page';
import { HOSTED_SIGN_IN_PATH } from '@tc/contract/links';
import type { AppContext } from '../../app-context';
import { findWebDist } from '../../http/static-web';
import { registerAccountPosts } from './account-posts';
import { consentPageOr } from './consent-page';
import { registerFormGuard } from './form-guard';
import { answerPageError } from './page-errors';
import { basePageState, hostedPageRoute, hostedPageState } from './page-state';
import { loadAuthPageRenderer } from './renderer';
import { registerSignInPosts } from './sign-in-posts';

/**
 * The sign-in pages, rendered here with the state their script starts from, so each shows
 * and works — its forms post here — before, or without, its script.
 */
export async function authPageRoutes(
  app: FastifyInstance,
  { ctx, webDist = findWebDist() }: { ctx: AppContext; webDist?: string | null | undefined },
) {
  const renderer = await loadAuthPageRenderer(webDist ?? undefined);
  // A request refused before its handler (a body of another type, too large, a bad address)
  // is answered with its page too, showing why.
  app.setErrorHandler(answerPageError(ctx, renderer));
  await registerFormGuard(app);

  for (const [page, path] of Object.entries(AUTH_PAGE_PATHS) as [AuthPageName, string][]) {
    app.get(path, { schema: { hide: true }, config: { page } }, async (request, reply) =>
      renderer.send(reply, await basePageState(ctx, request, reply, page)),
    );
  }

  app.get(HOSTED_SIGN_IN_PATH, hostedPageRoute, async (request, reply) => {
    const { realm, uid } = request.params as { realm: string; uid: string };
    const state = await hostedPageState(app, ctx, request, reply, realm, uid);
    // The application's request is shown with its own page, whoever made it: its sign-in, or
    // its consent page once the user is signed in.
    const shown = await consentPageOr(app, request, { ...state, page: 'hostedSignIn' });
    return renderer.send(reply, shown);
  });

  registerSignInPosts(app, ctx, renderer);
  registerAccountPosts(app, ctx, renderer);
}
