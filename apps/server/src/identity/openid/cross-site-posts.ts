import type { FastifyInstance } from 'fastify';
import { isCrossSite } from '../../http/cross-site';
import { OAuthError } from '../oauth-error';
import { crossSiteSignOutPageOf } from './pages';
import { OPENID_ROUTES } from './provider';
import { STEPS_BASE } from './sign-in-step-kit';

/**
 * The posts a browser makes with its cookies alone — the hosted sign-in's steps (the
 * interaction cookie names the sign-in) and the sign-out confirmation (the session cookie) —
 * are refused when the browser says another site sent them (Fetch Metadata, Origin): a page
 * elsewhere cannot sign the browser in as someone else, or out. The provider's other
 * endpoints are for applications of any origin (the token endpoint, CORS) and stay open.
 */
export function refuseCrossSitePosts(app: FastifyInstance) {
  const confirmRoute = `/realms/:realm${OPENID_ROUTES.end_session}/confirm`;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'POST' || !isCrossSite(request)) return;
    const route = request.routeOptions.url ?? '';
    if (route === confirmRoute) {
      const realm = (request.params as { realm?: string }).realm ?? '';
      const { headers, html, language } = crossSiteSignOutPageOf(
        request.headers['accept-language'],
        `/realms/${encodeURIComponent(realm)}${OPENID_ROUTES.end_session}`,
      );
      return reply
        .code(403)
        .headers({ ...headers, 'content-language': language })
        .type('text/html; charset=utf-8')
        .send(html);
    }
    if (route.startsWith(STEPS_BASE)) {
      throw new OAuthError(403, 'access_denied', 'This request was sent from another site.');
    }
  });
}
