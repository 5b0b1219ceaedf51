import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountRoutes as routes } from '@tc/contract/routes/account';
import type { AppContext } from '../../app-context';
import { callerOf } from '../../http/auth-guard';
import { registerRoute } from '../../http/register-route';
import { requestOrigin } from '../../identity/second-factor/relying-party';
import {
  passkeyRegistrationOptions,
  registerPasskey,
  removeOwnPasskey,
  renameOwnPasskey,
} from './passkey-registration';
import { registerApplicationRoutes } from './applications';
import { changePassword } from './password';
import { requireRecentProof, reverify, reverifyOptions } from './reverification';
import {
  bySelf,
  confirmTotp,
  deleteTotp,
  getProfile,
  regenerateRecoveryCodes,
  secondFactorsOf,
  startTotp,
  updateProfile,
  type AccountDeps,
  type AccountUser,
} from './service';
import { listSessions, revokeSessions } from './sessions';

const OK = { data: { ok: true as const } };

/** The signed-in user's own account: profile, password, second factors and sessions. */
export async function accountPageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const deps: AccountDeps = { db: ctx.db, config: ctx.config, mfaSecrets: ctx.mfaSecrets };
  const userOf = (request: FastifyRequest): AccountUser => {
    const caller = callerOf(request);
    return {
      tenantId: caller.tenantId,
      userId: caller.userId,
      email: caller.email,
      permissions: caller.permissions,
      sessionId: caller.sessionId,
    };
  };
  const language = (request: FastifyRequest) => {
    const header = request.headers['accept-language'];
    return typeof header === 'string' ? header : undefined;
  };

  registerRoute(app, routes.profile, async (request) => ({
    data: await getProfile(ctx.db, userOf(request)),
  }));
  registerRoute(app, routes.updateProfile, async (request) => ({
    data: await updateProfile(ctx.db, userOf(request), request.body),
  }));
  registerRoute(app, routes.changePassword, async (request) => {
    await changePassword(deps, userOf(request), {
      ...request.body,
      acceptLanguage: language(request),
    });
    ctx.mail.nudge();
    return OK;
  });

  // A factor added, replaced or removed, or recovery codes shown: only with a recent proof
  // (docs/decisions/0018-recent-proof-for-account-security.md), whatever the token.
  const recentUserOf = async (request: FastifyRequest): Promise<AccountUser> => {
    const user = userOf(request);
    await requireRecentProof(deps, user);
    return user;
  };
  registerRoute(app, routes.reverifyOptions, async (request) => ({
    data: { options: await reverifyOptions(deps, userOf(request), requestOrigin(request)) },
  }));
  registerRoute(app, routes.reverify, async (request) => {
    await reverify(deps, userOf(request), request.body, {
      origin: requestOrigin(request),
      acceptLanguage: language(request),
    });
    ctx.mail.nudge();
    return OK;
  });

  registerRoute(app, routes.secondFactors, async (request) => {
    const user = userOf(request);
    return { data: await secondFactorsOf(ctx.db, user, user.permissions) };
  });
  registerRoute(app, routes.totpSetup, async (request) => ({
    data: await startTotp(deps, await recentUserOf(request)),
  }));
  registerRoute(app, routes.totpConfirm, async (request) => {
    const recoveryCodes = await confirmTotp(deps, await recentUserOf(request), {
      code: request.body.code,
      acceptLanguage: language(request),
    });
    ctx.mail.nudge();
    return { data: { recoveryCodes } };
  });
  registerRoute(app, routes.totpRemove, async (request) => {
    await deleteTotp(deps, await recentUserOf(request), language(request));
    ctx.mail.nudge();
    return OK;
  });
  registerRoute(app, routes.recoveryCodes, async (request) => ({
    data: { recoveryCodes: await regenerateRecoveryCodes(deps, await recentUserOf(request)) },
  }));

  registerRoute(app, routes.passkeyOptions, async (request) => ({
    data: {
      options: await passkeyRegistrationOptions(
        deps,
        await recentUserOf(request),
        requestOrigin(request),
      ),
    },
  }));
  registerRoute(app, routes.passkeyRegister, async (request) => {
    const passkey = await registerPasskey(deps, await recentUserOf(request), {
      ...request.body,
      acceptLanguage: language(request),
    });
    ctx.mail.nudge();
    return { data: passkey };
  });
  registerRoute(app, routes.passkeyRename, async (request) => ({
    data: await renameOwnPasskey(deps, userOf(request), {
      id: request.params.id,
      name: request.body.name,
    }),
  }));
  registerRoute(app, routes.passkeyRemove, async (request) => {
    await removeOwnPasskey(deps, await recentUserOf(request), {
      id: request.params.id,
      acceptLanguage: language(request),
    });
    ctx.mail.nudge();
    return OK;
  });

  // Ending a session is a write of the caller's tenant: the write tracking counts it as a
  // change once answered, so the ended session's access tokens fail at the next request.
  registerRoute(app, routes.sessions, async (request) => {
    const user = userOf(request);
    return { data: await listSessions(ctx.db, user, user.sessionId) };
  });
  registerRoute(app, routes.revokeSession, async (request) => {
    const user = userOf(request);
    const which = { only: request.params.id };
    return { data: { revoked: await revokeSessions(ctx.db, bySelf(user), which) } };
  });
  registerRoute(app, routes.revokeOtherSessions, async (request) => {
    const user = userOf(request);
    const which = { allBut: user.sessionId };
    return { data: { revoked: await revokeSessions(ctx.db, bySelf(user), which) } };
  });

  registerApplicationRoutes(app, ctx);
}
