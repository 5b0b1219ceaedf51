import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from './lib/api-client';
import { i18nReady } from './lib/i18n';
import { identifyTenantQuery } from './lib/identify-tenant';
import { getRealm } from './lib/tenant-store';
import { App } from './app/app';
import { queryClient } from './app/query-client';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// Importing the app created its router, which has started loading the current address's screen
// (code, texts and first rows). The tenant check starts now too, while the translations load,
// not after a first commit; in a task of its own, so the one that evaluates the scripts is not
// made longer by it (the request itself left with the page: index.html preloads it).
const tenantChecked = new Promise((resolve) => setTimeout(resolve)).then(() =>
  queryClient.prefetchQuery(identifyTenantQuery()),
);

// The access token lives in memory only: a stored refresh token is exchanged for one before
// the screens render, so the guards see the session instead of sending the user to sign-in.
// The realm comes from the tenant cached by an earlier visit; a first visit waits for the check.
const sessionRestored = getRealm() ? restoreSession() : tenantChecked.then(restoreSession);

// A transition render yields to the browser every few milliseconds instead of blocking it for
// the whole first render; until it commits, index.html's static "Verifying tenant..." stays.
// React renders once the tenant check has settled: the screen that follows it then renders in
// this transition too, not in the synchronous update the query's answer would otherwise cause.
const render = () =>
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
// A missing translation chunk falls back to English rather than leaving the start screen up.
void Promise.allSettled([i18nReady, tenantChecked, sessionRestored]).then(render);
