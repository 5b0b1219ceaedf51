import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { forgetRequests, recordRequests, server } from './server';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// The data grid takes seconds to render on a busy two-core runner; the default second of
// findBy/waitFor failed tests whose screens were only slow.
configure({ asyncUtilTimeout: 5_000 });

// A request no test expected is a bug in the test or the screen, not something to ignore.
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  recordRequests();
});
afterEach(() => {
  server.resetHandlers();
  forgetRequests();
});
afterAll(() => server.close());
