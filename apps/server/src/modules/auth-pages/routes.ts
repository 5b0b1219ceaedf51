import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AUTH_PAGE_PATHS, type AuthPageName } from '@tc/contract/auth-page';
import type { AppContext } from '../../app-context';
import { findWebDist } from '../../http/static-web';
import { registerAccountPosts } from './account-posts';
import { basePageState, hostedPageState } from './page-state';
import { loadAuthPageRenderer } from './renderer';
import { registerSignInPosts } from './sign-in-posts';

const pageQuery = z.object({ lang: z.string().max(20).optional() }).passthrough();

/**
 * The sign-in pages, rendered here with the state their script starts from, so each shows
 * and works — its forms post here — before, or without, its script. Registered only where
 * the web console is built with its sign-in page; elsewhere the console serves every page.
 */
export async function authPageRoutes(
  app: FastifyInstance,
  { ctx, webDist = findWebDist() }: { ctx: AppContext; webDist?: string | null | undefined },
) {
  const renderer = await loadAuthPageRenderer(webDist ?? undefined);
  if (!renderer) return;

  for (const [page, path] of Object.entries(AUTH_PAGE_PATHS) as [AuthPageName, string][]) {
    app.get(path, { schema: { querystring: pageQuery, hide: true } }, async (request, reply) =>
      renderer.send(reply, await basePageState(ctx, request, reply, page)),
    );
  }

  app.get(
    '/login-actions/:realm/:uid',
    {
      schema: {
        params: z.object({ realm: z.string().min(1).max(100), uid: z.string().min(1).max(100) }),
        querystring: pageQuery,
        hide: true,
      },
    },
    async (request, reply) => {
      const { realm, uid } = request.params as { realm: string; uid: string };
      const state = await hostedPageState(app, ctx, request, reply, realm, uid);
      // The application's request is shown with its own page, whoever made it.
      return renderer.send(reply, { ...state, page: 'hostedSignIn' });
    },
  );

  registerSignInPosts(app, ctx, renderer);
  registerAccountPosts(app, ctx, renderer);
}
