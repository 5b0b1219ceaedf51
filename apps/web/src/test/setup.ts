import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { forgetRequests, recordRequests, server } from './server';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

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
